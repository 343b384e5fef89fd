"""Enum tables: what `errors.py` renders for each catalogue section.

A catalogue section (error codes, error types, warning codes) becomes a str enum, a
frozen dataclass of its metadata, a read-only table and a lookup. Names, type hints
and values are decided here; the template only places them.

Each row's enum member and table entry are written here in their final form, as the pinned
black writes them (a string too long for its line is put in parentheses on a line of its
own when it fits there; a tuple too long for its line gets one item a line), so that no
formatter runs over a catalogue of thousands of codes (black would take 16 s more for
10,000: BENCHMARKS.md row 3.1). `tests/test_black_stable.py` fails when this form drifts
from black's. That form is black's behaviour, and `str_width` no documented name of it: on
a black other than the release it is tested on (`FORM_TESTED_ON`), black writes each row
itself, through its public `format_str` (`EMULATED` is False).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import version

import black

from ..model import Catalogue, Table
from ..naming import flag_set_name, member_name
from .escape import EnumRef, py
from .python_format import BLACK_MODE

FORM_TESTED_ON = "26.10.1"
try:
    from black.strings import str_width
except ImportError:  # pragma: no cover - a black that moved it: the public path
    EMULATED = False
else:
    EMULATED = version("black") == FORM_TESTED_ON

_WIDTH = BLACK_MODE.line_length

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
    member_line: str  # `    MEMBER = "code"` in the enum, as black writes it
    entry: str  # the row's lines in the table, as black writes them


def _member_line(member: str, code: str) -> str:
    line = f"    {member} = {py(code)}"
    if not EMULATED:
        return _by_black("class E:\n", line, "\n")
    if str_width(line) <= _WIDTH or str_width(f"        {py(code)}") > _WIDTH:
        return line
    return f"    {member} = (\n        {py(code)}\n    )"


def _argument(name: str, value: object) -> str:
    """`name=value,` in a table entry (indented 12), as black writes it."""
    line = f"            {name}={py(value)},"
    if not EMULATED or str_width(line) <= _WIDTH or not isinstance(value, tuple) or not value:
        return line
    items = "".join(f"                {py(item)},\n" for item in value)
    return f"            {name}=(\n{items}            ),"


def _entry(enum_name: str, info_name: str, key: str, member: str, values: tuple[tuple[str, object], ...]) -> str:
    lines = [f"        {enum_name}.{member}: {info_name}(", f"            {key}={enum_name}.{member},"]
    lines += (_argument(name, value) for name, value in values)
    lines.append("        ),")
    entry = "\n".join(lines)
    return entry if EMULATED else _by_black("T = MappingProxyType(\n    {\n", entry, "\n    }\n)\n")


def _by_black(head: str, lines: str, tail: str) -> str:
    """`lines` as black writes them between `head` and `tail` (the public path)."""
    written = black.format_str(head + lines + tail, mode=BLACK_MODE)
    return written[len(head) : len(written) - len(tail)]


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


def _table(section: Section) -> EnumTable:
    table, what, enum_columns = section.table, section.what, section.enum_columns
    enum_name, info_name, table_name, lookup_name, key = section.names
    defined = table.defined
    typed = []
    for column in defined:
        base = enum_columns.get(column.name, _PYTHON_TYPES[column.type])
        typed.append(Column(column.name, f"{base} | None" if column.name in table.sparse else base))
    rows = []
    for entry in table.entries:
        values: list[tuple[str, object]] = []
        for column in defined:
            value = entry.get(column.name)
            if column.name in enum_columns and value is not None:
                value = EnumRef(enum_columns[column.name], member_name(value))
            values.append((column.name, value))
        member_line = _member_line(entry.member, entry.code)
        rows.append(Row(member_line, _entry(enum_name, info_name, key, entry.member, tuple(values))))
    flag_sets = tuple(
        FlagSet(section.flag_set(column.name), tuple(e.member for e in table.entries if e.get(column.name) is True))
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


# (enum, info class, table, lookup, key): the names of a section's declarations, in Python.
Names = tuple[str, str, str, str, str]


@dataclass(frozen=True, slots=True)
class Section:
    """A catalogue section the generated code declares: its table, names, what one entry is,
    and the columns whose values are members of another section's enum (column -> enum)."""

    table: Table
    names: Names
    what: str
    enum_columns: dict[str, str]
    entries: str = "codes"  # what the section's `<COLUMN>_...` sets are named after

    def flag_set(self, column: str) -> str:
        """The name of the set of entries whose boolean `column` is true."""
        return flag_set_name(column, self.entries)


def sections(catalogue: Catalogue) -> tuple[Section, ...]:
    """The sections of one catalogue that the generated code declares (Python and TypeScript
    alike): error types first, since error codes refer to them; error codes always."""
    found = []
    type_refs: dict[str, str] = {}
    if catalogue.error_types.entries:
        names = ("ErrorType", "ErrorTypeInfo", "ERROR_TYPES", "error_type_info", "name")
        found.append(Section(catalogue.error_types, names, "error type", {}, "error types"))
        type_refs = {"error_type": "ErrorType"}
    found.append(
        Section(catalogue.errors, ("ErrorCode", "ErrorInfo", "ERRORS", "error_info", "code"), "error code", type_refs)
    )
    if catalogue.warnings.entries:
        names = ("WarningCode", "WarningInfo", "WARNINGS", "warning_info", "code")
        found.append(Section(catalogue.warnings, names, "warning code", {}, "warning codes"))
    return tuple(found)


def enum_tables(catalogue: Catalogue) -> tuple[EnumTable, ...]:
    """The Python tables of one catalogue (see `sections`)."""
    return tuple(_table(s) for s in sections(catalogue))
