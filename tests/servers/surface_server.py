"""A bare MCP server over stdio, written without an SDK, that lists the resources, resource
templates and prompts of a JSON file as written there, two to a page, and answers
`resources/read` from it, so that a listing can be anything at all.

    python surface_server.py LISTING.json

LISTING.json: {"capabilities": {...}, "resources": [...], "resourceTemplates": [...],
"prompts": [...], "contents": {URI: [contents entries]}, "read_errors": [URI...]}. A kind the
file leaves out is answered "Method not found", whatever the capabilities say. It speaks
2025-06-18 only, lists no tool, and answers any other method "Method not found".
"""

from __future__ import annotations

import json
import sys
from typing import Any

PAGE = 2
LISTS = {"resources/list": "resources", "resources/templates/list": "resourceTemplates", "prompts/list": "prompts"}


def _error(ident: object, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}


def _reply(message: dict[str, Any], listing: dict[str, Any]) -> dict[str, Any] | None:
    method, ident, params = message.get("method"), message.get("id"), message.get("params") or {}
    if ident is None:
        return None
    if method == "initialize":
        answer = {
            "protocolVersion": "2025-06-18",
            "capabilities": listing.get("capabilities", {"tools": {}}),
            "serverInfo": {"name": "surface", "version": "1.0.0"},
        }
        return {"jsonrpc": "2.0", "id": ident, "result": answer}
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": ident, "result": {"tools": []}}
    if method in LISTS and LISTS[method] in listing:
        entries = listing[LISTS[method]]
        start = int(params.get("cursor") or 0)
        result: dict[str, Any] = {LISTS[method]: entries[start : start + PAGE]}
        if start + PAGE < len(entries):
            result["nextCursor"] = str(start + PAGE)
        return {"jsonrpc": "2.0", "id": ident, "result": result}
    if method == "resources/read":
        uri = params.get("uri")
        if uri in listing.get("read_errors", ()):
            return _error(ident, -32603, f"cannot read {uri} today")
        if uri in listing.get("contents", {}):
            return {"jsonrpc": "2.0", "id": ident, "result": {"contents": listing["contents"][uri]}}
        return _error(ident, -32002, f"no resource {uri}")
    return _error(ident, -32601, "Method not found")


def main(path: str) -> None:
    with open(path, encoding="utf-8") as file:
        listing = json.load(file)
    for line in sys.stdin:
        reply = _reply(json.loads(line), listing)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
