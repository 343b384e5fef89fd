"""One finding type for every command, and the report a printer prints.

A finding names its rule (an ID of `generator.rules`), the level it was reported at, and
its place: a source file, the 1-based line and column there when known, and the JSON
pointer inside the document. `breaking` adds where the thing was before (`before`);
`conform` the protocol revisions and the request it found it with (`revisions`, `subject`):
one fault seen at several revisions is one finding that lists them (`merged`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, printable
from ..rules import Level, Rule
from ..rules.common import SOURCE_INVALID
from .outcome_facts import Facts

if TYPE_CHECKING:  # imported when a place is asked for: `check` answered from the cache loads no model
    from ..model import Place

__all__ = ["Finding", "Note", "Outcome", "merged"]


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str  # the ID of a rule of the registry
    level: Level
    file: str
    line: int | None
    column: int | None
    pointer: str | None
    message: str
    contract: str | None = None
    before: Place | None = None  # breaking: the place in the old sources
    revisions: tuple[str, ...] = ()  # conform: the protocol revisions of the sessions that found it
    subject: str | None = None  # conform: what was asked ("tools/list", "get_x({...})")
    accepted: str | None = None  # breaking: the reason of the accepted-breaks entry that covers it

    @classmethod
    def of(cls, rule: Rule, place: Place, message: str, **context: Any) -> Finding:
        """A finding of `rule` at its default level (the `Policy` re-levels it)."""
        return cls(rule.id, rule.level, place.file, place.line, place.column, place.pointer, message, **context)

    @classmethod
    def in_file(cls, rule: Rule, file: str, message: str, pointer: str | None = None) -> Finding:
        """A finding of `rule` about a file (at `pointer` in it), at the rule's default level."""
        return cls(rule.id, rule.level, file, None, None, pointer, message)

    @classmethod
    def of_diagnostic(cls, diagnostic: Diagnostic) -> Finding:
        """A problem that keeps the sources from loading, as the finding `source-invalid`."""
        return cls(
            SOURCE_INVALID.id,
            SOURCE_INVALID.level,
            diagnostic.file,
            diagnostic.line,
            None,
            diagnostic.pointer,
            diagnostic.message,
        )

    @property
    def place(self) -> Place:
        from ..model import Place

        return Place(self.file, self.line, self.column, self.pointer)

    def at_level(self, level: Level) -> Finding:
        return replace(self, level=level)

    def sort_key(self) -> tuple[Any, ...]:
        return (
            self.contract or "",
            self.file,
            self.line or 0,
            self.column or 0,
            self.pointer or "",
            self.rule,
            self.revisions,
            self.subject or "",
            self.message,
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "level": self.level,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "pointer": self.pointer,
            "message": self.message,
            "contract": self.contract,
            "before": self.before.as_json() if self.before is not None else None,
            "revisions": list(self.revisions),
            "subject": self.subject,
            "accepted": self.accepted,
        }

    def context(self) -> list[str]:
        """What the finding says beside its message: the protocol revisions and the request it
        was found with, its pointer when no line shows it, where it was before, why it was accepted."""
        extra = []
        if self.revisions:
            extra.append(f"MCP {', '.join(self.revisions)}")
        if self.subject is not None:
            extra.append(self.subject)
        if self.pointer is not None and self.line is None:
            extra.append(f"at {self.pointer}")
        if self.before is not None:
            extra.append(f"was {self.before}")
        if self.accepted is not None:
            extra.append(f"accepted: {self.accepted}")
        return extra

    def described(self) -> str:
        """The message with its context, for formats that have one text field per finding."""
        extra = self.context()
        return self.message + (f" ({'; '.join(extra)})" if extra else "")

    def __str__(self) -> str:
        """`file:line:col: RULE [level] message (context)`, as compilers and linters print."""
        where = f"{self.file}:{self.line or 1}:{self.column or 1}"
        return printable(f"{where}: {self.rule} [{self.level}] {self.described()}")  # one line, whatever it holds


def merged(findings: Iterable[Finding]) -> list[Finding]:
    """Findings that differ only by their revisions as one, listing every revision (in the
    order of the first one seen; revisions sorted, oldest first): a fault a server has at each
    revision `conform` checks is one fault."""
    seen: dict[Finding, list[str]] = {}
    for finding in findings:
        revisions = seen.setdefault(replace(finding, revisions=()), [])
        revisions.extend(r for r in finding.revisions if r not in revisions)
    return [replace(finding, revisions=tuple(sorted(revisions))) for finding, revisions in seen.items()]


@dataclass(frozen=True, slots=True)
class Note:
    """What a command says beside its findings, at a level (note, warning): a revision the
    server does not speak, an old tree left behind. On standard error in text, `notes` in JSON."""

    level: Level
    message: str

    def as_json(self) -> dict[str, str]:
        return {"level": self.level, "message": self.message}

    def __str__(self) -> str:
        return f"{self.level}: {self.message}"


@dataclass(frozen=True)
class Outcome:
    """What one command found, for a printer: the findings (those of sources that do not
    load are `source-invalid` findings, and then `loaded` is False), the rules that ran,
    and the command's own facts for its JSON (conform's target, breaking's revision)."""

    command: str
    findings: tuple[Finding, ...]
    rules: tuple[str, ...]  # the IDs of the rules that ran (off ones left out), for JUnit and SARIF
    loaded: bool = True
    facts: Facts = field(default_factory=Facts)
    summary: str = ""  # the last line of the text format
    problem: str | None = None  # why the command could not judge at all (a server not reached): exit 2
    pending: bool = False  # what was found still waits to be written (`import` without --write): exit 1
    failing: bool = True  # whether an error finding fails the command (`import` only shows what changed)
    notes: tuple[Note, ...] = ()  # said on standard error in every format, and in JSON: not findings

    @classmethod
    def refused(cls, command: str, diagnostics: Iterable[Diagnostic], facts: Facts | None = None) -> Outcome:
        """The outcome of a command whose settings or sources do not load (or whose output
        cannot be written): `source-invalid` findings, exit 2."""
        found = tuple(sorted(map(Finding.of_diagnostic, diagnostics), key=Finding.sort_key))
        return cls(command, found, (SOURCE_INVALID.id,), loaded=False, facts=facts or Facts())

    @property
    def errors(self) -> int:
        return sum(f.level == Level.ERROR for f in self.findings)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 an error finding (for `import`: changes not written), 2 sources that do not
        load (or a server not reached)."""
        if not self.loaded or self.problem is not None:
            return 2
        return 1 if (self.errors and self.failing) or self.pending else 0
