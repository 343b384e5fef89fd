"""The names and the version of the generated package: the settings file's, else the project's.

`[tool.mcp-contracts]` may name the import package (`package`), the distribution pip
installs it as, which is the npm package's name too (`distribution`), and its version
(`distribution_version`). Each one it leaves out follows the project, never the folder of
the checkout (a clone under another name generates the same bytes):

- the project's name is `[project] name` of its pyproject.toml, else the name of the first
  contract in sorted order (its folder under `<schemas>/contracts/`);
- the distribution is `<project>-contracts` (normalized: lower case, each run of `-_.` one
  `-`), and the package `<project>_contracts`: a bare `contracts` would be the module of a
  distribution already published, which either install would overwrite;
- the version is the project's `[project] version` where it is static (and a version both
  pip and, with TypeScript, npm take), else the first contract's `version:`, which the
  render reads from the loaded contract (`render/plan.py`): settings load no YAML.
"""

from __future__ import annotations

import keyword
import os
import re
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .resources import GENERATED_CODE_IMPORTS, GENERATED_SERVING_IMPORTS

# A project with neither a `[project] name` nor a contract yet: nothing to name the package after.
FALLBACK_PACKAGE = "contracts"
SUFFIX = "contracts"
PACKAGE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
DISTRIBUTION_NAME = re.compile(r"^([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$")
# The versions that PEP 440 and npm's SemVer both take, written alike: a PEP 440 pre-release
# (1.0.0rc1) is no SemVer, and SemVer's 1.0.0-rc.1 is no PEP 440 as written.
NPM_VERSION = re.compile(r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$")
# SemVer 2.0.0, as contract.yaml's `version` is written (schemas/meta/contract.schema.json).
_IDENTIFIER = r"(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)"
SEMVER = re.compile(
    r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    rf"(?:-{_IDENTIFIER}(?:\.{_IDENTIFIER})*)?(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?$"
)


def package_problem(package: str) -> str | None:
    """Why `package` cannot name the generated package, if it cannot: not a name Python
    imports, or one that would shadow (or, on a file system that ignores case, be taken for)
    a module of the standard library or one the generated code imports."""
    if not PACKAGE_NAME.fullmatch(package) or keyword.iskeyword(package):
        return f"{package!r} is not a Python package name"
    shadowed = _SHADOWED.get(package.lower())
    if shadowed is not None:
        return f"{package!r} would shadow {shadowed} for the generated code: choose another package name"
    return None


def _shadowed() -> dict[str, str]:
    """Lower-cased module names a generated package may not take, with what each is."""
    named = {name.lower(): f"the standard library's {name!r}" for name in sys.stdlib_module_names}
    imported = (*GENERATED_CODE_IMPORTS, *GENERATED_SERVING_IMPORTS)
    named.update((name.lower(), f"{name!r}, which the generated code imports") for name in imported)
    return named


_SHADOWED = _shadowed()


def is_version(text: str) -> bool:
    """Whether `text` is a PEP 440 version as written: the version the metadata shows."""
    from packaging.version import InvalidVersion, Version

    try:
        return str(Version(text)) == text
    except InvalidVersion:
        return False


def usable_version(text: str, languages: Iterable[str]) -> bool:
    """Whether a version the project or a contract gives may version the generated packages:
    one pip reads (PEP 440, in any of its spellings: `2.0.0-rc.1` is pip's 2.0.0rc1) and,
    with TypeScript among `languages`, one npm reads (SemVer)."""
    from packaging.version import InvalidVersion, Version

    try:
        Version(text)
    except InvalidVersion:
        return False
    return "typescript" not in languages or SEMVER.fullmatch(text) is not None


def distribution_of(project: str) -> str:
    """`<project>-contracts`, normalized as pip compares names."""
    return f"{re.sub(r'[-_.]+', '-', project).lower()}-{SUFFIX}"


@dataclass(frozen=True)
class Named:
    """The generated package's names and version: `version` None is the first contract's."""

    package: str
    distribution: str | None
    version: str | None


@dataclass(frozen=True)
class Naming:
    """What the generated package's names follow: the keys of the settings file, each in
    place of what the project gives (`[project]` of its pyproject.toml, its contracts)."""

    project: str | None = None  # `[project] name`
    project_version: str | None = None  # `[project] version`, where static
    package: str | None = None  # the settings file's keys
    distribution: str | None = None
    distribution_version: str | None = None

    def named(self, schemas: Path, languages: Iterable[str], adding: str | None = None) -> Named:
        """The names and version of the package generated from the sources in `schemas`
        (and contract `adding`, which `init` is about to write there)."""
        languages = tuple(languages)
        project = self.project_name(contract_folders(schemas, adding))
        distribution = self.distribution or (distribution_of(project) if project is not None else None)
        package = self.package or (distribution_of(project).replace("-", "_") if project else FALLBACK_PACKAGE)
        version = self.distribution_version
        if version is None and self.project_version is not None and usable_version(self.project_version, languages):
            version = self.project_version
        return Named(package, distribution, version)

    def project_name(self, contracts: list[str]) -> str | None:
        """`[project] name`, else the first contract's name; a name its package could not be
        imported as (`3d-tools`) is passed over."""
        candidates = [self.project] if self.project is not None else []
        candidates += contracts[:1]
        usable = (name for name in candidates if package_problem(distribution_of(name).replace("-", "_")) is None)
        return next(usable, None)


def naming_of(pyproject: Path | None, section: dict[str, Any]) -> Naming:
    """The naming of a project whose pyproject.toml is `pyproject` (None: it has none) and
    whose `[tool.mcp-contracts]` is `section` (already judged; empty without one)."""
    project = _project_table(pyproject)
    name, version = project.get("name"), project.get("version")
    dynamic = project.get("dynamic")
    static = not (isinstance(dynamic, list) and "version" in dynamic)
    return Naming(
        project=name if isinstance(name, str) and DISTRIBUTION_NAME.fullmatch(name) else None,
        project_version=version if isinstance(version, str) and static else None,
        package=section.get("package"),
        distribution=section.get("distribution"),
        distribution_version=section.get("distribution_version"),
    )


def _project_table(pyproject: Path | None) -> dict[str, Any]:
    """`[project]` of `pyproject`: empty where there is none, or the file is no TOML (then the
    names follow the contracts; a settings section in it reports the file's error itself)."""
    if pyproject is None:
        return {}
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    project = data.get("project")
    return project if isinstance(project, dict) else {}


def contract_folders(schemas: Path, adding: str | None = None) -> list[str]:
    """The names of the folders under `<schemas>/contracts/` (and `adding`), sorted, as the
    loader lists the contracts: no hidden folder, and no symlink, which it does not follow."""
    names = {adding} if adding is not None else set()
    try:
        with os.scandir(schemas / "contracts") as entries:
            names.update(e.name for e in entries if not e.name.startswith(".") and e.is_dir(follow_symlinks=False))
    except OSError:
        pass
    return sorted(names)
