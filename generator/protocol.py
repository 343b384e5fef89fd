"""The MCP protocol revisions a contract may serve, as data: what `tools/list` and
`tools/call` carry and require at each.

Every other place asks this table (the published listing, `lint`, `mock`, `conform`); none
compares revision strings itself. Each fact cites where the specification says it: the
revision's schema (`../shared/reference/mcp-spec/schema-<revision>.json`, from the
specification repository's `schema/<revision>/schema.json`) and its pages under
`https://modelcontextprotocol.io/specification/<revision>/`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Revision:
    """What one protocol revision says of tools.

    `handshake`: clients open with `initialize` (else with `server/discover` and per-request
    `_meta`). `output_schema`: a `Tool` may carry `outputSchema`, and a result
    `structuredContent`. `object_root`: that schema must say `"type": "object"` at its root
    and `structuredContent` must be an object. `title`: a `Tool` has its own `title` (else only
    `annotations.title`). `content`: the content block types a result may hold.
    `listing_requires` / `result_requires`: the fields a `tools/list` / `tools/call` result
    must have beyond `tools` / `content`. `tool_fields`: the fields a `Tool` has at this
    revision. `cites`: where each fact is written.
    """

    version: str
    handshake: bool
    output_schema: bool
    object_root: bool
    title: bool
    content: tuple[str, ...]
    listing_requires: tuple[str, ...]
    result_requires: tuple[str, ...]
    cites: tuple[tuple[str, str], ...]
    tool_fields: tuple[str, ...] = ("name", "description", "inputSchema", "annotations")
    resource_not_found: int = -32002
    # Arguments the input schema refuses: a tool execution error (an `isError` result) from
    # 2025-11-25 on (SEP-1303), a JSON-RPC error (-32602) before.
    refusal_as_result: bool = False

    @property
    def legacy(self) -> bool:
        """Whether a non-object result reaches this revision's clients only as text."""
        return not self.output_schema or self.object_root

    def accepts_output(self, always_object: bool) -> bool:
        """Whether a tool's `outputSchema` can be offered at this revision as it is."""
        return self.output_schema and (always_object or not self.object_root)


_CONTENT_2025_03 = ("text", "image", "audio", "resource")
_CONTENT = ("text", "image", "audio", "resource_link", "resource")
CONTENT_TYPES = _CONTENT
_TOOL_2025_06 = ("name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta")

REVISIONS: tuple[Revision, ...] = (
    Revision(
        version="2025-03-26",
        handshake=True,
        output_schema=False,
        object_root=False,
        title=False,
        content=_CONTENT_2025_03,
        listing_requires=(),
        result_requires=(),
        cites=(
            ("handshake", "2025-03-26/basic/lifecycle#initialization"),
            ("resource_not_found", "2025-03-26/server/resources#error-handling (-32002)"),
            ("output_schema", "schema-2025-03-26.json#/definitions/Tool (no outputSchema; no structuredContent)"),
            ("title", "schema-2025-03-26.json#/definitions/ToolAnnotations/properties/title"),
            ("content", "schema-2025-03-26.json#/definitions/CallToolResult/properties/content"),
            ("tool_fields", "schema-2025-03-26.json#/definitions/Tool/properties"),
        ),
    ),
    Revision(
        version="2025-06-18",
        handshake=True,
        output_schema=True,
        object_root=True,
        title=True,
        content=_CONTENT,
        listing_requires=(),
        result_requires=(),
        cites=(
            ("handshake", "2025-06-18/basic/lifecycle#initialization"),
            ("resource_not_found", "2025-06-18/server/resources#error-handling (-32002)"),
            ("output_schema", "2025-06-18/server/tools#output-schema"),
            ("object_root", "schema-2025-06-18.json#/definitions/Tool/properties/outputSchema (type: const object)"),
            ("object_root", "schema-2025-06-18.json#/definitions/CallToolResult/properties/structuredContent"),
            ("title", "schema-2025-06-18.json#/definitions/Tool/properties/title"),
            ("content", "schema-2025-06-18.json#/definitions/ContentBlock (adds resource_link)"),
            ("tool_fields", "schema-2025-06-18.json#/definitions/Tool/properties"),
        ),
        tool_fields=_TOOL_2025_06,
    ),
    Revision(
        version="2025-11-25",
        handshake=True,
        output_schema=True,
        object_root=True,
        title=True,
        content=_CONTENT,
        listing_requires=(),
        result_requires=(),
        cites=(
            ("handshake", "2025-11-25/basic/lifecycle#initialization"),
            ("resource_not_found", "2025-11-25/server/resources#error-handling (-32002)"),
            ("output_schema", "2025-11-25/server/tools#output-schema"),
            ("object_root", "schema-2025-11-25.json#/$defs/Tool/properties/outputSchema (restricted to type object)"),
            ("object_root", "schema-2025-11-25.json#/$defs/CallToolResult/properties/structuredContent"),
            ("title", "schema-2025-11-25.json#/$defs/Tool/properties/title"),
            ("content", "schema-2025-11-25.json#/$defs/ContentBlock"),
            ("tool_fields", "schema-2025-11-25.json#/$defs/Tool/properties"),
            ("refusal_as_result", "2025-11-25/server/tools#error-handling (input validation errors, SEP-1303)"),
        ),
        tool_fields=(*_TOOL_2025_06, "execution", "icons"),
        refusal_as_result=True,
    ),
    Revision(
        version="2026-07-28",
        handshake=False,
        output_schema=True,
        object_root=False,
        title=True,
        content=_CONTENT,
        listing_requires=("resultType", "ttlMs", "cacheScope"),
        result_requires=("resultType",),
        cites=(
            ("handshake", "2026-07-28/basic/versioning (server/discover, `_meta` on every request)"),
            ("output_schema", "2026-07-28/server/tools#output-schema (any JSON Schema 2020-12)"),
            ("object_root", "2026-07-28/server/tools#structured-content (any JSON value)"),
            ("legacy", "SEP-2106, Backward Compatibility: non-object structuredContent also as serialized TextContent"),
            ("listing_requires", "schema-2026-07-28.json#/$defs/ListToolsResult/required"),
            ("result_requires", "schema-2026-07-28.json#/$defs/CallToolResult/required"),
            ("title", "schema-2026-07-28.json#/$defs/Tool/properties/title"),
            ("tool_fields", "schema-2026-07-28.json#/$defs/Tool/properties (no execution)"),
            ("resource_not_found", "2026-07-28 retires -32002 (the SDK's mcp_types.jsonrpc): invalid params"),
            ("refusal_as_result", "2026-07-28/server/tools#error-handling (input validation errors)"),
        ),
        tool_fields=(*_TOOL_2025_06, "icons"),
        resource_not_found=-32602,
        refusal_as_result=True,
    ),
)

VERSIONS: tuple[str, ...] = tuple(r.version for r in REVISIONS)
# The fields of a `Tool` some revisions define and others do not (`_meta`, `execution`...):
# a tool lists one only at a revision that defines it. A field no revision defines is the
# server's own, listed at every revision.
VERSIONED_TOOL_FIELDS = frozenset(f for r in REVISIONS for f in r.tool_fields) - frozenset.intersection(
    *(frozenset(r.tool_fields) for r in REVISIONS)
)
BY_VERSION: dict[str, Revision] = {r.version: r for r in REVISIONS}


def revision(version: str) -> Revision:
    """The revision of `version`; KeyError for one this table does not know."""
    return BY_VERSION[version]


def served_as(version: str) -> Revision:
    """The revision a server answers a client of `version` as: its own, or for one this table
    does not know (2024-11-05, say, which the MCP SDK still negotiates) the newest revision
    before it, else the oldest. Revisions are dates, so their order is the strings' order."""
    if version in BY_VERSION:
        return BY_VERSION[version]
    older = [r for r in REVISIONS if r.version < version]
    return older[-1] if older else REVISIONS[0]
