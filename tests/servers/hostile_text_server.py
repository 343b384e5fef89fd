"""A bare MCP server over stdio whose every text holds what a terminal must not get raw:
ESC (a colour, a cursor move), NUL, a newline that starts a line of its own ("INJECTED"),
DEL and a C1 control. Its tool names, server name, error messages and call results do.

    python hostile_text_server.py [--refuse]

With --refuse it answers `initialize` (and everything) with a JSON-RPC error in those words.
"""

from __future__ import annotations

import json
import sys

EVIL = "\x1b[31mred\x1b[0m\x00nul\x7fdel\x9bcsi\nINJECTED line\r"
TOOLS = [
    {
        "name": f"get_{EVIL}",
        "description": EVIL,
        "annotations": {"readOnlyHint": True},
        "inputSchema": {"type": "object", "properties": {}},
    },
    {"name": "get_item", "description": "An item.", "inputSchema": {"type": "object", "properties": {}}},
]


def _answer(method: str, ident: object, refuse: bool) -> dict[str, object]:
    if method == "initialize" and not refuse:
        result = {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": f"server {EVIL}", "version": EVIL},
            "instructions": EVIL,
        }
        return {"jsonrpc": "2.0", "id": ident, "result": result}
    if method == "tools/list" and not refuse:
        return {"jsonrpc": "2.0", "id": ident, "result": {"tools": TOOLS}}
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no {method}: {EVIL}"}}


def main() -> None:
    refuse = "--refuse" in sys.argv[1:]
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("id") is None:
            continue
        sys.stdout.write(json.dumps(_answer(message.get("method", ""), message["id"], refuse)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
