"""Project settings: `[tool.mcp-contracts]` in the nearest pyproject.toml, then flags.

Like black, ruff and datamodel-code-generator, the configuration lives in
`pyproject.toml`, found by walking up from the working folder; its paths are relative
to that file, so every command does the same from any subfolder of the project. Without
a section, the project root is the nearest folder holding a pyproject.toml or `.git`
(else the working folder) and the defaults apply there. Flags override the file.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, display_path
from .files import is_project_root
from .package_names import DISTRIBUTION_NAME as DISTRIBUTION_NAME
from .package_names import FALLBACK_PACKAGE, NPM_VERSION, Naming, is_version, naming_of
from .package_names import package_problem as package_problem

SECTION = "mcp-contracts"
PYPROJECT = "pyproject.toml"
# The package where the project names none (no `[project] name`, no contract): package_names.py.
DEFAULT_PACKAGE = FALLBACK_PACKAGE


@dataclass(frozen=True)
class Limits:
    """How much any one input may cost; `[tool.mcp-contracts.limits]` sets each."""

    source_bytes: int = 2_000_000  # a source file: YAML, JSON, example, module
    yaml_nodes: int = 100_000  # the nodes of a YAML file, its aliases expanded
    source_depth: int = 64  # arrays and objects inside each other in a source file
    document_bytes: int = 64_000_000  # a document `validate` reads
    document_depth: int = 200  # arrays and objects inside each other in such a document
    message_bytes: int = 16 * 1024 * 1024  # one message from a server `conform` or `import` talks to
    server_bytes: int = 256 * 1024 * 1024  # every message from one server, summed over one `conform` or `import`
    server_seconds: int = 600  # how long one `conform` or `import` talks to its server in all


# The largest value any limit takes: 1 TiB (a byte count no file or answer of this tool nears,
# and far below what a machine indexes; a larger one would overflow `read(limit + 1)`).
LIMIT_MAXIMUM = 2**40

LIMIT_KEYS = {
    "source_bytes": "the size of one source file",
    "yaml_nodes": "the nodes of one YAML file, its aliases expanded",
    "source_depth": "how deep arrays and objects nest in one source file",
    "document_bytes": "the size of one document `validate` reads",
    "document_depth": "how deep arrays and objects nest in one document `validate` reads",
    "message_bytes": "the size of one message from a server `conform` or `import` talks to",
    "server_bytes": "the size of every message from one server, summed over one `conform` or `import`",
    "server_seconds": "how long one `conform` or `import` talks to its server in all, in seconds",
}


# key -> what its value is, for messages
KEYS = {
    "schemas": "the folder of canonical sources (default: schemas)",
    "output": "the folder `generate` writes (default: generated)",
    "package": "the import package of the generated Python (default: `<project>_contracts`)",
    "distribution": "the name pip installs generated/python as, and the npm package's name in npm's spelling"
    " (default: `<project>-contracts`)",
    "distribution_version": "the version of that distribution and of the npm package, as PEP 440 writes one"
    " (MAJOR.MINOR.PATCH with TypeScript among the languages; default: the project's [project] version,"
    " else the first contract's version:)",
    "templates": "a folder of templates that override built-in ones by path",
    "languages": 'the languages `generate` writes: ["python"] (the default), ["typescript"] or both',
    "limits": f"a table of limits: {', '.join(LIMIT_KEYS)}",
    "rules": "a table of rule IDs set to error, warning, note or off (the docs page of the rules lists them)",
    "rules_page": "true to add the page of the tool's rules to the generated docs, docs/rules.md (default: false)",
    "breaking": "a table: `against`, the revision `breaking` compares with by default (merge-base, last-tag,"
    " or a git revision), and `branch`, the branch merge-base looks for",
}
BREAKING_KEYS = {
    "against": "merge-base (with `branch`), last-tag, or a git revision (default: merge-base)",
    "branch": 'the branch whose merge-base with HEAD `against = "merge-base"` takes'
    " (default: the first of origin/HEAD, origin/main, origin/master, main, master that exists)",
}
# The languages `generate` can write, one or both: `validate`, `mock` and `conform` judge with
# the sources' own judge, not with a generated package.
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
    # Whether the docs carry the tool's rules page: off by default, for that page is the tool's,
    # not the project's, and would change the output (and fail `check`) with every upgrade.
    rules_page: bool = False
    # The distribution generated/python is installed as, and the npm package: its name (None:
    # the package's) and version (None: the first contract's `version:`, which the render reads).
    distribution: str | None = None
    distribution_version: str | None = None
    # Whether `output` came from a flag (`--out`, the API's `out_dir`): the person running the
    # command chose it. The file's `output` is the repository's, which a pull request edits.
    output_given: bool = False
    # What the names above follow where the settings file names none (package_names.py):
    # given other sources (`--schemas`), they follow those sources' contracts.
    naming: Naming | None = None

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
        if schemas is not None and self.naming is not None:
            named = self.naming.named(schemas, self.languages)
            changes = {"package": named.package, "distribution": named.distribution, **changes}
            changes["distribution_version"] = named.version
        return replace(self, **changes, output_given=self.output_given or output is not None)


# The header of our section, or of one of its tables, as TOML allows it to be written.
_SECTION_HEADER = re.compile(r"""^\s*\[\s*tool\s*\.\s*["']?""" + re.escape(SECTION) + r"""["']?\s*[.\]]""", re.M)


def _has_section(path: Path) -> bool:
    """Whether the file holds our section; a file that is no TOML but names the section holds
    it too, so that its error is shown rather than the file passed over for the defaults."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return _SECTION_HEADER.search(text) is not None
    return isinstance(data.get("tool"), dict) and SECTION in data["tool"]


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml with a `[tool.mcp-contracts]` section, from `start` up."""
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        if candidate.is_file() and _has_section(candidate):
            return candidate
    return None


def project_root(start: Path) -> Path:
    """The nearest folder holding a pyproject.toml (not the generated package's) or `.git`;
    `start` when there is none."""
    for folder in (start, *start.parents):
        if is_project_root(folder):
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
        elif key == "rules_page":
            flag = isinstance(value, bool)
            problems += [] if flag else [Diagnostic(where, line, None, f"{key!r} must be true or false: {KEYS[key]}")]
        elif not isinstance(value, str) or not value:
            problems.append(Diagnostic(where, line, None, f"{key!r} must be a non-empty string: {KEYS[key]}"))
        elif key == "package" and package_problem(value) is not None:
            problems.append(Diagnostic(where, line, None, str(package_problem(value))))
        elif key == "distribution" and not DISTRIBUTION_NAME.fullmatch(value):
            problems.append(Diagnostic(where, line, None, f"{value!r} is not a distribution name (PEP 508)"))
        elif key == "distribution_version" and not is_version(value):
            problems.append(Diagnostic(where, line, None, f"{value!r} is not a version (PEP 440)"))
        elif key == "distribution_version" and _writes_typescript(section) and not NPM_VERSION.fullmatch(value):
            said = f"{value!r} is no version npm takes: the npm package has this version too, MAJOR.MINOR.PATCH"
            problems.append(Diagnostic(where, line, None, said))
    return problems


def _writes_typescript(section: dict[str, Any]) -> bool:
    languages = section.get("languages")
    return isinstance(languages, list) and "typescript" in languages


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
    if not value:
        return f"'languages' names no language: {KEYS['languages']}"
    return None


def _limit_problem(key: str, value: Any) -> str | None:
    if key not in LIMIT_KEYS:
        close = difflib.get_close_matches(key, LIMIT_KEYS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; known limits: {', '.join(LIMIT_KEYS)}"
        return f"unknown limit {key!r}{hint}"
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= LIMIT_MAXIMUM:
        return f"limit {key!r} must be an integer from 1 to {LIMIT_MAXIMUM:,}"
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
        pyproject = root / PYPROJECT
        naming = naming_of(pyproject if pyproject.is_file() else None, {})
        named = naming.named(root / "schemas", ("python",))
        defaults = Settings(root, root / "schemas", root / "generated", named.package, None, None, naming=naming)
        return replace(defaults, distribution=named.distribution, distribution_version=named.version)
    text = config.read_text(encoding="utf-8")
    try:
        section = tomllib.loads(text)["tool"][SECTION]
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\(at line (\d+), column \d+\)$", str(exc))
        said = str(exc)[: at.start()].strip() if at else str(exc)
        return [Diagnostic(display_path(config), int(at.group(1)) if at else None, None, f"invalid TOML: {said}")]
    problems = _problems(section, config, text)
    if problems:
        return problems
    root = config.parent
    templates = section.get("templates")
    schemas = root / section.get("schemas", "schemas")
    languages = tuple(language for language in LANGUAGES if language in section.get("languages", ["python"]))
    naming = naming_of(config, section)
    named = naming.named(schemas, languages)
    return Settings(
        root=root,
        schemas=schemas,
        output=root / section.get("output", "generated"),
        package=named.package,
        templates=root / templates if templates else None,
        config=config,
        limits=Limits(**section.get("limits", {})),
        rules=tuple(sorted(section.get("rules", {}).items())),
        against=section.get("breaking", {}).get("against", "merge-base"),
        branch=section.get("breaking", {}).get("branch"),
        languages=languages,
        rules_page=section.get("rules_page", False),
        distribution=named.distribution,
        distribution_version=named.version,
        naming=naming,
    )


def section_text(package: str, distribution: str) -> str:
    """The section `init` adds to a project that has none: the names of the generated package
    written out, where a user sees them and may change them."""
    return (
        f'\n[tool.{SECTION}]\nschemas = "schemas"\noutput = "generated"\n'
        f'package = "{package}"  # the import name of the generated Python\n'
        f'distribution = "{distribution}"  # the name pip installs it as, and the npm package\'s\n'
        '# distribution_version = "1.0.0"  # default: [project] version, else the first contract\'s version\n'
        'languages = ["python"]  # or ["typescript"], or ["python", "typescript"]\n'
    )


def guarded_folders(chosen: Settings) -> list[tuple[str, Path]]:
    """The folders of the project that one command each owns, named as a refusal says them:
    the sources, the output (`generate` replaces it whole, `check` compares it) and the
    templates. `docs --site` builds in none of them (site.py), `--report` writes into none
    (findings/report_file.py)."""
    folders = [("the sources folder", chosen.schemas), ("the output folder", chosen.output)]
    if chosen.templates is not None:
        folders.append(("the templates folder", chosen.templates))
    return folders


def output_problem(chosen: Settings) -> Diagnostic | None:
    """Why `generate` may not replace, and `check` may not read, the output folder of `chosen`;
    None when it may. Decided from paths alone, before anything under it is read.

    The output folder is replaced whole, so it may be neither the project root, nor a folder
    above it, nor overlap the sources. It must lie inside the project when the repository
    names it (the file's `output`, or a path of the project that a symlink leads out of): a
    pull request must not point `check` at `/etc` or `generate` at a folder outside. A folder
    outside the project given as `--out` is the choice of whoever runs the command.
    """
    root, out, schemas = chosen.root.resolve(), chosen.output.resolve(), chosen.schemas.resolve()
    written = Path(os.path.abspath(chosen.output))  # as named, symlinks not followed
    inside_as_named = root in written.parents
    if out == root or out in root.parents:
        problem = "the output folder is the project root or a folder above it"
    elif schemas == out or out in schemas.parents or schemas in out.parents:
        problem = "the output folder overlaps the sources folder"
    elif root not in out.parents and (inside_as_named or not chosen.output_given):
        problem = f"the output folder leads outside the project{' through a symlink' if inside_as_named else ''}"
    else:
        return None
    return _output_diagnostic(chosen, f"{problem}: not read, not written")


def _output_diagnostic(chosen: Settings, message: str) -> Diagnostic:
    """`message` at the `output` line of the settings file when the file named the folder,
    else at the folder."""
    named = display_path(chosen.output)
    if chosen.output_given or chosen.config is None:
        return Diagnostic(named, None, None, message)
    try:
        line = _line_of(chosen.config.read_text(encoding="utf-8"), "output")
    except (OSError, UnicodeDecodeError):
        line = None
    return Diagnostic(display_path(chosen.config), line, None, f"output {named}: {message}")
