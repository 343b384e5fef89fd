"""A pages server, on the SDK's low-level server, with two planted faults that only
`conform --fuzz` finds: its example calls conform, and it refuses arguments its input schemas
refuse (JSON-RPC -32602), as a server should.

- `get_page` crashes (the process exits) when `page` is 100, its schema's `maximum`;
- `lookup` never answers when `deep` is true;
- `delete_page`, not read-only, works: `--fuzz` calls it only when `--call-tool` names it.

    python faulty_boundary.py [--log FILE]

With --log, the name of each tool called is appended to FILE, one a line.
"""

from __future__ import annotations

import json
import os
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
        "annotations": {"readOnlyHint": True},
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
        "annotations": {"readOnlyHint": True},
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
                os._exit(1)
            return _result({"page": arguments["page"], "items": ["a", "b"]})
        if params.name == "lookup":
            if arguments.get("deep"):  # the planted fault: a deep lookup never ends
                await anyio.sleep_forever()
            return _result({"found": arguments["text"] == "pen"})
        return _result({"deleted": True})

    return Server("pages", on_list_tools=list_tools, on_call_tool=call_tool)


async def _serve(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    log = Path(sys.argv[sys.argv.index("--log") + 1]) if "--log" in sys.argv else None
    anyio.run(_serve, build(log))


if __name__ == "__main__":
    main()
