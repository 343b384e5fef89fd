"""A git server on the official SDK's low-level `Server` that answers in text, the way
mcp-server-git does: no outputSchema, no structuredContent. It is what
`tests/contracts/git-text` describes, and breaks it as it is told to:

- structured-anyway: `git_status` lists an output schema and sends structuredContent too;
- image: `git_status` answers with an image block, a type it does not declare;
- not-json: `git_log` answers with git's own text, not the JSON its text_schema wants;
- hints: `git_status` says readOnlyHint false, leaves destructiveHint out (true, when
  absent) and has another title; `git_log` has no title at all;
- error-unknown: the `git_log` error is `bad_revision: ...`, a code the catalogue lacks;
- error-undeclared: `git_status` fails with `unknown_revision: ...`, which it does not declare;
- error-no-code: the `git_log` error is `Error: ...`, with no code in it.

    python text_server.py [--fault NAME]... [--http PORT-FILE]
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

_READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
_REPO = {"type": "object", "required": ["repo_path"], "properties": {"repo_path": {"type": "string"}}}
_PIXEL = base64.b64encode(bytes.fromhex("89504e470d0a1a0a")).decode()


def _tools(faults: set[str]) -> list[dict[str, Any]]:
    log_input = {**_REPO, "properties": {**_REPO["properties"], "revision": {"type": "string"}}}
    status = {"name": "git_status", "title": "Git status", "inputSchema": _REPO, "annotations": dict(_READ_ONLY)}
    log = {"name": "git_log", "title": "Git log", "inputSchema": log_input, "annotations": dict(_READ_ONLY)}
    show = {"name": "git_show", "title": "Git show", "inputSchema": _REPO, "annotations": dict(_READ_ONLY)}
    if "structured-anyway" in faults:
        status["outputSchema"] = {"type": "object", "properties": {"status": {"type": "string"}}}
    if "hints" in faults:
        status["annotations"] = {"readOnlyHint": False, "idempotentHint": True, "openWorldHint": False}
        status["title"] = "Status"
        del log["title"]
    return [status, log, show]


def _text(text: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def _answer(name: str, arguments: dict[str, Any], faults: set[str]) -> types.CallToolResult:
    if name == "git_status":
        if "error-undeclared" in faults:
            return _text("unknown_revision: HEAD does not point at a commit", error=True)
        if "image" in faults:
            return types.CallToolResult(content=[types.ImageContent(type="image", data=_PIXEL, mime_type="image/png")])
        result = _text("On branch main\nnothing to commit, working tree clean")
        if "structured-anyway" in faults:
            result.structured_content = {"status": "clean"}
        return result
    if name == "git_log":
        if arguments.get("revision") is not None:
            if "error-unknown" in faults:
                return _text(f"bad_revision: {arguments['revision']}", error=True)
            if "error-no-code" in faults:
                return _text(f"Error: ambiguous argument '{arguments['revision']}'", error=True)
            return _text(f"unknown_revision: no commit named {arguments['revision']!r}", error=True)
        if "not-json" in faults:
            return _text("commit a1b2c3d\n\n    Initial commit")
        return _text(json.dumps({"commits": [{"hash": "a1b2c3d", "message": "Initial commit"}]}))
    return types.CallToolResult(
        content=[
            types.TextContent(type="text", text="commit a1b2c3d\n\n    Initial commit"),
            types.ImageContent(type="image", data=_PIXEL, mime_type="image/png"),
        ]
    )


def build(faults: set[str]) -> Server[Any]:
    listing = [types.Tool.model_validate(tool) for tool in _tools(faults)]

    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listing)

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        return _answer(params.name, params.arguments or {}, faults)

    return Server("git in text", on_list_tools=list_tools, on_call_tool=call_tool)


async def _stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fault", action="append", default=[])
    anyio.run(_stdio, build(set(parser.parse_args().fault)))


if __name__ == "__main__":
    sys.exit(main())
