"""A bare MCP server over stdio whose listing depends on what the client declares, written
without an SDK so that its tools carry fields no SDK model knows.

    python capability_server.py [--execution JSON]

It speaks 2025-06-18 and 2025-11-25 (`initialize`; a method it does not know, such as
`server/discover`, is answered -32601). It always lists `echo`, with `execution` (at
2025-11-25 only, which defines it; --execution JSON sets it), a `_meta` and a field of its
own, `x-cost`; and, to a client that declares it, `list_roots` (roots), `sample` (sampling),
`elicit` (elicitation). Each of those three asks the client (roots/list,
sampling/createMessage, elicitation/create), waits for its answer, and returns it as text:
an error result when the client answered with an error.
"""

from __future__ import annotations

import json
import sys
from typing import Any

SPOKEN = ("2025-06-18", "2025-11-25")
EXECUTION: Any = {"taskSupport": "optional", "x-note": "a member no SDK model knows"}
ECHO = {
    "name": "echo",
    "description": "Says the text back.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
    "_meta": {"example.com/ui": {"hidden": False}},
    "x-cost": 3,
}
ASKS = {  # tool -> (capability, what it asks the client, its params)
    "list_roots": ("roots", "roots/list", None),
    "sample": (
        "sampling",
        "sampling/createMessage",
        {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5},
    ),
    "elicit": (
        "elicitation",
        "elicitation/create",
        {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "string"}}}},
    ),
}


class Server:
    def __init__(self, execution: Any) -> None:
        self.execution = execution
        self.declared: dict[str, Any] = {}
        self.version = SPOKEN[-1]
        self.asked = 0

    def tools(self) -> list[dict[str, Any]]:
        echo = dict(ECHO)
        if self.version == "2025-11-25" and self.execution is not None:
            echo["execution"] = self.execution
        listed = [echo]
        for name, (capability, _, _) in ASKS.items():
            if capability in self.declared:
                said = f"Asks the client ({capability})."
                listed.append({"name": name, "description": said, "inputSchema": {"type": "object"}})
        return listed

    def answer(self, message: dict[str, Any]) -> dict[str, Any] | None:
        method, ident, params = message.get("method"), message.get("id"), message.get("params") or {}
        if ident is None:
            return None
        if method == "initialize":
            asked = params.get("protocolVersion")
            self.version = asked if asked in SPOKEN else SPOKEN[-1]
            self.declared = params.get("capabilities") or {}
            info = {"name": "capabilities", "version": "1.0.0"}
            return _result(ident, {"protocolVersion": self.version, "capabilities": {"tools": {}}, "serverInfo": info})
        if method == "tools/list":
            return _result(ident, {"tools": self.tools()})
        if method == "tools/call":
            return self.call(ident, params.get("name"), params.get("arguments") or {})
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "no such method"}}

    def call(self, ident: Any, name: Any, arguments: dict[str, Any]) -> dict[str, Any]:
        if name == "echo":
            return _result(ident, {"content": [{"type": "text", "text": str(arguments.get("text", ""))}]})
        if name not in ASKS or ASKS[name][0] not in self.declared:
            return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32602, "message": f"no tool {name!r}"}}
        _, method, params = ASKS[name]
        self.asked += 1
        request: dict[str, Any] = {"jsonrpc": "2.0", "id": f"ask-{self.asked}", "method": method}
        if params is not None:
            request["params"] = params
        _send(request)
        reply = _wait_for(request["id"])
        if reply is None:
            return _result(ident, {"content": [{"type": "text", "text": "the client went away"}], "isError": True})
        said = json.dumps(reply.get("result", reply.get("error")), sort_keys=True)
        text = {"type": "text", "text": f"the client answered {said}"}
        return _result(ident, {"content": [text], "isError": "error" in reply})


def _result(ident: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _wait_for(ident: str) -> dict[str, Any] | None:
    """The client's answer to our request `ident` (notifications before it are passed over)."""
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("id") == ident and "method" not in message:
            return message  # type: ignore[no-any-return]
    return None


def main(arguments: list[str]) -> None:
    execution = json.loads(arguments[arguments.index("--execution") + 1]) if "--execution" in arguments else EXECUTION
    server = Server(execution)
    for line in sys.stdin:
        reply = server.answer(json.loads(line))
        if reply is not None:
            _send(reply)


if __name__ == "__main__":
    main(sys.argv[1:])
