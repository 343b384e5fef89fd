"""What the docs pages show: catalogue and tool tables with anchors, the contents of JSON
resources, examples, the index.

Every cell is a sequence of `TypePart`s: text that the template escapes, optionally a
link. Anchors come from codes and names by `naming`, lower case and limited to
`[a-z0-9._-]`, so they are safe as HTML ids and stable across runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from ..model import Contract, Project, Table
from ..naming import contents_anchor, error_anchor, error_type_anchor, row_anchor
from .describe import Definition, describe_schema
from .describe_words import TypePart, joined
from .escape import json_controls, md, prose
from .json_text import json_block, json_line

Cell = tuple[TypePart, ...]


@dataclass(frozen=True, slots=True)
class Row:
    anchor: str
    cells: tuple[Cell, ...]

    @property
    def line(self) -> str:
        """The row as a Markdown table line, its anchor in the first cell, every text escaped
        (`md`, or `prose`): a catalogue of thousands of rows is written here, not cell by cell
        in Jinja."""
        out = ["|"]
        for index, cell in enumerate(self.cells):
            out.append(f' <a id="{self.anchor}"></a>' if index == 0 else " ")
            out += (_part_text(part) for part in cell)
            out.append(" |")
        return "".join(out)

    def details_line(self, headers: tuple[str, ...]) -> str:
        """The row as a line of a Key | Details table: its first cell, then each other cell
        that is set, one a line, after its column's title."""
        out = [f'| <a id="{self.anchor}"></a>', *(_part_text(part) for part in self.cells[0]), " |"]
        shown = [index for index in range(1, len(headers)) if self.cells[index]]
        for place, index in enumerate(shown):
            out.append(f"{'<br>' if place else ''} **{md(headers[index])}:** ")
            out += (_part_text(part) for part in self.cells[index])
        out.append(" |")
        return "".join(out)


def _part_text(part: TypePart) -> str:
    if part.anchor:
        return f"[{md(part.text)}](#{part.anchor})"
    return prose(part.text) if part.prose else md(part.text)


# The most columns a docs table shows side by side: five or more (a tool's arguments, examples,
# error codes...), each as wide as its longest identifier, did not fit the theme's column at
# 1,280 px. Such a table is Key | Details instead (`Row.details_line`).
WIDEST_TABLE = 4


@dataclass(frozen=True, slots=True)
class TableSection:
    title: str
    headers: tuple[str, ...]
    rows: tuple[Row, ...]
    empty_text: str
    legend: tuple[tuple[str, str], ...] = ()  # (column title, what the column means)

    @property
    def shown_headers(self) -> tuple[str, ...]:
        """The titles of the columns the table shows."""
        return self.headers if len(self.headers) <= WIDEST_TABLE else (self.headers[0], "Details")

    @property
    def lines(self) -> tuple[str, ...]:
        """A Markdown line a row, as the table shows it (`shown_headers`)."""
        if len(self.headers) <= WIDEST_TABLE:
            return tuple(row.line for row in self.rows)
        return tuple(row.details_line(self.headers) for row in self.rows)


@dataclass(frozen=True, slots=True)
class ContentsSection:
    """What the contents of a JSON resource or template are: its name, URI (or URI template),
    the row of its table it links back to, and its schema's definitions, the root first."""

    name: str
    uri: str
    row: str
    definitions: tuple[Definition, ...]


def contents_sections(contract: Contract) -> tuple[ContentsSection, ...]:
    """Each JSON resource, then each template, with a `schema:`, in resources.yaml's order."""
    surface = contract.surface
    return tuple(
        ContentsSection(
            r.name,
            r.uri,
            row_anchor(kind, r.uri),
            describe_schema(r.view, r.bundle, partial(contents_anchor, r.name)),
        )
        for kind, entries in (("resources", surface.resources), ("templates", surface.templates))
        for r in entries
        if r.view is not None and r.bundle is not None
    )


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
    if isinstance(value, tuple) and all(isinstance(v, dict) for v in value):  # a tool's example calls
        return (TypePart("; ".join(_call(v) for v in value)),)
    if isinstance(value, tuple):
        return (TypePart(", ".join(str(v) for v in value)),)
    if isinstance(value, dict) and not any(key in value for key in ("type", "properties", "$ref")):
        return (TypePart(", ".join(f"{key}: {_plain(item)}" for key, item in value.items())),)  # hints, a result
    if isinstance(value, dict):  # an MCP input or output schema: its properties
        properties = value.get("properties")
        required = set(value.get("required", []))
        if not isinstance(properties, dict) or not properties:
            return (TypePart("object"),)
        return (TypePart(", ".join(f"{name}{'' if name in required else '?'}" for name in properties)),)
    return (TypePart(value, prose=True),) if isinstance(value, str) else (TypePart(str(value)),)


def _plain(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return "schema" if isinstance(value, dict) else str(value)


def _call(example: dict[str, object]) -> str:
    """An example call as docs show it: its arguments as JSON, and the example that answers."""
    arguments = json_line(example["arguments"], sort_keys=True)
    return f"{arguments} → {example['result']}" if example.get("result") else arguments


def _section(
    title: str, key_title: str, table: Table, name: str, linked: Mapping[str, Callable[[str], str]], empty: str
) -> TableSection:
    """One catalogue or tool table: a row per entry, a column per column some entry sets."""
    columns = table.defined
    rows = []
    for entry in table.entries:
        cells: list[Cell] = [(TypePart(entry.code),)]
        for column in columns:
            value = entry.get(column.name)
            if column.name in linked and value:
                anchor = linked[column.name]
                values = value if isinstance(value, tuple) else (value,)
                cells.append(joined([(TypePart(v, anchor(v)),) for v in values], ", "))
            else:
                cells.append(_text(value))
        rows.append(Row(row_anchor(name, entry.code), tuple(cells)))
    headers = (key_title, *(c.title for c in columns))
    return TableSection(title, headers, tuple(rows), empty, tuple((c.title, c.description) for c in columns))


def doc_sections(contract: Contract) -> tuple[TableSection, ...]:
    """Error codes, then error types and warning codes when defined, then tools."""
    catalogue, manifest = contract.catalogue, contract.manifest
    type_links = {"error_type": error_type_anchor} if catalogue.error_types.entries else {}
    sections = [
        _section("Error codes", "Code", catalogue.errors, "errors", type_links, "This contract defines no error codes.")
    ]
    if catalogue.error_types.entries:
        sections.append(_section("Error types", "Error type", catalogue.error_types, "error_types", {}, ""))
    if catalogue.warnings.entries:
        sections.append(_section("Warning codes", "Code", catalogue.warnings, "warnings", {}, ""))
    links = {"possible_error_codes": error_anchor}
    sections.append(_section("Tools", "Tool", manifest.tools, "tools", links, "This contract registers no tools."))
    return (*sections, *_surface_sections(contract))


def _surface_sections(contract: Contract) -> tuple[TableSection, ...]:
    """Resources, resource templates and prompts, each when the contract declares some."""
    surface = contract.surface
    sections = []
    headers: tuple[str, ...]
    if surface.resources:
        headers = ("URI", "Name", "Title", "Media type", "Size", "Description")
        rows = tuple(
            _listing_row("resources", r.uri, r.listing, ("name", "title", "mimeType", "size", "description"))
            for r in surface.resources
        )
        sections.append(TableSection("Resources", headers, rows, ""))
    if surface.templates:
        headers = ("URI template", "Name", "Title", "Media type", "Description")
        rows = tuple(
            _listing_row("templates", t.uri, t.listing, ("name", "title", "mimeType", "description"))
            for t in surface.templates
        )
        sections.append(TableSection("Resource templates", headers, rows, ""))
    if surface.prompts:
        headers = ("Prompt", "Title", "Arguments", "Description")
        rows = tuple(
            Row(
                row_anchor("prompts", p.name),
                (
                    (TypePart(p.name),),
                    _text(p.listing.get("title")),
                    (TypePart(", ".join(a.name + ("" if a.required else "?") for a in p.arguments)),),
                    _text(p.listing.get("description")),
                ),
            )
            for p in surface.prompts
        )
        legend = (("Arguments", "each argument a client gives; `?` marks one it may leave out"),)
        sections.append(TableSection("Prompts", headers, rows, "", legend))
    return tuple(sections)


def _listing_row(kind: str, key: str, listing: Mapping[str, object], fields: tuple[str, ...]) -> Row:
    return Row(row_anchor(kind, key), ((TypePart(key),), *(_text(listing.get(name)) for name in fields)))


def example_blocks(contract: Contract) -> tuple[ExampleBlock, ...]:
    """Each example as a fenced JSON block whose fence no backtick run inside can close, and
    that holds no raw control character (DEL and C1 as JSON writes the others, `\\u007f`)."""
    blocks = []
    for example in contract.examples:
        text = json_controls(json_block(example.value))
        longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
        blocks.append(ExampleBlock(example.name, "`" * max(3, longest + 1), text))
    return tuple(blocks)


def index_entries(project: Project, definitions: Mapping[str, tuple[Definition, ...]]) -> tuple[IndexEntry, ...]:
    """The index page's row of each contract; `definitions` are those of each contract's page."""
    return tuple(
        IndexEntry(
            name=c.name,
            page=f"{c.name}.md",
            title=c.title,
            version=c.version,
            summary=c.summary,
            # the fields of the object definitions (a union's merged table repeats its variants')
            fields=sum(len(d.fields) for d in definitions[c.name] if not d.variants),
            error_codes=len(c.catalogue.errors.entries),
            tools=len(c.manifest.tools.entries),
        )
        for c in project.contracts
    )
