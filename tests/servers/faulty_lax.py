"""An items server, on the SDK's low-level server, that never checks its arguments: it answers
every call with a success, arguments its own input schema refuses too (the fault `conform
--fuzz` finds; its example call conforms).

    python faulty_lax.py              # get_item
    python faulty_lax.py --keywords   # a tool per keyword each schema holds by (`KEYWORDS`)
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext

OUTPUT: dict[str, Any] = {
    "type": "object",
    "required": ["name", "price"],
    "properties": {"name": {"type": "string"}, "price": {"type": "number"}},
}

TOOL: dict[str, Any] = {
    "name": "get_item",
    "description": "An item.",
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
    "inputSchema": {
        "type": "object",
        "required": ["item_id"],
        "properties": {"item_id": {"type": "integer", "minimum": 1}, "kind": {"enum": ["book", "pen"]}},
        "additionalProperties": False,
    },
    "outputSchema": OUTPUT,
}

# Input schemas that only the keyword a tool is named by can break (`dependent_schemas`: one
# that `conform --fuzz` has no mutation for, and says so).
KEYWORDS: dict[str, dict[str, Any]] = {
    "by_not": {"type": "object", "not": {"required": ["admin"]}},
    "by_if_then": {"type": "object", "if": {"required": ["courier"]}, "then": {"required": ["address"]}},
    "by_min_properties": {"type": "object", "minProperties": 1},
    "by_property_names": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
    "by_pattern_properties": {"type": "object", "patternProperties": {"^x_": {"type": "integer"}}},
    "by_dependent_required": {"type": "object", "dependentRequired": {"card": ["cvv"]}},
    "dependent_schemas": {"type": "object", "dependentSchemas": {"card": {"required": ["cvv"]}}},
}


def tools() -> list[dict[str, Any]]:
    if "--keywords" not in sys.argv[1:]:
        return [TOOL]
    hint = {"readOnlyHint": True, "openWorldHint": False}
    return [
        {"name": n, "description": "An item.", "annotations": hint, "inputSchema": s, "outputSchema": OUTPUT}
        for n, s in KEYWORDS.items()
    ]


def build() -> Server[Any]:
    listed = [types.Tool.model_validate(tool) for tool in tools()]

    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        document = {"name": "pen", "price": 1.5}  # whatever it was asked
        text = types.TextContent(type="text", text=json.dumps(document))
        return types.CallToolResult(content=[text], structured_content=document)

    return Server("lax items", on_list_tools=list_tools, on_call_tool=call_tool)


async def _serve(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(_serve, build())
