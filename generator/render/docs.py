"""What the docs pages show besides the envelope: the catalogue and tool tables."""

from __future__ import annotations

from dataclasses import dataclass

from generator.model import Contract

_TITLES = {
    "http_status": "HTTP status",
    "jsonrpc_code": "JSON-RPC code",
    "requires_x_client": "Requires X client",
    "requires_llm": "Requires LLM",
    "requires_db": "Requires DB",
}


def column_title(name: str) -> str:
    return _TITLES.get(name, name.replace("_", " ").capitalize())


@dataclass(frozen=True, slots=True)
class TableSection:
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]
    empty_text: str


def doc_sections(contract: Contract) -> tuple[TableSection, ...]:
    """Error codes, then error types and warning codes when defined, then tools."""
    catalogue, manifest = contract.catalogue, contract.manifest
    sections = [_section("Error codes", "Code", catalogue.errors, catalogue.error_columns, "code")]
    if catalogue.error_types:
        sections.append(_section("Error types", "Error type", catalogue.error_types, catalogue.error_type_columns, "code"))
    if catalogue.warnings:
        sections.append(_section("Warning codes", "Code", catalogue.warnings, catalogue.warning_columns, "code"))
    tools = _section("Tools", "Tool", manifest.tools, manifest.columns, "name")
    if not manifest.tools:
        tools = TableSection("Tools", (), (), "This contract registers no tools.")
    sections.append(tools)
    return tuple(sections)


def _section(title: str, key_title: str, entries: tuple[object, ...], columns: tuple[str, ...], key: str) -> TableSection:
    headers = (key_title, *(column_title(c) for c in columns))
    rows = tuple((getattr(e, key), *(getattr(e, c) for c in columns)) for e in entries)
    return TableSection(title, headers, rows, "")
