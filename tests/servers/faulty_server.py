"""A TuitBot MCP server on the official SDK that breaks its contract as it is told to.

Without faults it lists the contract's tools as `generated/mcp/tuitbot.tools.json` has them
and answers each example call with its example, so that every finding `conform` reports
against it comes from a fault given with `--fault`:

- extra-tool: lists a tool the contract lacks;
- missing-tool: leaves `get_stats` out;
- input-required: `x_post_tweet` requires a `media` argument too;
- wrong-envelope: the first `x_post_tweet` example is answered without `data`;
- wrong-retryable: a `policy_denied_blocked` error comes with `retryable: true`;
- undeclared-code: `x_post_tweet` fails with `db_error`, which it does not declare;
- is-error: the `x_post_tweet` error answers come with `isError: false`;
- hang: `get_reply_count_today` never answers;
- duplicate-tool: lists `get_stats` twice;
- endless-list: every page of `tools/list` has a `nextCursor` (the ones after the first, no tools);
- odd-schemas: `x_post_tweet`'s input schema requires an object, and `get_stats`'s output
  schema has an `$id` that is no URI;
- crash: the process ends at once when `x_post_tweet` is called;
- no-hint: `get_stats` is listed without its annotations (readOnlyHint absent is false);
- needs-env: the process ends at once unless FAULTY_SERVER_TOKEN is set (stdio);
- needs-token: HTTP requests without `Authorization: Bearer secret` get 401.

    python faulty_server.py ROOT [--fault NAME]... [--http PORT-FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from ruamel.yaml import YAML


def _load(root: Path) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    tools = json.loads((root / "generated" / "mcp" / "tuitbot.tools.json").read_text(encoding="utf-8"))["tools"]
    folder = root / "schemas" / "contracts" / "tuitbot" / "examples"
    examples = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}
    manifest = YAML(typ="safe").load((root / "schemas" / "contracts" / "tuitbot" / "tools.yaml").read_text("utf-8"))
    return tools, examples, manifest["tools"]


def _faulty(document: Any, call: int, faults: set[str]) -> tuple[Any, bool]:
    document = json.loads(json.dumps(document))
    is_error = document.get("success") is False
    if "wrong-envelope" in faults and call == 0:
        del document["data"]
    if "wrong-retryable" in faults and is_error and document["error"]["code"] == "policy_denied_blocked":
        document["error"]["retryable"] = True
    if "undeclared-code" in faults and is_error and document["error"]["code"] == "x_rate_limited":
        document["error"] = {"code": "db_error", "message": "Database operation failed", "retryable": True}
    if "is-error" in faults and is_error:
        is_error = False
    return document, is_error


def build(root: Path, faults: set[str]) -> Server[Any]:
    tools, examples, manifest = _load(root)
    calls = {t["name"]: [(c["arguments"], examples[c["result"]]) for c in t.get("examples", [])] for t in manifest}
    listing = [t for t in tools if not ("missing-tool" in faults and t["name"] == "get_stats")]
    for tool in listing:
        if "input-required" in faults and tool["name"] == "x_post_tweet":
            tool["inputSchema"] = {**tool["inputSchema"], "required": ["text", "media"]}
        if "odd-schemas" in faults and tool["name"] == "x_post_tweet":
            tool["inputSchema"] = {**tool["inputSchema"], "required": [{"text": True}]}
        if "no-hint" in faults and tool["name"] == "get_stats":
            tool.pop("annotations", None)
        if "odd-schemas" in faults and tool["name"] == "get_stats":
            tool["outputSchema"] = {**tool["outputSchema"], "$id": "http://["}
    if "extra-tool" in faults:
        listing.append({"name": "x_extra_tool", "inputSchema": {"type": "object"}})
    if "duplicate-tool" in faults:
        listing.append(next(t for t in listing if t["name"] == "get_stats"))

    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        first = params is None or params.cursor is None
        tools = [types.Tool.model_validate(t) for t in listing] if first else []
        return types.ListToolsResult(tools=tools, next_cursor="more" if "endless-list" in faults else None)

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        if "hang" in faults and params.name == "get_reply_count_today":
            await anyio.sleep_forever()
        if "crash" in faults and params.name == "x_post_tweet":
            os._exit(3)
        known = calls.get(params.name, [])
        index = next((i for i, (arguments, _) in enumerate(known) if arguments == (params.arguments or {})), 0)
        if not known:
            return types.CallToolResult(content=[types.TextContent(type="text", text="no example")], is_error=True)
        document, is_error = _faulty(known[index][1], index if params.name == "x_post_tweet" else -1, faults)
        text = json.dumps(document)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], structured_content=document, is_error=is_error
        )

    return Server("faulty tuitbot", on_list_tools=list_tools, on_call_tool=call_tool)


async def _stdio(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def _http(server: Server[Any], port_file: Path, needs_token: bool) -> None:
    import uvicorn
    from starlette.responses import PlainTextResponse

    app: Any = server.streamable_http_app()
    if needs_token:
        inner = app

        async def app(scope: Any, receive: Any, send: Any) -> None:
            headers = dict(scope.get("headers") or [])
            if scope["type"] == "http" and headers.get(b"authorization") != b"Bearer secret":
                await PlainTextResponse("no token", status_code=401)(scope, receive, send)
                return
            await inner(scope, receive, send)

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    http = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    async with anyio.create_task_group() as group:
        group.start_soon(http.serve, [sock])
        while not http.started:
            await anyio.sleep(0.01)
        partial = port_file.with_suffix(".partial")  # whole or absent: the test polls for it
        partial.write_text(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", encoding="utf-8")
        partial.rename(port_file)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", type=Path)
    parser.add_argument("--fault", action="append", default=[])
    parser.add_argument("--http", type=Path, help="serve HTTP and write the URL to this file")
    options = parser.parse_args()
    faults = set(options.fault)
    if "needs-env" in faults and not os.environ.get("FAULTY_SERVER_TOKEN"):
        sys.exit("FAULTY_SERVER_TOKEN is not set")
    server = build(options.root, faults)
    if options.http is None:
        anyio.run(_stdio, server)
    else:
        anyio.run(_http, server, options.http, "needs-token" in faults)


if __name__ == "__main__":
    sys.exit(main())
