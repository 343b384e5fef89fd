"""The intermediate model: one frozen tree that every output reads.

`load` builds it from `schemas/`; `render` turns it into files. One catalogue entry
yields its enum member, its docs row and its manifest entry from the same object, so
code, docs and manifest cannot disagree. Here: the contract, its catalogue, builders and
places; beside it, the typed view (`view.py`), the schema's documents (`bundle.py`) and
the tools' arguments, resources and prompts (`surface.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..protocol import VERSIONS
from ..runtime import Judge
from ..schema.pointer import encode, value_at
from .schemas import Bundle, View, ViewType
from .surface import Surface, ToolArguments

# The columns every catalogue table has, after those the contract declares (see
# `columns:` in contract.yaml); an error's `error_type` names an entry of `error_types`.
CORE_COLUMNS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "errors": (
        ("error_type", "string", "The error type the code belongs to (see the error types)."),
        ("message", "string", "The default message for people."),
        ("description", "string", "What the code means."),
    ),
    "error_types": (("description", "string", "What the error type means."),),
    "warnings": (("description", "string", "What the warning means."),),
    "tools": (
        ("possible_error_codes", "array", "The error codes the tool may return."),
        ("inputSchema", "object", "The MCP input schema of the tool's arguments."),
        ("outputSchema", "object", "The MCP output schema of the tool's structured result."),
        ("examples", "examples", "Example calls: their arguments, and the example that answers them."),
        ("description", "string", "What the tool does."),
        ("title", "string", "The tool's name for people."),
        ("annotations", "annotations", "The MCP hints: read-only, destructive, idempotent, open world."),
        ("result", "result", "What a result carries when it is not the structured envelope."),
        ("execution", "listing", "The MCP execution properties: whether a call may run as a task."),
        ("_meta", "listing", "The MCP `_meta` of the tool's listing."),
        ("other_fields", "listing", "Other fields of the tool's MCP listing, as the server lists them."),
        ("secret_arguments", "array", "The arguments whose values no error result may carry."),
    ),
}
TABLES = ("errors", "error_types", "warnings", "tools")
# The key of each table's entries.
KEYS = {"errors": "code", "error_types": "name", "warnings": "code", "tools": "name"}


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a catalogue table: its JSON type (`array` is of strings) and its meaning."""

    name: str
    type: str
    description: str
    title: str
    enum: tuple[object, ...] | None = None
    role: str | None = None  # what the column means to lint and to MCP annotations


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of a catalogue table: its key (a code or a name) and the values it sets.

    `by_column` is `values` as a mapping, made once: renderers ask an entry for each of its
    columns, and a table of many thousand rows must not pay a dict per question."""

    code: str
    member: str
    values: tuple[tuple[str, Any], ...] = ()
    by_column: Mapping[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_column", dict(self.values))

    def get(self, column: str) -> Any:
        return self.by_column.get(column)


@dataclass(frozen=True, slots=True)
class Table:
    """A catalogue section: its columns in order, and its entries.

    `defined` (the columns at least one entry sets, in order) and `sparse` (the names of the
    defined columns some entry leaves unset) are found once, in one pass over the entries:
    every renderer asks them per row or per column, and asking the whole table each time made
    `generate` grow as the square of the catalogue."""

    columns: tuple[Column, ...]
    entries: tuple[Entry, ...]
    defined: tuple[Column, ...] = field(init=False, repr=False, compare=False)
    sparse: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        counts: dict[str, int] = {}
        for entry in self.entries:
            for name, value in entry.by_column.items():
                if value is not None:
                    counts[name] = counts.get(name, 0) + 1
        defined = tuple(c for c in self.columns if counts.get(c.name))
        object.__setattr__(self, "defined", defined)
        total = len(self.entries)
        object.__setattr__(self, "sparse", frozenset(c.name for c in defined if counts[c.name] < total))


@dataclass(frozen=True, slots=True)
class Catalogue:
    errors: Table
    error_types: Table = Table((), ())
    warnings: Table = Table((), ())

    @property
    def error_columns(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.errors.defined)

    def codes(self) -> tuple[str, ...]:
        return tuple(e.code for e in self.errors.entries)


@dataclass(frozen=True, slots=True)
class Manifest:
    version: str | None
    tools: Table


@dataclass(frozen=True, slots=True)
class Example:
    """An example envelope of `examples/`: its name (the file's stem) and its parsed value."""

    name: str
    value: Any

    @property
    def file_name(self) -> str:
        return f"{self.name}.json"


@dataclass(frozen=True, slots=True)
class BuilderField:
    """A top-level member of a builder's shape, a keyword parameter of the builder: its JSON
    name, its type in the view, whether every envelope of the shape has it, whether the
    schema accepts null for it (the builder then puts null when the caller gives nothing),
    and whether the builder puts something inside it (a constant, the code, the message)."""

    name: str
    type: ViewType
    required: bool
    nullable: bool
    filled: bool


@dataclass(frozen=True, slots=True)
class Shape:
    """The members of a builder's shape as the schema names them: `fields` are the keyword
    parameters; `open` when the shape allows other members (or names some that cannot be
    keyword parameters), which the builder then takes as `**extra`. `fields` is None when
    the shape is not one class or a union of classes of the view: every member is `**extra`."""

    fields: tuple[BuilderField, ...] | None
    open: bool


@dataclass(frozen=True, slots=True)
class Builders:
    """What a contract's success and error builders fill in (see `load/builders.py`).

    Constants are (document pointer, JSON value); `code` and `message` are document
    pointers; `derived` maps a document pointer to a catalogue column of the code.
    `message_required`: every error envelope has a member where `message` points.
    `error_defaults` are (document pointer, value) put where the caller gave nothing: null
    for a member that an object the error builder makes must have, when it accepts null.
    """

    success_constants: tuple[tuple[str, Any], ...]
    error_constants: tuple[tuple[str, Any], ...]
    code: str
    message: str | None
    derived: tuple[tuple[str, str], ...]
    message_required: bool = False
    error_defaults: tuple[tuple[str, Any], ...] = ()
    success: Shape = Shape(None, True)
    error: Shape = Shape(None, True)

    def callers_message(self, catalogue: Catalogue) -> bool:
        """Whether the message is a required parameter of the builders (the schema requires one
        and no catalogue column gives it): the caller's, never the catalogue's."""
        return self.message_required and "message" not in catalogue.error_columns

    def code_in(self, document: Any) -> str | None:
        """The error code a document carries where `code` points, or None (a success)."""
        found = value_at(document, self.code)
        return found if isinstance(found, str) else None


@dataclass(frozen=True, slots=True)
class Module:
    """A hand-written Python module a contract declares, copied beside its generated code."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class ErrorResults:
    """How a tool's error reaches clients (`error_results:` in contract.yaml): with the error
    envelope in `structuredContent` (`structured`), and how a code is found in the text of an
    error result that holds no envelope (`code_pattern`, a regex with a group `code`)."""

    structured: bool = True
    code_pattern: str | None = None


class Locatable(Protocol):
    """A parsed source file that knows where its values are (`load.documents.Document`)."""

    @property
    def name(self) -> str: ...

    def position(self, parts: Any) -> tuple[int | None, int | None]: ...


@dataclass(frozen=True, slots=True)
class Place:
    """A place in a source file: `file` as shown to the user, the 1-based line and column when
    known, and the JSON pointer inside the document."""

    file: str
    line: int | None = None
    column: int | None = None
    pointer: str | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        if self.pointer is not None:
            where += f"#{self.pointer}"
        return where

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "column": self.column, "pointer": self.pointer}


@dataclass(frozen=True)
class Places:
    """Where each fact of a contract was written: its four files by name (`tools.yaml`) and
    every schema resource the envelope reaches by URI (`bundle.resources`' keys). Findings
    of lint, breaking and conform ask it for a file, line, column and pointer."""

    documents: Mapping[str, Locatable] = field(default_factory=dict)

    def at(self, source: str, parts: Any = ()) -> Place:
        """The place of `parts` (a path of keys and indexes) in `source`, a file name of the
        contract folder or a resource URI; a source it does not know is named as given."""
        document = self.documents.get(source)
        if document is None:
            return Place(source, None, None, encode(parts))
        line, column = document.position(list(parts))
        return Place(document.name, line, column, encode(parts))


@dataclass(frozen=True, slots=True)
class AcceptedBreak:
    """An entry of a contract's `accepted-breaks.yaml`: a break reviewed and accepted on purpose.

    It covers the `breaking` findings of its `rule` and `subject` (matched exactly) while the
    contract's version is `version`; `place` is where the entry is written (entry `index` of
    `file`), for the finding that says it matches nothing. The place is found when asked: a
    line number costs a second, line-keeping read of the file, which most loads never need."""

    rule: str
    subject: str
    reason: str
    version: str
    file: str
    index: int
    places: Places = field(compare=False, repr=False)

    @property
    def place(self) -> Place:
        return self.places.at(self.file, ["accepted", self.index])


@dataclass(frozen=True, slots=True)
class Contract:
    """One contract, as facts: parsed JSON and the judge compiled from it, never text or prose.

    `judge` is compiled once, while loading, from `bundle`: `validate`, `mock` and `conform`
    judge with it. It is left out of equality, hashing and repr: two loads of the same
    sources are equal contracts.
    """

    name: str
    title: str
    version: str
    summary: str
    module: str
    source_dir: str
    view: View
    bundle: Bundle
    judge: Judge = field(compare=False, repr=False)
    catalogue: Catalogue
    manifest: Manifest
    examples: tuple[Example, ...]
    builders: Builders | None = None
    modules: tuple[Module, ...] = ()
    protocol: tuple[str, ...] = VERSIONS
    error_results: ErrorResults = ErrorResults()
    extra_tools: str = "error"  # what conform makes of a tool the server lists beyond the contract
    rules: Mapping[str, str] = field(default_factory=dict)  # rule ID -> level or off (`rules:`, `lint.rules`)
    accepted: tuple[AcceptedBreak, ...] = ()  # accepted-breaks.yaml, in the file's order
    surface: Surface = field(default_factory=Surface)  # resources.yaml and prompts.yaml
    arguments: tuple[ToolArguments, ...] = ()  # each tool's, in tools.yaml's order (tools.py)
    places: Places = field(default=Places(), compare=False, repr=False)

    @property
    def root_model(self) -> str:
        return self.view.root

    @property
    def envelope(self) -> Any:
        """The envelope schema, parsed (the bundle's root resource)."""
        return self.bundle.resources[self.bundle.root]


@dataclass(frozen=True, slots=True)
class Project:
    contracts: tuple[Contract, ...]
