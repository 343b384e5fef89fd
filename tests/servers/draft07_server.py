"""A server that lists its output schemas as zod-to-json-schema writes them (as the npm
filesystem and memory servers do): each a draft-07 document with its `$schema`, refusing
properties it does not name, a repeated part written as a `$ref` into itself and reusable
parts under `definitions`. Raw JSON-RPC lines over stdio, no SDK.

    python draft07_server.py [mixed]

It lists three tools, each with a shape of its own: `read_text`, `list_folder` and
`read_graph`. With `mixed`, `read_graph` declares draft 2020-12 instead: the tools do not
agree on a dialect. Answers are fixed, and meet the schemas listed.
"""

from __future__ import annotations

import json
import sys
from typing import Any

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
MIXED = sys.argv[1:] == ["mixed"]
REVISIONS = ("2025-06-18", "2025-11-25")

ENTITY = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "kind": {"$ref": "#/definitions/Kind"}},
    "required": ["name", "kind"],
    "additionalProperties": False,
}
OUTPUTS: dict[str, dict[str, Any]] = {
    "read_text": {
        "type": "object",
        "properties": {"content": {"type": "string"}, "lines": {"type": "integer", "minimum": 0}},
        "required": ["content", "lines"],
        "additionalProperties": False,
    },
    "list_folder": {
        "type": "object",
        "properties": {
            "entries": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "folder": {"type": "boolean"}},
                    "required": ["name", "folder"],
                    "additionalProperties": False,
                },
            },
            "hidden": {"$ref": "#/properties/entries"},
        },
        "required": ["entries"],
        "additionalProperties": False,
    },
    "read_graph": {
        "type": "object",
        "properties": {
            "entities": {"type": "array", "items": ENTITY},
            "kinds": {"type": "array", "items": {"$ref": "#/definitions/Kind"}},
        },
        "required": ["entities", "kinds"],
        "additionalProperties": False,
        "definitions": {"Kind": {"type": "string", "enum": ["person", "place"]}},
    },
}
ANSWERS: dict[str, dict[str, Any]] = {
    "read_text": {"content": "hello\n", "lines": 1},
    "list_folder": {"entries": [{"name": "notes", "folder": True}], "hidden": []},
    "read_graph": {"entities": [{"name": "Ada", "kind": "person"}], "kinds": ["person", "place"]},
}
DESCRIPTIONS = {
    "read_text": "The text of a file.",
    "list_folder": "What a folder holds.",
    "read_graph": "The whole knowledge graph.",
}


def _tool(name: str) -> dict[str, Any]:
    dialect = "https://json-schema.org/draft/2020-12/schema" if MIXED and name == "read_graph" else DRAFT_07
    return {
        "name": name,
        "description": DESCRIPTIONS[name],
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False, "$schema": DRAFT_07},
        "outputSchema": {**OUTPUTS[name], "$schema": dialect},
    }


def _result(message: dict[str, Any]) -> dict[str, Any]:
    """The answer of a request (a JSON-RPC error for one it does not know)."""
    method, params = message.get("method"), message.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        revision = asked if asked in REVISIONS else REVISIONS[-1]
        info = {"name": "draft07", "version": "1.0.0"}
        return {"result": {"protocolVersion": revision, "capabilities": {"tools": {}}, "serverInfo": info}}
    if method == "tools/list":
        return {"result": {"tools": [_tool(name) for name in OUTPUTS]}}
    if method == "tools/call" and params.get("name") in ANSWERS:
        answer = ANSWERS[params["name"]]
        text = {"type": "text", "text": json.dumps(answer)}
        return {"result": {"content": [text], "structuredContent": answer}}
    if method == "ping":
        return {"result": {}}
    return {"error": {"code": -32601, "message": f"no method {method}"}}


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message or "method" not in message:
            continue  # a notification, or an answer to nothing asked
        reply = {"jsonrpc": "2.0", "id": message["id"], **_result(message)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
