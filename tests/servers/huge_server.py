"""A server whose every answer is one huge JSON-RPC message, written lazily (it holds one
chunk in memory, whatever the size): the `initialize` result with SIZE bytes of
`instructions`.

    python huge_server.py SIZE                       # over stdio, JSON lines
    python huge_server.py SIZE --http URL-FILE [--sse|--gzip]  # streamable HTTP: JSON, one SSE event,
                                                              # or gzip-compressed JSON (asked or not)

Over HTTP it writes its URL to URL-FILE once it listens.
"""

from __future__ import annotations

import json
import sys
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CHUNK = b"a" * (1024 * 1024)


def answer(ident: object, size: int) -> Iterator[bytes]:
    """The parts of one answer to request `ident`, about `size` bytes in all."""
    head = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "huge", "version": "1"}}
    yield (json.dumps({"jsonrpc": "2.0", "id": ident, "result": head})[:-2] + ', "instructions": "').encode()
    for _ in range(size // len(CHUNK)):
        yield CHUNK
    yield b'"}}'


def stdio(size: int) -> None:
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" in message and "method" in message:
            for part in answer(message["id"], size):
                sys.stdout.buffer.write(part)
            sys.stdout.buffer.write(b"\n")
            sys.stdout.buffer.flush()


def http(size: int, url_file: Path, sse: bool, gzip: bool) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # the body ends when the connection closes

        def do_POST(self) -> None:
            message = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
            if "id" not in message:
                self.send_response(202)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream" if sse else "application/json")
            if gzip:
                self.send_header("content-encoding", "gzip")
            self.end_headers()
            compress = zlib.compressobj(wbits=31) if gzip else None
            try:
                self.wfile.write(b"event: message\ndata: " if sse else b"")
                for part in answer(message["id"], size):
                    self.wfile.write(compress.compress(part) if compress is not None else part)
                self.wfile.write(compress.flush() if compress is not None else b"")
                self.wfile.write(b"\n\n" if sse else b"")
            except (BrokenPipeError, ConnectionResetError):
                return

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
        where = Path(arguments[arguments.index("--http") + 1])
        http(int(arguments[0]), where, "--sse" in arguments, "--gzip" in arguments)
    else:
        stdio(int(arguments[0]))
