"""An items server, on the SDK's low-level server, that never checks its arguments: it answers
every call with a success, arguments its own input schema refuses too (the fault `conform
--fuzz` finds; its example call conforms).

    python faulty_lax.py
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext

TOOL: dict[str, Any] = {
    "name": "get_item",
    "description": "An item.",
    "annotations": {"readOnlyHint": True},
    "inputSchema": {
        "type": "object",
        "required": ["item_id"],
        "properties": {"item_id": {"type": "integer", "minimum": 1}, "kind": {"enum": ["book", "pen"]}},
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "required": ["name", "price"],
        "properties": {"name": {"type": "string"}, "price": {"type": "number"}},
    },
}


def build() -> Server[Any]:
    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(TOOL)])

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
