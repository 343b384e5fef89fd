"""Enum tables: what `errors.py` renders for each catalogue section.

A catalogue section (error codes, error types, warning codes) becomes a str enum, a
frozen dataclass of its metadata, a read-only table and a lookup. Names, type hints
and values are decided here; the template only places them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Catalogue, Table
from ..naming import flag_set_name, member_name
from .escape import EnumRef

# The Python type of a column's values, by its JSON type.
_PYTHON_TYPES = {
    "string": "str",
    "integer": "int",
    "number": "int | float",
    "boolean": "bool",
    "array": "tuple[str, ...]",
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
class FlagSet:
    """The members whose boolean column is true, as `<COLUMN>_CODES`."""

    name: str
    members: tuple[str, ...]


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
    flag_sets: tuple[FlagSet, ...]


def _table(
    table: Table,
    names: tuple[str, str, str, str, str],
    what: str,
    enum_columns: dict[str, str],
) -> EnumTable:
    enum_name, info_name, table_name, lookup_name, key = names
    defined = table.defined
    typed = []
    for column in defined:
        base = enum_columns.get(column.name, _PYTHON_TYPES[column.type])
        optional = any(e.get(column.name) is None for e in table.entries)
        typed.append(Column(column.name, f"{base} | None" if optional else base))
    rows = []
    for entry in table.entries:
        values: list[tuple[str, object]] = []
        for column in defined:
            value = entry.get(column.name)
            if column.name in enum_columns and value is not None:
                value = EnumRef(enum_columns[column.name], member_name(value))
            values.append((column.name, value))
        rows.append(Row(entry.member, entry.code, tuple(values)))
    flag_sets = tuple(
        FlagSet(flag_set_name(column.name), tuple(e.member for e in table.entries if e.get(column.name) is True))
        for column in defined
        if column.type == "boolean"
    )
    return EnumTable(
        enum_name=enum_name,
        enum_doc=f"The {len(table.entries)} {what}s of the catalogue.",
        info_name=info_name,
        info_doc=f"Metadata of one {what}.",
        key=key,
        table_name=table_name,
        lookup_name=lookup_name,
        lookup_doc=f"The metadata of a {what}; KeyError for one the catalogue lacks.",
        columns=tuple(typed),
        rows=tuple(rows),
        flag_sets=flag_sets,
    )


def enum_tables(catalogue: Catalogue) -> tuple[EnumTable, ...]:
    """The tables of one catalogue: error types first, since error codes refer to them."""
    tables = []
    type_refs: dict[str, str] = {}
    if catalogue.error_types.entries:
        names = ("ErrorType", "ErrorTypeInfo", "ERROR_TYPES", "error_type_info", "name")
        tables.append(_table(catalogue.error_types, names, "error type", {}))
        type_refs = {"error_type": "ErrorType"}
    names = ("ErrorCode", "ErrorInfo", "ERRORS", "error_info", "code")
    tables.append(_table(catalogue.errors, names, "error code", type_refs))
    if catalogue.warnings.entries:
        names = ("WarningCode", "WarningInfo", "WARNINGS", "warning_info", "code")
        tables.append(_table(catalogue.warnings, names, "warning code", {}))
    return tuple(tables)
