"""The intermediate model: one frozen tree that every output reads.

`load` builds it from `schemas/`; `render` turns it into files. One catalogue entry
yields its enum member, its docs row and its manifest entry from the same object, so
code, docs and manifest cannot disagree.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

# Metadata columns an error code may carry, in the order every output shows them.
ERROR_COLUMNS = (
    "category",
    "retryable",
    "http_status",
    "jsonrpc_code",
    "error_type",
    "message",
    "remediation",
    "description",
)
ERROR_TYPE_COLUMNS = ("http_status", "retry", "retry_advice", "description")
WARNING_COLUMNS = ("severity", "description")
# Manifest fields of a tool after its name, in seed 004's order; description comes last.
TOOL_FIELDS = (
    "category",
    "mutation",
    "requires_x_client",
    "requires_llm",
    "requires_db",
    "profiles",
    "possible_error_codes",
    "description",
)


@dataclass(frozen=True, slots=True)
class ErrorCodeEntry:
    code: str
    member: str
    category: str | None = None
    retryable: bool | None = None
    http_status: int | None = None
    jsonrpc_code: int | None = None
    error_type: str | None = None
    message: str | None = None
    remediation: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class ErrorTypeEntry:
    code: str
    member: str
    http_status: int | None = None
    retry: str | None = None
    retry_advice: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class WarningCodeEntry:
    code: str
    member: str
    severity: str | None = None
    description: str | None = None


Entry = ErrorCodeEntry | ErrorTypeEntry | WarningCodeEntry


def defined_columns(entries: tuple[object, ...], columns: tuple[str, ...]) -> tuple[str, ...]:
    """The columns that at least one entry sets, in canonical order."""
    return tuple(c for c in columns if any(getattr(e, c) is not None for e in entries))


@dataclass(frozen=True, slots=True)
class Catalogue:
    errors: tuple[ErrorCodeEntry, ...]
    error_types: tuple[ErrorTypeEntry, ...] = ()
    warnings: tuple[WarningCodeEntry, ...] = ()

    @property
    def error_columns(self) -> tuple[str, ...]:
        return defined_columns(self.errors, ERROR_COLUMNS)

    @property
    def error_type_columns(self) -> tuple[str, ...]:
        return defined_columns(self.error_types, ERROR_TYPE_COLUMNS)

    @property
    def warning_columns(self) -> tuple[str, ...]:
        return defined_columns(self.warnings, WARNING_COLUMNS)

    def codes(self) -> tuple[str, ...]:
        return tuple(e.code for e in self.errors)


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    category: str | None = None
    mutation: bool | None = None
    requires_x_client: bool | None = None
    requires_llm: bool | None = None
    requires_db: bool | None = None
    profiles: tuple[str, ...] | None = None
    possible_error_codes: tuple[str, ...] | None = None
    description: str | None = None

    def manifest_entry(self) -> dict[str, Any]:
        """The tool as a manifest object: name first, then every set field in order."""
        entry: dict[str, Any] = {"name": self.name}
        for name in TOOL_FIELDS:
            value = getattr(self, name)
            if value is not None:
                entry[name] = list(value) if isinstance(value, tuple) else value
        return entry


@dataclass(frozen=True, slots=True)
class Manifest:
    version: str | None
    tools: tuple[Tool, ...]

    @property
    def columns(self) -> tuple[str, ...]:
        return defined_columns(self.tools, TOOL_FIELDS)

    def as_json(self) -> str:
        """The manifest file's text: two-space indents, keys in manifest order."""
        document: dict[str, Any] = {}
        if self.version is not None:
            document["version"] = self.version
        document["tools"] = [t.manifest_entry() for t in self.tools]
        return json.dumps(document, indent=2, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class TypePart:
    """A piece of a field's type as docs show it; `anchor` links to a definition."""

    text: str
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class SchemaField:
    """A field as docs state it; `required` is "yes", "no" or a condition in words."""

    name: str
    type_parts: tuple[TypePart, ...]
    required: str
    constraints: tuple[str, ...]
    default: str | None
    description: str


@dataclass(frozen=True, slots=True)
class Definition:
    """One object or value schema of an envelope, at `location` (a URI and a pointer): the root,
    an entry of `$defs`, or a class taken from another file."""

    name: str
    anchor: str
    location: str
    kind: tuple[TypePart, ...]
    constraints: tuple[str, ...]
    description: str
    fields: tuple[SchemaField, ...]
    variants: tuple[TypePart, ...]
    additional_properties: bool | None


@dataclass(frozen=True, slots=True)
class ViewType:
    """The Python type of a value in the typed view: never stricter than its schema.

    `kind` is a JSON type (`string`, `integer`, `number`, `boolean`, `null`), `any`,
    `literal` (`values`), `list` or `dict` (of `items[0]`), `class` (`name`) or `union`
    (of `items`).
    """

    kind: str
    values: tuple[str | bool, ...] = ()
    items: tuple[ViewType, ...] = ()
    name: str = ""


@dataclass(frozen=True, slots=True)
class ViewField:
    """A property of a class: its JSON name, type, whether required, and a scalar default
    (as JSON) that the schema at `location` accepts."""

    name: str
    type: ViewType
    required: bool
    default: str | None
    description: str
    location: str | None


@dataclass(frozen=True, slots=True)
class ViewClass:
    """A generated model: the schema at `location` ("" is the root) judges it when used alone.

    An object class has `fields` (`closed` when no other property is allowed); a root
    model, for a root that is not one object, has `root`, its type.
    """

    name: str
    location: str
    description: str
    fields: tuple[ViewField, ...]
    closed: bool
    root: ViewType | None


@dataclass(frozen=True, slots=True)
class View:
    """The typed view of a contract's schema: its classes and the name of the root one."""

    root: str
    classes: tuple[ViewClass, ...]


@dataclass(frozen=True, slots=True)
class Example:
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Builders:
    """What a contract's success and error builders fill in (see `load/builders.py`).

    Constants are (document pointer, JSON value); `code` and `message` are document
    pointers; `derived` maps a document pointer to a catalogue column of the code.
    """

    success_constants: tuple[tuple[str, str], ...]
    error_constants: tuple[tuple[str, str], ...]
    code: str
    message: str | None
    derived: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Module:
    """A hand-written Python module a contract declares, copied beside its generated code."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Contract:
    name: str
    title: str
    version: str
    summary: str
    module: str
    seed: str | None
    source_dir: str
    envelope_json: str
    definitions: tuple[Definition, ...]
    view: View
    bundle_json: str
    catalogue: Catalogue
    manifest: Manifest
    examples: tuple[Example, ...]
    builders: Builders | None = None
    modules: tuple[Module, ...] = ()

    @property
    def root_model(self) -> str:
        return self.view.root


@dataclass(frozen=True, slots=True)
class Project:
    contracts: tuple[Contract, ...]
