"""The shop of tests/mcp_servers.py (`get_item`, `search`) on the official SDK, every call of
which raises: the SDK writes each exception's traceback to standard error.

    python crashing_shop.py [--low-level]

On `MCPServer` (the default) a tool that raises is answered with an `isError` result ("Error
executing tool …"), its traceback logged through rich; on the low-level `Server`
(`--low-level`), which lists the same tools, a `tools/call` handler that raises is answered
with a JSON-RPC error (code 0, or -32603 at 2026-07-28), its traceback logged as plain text.
"""

from __future__ import annotations

import sys
from typing import Any, Literal

from pydantic import BaseModel
from raw_server import TOOL


class Item(BaseModel):
    name: str
    price: float


ITEM = {
    "type": "object",
    "required": ["name", "price"],
    "properties": {"name": {"type": "string"}, "price": {"type": "number"}},
}
SAFE = {"readOnlyHint": True, "openWorldHint": False}
LISTED = [
    {**TOOL, "outputSchema": ITEM},  # raw_server.py's `get_item`, beside this file, with a shorter item
    {
        "name": "search",
        "description": "Items that match.",
        "annotations": SAFE,
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
        "outputSchema": ITEM,
    },
]


def mcpserver() -> Any:
    """The shop on `MCPServer`, whose tools raise."""
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    app = MCPServer("crashing shop")

    @app.tool(description="An item.", annotations=ToolAnnotations(**SAFE))
    def get_item(item_id: int, verbose: bool = False, kind: Literal["book", "pen"] = "pen") -> Item:
        raise KeyError(item_id)

    @app.tool(description="Items that match.", annotations=ToolAnnotations(**SAFE))
    def search(text: str | None = None) -> Item:
        raise RuntimeError("the search index is gone")

    return app


def low_level() -> None:
    """The shop on the low-level `Server`, whose `tools/call` raises."""
    import anyio
    import mcp.types as types
    from mcp.server import Server, ServerRequestContext
    from mcp.server.stdio import stdio_server

    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(tool) for tool in LISTED])

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        raise RuntimeError(f"the {params.name} handler is gone")

    server = Server("crashing shop", on_list_tools=list_tools, on_call_tool=call_tool)

    async def serve() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(serve)


if __name__ == "__main__":
    if "--low-level" in sys.argv[1:]:
        low_level()
    else:
        mcpserver().run()
