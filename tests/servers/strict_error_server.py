"""An item store on the official SDK's low-level `Server` whose error results break the output
schema it lists, as a server whose schema is derived from its success type does: it lists
the success alone as `find_item`'s outputSchema, and answers a missing item with `isError`
and the error envelope in structuredContent. Strict clients (the TypeScript SDK) judge that
structuredContent by the listed schema and fail the call.

    python strict_error_server.py
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

_ITEM = {
    "type": "object",
    "required": ["id", "name"],
    "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
}
_FOUND = {"type": "object", "additionalProperties": False, "required": ["item"], "properties": {"item": _ITEM}}
_TOOL = {
    "name": "find_item",
    "title": "Find an item",
    "description": "The item with an id.",
    "inputSchema": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
    "outputSchema": _FOUND,
    "annotations": {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
}


def _result(document: dict[str, Any], *, error: bool = False) -> types.CallToolResult:
    text = types.TextContent(type="text", text=json.dumps(document))
    return types.CallToolResult(content=[text], structured_content=document, is_error=error)


def build() -> Server[Any]:
    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(_TOOL)])

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        if (params.arguments or {}).get("id") == 1:
            return _result({"item": {"id": 1, "name": "pen"}})
        return _result({"error": {"code": "not_found", "message": "No such item"}}, error=True)

    return Server("strict errors", on_list_tools=list_tools, on_call_tool=call_tool)


async def _stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(_stdio, build())
    sys.exit(0)
