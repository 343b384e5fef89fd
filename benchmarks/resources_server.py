"""The server of benchmarks/import_memory.py: a bare MCP server over stdio (no SDK, so that
its own memory stays small beside the client's) listing COUNT text resources of SIZE bytes
each, every one made when it is read.

    python resources_server.py COUNT SIZE

It speaks 2025-06-18 only, lists no tool and no prompt, and answers any other method
"Method not found".
"""

from __future__ import annotations

import json
import sys
from typing import Any

PAGE = 100


def _reply(message: dict[str, Any], count: int, size: int) -> dict[str, Any] | None:
    method, ident, params = message.get("method"), message.get("id"), message.get("params") or {}
    if ident is None:
        return None
    result: dict[str, Any]
    if method == "initialize":
        result = {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}, "resources": {}},
            "serverInfo": {"name": "resources", "version": "1.0.0"},
        }
    elif method == "tools/list":
        result = {"tools": []}
    elif method == "resources/list":
        start = int(params.get("cursor") or 0)
        names = range(start, min(start + PAGE, count))
        result = {"resources": [{"uri": f"file:///r{i}.txt", "name": f"r{i}", "mimeType": "text/plain"} for i in names]}
        if start + PAGE < count:
            result["nextCursor"] = str(start + PAGE)
    elif method == "resources/read":
        uri = str(params.get("uri"))
        text = (uri + "\n") * (size // (len(uri) + 1)) if size else ""
        result = {"contents": [{"uri": uri, "mimeType": "text/plain", "text": text.ljust(size, ".")}]}
    else:
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "Method not found"}}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def main(count: int, size: int) -> None:
    for line in sys.stdin:
        reply = _reply(json.loads(line), count, size)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
