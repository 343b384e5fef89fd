"""A bare MCP server over stdio, written without an SDK: JSON-RPC lines, the older handshake
only, and a `tools/call` answer given as raw text, so that it can be anything at all.

    python raw_server.py RESULT_JSON_TEXT [--quit-on-unknown] [--call-error] [--tool JSON] [--version V]

It lists one tool, `get_item`, as the shop contract of tests/test_mcp_conform.py has it.
With --quit-on-unknown it ends at a method it does not know (`server/discover` among them);
with --call-error it answers `tools/call` with a JSON-RPC error; --tool JSON sets members
of the tool it lists (a null removes one), each number sent as written there (`1e400` stays
`1e400`, which Python's JSON writer would make `Infinity`); --version V is its serverInfo.version.
"""

from __future__ import annotations

import json
import re
import sys

TOOL = {
    "name": "get_item",
    "description": "An item.",
    "annotations": {"readOnlyHint": True},
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


def main() -> None:
    result, quit_on_unknown = sys.argv[1], "--quit-on-unknown" in sys.argv[2:]
    call_error, tool = "--call-error" in sys.argv[2:], _tool(sys.argv[2:])
    version = sys.argv[sys.argv.index("--version") + 1] if "--version" in sys.argv[2:] else "1"
    for line in sys.stdin:
        message = json.loads(line)
        method, ident = message.get("method"), message.get("id")
        if ident is None:
            continue
        if method == "initialize":
            answer = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "raw", "version": version},
            }
            reply = json.dumps({"jsonrpc": "2.0", "id": ident, "result": answer})
        elif method == "tools/list":
            reply = _dumps({"jsonrpc": "2.0", "id": ident, "result": {"tools": [tool]}})
        elif method == "tools/call" and call_error:
            reply = json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": -32603, "message": "it broke"}})
        elif method == "tools/call":
            reply = f'{{"jsonrpc": "2.0", "id": {json.dumps(ident)}, "result": {result}}}'
        elif quit_on_unknown:
            return
        else:
            reply = json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "no such method"}})
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
