"""What the docs pages show: catalogue and tool tables with anchors, examples, the index.

Every cell is a sequence of `TypePart`s: text that the template escapes, optionally a
link. Anchors are derived here from codes and names, lower case and limited to
`[a-z0-9._-]`, so they are safe as HTML ids and stable across runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..model import Contract, Entry, Project, TypePart
from ..naming import slug

_TITLES = {
    "http_status": "HTTP status",
    "jsonrpc_code": "JSON-RPC code",
    "requires_x_client": "Requires X client",
    "requires_llm": "Requires LLM",
    "requires_db": "Requires DB",
}

Cell = tuple[TypePart, ...]


def column_title(name: str) -> str:
    return _TITLES.get(name, name.replace("_", " ").capitalize())


def error_anchor(code: str) -> str:
    return f"error-{slug(code)}"


def error_type_anchor(name: str) -> str:
    return f"error-type-{slug(name)}"


@dataclass(frozen=True, slots=True)
class Row:
    anchor: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class TableSection:
    title: str
    headers: tuple[str, ...]
    rows: tuple[Row, ...]
    empty_text: str


@dataclass(frozen=True, slots=True)
class ExampleBlock:
    name: str
    fence: str
    text: str


@dataclass(frozen=True, slots=True)
class IndexEntry:
    name: str
    page: str
    title: str
    version: str
    summary: str
    fields: int
    error_codes: int
    tools: int


def _text(value: object) -> Cell:
    if value is None:
        return ()
    if isinstance(value, bool):
        return (TypePart("yes" if value else "no"),)
    if isinstance(value, tuple):
        return (TypePart(", ".join(str(v) for v in value)),)
    return (TypePart(str(value)),)


def _links(values: tuple[str, ...] | None, make_anchor: Callable[[str], str]) -> Cell:
    if not values:
        return ()
    parts: list[TypePart] = []
    for index, value in enumerate(values):
        if index:
            parts.append(TypePart(", "))
        parts.append(TypePart(value, make_anchor(value)))
    return tuple(parts)


def _rows(
    entries: tuple[Entry, ...], columns: tuple[str, ...], prefix: str, linked: Mapping[str, Callable[[str], str]]
) -> tuple[Row, ...]:
    rows = []
    for entry in entries:
        cells: list[Cell] = [(TypePart(entry.code),)]
        for column in columns:
            value = getattr(entry, column)
            cells.append(_links((value,), linked[column]) if column in linked and value else _text(value))
        rows.append(Row(f"{prefix}-{slug(entry.code)}", tuple(cells)))
    return tuple(rows)


def doc_sections(contract: Contract) -> tuple[TableSection, ...]:
    """Error codes, then error types and warning codes when defined, then tools."""
    catalogue, manifest = contract.catalogue, contract.manifest
    type_links = {"error_type": error_type_anchor} if catalogue.error_types else {}
    sections = [
        TableSection(
            "Error codes",
            ("Code", *(column_title(c) for c in catalogue.error_columns)),
            _rows(catalogue.errors, catalogue.error_columns, "error", type_links),
            "This contract defines no error codes.",
        )
    ]
    if catalogue.error_types:
        headers = ("Error type", *(column_title(c) for c in catalogue.error_type_columns))
        rows = _rows(catalogue.error_types, catalogue.error_type_columns, "error-type", {})
        sections.append(TableSection("Error types", headers, rows, ""))
    if catalogue.warnings:
        headers = ("Code", *(column_title(c) for c in catalogue.warning_columns))
        sections.append(
            TableSection(
                "Warning codes", headers, _rows(catalogue.warnings, catalogue.warning_columns, "warning", {}), ""
            )
        )
    tool_rows = tuple(
        Row(
            f"tool-{slug(tool.name)}",
            (
                (TypePart(tool.name),),
                *(
                    _links(tool.possible_error_codes, error_anchor)
                    if c == "possible_error_codes"
                    else _text(getattr(tool, c))
                    for c in manifest.columns
                ),
            ),
        )
        for tool in manifest.tools
    )
    headers = ("Tool", *(column_title(c) for c in manifest.columns))
    sections.append(TableSection("Tools", headers, tool_rows, "This contract registers no tools."))
    return tuple(sections)


def example_blocks(contract: Contract) -> tuple[ExampleBlock, ...]:
    """Each example as a fenced JSON block whose fence no backtick run inside can close."""
    blocks = []
    for example in contract.examples:
        longest = max((len(run) for run in re.findall(r"`+", example.text)), default=0)
        blocks.append(ExampleBlock(example.name, "`" * max(3, longest + 1), example.text))
    return tuple(blocks)


def field_count(contract: Contract) -> int:
    """Fields of the object definitions (a union's merged table repeats its variants')."""
    return sum(len(d.fields) for d in contract.definitions if not d.variants)


def index_entries(project: Project) -> tuple[IndexEntry, ...]:
    return tuple(
        IndexEntry(
            name=c.name,
            page=f"{c.name}.md",
            title=c.title,
            version=c.version,
            summary=c.summary,
            fields=field_count(c),
            error_codes=len(c.catalogue.errors),
            tools=len(c.manifest.tools),
        )
        for c in project.contracts
    )
