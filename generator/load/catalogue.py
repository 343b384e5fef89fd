"""errors.yaml and tools.yaml as model objects, with the checks between them.

The columns of each table are the contract's own: those `columns:` in contract.yaml
declares (name, JSON type, description), then the few every catalogue has (see
`model.CORE_COLUMNS`). Nothing here names a column a contract chose.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic
from ..model import CORE_COLUMNS, KEYS, TABLES, Catalogue, Column, Entry, Manifest, Table
from ..naming import member_name, slug
from .documents import Document

# JSON Schema of a column's values, by its declared type (the meta-schemas take these).
COLUMN_SCHEMAS: dict[str, dict[str, Any]] = {
    "string": {"type": "string", "minLength": 1},
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "boolean": {"type": "boolean"},
    "array": {"type": "array", "uniqueItems": True, "items": {"type": "string", "minLength": 1}},
    "object": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}},
    "examples": {"type": "array", "items": {"type": "object"}},  # tools.schema.json holds the detail
    "annotations": {"type": "object"},  # likewise
    "result": {"type": "object"},  # likewise
    "listing": {"type": "object"},  # likewise: execution, _meta, other_fields
}


def declared_columns(identity: Any) -> dict[str, tuple[Column, ...]]:
    """Every table's columns: the declared ones in order, then the core ones. A malformed
    declaration is left out here (the meta-schema reports it)."""
    declared = identity.get("columns", {}) if isinstance(identity, dict) else {}
    declared = declared if isinstance(declared, dict) else {}
    tables = {}
    for table in TABLES:
        specs = declared.get(table, {})
        columns = [
            Column(
                name,
                spec["type"],
                spec["description"],
                spec.get("title") or _title(name),
                tuple(spec["enum"]) if isinstance(spec.get("enum"), list) else None,
                spec.get("role"),
            )
            for name, spec in (specs.items() if isinstance(specs, dict) else ())
            if isinstance(spec, dict)
            and spec.get("type") in COLUMN_SCHEMAS
            and isinstance(spec.get("description"), str)
            and name not in CORE_NAMES
        ]
        columns += [Column(name, kind, text, _title(name)) for name, kind, text in CORE_COLUMNS[table]]
        tables[table] = tuple(columns)
    return tables


CORE_NAMES = {*KEYS.values(), *(name for table in CORE_COLUMNS.values() for name, _, _ in table)}


def _title(name: str) -> str:
    spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in name).replace("_", " ").strip()
    return spaced[:1].upper() + spaced[1:]


def column_schema(column: Column) -> dict[str, Any]:
    """The JSON Schema every value of `column` must meet."""
    schema = dict(COLUMN_SCHEMAS[column.type])
    if column.enum is not None:
        schema["enum"] = list(column.enum)
    return schema


def _duplicates(document: Document, section: str, key: str, items: list[dict[str, Any]]) -> list[Diagnostic]:
    """Codes that repeat, and distinct codes that would share one enum member name."""
    problems: list[Diagnostic] = []
    seen: dict[str, str] = {}
    for index, item in enumerate(items):
        value = item[key]
        member = member_name(value) if section != "tools" else slug(value) or value
        if member in seen:
            earlier = seen[member]
            what = (
                f"duplicate {key} {value!r}"
                if earlier == value
                else f"{value!r} and {earlier!r} map to one name {member!r} in code and docs"
            )
            problems.append(document.diagnostic([section, index, key], what))
        seen.setdefault(member, value)
    return problems


def _value(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _entry(raw: dict[str, Any], key: str, columns: tuple[Column, ...], inherited: dict[str, Any]) -> Entry:
    values = {c.name: _value(raw[c.name]) for c in columns if c.name in raw}
    for name, value in inherited.items():
        values.setdefault(name, value)
    ordered = tuple((c.name, values[c.name]) for c in columns if c.name in values)
    return Entry(raw[key], member_name(raw[key]), ordered)


def build_catalogue(document: Document, columns: dict[str, tuple[Column, ...]]) -> tuple[Catalogue, list[Diagnostic]]:
    """The catalogue of errors.yaml. An error inherits, from its error type, the values of
    the declared columns both tables have that it does not set itself."""
    data = document.data
    problems: list[Diagnostic] = []
    for section in ("errors", "error_types", "warnings"):
        problems += _duplicates(document, section, KEYS[section], data.get(section, []))
    types = {raw["name"]: raw for raw in data.get("error_types", [])}
    type_table = Table(
        columns["error_types"], tuple(_entry(t, "name", columns["error_types"], {}) for t in types.values())
    )
    shared = {c.name for c in columns["errors"]} & {c.name for c in columns["error_types"]} - {"description"}
    errors = []
    for index, raw in enumerate(data["errors"]):
        type_name = raw.get("error_type")
        inherited: dict[str, Any] = {}
        if types and type_name is not None:
            if type_name not in types:
                problems.append(
                    document.diagnostic(["errors", index, "error_type"], f"unknown error type {type_name!r}")
                )
            else:
                inherited = {k: _value(v) for k, v in types[type_name].items() if k in shared}
        errors.append(_entry(raw, "code", columns["errors"], inherited))
    warnings = tuple(_entry(w, "code", columns["warnings"], {}) for w in data.get("warnings", []))
    catalogue = Catalogue(Table(columns["errors"], tuple(errors)), type_table, Table(columns["warnings"], warnings))
    return catalogue, problems


def build_manifest(
    document: Document, columns: tuple[Column, ...], known_codes: tuple[str, ...] | None
) -> tuple[Manifest, list[Diagnostic]]:
    """The manifest of tools.yaml; each error code a tool names must be in `known_codes`
    (unless they are unknown, because errors.yaml has problems of its own)."""
    data = document.data
    codes = set(known_codes or ())
    problems = _duplicates(document, "tools", "name", data["tools"])
    for index, raw in enumerate(data["tools"] if known_codes is not None else ()):
        for position, code in enumerate(raw.get("possible_error_codes", [])):
            if code not in codes:
                where = ["tools", index, "possible_error_codes", position]
                problems.append(
                    document.diagnostic(
                        where, f"tool {raw['name']!r} names error code {code!r}, which errors.yaml lacks"
                    )
                )
    problems += _declarations(document, columns)
    tools = tuple(_entry(raw, "name", columns, {}) for raw in data["tools"])
    return Manifest(data.get("version"), Table(columns, tools)), problems


def _declarations(document: Document, columns: tuple[Column, ...]) -> list[Diagnostic]:
    """A tool's own declarations that contradict each other: a `readOnlyHint` its mutation
    column denies, an `outputSchema` on a tool whose results carry no structured content."""
    mutation = next((c.name for c in columns if c.role == "mutation"), None)
    problems = []
    for index, raw in enumerate(document.data["tools"]):
        hint = (raw.get("annotations") or {}).get("readOnlyHint")
        if mutation is not None and isinstance(raw.get(mutation), bool) and hint is not None and hint == raw[mutation]:
            text = f"readOnlyHint {str(hint).lower()} contradicts {mutation}: {str(raw[mutation]).lower()}"
            problems.append(document.diagnostic(["tools", index, "annotations", "readOnlyHint"], text))
        if (raw.get("result") or {}).get("structured") is False and "outputSchema" in raw:
            text = "a tool whose results carry no structuredContent (result.structured: false) has no outputSchema"
            problems.append(document.diagnostic(["tools", index, "outputSchema"], text))
    return problems
