"""A bare MCP server (no SDK: JSON-RPC written by hand, so that an answer can be anything) of
one tool, two resources and one prompt, whose answers go past a reader's bounds when told to.

    python bounds_server.py [--big WHAT:BYTES]... [--deep WHAT:LEVELS] [--lose WHAT] [--slow WHAT:SECONDS]
                            [--not-json] [--http URL-FILE [--sse]]

It speaks 2025-06-18 only (`initialize`), and lists `get_item` (tests/mcp_servers.py's
RAW_TOOLS), the resources `test://small` and `test://big` (text) and the prompt `greeting`
(no argument). WHAT names the request an option is about: a method (`tools/call`,
`prompts/get`, `initialize`...) or a resource's URI (its `resources/read`).

--big WHAT:BYTES answers WHAT with about BYTES bytes of text, written lazily (one chunk held,
whatever the size). --deep WHAT:LEVELS answers it at once, with arrays nested LEVELS deep in
its `_meta`. --lose WHAT ends the process when WHAT is asked. --slow WHAT:SECONDS waits that
long before answering WHAT. --not-json answers every request over HTTP with a body that is not
JSON, though it says `application/json`. With --http it speaks streamable HTTP instead, each
answer a JSON body (or, with --sse, one event), and writes its URL to URL-FILE once it listens.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from raw_server import TOOL  # the one tool of RAW_TOOLS, beside this file

RESOURCES = [
    {"uri": "test://small", "name": "small", "mimeType": "text/plain"},
    {"uri": "test://big", "name": "big", "mimeType": "text/plain"},
]
PROMPT = {"name": "greeting", "description": "A greeting."}
CHUNK = 1024 * 1024


def _option(arguments: list[str], name: str) -> list[str]:
    """The values of each `name VALUE` among `arguments`."""
    return [arguments[n + 1] for n, item in enumerate(arguments[:-1]) if item == name]


def _sized(arguments: list[str], name: str) -> dict[str, float]:
    """`name WHAT:NUMBER` options as WHAT -> NUMBER."""
    return {what: float(number) for what, _, number in (value.rpartition(":") for value in _option(arguments, name))}


def _uri(message: dict[str, object]) -> str:
    params = message.get("params")
    return str(params.get("uri")) if isinstance(params, dict) else ""


def _what(message: dict[str, object]) -> set[str]:
    """The names a request goes by: its method, and the URI it reads."""
    return {str(message.get("method")), _uri(message)}


def _result(method: object, text: str, uri: str) -> dict[str, object]:
    """The result of `method`, `text` its text; `uri` the resource it reads."""
    if method == "initialize":
        return {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}, "resources": {}, "prompts": {}},
            "serverInfo": {"name": "bounds", "version": "1"},
            "instructions": text,
        }
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        return {"content": [{"type": "text", "text": text}], "structuredContent": {"name": "pen", "price": 1.5}}
    if method == "resources/list":
        return {"resources": RESOURCES}
    if method == "resources/read":
        return {"contents": [{"uri": uri, "mimeType": "text/plain", "text": text}]}
    if method == "prompts/list":
        return {"prompts": [PROMPT]}
    if method == "prompts/get":
        return {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]}
    return {}


_TEXT, _DEEP = "\x00text\x00", "\x00deep\x00"  # where the text and the nested arrays go
METHODS = {"initialize", "tools/list", "tools/call", "resources/list", "resources/read", "prompts/list", "prompts/get"}


def answer(message: dict[str, object], arguments: list[str]) -> Iterator[bytes]:
    """The parts of the answer to `message` (nothing for a notification)."""
    ident, method, names = message.get("id"), message.get("method"), _what(message)
    if ident is None:
        return
    if method not in METHODS:
        error = {"code": -32601, "message": "no such method"}
        yield json.dumps({"jsonrpc": "2.0", "id": ident, "error": error}).encode()
        return
    result = _result(method, _TEXT, _uri(message))
    deep = next((int(levels) for what, levels in _sized(arguments, "--deep").items() if what in names), 0)
    if deep:
        result["_meta"] = {"nested": _DEEP}
    head, marked, tail = json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}).partition(json.dumps(_TEXT))
    if not marked:  # a result without text (a listing): the nested arrays go in its `_meta`
        head, tail = "", head
    size = next((int(size) for what, size in _sized(arguments, "--big").items() if what in names), 0)
    yield head.encode()
    if marked:  # a result with text: `size` bytes of it
        yield b'"'
        for _ in range(size // CHUNK):
            yield b"a" * CHUNK
        yield b"a" * (size % CHUNK) + b'"'
    before, _, after = tail.partition(json.dumps(_DEEP))
    yield before.encode() + (b"[" * deep + b"]" * deep + after.encode() if deep else b"")


def _before(message: dict[str, object], arguments: list[str]) -> None:
    """What the server does before it answers `message`: wait, or end."""
    names = _what(message)
    if names & set(_option(arguments, "--lose")):
        sys.exit(3)
    for what, seconds in _sized(arguments, "--slow").items():
        if what in names:
            time.sleep(seconds)


def stdio(arguments: list[str]) -> None:
    for line in sys.stdin.buffer:
        message = json.loads(line)
        _before(message, arguments)
        if message.get("id") is None:
            continue
        try:
            for part in answer(message, arguments):
                sys.stdout.buffer.write(part)
            sys.stdout.buffer.write(b"\n")
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            return


def http(arguments: list[str], url_file: Path, sse: bool) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # the body ends when the connection closes

        def do_POST(self) -> None:
            message = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
            _before(message, arguments)
            if message.get("id") is None:
                self.send_response(202)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream" if sse else "application/json")
            self.end_headers()
            try:
                if "--not-json" in arguments:
                    self.wfile.write(b"<html><body>502 Bad Gateway</body></html>")
                    return
                self.wfile.write(b"event: message\ndata: " if sse else b"")
                for part in answer(message, arguments):
                    self.wfile.write(part)
                self.wfile.write(b"\n\n" if sse else b"")
            except (BrokenPipeError, ConnectionResetError):
                return

        def do_GET(self) -> None:  # no stream the server opens
            self.send_response(405)
            self.end_headers()

        def do_DELETE(self) -> None:
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
    sys.set_int_max_str_digits(0)  # `--fuzz` sends integers of any length
    given = sys.argv[1:]
    if "--http" in given:
        http(given, Path(_option(given, "--http")[0]), "--sse" in given)
    else:
        stdio(given)
