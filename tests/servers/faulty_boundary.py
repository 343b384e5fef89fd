"""A pages server, on the SDK's low-level server, with two planted faults that only
`conform --fuzz` finds: its example calls conform, and it refuses arguments its input schemas
refuse (JSON-RPC -32602), as a server should.

- `get_page` crashes (the process exits) when `page` is 100, its schema's `maximum`;
- `lookup` never answers when `deep` is true;
- `delete_page`, not read-only, works: `--fuzz` calls it only when `--call-tool` names it.

    python faulty_boundary.py [--log FILE] [--http URL-FILE] [--unhandled]

With --unhandled, each fault is a plain exception its handler raises instead (a bug, as
handlers have them), which the SDK answers with error code 0 (-32603 at 2026-07-28). With
--log, the name of each tool called is appended to FILE, one a line; with --http, it serves
streamable HTTP on a free port of 127.0.0.1 and writes its URL to URL-FILE.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS

TOOLS: list[dict[str, Any]] = [
    {
        "name": "get_page",
        "description": "One page of results.",
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
        "inputSchema": {
            "type": "object",
            "required": ["page"],
            "properties": {"page": {"type": "integer", "minimum": 1, "maximum": 100}},
            "additionalProperties": False,
        },
        "outputSchema": {
            "type": "object",
            "required": ["page", "items"],
            "properties": {"page": {"type": "integer"}, "items": {"type": "array", "items": {"type": "string"}}},
        },
    },
    {
        "name": "lookup",
        "description": "Whether a text is known.",
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
        "inputSchema": {
            "type": "object",
            "required": ["text"],
            "properties": {"text": {"type": "string", "maxLength": 20}, "deep": {"type": "boolean"}},
            "additionalProperties": False,
        },
        "outputSchema": {"type": "object", "required": ["found"], "properties": {"found": {"type": "boolean"}}},
    },
    {
        "name": "delete_page",
        "description": "Delete a page.",
        "annotations": {"readOnlyHint": False},
        "inputSchema": {
            "type": "object",
            "required": ["page"],
            "properties": {"page": {"type": "integer", "minimum": 1}},
            "additionalProperties": False,
        },
        "outputSchema": {"type": "object", "required": ["deleted"], "properties": {"deleted": {"type": "boolean"}}},
    },
]


def _result(document: dict[str, Any]) -> types.CallToolResult:
    text = types.TextContent(type="text", text=json.dumps(document))
    return types.CallToolResult(content=[text], structured_content=document)


def build(log: Path | None) -> Server[Any]:
    schemas = {tool["name"]: tool["inputSchema"] for tool in TOOLS}

    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(tool) for tool in TOOLS])

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = params.arguments or {}
        if log is not None:
            with log.open("a", encoding="utf-8") as file:
                file.write(params.name + "\n")
        if params.name not in schemas:
            raise MCPError(INVALID_PARAMS, f"unknown tool {params.name!r}")
        refusal = next(iter(jsonschema.Draft202012Validator(schemas[params.name]).iter_errors(arguments)), None)
        if refusal is not None:
            raise MCPError(INVALID_PARAMS, f"invalid arguments: {refusal.message}")
        if params.name == "get_page":
            if arguments["page"] == 100:  # the planted fault: the last page ends the process
                if "--unhandled" in sys.argv[1:]:
                    raise IndexError(f"no page {arguments['page']}")
                os._exit(1)
            return _result({"page": arguments["page"], "items": ["a", "b"]})
        if params.name == "lookup":
            if arguments.get("deep"):  # the planted fault: a deep lookup never ends
                if "--unhandled" in sys.argv[1:]:
                    raise RecursionError("maximum recursion depth exceeded")
                await anyio.sleep_forever()
            return _result({"found": arguments["text"] == "pen"})
        return _result({"deleted": True})

    return Server("pages", on_list_tools=list_tools, on_call_tool=call_tool)


async def _serve(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def _http(server: Server[Any], url_file: Path) -> None:
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    http = uvicorn.Server(uvicorn.Config(server.streamable_http_app(), log_level="warning"))
    async with anyio.create_task_group() as group:
        group.start_soon(http.serve, [sock])
        while not http.started:
            await anyio.sleep(0.01)
        partial = url_file.with_suffix(".partial")  # whole or absent: the test polls for it
        partial.write_text(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", encoding="utf-8")
        partial.rename(url_file)


def _option(name: str) -> Path | None:
    return Path(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else None


def main() -> None:
    server, url_file = build(_option("--log")), _option("--http")
    if url_file is None:
        anyio.run(_serve, server)
    else:
        anyio.run(_http, server, url_file)


if __name__ == "__main__":
    main()
