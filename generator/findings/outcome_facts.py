"""Each command's own facts: one frozen dataclass per command, read by attribute, said as the
JSON report's `facts` (`as_json`, schemas/meta/findings-report.schema.json) and, for `check`,
`generate`, `init` and `validate`, as the text users know (`text`: the paths that drifted,
then their diffs; `created  `, `updated  `, `removed  `; each document's verdict).

The fields' order is the JSON's key order. A field that defaults to None is left out of the
JSON while it is None: what a refused command never learnt (`check`'s drift, `conform`'s
calls, `init`'s pyproject.toml); the others are always there, null included.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..diagnostics import printable


@dataclass(frozen=True)
class Facts:
    """No facts (`lint`, `mock`, a command refused before it learnt any): the base of each command's."""

    def as_json(self) -> dict[str, Any]:
        shown = (f for f in fields(self) if f.default is not None or getattr(self, f.name) is not None)
        return {f.name: getattr(self, f.name) for f in shown}

    def text(self) -> str | None:
        """The command's own words for what it did, before the summary; None: its findings say it."""
        return None


@dataclass(frozen=True)
class BreakingFacts(Facts):
    against: str | None  # the REF (or folder) given; None when the settings that name it do not load
    commit: str | None  # its commit; None for a folder, or nothing to compare with


@dataclass(frozen=True)
class ConformFacts(Facts):
    contract: str
    target: str
    conforms: bool
    revisions: list[str] | None = None
    tools_listed: int | None = None
    calls: int | None = None
    calls_failed: int | None = None
    fuzz: dict[str, Any] | None = None  # `--fuzz`: its seed, examples and what each tool got (`fuzz.py`)


@dataclass(frozen=True)
class ImportFacts(Facts):
    contract: str
    target: str
    written: list[str]
    removed: list[str]
    changed: bool


@dataclass(frozen=True)
class CheckFacts(Facts):
    output: str  # the output folder, as displayed
    answered: str | None  # "cache" or "comparison"
    clean: bool | None = None
    changed: list[str] | None = None
    missing: list[str] | None = None
    extra: list[str] | None = None
    diffs: dict[str, str] | None = None

    def text(self) -> str:
        labels = (("changed  ", self.changed), ("missing  ", self.missing), ("extra    ", self.extra))
        lines = [f"{label}{printable(path)}\n" for label, paths in labels for path in paths or ()]
        return "".join(lines) + "".join((self.diffs or {}).values())


@dataclass(frozen=True)
class GenerateFacts(Facts):
    output: str
    created: list[str] | None = None
    updated: list[str] | None = None
    removed: list[str] | None = None

    def text(self) -> str:
        labels = (("created  ", self.created), ("updated  ", self.updated), ("removed  ", self.removed))
        return "".join(f"{label}{self.output}/{printable(path)}\n" for label, paths in labels for path in paths or ())


@dataclass(frozen=True)
class InitFacts(Facts):
    created: list[str]
    appended: str | None = None  # the pyproject.toml the settings section was appended to

    def text(self) -> str:
        appended = f"appended [tool.mcp-contracts] to {self.appended}\n" if self.appended is not None else ""
        return "".join(f"created  {path}\n" for path in self.created) + appended


@dataclass(frozen=True)
class DocsFacts(Facts):
    site: str


@dataclass(frozen=True)
class ValidateFacts(Facts):
    contract: str
    documents: list[dict[str, Any]]  # each verdict: `path`, `valid`, `errors` (pointer, message), `problem`

    def text(self) -> str:
        lines = []
        for document in self.documents:
            path = printable(document["path"])
            if document["problem"] is not None:
                lines.append(f"{path}: error: {document['problem']}")
                continue
            lines.append(f"{path}: {'valid' if document['valid'] else 'invalid'}")
            lines += [f"  {error['pointer'] or '(root)'}: {error['message']}" for error in document["errors"]]
        return "".join(line + "\n" for line in lines)
