"""A code scanner, on the SDK's low-level server, that cannot scan anything: every call gets an
error result with the envelope of `init`'s contract (`example_error`) in its text. Its fault:
the message quotes the code it was given, which `secret_arguments: [code]` forbids (seed 000:
"Error responses MUST NOT include code contents"); `conform` finds it on the example call and
`conform --fuzz` on drawn code. With `--clean` the message names no code: nothing is found.

    python faulty_echo.py            # quotes the code
    python faulty_echo.py --clean    # does not
    python faulty_echo.py --rpc      # quotes it in a JSON-RPC error (-32602) instead
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS

TOOL: dict[str, Any] = {
    "name": "scan",
    "description": "Scans code for dangerous calls.",
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
    "inputSchema": {
        "type": "object",
        "required": ["code"],
        "properties": {"code": {"type": "string"}},
        "additionalProperties": False,
    },
}


def build() -> Server[Any]:
    listed = [types.Tool.model_validate(TOOL)]
    clean = "--clean" in sys.argv[1:]

    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        code = (params.arguments or {}).get("code")
        said = "the code given does not parse" if clean else f"cannot parse {code!r}"  # the planted fault
        if "--rpc" in sys.argv[1:]:
            raise MCPError(INVALID_PARAMS, said)
        envelope = {"success": False, "error": {"code": "example_error", "message": said}}
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(envelope))], is_error=True)

    return Server("echoing scanner", on_list_tools=list_tools, on_call_tool=call_tool)


async def _serve(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(_serve, build())
