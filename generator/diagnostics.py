"""Problems found in the sources, as values.

Every stage collects `Diagnostic`s instead of raising on the first problem, so that a
user sees every mistake in one run. Each names the file and a location inside it: a
line for YAML and JSON syntax, a JSON pointer for a place in a document.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .files import is_project_root
from .schema.pointer import encode


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
        return printable(f"{where}: {self.message}")  # one line, whatever a name holds


@dataclass(frozen=True, slots=True)
class Refused:
    """Why a value could not be had, where no source file is to blame: `X | Refused` is the one
    "value or why not" (a `Diagnostic` is the one of a source file), tested with isinstance."""

    message: str

    def __str__(self) -> str:
        return self.message


def display_path(path: Path) -> str:
    """A path as the user should read it: relative to the working folder when both are in
    one project (`../generated` from `src/`), else as given."""
    here = working_folder()
    if here is None:
        return printable(path.as_posix())
    # The path as written, not where a symlink leads: a link out of the project is named by
    # its own place in the project, relative like every other file.
    target = Path(os.path.normpath(path.absolute()))
    roots = (f for f in (here, *here.parents) if is_project_root(f))
    project = next(roots, here)
    if target != project and project not in target.parents:
        return printable(path.as_posix())
    return printable(Path(os.path.relpath(target, here)).as_posix())


# Control characters (C0, DEL, C1), the Unicode line and paragraph separators, and the
# surrogates by which Python holds the bytes of a name that is not UTF-8.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    """`text` with every character that would break a line, move the cursor or fail to
    print escaped as Python writes it (`\\n`, `\\x1b`; a byte that is not UTF-8 as `\\xff`):
    a file may be called anything, and its name is shown on one line."""
    return _UNPRINTABLE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    character = match.group()
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's escape of a byte that is not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    return _NAMED.get(character) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


# A URL inside a text: a scheme, `://`, then anything up to a space or a quote.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]+")
HIDDEN = "***"


def shown_url(url: str) -> str:
    """`url` as a message or a report shows it: without the user name, password, query and
    fragment it may carry (`http://user:PW@host/mcp?token=Q` is `http://***@host/mcp?***`),
    and printable. Whatever is removed is marked, so the reader knows there was something."""
    scheme, colon_slashes, rest = url.partition("://")
    if not colon_slashes:
        return printable(url)
    end = min((i for i in (rest.find(c) for c in "/?#") if i != -1), default=len(rest))
    authority, path = rest[:end], rest[end:]
    if "@" in authority:
        authority = f"{HIDDEN}@{authority.rpartition('@')[2]}"
    cut = min((i for i in (path.find(c) for c in "?#") if i != -1), default=-1)
    if cut != -1:
        path = f"{path[:cut]}{path[cut]}{HIDDEN}"
    return printable(f"{scheme}://{authority}{path}")


def without_secrets(text: str) -> str:
    """`text` (an error's words, a server's) with every URL in it as `shown_url` shows it, printable."""
    return printable(_URL.sub(lambda found: shown_url(found.group()), text))


def working_folder() -> Path | None:
    """The working folder, resolved; None when it is gone (`generate` run inside the output
    folder replaces it: the process then stands in a removed folder)."""
    try:
        return Path.cwd().resolve()
    except FileNotFoundError:
        return None


# A diagnostic's pointer, written by the schema core's one encoder.
json_pointer = encode
