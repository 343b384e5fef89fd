"""Each command's options: one frozen dataclass per command, made once from its flags (the CLI)
or by a caller of the API, and handed whole to `api.run`, which reads the project's settings with
these in place of the file's values and runs the command with both.

Fields are named, never positional: a flag added in the middle cannot take another's value.
`schemas`, `out`, `templates` and `package` stand in place of the settings' `schemas`, `output`,
`templates` and `package` (None: the settings' own). `conform` and `import` carry their session
options as their modules define them (`ConformOptions`, `ImportOptions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the MCP SDK is imported by the commands that talk to a server, when they run
    from .conformance.conform import ConformOptions, Target
    from .importing.importer import ImportOptions


@dataclass(frozen=True, kw_only=True)
class Generate:
    schemas: Path | None = None
    out: Path | None = None
    templates: Path | None = None
    package: str | None = None
    command = "generate"


@dataclass(frozen=True, kw_only=True)
class Check:
    schemas: Path | None = None
    out: Path | None = None
    templates: Path | None = None
    package: str | None = None
    full: bool = False  # render and compare even when this machine's cache answers
    command = "check"


@dataclass(frozen=True, kw_only=True)
class Lint:
    schemas: Path | None = None
    command = "lint"


@dataclass(frozen=True, kw_only=True)
class Breaking:
    against: str | None = None  # a git revision, a folder, merge-base or last-tag (None: the settings')
    schemas: Path | None = None
    command = "breaking"


@dataclass(frozen=True, kw_only=True)
class Init:
    name: str
    schemas: Path | None = None
    templates: Path | None = None
    command = "init"


@dataclass(frozen=True, kw_only=True)
class Docs:
    out: Path | None = None
    site: Path | None = None  # None: site/ of the project root
    command = "docs"


@dataclass(frozen=True, kw_only=True)
class Validate:
    contract: str
    documents: tuple[str, ...]  # paths; `-` is standard input
    definition: str | None = None  # an entry of the schema's $defs
    schemas: Path | None = None
    command = "validate"


@dataclass(frozen=True, kw_only=True)
class Mock:
    contract: str
    transport: str = "stdio"  # or "http"
    host: str = "127.0.0.1"
    port: int = 8000  # 0 picks a free one
    schemas: Path | None = None
    command = "mock"


@dataclass(frozen=True, kw_only=True)
class Conform:
    contract: str
    target: Target  # a URL, or a command's `StdioServerParameters`
    session: ConformOptions | None = None  # None: `ConformOptions()`
    schemas: Path | None = None
    command = "conform"


@dataclass(frozen=True, kw_only=True)
class Import:
    name: str
    target: Target
    session: ImportOptions | None = None  # None: `ImportOptions()`
    write: bool = False  # write into a contract that exists (a new one is written at once)
    schemas: Path | None = None
    command = "import"


Options = Generate | Check | Lint | Breaking | Init | Docs | Validate | Mock | Conform | Import
