"""Project settings: `[tool.mcp-contracts]` in the nearest pyproject.toml, then flags.

Like black, ruff and datamodel-code-generator, the configuration lives in
`pyproject.toml`, found by walking up from the working folder; its paths are relative
to that file, so every command does the same from any subfolder of the project. Without
a section, the project root is the nearest folder holding a pyproject.toml or `.git`
(else the working folder) and the defaults apply there. Flags override the file.
"""

from __future__ import annotations

import difflib
import keyword
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, display_path

SECTION = "mcp-contracts"
PYPROJECT = "pyproject.toml"
DEFAULT_PACKAGE = "contracts"


@dataclass(frozen=True)
class Limits:
    """How much any one input may cost; `[tool.mcp-contracts.limits]` sets each."""

    source_bytes: int = 2_000_000  # a source file: YAML, JSON, example, module
    yaml_nodes: int = 100_000  # the nodes of a YAML file, its aliases expanded
    source_depth: int = 64  # arrays and objects inside each other in a source file
    document_bytes: int = 64_000_000  # a document `validate` reads
    document_depth: int = 200  # arrays and objects inside each other in such a document


LIMIT_KEYS = {
    "source_bytes": "the size of one source file",
    "yaml_nodes": "the nodes of one YAML file, its aliases expanded",
    "source_depth": "how deep arrays and objects nest in one source file",
    "document_bytes": "the size of one document `validate` reads",
    "document_depth": "how deep arrays and objects nest in one document `validate` reads",
}


# key -> what its value is, for messages
KEYS = {
    "schemas": "the folder of canonical sources (default: schemas)",
    "output": "the folder `generate` writes (default: generated)",
    "package": f"the import package of the generated Python (default: {DEFAULT_PACKAGE})",
    "templates": "a folder of templates that override built-in ones by path",
    "languages": 'the languages `generate` writes: ["python"] (the default) or ["python", "typescript"]',
    "limits": f"a table of limits: {', '.join(LIMIT_KEYS)}",
    "rules": "a table of rule IDs set to error, warning, note or off (the docs page of the rules lists them)",
    "breaking": "a table: `against`, the revision `breaking` compares with by default (merge-base, last-tag,"
    " or a git revision), and `branch`, the branch merge-base looks for",
}
BREAKING_KEYS = {
    "against": "merge-base (with `branch`), last-tag, or a git revision (default: merge-base)",
    "branch": 'the branch whose merge-base with HEAD `against = "merge-base"` takes'
    " (default: the first of origin/HEAD, origin/main, origin/master, main, master that exists)",
}
PACKAGE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# The languages `generate` can write. Python is always among them: `validate`, `mock` and
# `conform` judge with its package.
LANGUAGES = ("python", "typescript")


@dataclass(frozen=True)
class Settings:
    """Where the sources and outputs are, and what the generated package is called."""

    root: Path
    schemas: Path
    output: Path
    package: str
    templates: Path | None
    config: Path | None  # the pyproject.toml they came from, when one has the section
    limits: Limits = Limits()
    rules: tuple[tuple[str, str], ...] = ()  # rule ID -> level or off, for every contract
    against: str = "merge-base"  # what `breaking` compares with when --against is not given
    branch: str | None = None  # the branch `against = "merge-base"` looks for
    languages: tuple[str, ...] = ("python",)  # in LANGUAGES' order

    def with_flags(
        self,
        *,
        schemas: Path | None = None,
        output: Path | None = None,
        package: str | None = None,
        templates: Path | None = None,
    ) -> Settings:
        """These settings with each flag that was given in place of the file's value."""
        changes: dict[str, Any] = {
            key: value
            for key, value in (("schemas", schemas), ("output", output), ("package", package), ("templates", templates))
            if value is not None
        }
        return replace(self, **changes)


def _has_section(path: Path) -> bool:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return isinstance(data.get("tool"), dict) and SECTION in data["tool"]


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml with a `[tool.mcp-contracts]` section, from `start` up."""
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        if candidate.is_file() and _has_section(candidate):
            return candidate
    return None


def project_root(start: Path) -> Path:
    """The nearest folder holding a pyproject.toml or `.git`; `start` when there is none."""
    for folder in (start, *start.parents):
        if (folder / PYPROJECT).is_file() or (folder / ".git").exists():
            return folder
    return start


def _line_of(text: str, key: str, section: str = SECTION) -> int | None:
    """The line of `key = ...` inside the section: tomllib does not keep positions."""
    in_section = False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            in_section = stripped.replace(" ", "").replace('"', "") == f"[tool.{section}]"
        elif in_section and re.match(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", line):
            return number
    return None


def _problems(section: Any, path: Path, text: str) -> list[Diagnostic]:
    where = display_path(path)
    if not isinstance(section, dict):
        return [Diagnostic(where, None, None, f"[tool.{SECTION}] must be a table")]
    problems = []
    for key, value in section.items():
        line = _line_of(text, key)
        if key not in KEYS:
            close = difflib.get_close_matches(key, KEYS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(KEYS)}"
            problems.append(Diagnostic(where, line, None, f"unknown key {key!r} in [tool.{SECTION}]{hint}"))
        elif key == "limits":
            problems += _table_problems("limits", value, where, text, _limit_problem)
        elif key == "rules":
            problems += _table_problems("rules", value, where, text, _rule_problem)
        elif key == "breaking":
            problems += _table_problems("breaking", value, where, text, _breaking_problem)
        elif key == "languages":
            said = _languages_problem(value)
            problems += [Diagnostic(where, line, None, said)] if said else []
        elif not isinstance(value, str) or not value:
            problems.append(Diagnostic(where, line, None, f"{key!r} must be a non-empty string: {KEYS[key]}"))
        elif key == "package" and (not PACKAGE_NAME.match(value) or keyword.iskeyword(value)):
            problems.append(Diagnostic(where, line, None, f"{value!r} is not a Python package name"))
    return problems


def _table_problems(
    name: str, table: Any, where: str, text: str, problem: Callable[[str, Any], str | None]
) -> list[Diagnostic]:
    """The problems of the table `[tool.mcp-contracts.NAME]`: `problem` says what is wrong
    with one key and its value (None: nothing), each at the key's line."""
    if not isinstance(table, dict):
        return [Diagnostic(where, _line_of(text, name), None, f"{name!r} must be a table")]
    found = ((key, problem(key, value)) for key, value in table.items())
    return [Diagnostic(where, _line_of(text, key, f"{SECTION}.{name}"), None, said) for key, said in found if said]


def _languages_problem(value: Any) -> str | None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return f"'languages' must be a list of strings: {KEYS['languages']}"
    unknown = [item for item in value if item not in LANGUAGES]
    if unknown:
        return f"unknown language {unknown[0]!r} in 'languages'; known: {', '.join(LANGUAGES)}"
    if len(set(value)) != len(value):
        return "'languages' names a language twice"
    if "python" not in value:
        return "'languages' must include \"python\": validate, mock and conform judge with its package"
    return None


def _limit_problem(key: str, value: Any) -> str | None:
    if key not in LIMIT_KEYS:
        close = difflib.get_close_matches(key, LIMIT_KEYS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; known limits: {', '.join(LIMIT_KEYS)}"
        return f"unknown limit {key!r}{hint}"
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        return f"limit {key!r} must be a positive integer"
    return None


def _rule_problem(key: str, value: Any) -> str | None:
    from .rules import BY_ID, SETTINGS  # data only
    from .rules.common import FIXED

    if key not in BY_ID or key in FIXED:
        close = difflib.get_close_matches(key, BY_ID, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else " (the docs page of the rules lists them)"
        return f"unknown rule {key!r}{hint}"
    if value not in SETTINGS:
        return f"rule {key!r} must be one of {', '.join(SETTINGS)}"
    return None


def _breaking_problem(key: str, value: Any) -> str | None:
    if key not in BREAKING_KEYS:
        return f"unknown key {key!r}; known keys: {', '.join(BREAKING_KEYS)}"
    if not isinstance(value, str) or not value or value.startswith("-"):
        return f"{key!r} must be a non-empty string: {BREAKING_KEYS[key]}"
    return None


def load_settings(start: Path | None = None) -> Settings | list[Diagnostic]:
    """The settings of the project around `start` (the working folder by default)."""
    here = (start or Path.cwd()).resolve()
    config = find_config(here)
    if config is None:
        root = project_root(here)
        return Settings(root, root / "schemas", root / "generated", DEFAULT_PACKAGE, None, None)
    text = config.read_text(encoding="utf-8")
    section = tomllib.loads(text)["tool"][SECTION]
    problems = _problems(section, config, text)
    if problems:
        return problems
    root = config.parent
    templates = section.get("templates")
    return Settings(
        root=root,
        schemas=root / section.get("schemas", "schemas"),
        output=root / section.get("output", "generated"),
        package=section.get("package", DEFAULT_PACKAGE),
        templates=root / templates if templates else None,
        config=config,
        limits=Limits(**section.get("limits", {})),
        rules=tuple(sorted(section.get("rules", {}).items())),
        against=section.get("breaking", {}).get("against", "merge-base"),
        branch=section.get("breaking", {}).get("branch"),
        languages=tuple(language for language in LANGUAGES if language in section.get("languages", ["python"])),
    )


def section_text(package: str = DEFAULT_PACKAGE) -> str:
    """The section `init` adds to a project that has none."""
    return f'\n[tool.{SECTION}]\nschemas = "schemas"\noutput = "generated"\npackage = "{package}"\n'


def package_problem(package: str) -> str | None:
    """Why `package` cannot name the generated package, if it cannot."""
    if not PACKAGE_NAME.match(package) or keyword.iskeyword(package):
        return f"{package!r} is not a Python package name"
    return None
