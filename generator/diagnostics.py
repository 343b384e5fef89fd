"""Problems found in the sources, as values.

Every stage collects `Diagnostic`s instead of raising on the first problem, so that a
user sees every mistake in one run. Each names the file and a location inside it: a
line for YAML and JSON syntax, a JSON pointer for a place in a document.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in one source file."""

    file: str
    line: int | None
    pointer: str | None
    message: str

    def sort_key(self) -> tuple[str, int, str, str]:
        """File, then line, then pointer: a diagnostic may lack either."""
        return (self.file, self.line or 0, self.pointer or "", self.message)

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.pointer is not None:
            where += f"#{self.pointer}"
        return f"{where}: {self.message}"


def display_path(path: Path) -> str:
    """A path as the user should read it: relative to the working folder when both are in
    one project (`../generated` from `src/`), else as given."""
    here = working_folder()
    if here is None:
        return path.as_posix()
    target = path.resolve()
    roots = (f for f in (here, *here.parents) if (f / "pyproject.toml").is_file() or (f / ".git").exists())
    project = next(roots, here)
    if target != project and project not in target.parents:
        return path.as_posix()
    return Path(os.path.relpath(target, here)).as_posix()


def working_folder() -> Path | None:
    """The working folder, resolved; None when it is gone (`generate` run inside the output
    folder replaces it: the process then stands in a removed folder)."""
    try:
        return Path.cwd().resolve()
    except FileNotFoundError:
        return None


def json_pointer(parts: object) -> str:
    """RFC 6901 pointer for a sequence of keys and indexes ("" is the whole document)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)  # type: ignore[attr-defined]
