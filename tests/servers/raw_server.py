"""A bare MCP server over stdio, written without an SDK: JSON-RPC lines, the older handshake
only, and a `tools/call` answer given as raw text, so that it can be anything at all.

    python raw_server.py RESULT_JSON_TEXT [--quit-on-unknown] [--call-error] [--tool JSON] [--version V]
                         [--stray TEXT] [--exit-at METHOD:STATUS] [--http URL-FILE [--sse]]

It lists one tool, `get_item`, as the shop contract of tests/test_mcp_conform.py has it.
With --quit-on-unknown it ends at a method it does not know (`server/discover` among them);
with --call-error it answers `tools/call` with a JSON-RPC error; --tool JSON sets members
of the tool it lists (a null removes one), each number sent as written there (`1e400` stays
`1e400`, which Python's JSON writer would make `Infinity`); --version V is its serverInfo.version.
--stray TEXT writes TEXT as a line of its own to standard output before each answer (what the
stdio transport forbids); --exit-at METHOD:STATUS ends the process with STATUS when METHOD is
asked, after a few lines on standard error.
With --http it speaks streamable HTTP instead, each answer a JSON body (or, with --sse, one
event), and writes its URL to URL-FILE once it listens.
"""

from __future__ import annotations

import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TOOL = {
    "name": "get_item",
    "description": "An item.",
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
    "inputSchema": {
        "type": "object",
        "required": ["item_id"],
        "properties": {
            "item_id": {"type": "integer"},
            "verbose": {"type": "boolean"},
            "kind": {"enum": ["book", "pen"]},
        },
    },
    "outputSchema": {
        "type": "object",
        "required": ["name", "price"],
        "properties": {
            "name": {"type": "string"},
            "price": {"type": "number"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "note": {"type": ["string", "null"]},
        },
    },
}


INITIALIZED = {
    "protocolVersion": "2025-06-18",
    "capabilities": {"tools": {}},
    "serverInfo": {"name": "raw", "version": "1"},
}


_AS_WRITTEN = "\x00number:"  # a number of --tool, kept as its text until the reply is written


def _dumps(value: object) -> str:
    """JSON text, each number of --tool as it was written."""
    return re.sub(r'"\\u0000number:([^"]*)"', r"\1", json.dumps(value))


def _tool(arguments: list[str]) -> dict[str, object]:
    """The tool listed: TOOL with the members `--tool JSON` sets."""
    tool = dict(TOOL)
    if "--tool" in arguments:
        members = json.loads(arguments[arguments.index("--tool") + 1], parse_float=lambda text: _AS_WRITTEN + text)
        for key, value in members.items():
            if value is None:
                tool.pop(key, None)
            else:
                tool[key] = value
    return tool


class _Quit(Exception):
    """A method the server does not know, under --quit-on-unknown."""


def _reply(message: dict[str, object], options: list[str]) -> str | None:
    """The JSON text answering `message` (None for a notification)."""
    result, tool = options[0], _tool(options[1:])
    version = options[options.index("--version") + 1] if "--version" in options[1:] else "1"
    method, ident = message.get("method"), message.get("id")
    if ident is None:
        return None
    if method == "initialize":
        answer = {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "raw", "version": version},
        }
        return json.dumps({"jsonrpc": "2.0", "id": ident, "result": answer})
    if method == "tools/list":
        return _dumps({"jsonrpc": "2.0", "id": ident, "result": {"tools": [tool]}})
    if method == "tools/call" and "--call-error" in options[1:]:
        return json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": -32603, "message": "it broke"}})
    if method == "tools/call":
        return f'{{"jsonrpc": "2.0", "id": {json.dumps(ident)}, "result": {result}}}'
    if "--quit-on-unknown" in options[1:]:
        raise _Quit
    return json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "no such method"}})


def _option(options: list[str], name: str) -> str | None:
    return options[options.index(name) + 1] if name in options[1:] else None


def _exit_at(message: dict[str, object], options: list[str]) -> None:
    """Under --exit-at METHOD:STATUS, end with STATUS at METHOD, saying why on standard error."""
    method, _, status = (_option(options, "--exit-at") or "").partition(":")
    if message.get("method") == method:
        for number in range(1, 31):
            sys.stderr.write(f"raw: line {number} before the end\n")
        sys.stderr.write(f"raw: {method} \x1b[31mis too much\x1b[0m, giving up\n")
        sys.stderr.flush()
        sys.exit(int(status))


def stdio(options: list[str]) -> None:
    stray = _option(options, "--stray")
    for line in sys.stdin:
        message = json.loads(line)
        _exit_at(message, options)
        try:
            reply = _reply(message, options)
        except _Quit:
            return
        if reply is not None:
            sys.stdout.write(reply + "\n" if stray is None else f"{stray}\n{reply}\n")
            sys.stdout.flush()


def http(options: list[str], url_file: Path, sse: bool) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # the body ends when the connection closes

        def do_POST(self) -> None:
            message = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
            try:
                reply = _reply(message, options)
            except _Quit:
                reply = json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "?"}})
            if reply is None:
                self.send_response(202)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream" if sse else "application/json")
            self.end_headers()
            self.wfile.write(f"event: message\ndata: {reply}\n\n".encode() if sse else reply.encode())

        def do_GET(self) -> None:  # no stream the server opens
            self.send_response(405)
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    partial = url_file.with_suffix(".partial")  # whole or absent: the test polls for it
    partial.write_text(f"http://127.0.0.1:{server.server_address[1]}/mcp", encoding="utf-8")
    partial.rename(url_file)
    server.serve_forever()


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if "--http" in arguments:
        http(arguments, Path(arguments[arguments.index("--http") + 1]), "--sse" in arguments)
    else:
        stdio(arguments)
