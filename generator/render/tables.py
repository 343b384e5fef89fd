"""Enum tables: what `errors.py` renders for each catalogue section.

A catalogue section (error codes, error types, warning codes) becomes a str enum, a
frozen dataclass of its metadata, a read-only table and a lookup. Names, type hints
and values are decided here; the template only places them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Catalogue, Entry
from ..naming import member_name
from .escape import EnumRef

_COLUMN_TYPES = {
    "category": "str",
    "error_type": "str",
    "retryable": "bool",
    "http_status": "int",
    "jsonrpc_code": "int",
    "message": "str",
    "remediation": "str",
    "description": "str",
    "retry": "str",
    "retry_advice": "str",
    "severity": "str",
}


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type_hint: str


@dataclass(frozen=True, slots=True)
class Row:
    member: str
    code: str
    values: tuple[tuple[str, object], ...]


@dataclass(frozen=True, slots=True)
class EnumTable:
    enum_name: str
    enum_doc: str
    info_name: str
    info_doc: str
    key: str
    table_name: str
    lookup_name: str
    lookup_doc: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    retryable_members: tuple[str, ...] | None


def _table(
    entries: tuple[Entry, ...],
    columns: tuple[str, ...],
    names: tuple[str, str, str, str, str],
    what: str,
    enum_columns: dict[str, str],
) -> EnumTable:
    enum_name, info_name, table_name, lookup_name, key = names
    typed = []
    for column in columns:
        base = enum_columns.get(column, _COLUMN_TYPES[column])
        optional = any(getattr(e, column) is None for e in entries)
        typed.append(Column(column, f"{base} | None" if optional else base))
    rows = []
    for entry in entries:
        values: list[tuple[str, object]] = []
        for column in columns:
            value = getattr(entry, column)
            if column in enum_columns and value is not None:
                value = EnumRef(enum_columns[column], member_name(value))
            values.append((column, value))
        rows.append(Row(entry.member, entry.code, tuple(values)))
    return EnumTable(
        enum_name=enum_name,
        enum_doc=f"The {len(entries)} {what}s of the catalogue.",
        info_name=info_name,
        info_doc=f"Metadata of one {what}.",
        key=key,
        table_name=table_name,
        lookup_name=lookup_name,
        lookup_doc=f"The metadata of a {what}; KeyError for one the catalogue lacks.",
        columns=tuple(typed),
        rows=tuple(rows),
        retryable_members=(
            tuple(e.member for e in entries if getattr(e, "retryable", None)) if "retryable" in columns else None
        ),
    )


def enum_tables(catalogue: Catalogue) -> tuple[EnumTable, ...]:
    """The tables of one catalogue: error types first, since error codes refer to them."""
    tables = []
    type_refs: dict[str, str] = {}
    if catalogue.error_types:
        names = ("ErrorType", "ErrorTypeInfo", "ERROR_TYPES", "error_type_info", "name")
        tables.append(_table(catalogue.error_types, catalogue.error_type_columns, names, "error type", {}))
        type_refs = {"error_type": "ErrorType"}
    names = ("ErrorCode", "ErrorInfo", "ERRORS", "error_info", "code")
    tables.append(_table(catalogue.errors, catalogue.error_columns, names, "error code", type_refs))
    if catalogue.warnings:
        names = ("WarningCode", "WarningInfo", "WARNINGS", "warning_info", "code")
        tables.append(_table(catalogue.warnings, catalogue.warning_columns, names, "warning code", {}))
    return tuple(tables)
