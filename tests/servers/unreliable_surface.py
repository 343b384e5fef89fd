"""A bare MCP server over stdio, written without an SDK, that lists the tools, resources,
resource templates and prompts of a JSON file, two to a page, and fails where the file says:
what `import` must survive.

    python unreliable_surface.py SPEC.json

SPEC.json: {"capabilities": {...}, "tools": [...], "resources": [...], "resourceTemplates":
[...], "prompts": [...], "contents": {URI: [contents entries]}, "generated": {"count": N,
"size": BYTES}, "faults": {METHOD or URI: FAULT}}. "generated" adds N text resources
(`file:///rI.txt`, I from 0) whose contents are BYTES long. A fault of a listing method
(`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`) or of a
resource's URI (its `resources/read`):

- "crash": exit with status 3 at once (a line on standard error first);
- "hang": answer nothing, ever (the whole server waits: it is single-threaded);
- "error": answer with an internal error (-32603);
- {"sleep": SECONDS}: answer after that long;
- {"result": VALUE}: answer with VALUE as the result, whatever it is;
- "loop" (a listing): every page gives the same nextCursor, "again";
- "count" (a listing): every page gives the next one, forever, each with a new entry.

It speaks 2025-06-18 only and answers any other method "Method not found".
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

PAGE = 2
LISTS = {
    "tools/list": "tools",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}


def _error(ident: object, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}


def _made(key: str, number: int) -> dict[str, Any]:
    """The entry of page `number` of an endless listing of `key`."""
    if key == "tools":
        return {"name": f"tool{number}", "inputSchema": {"type": "object"}}
    if key == "resources":
        return {"uri": f"file:///page{number}.txt", "name": f"page{number}"}
    if key == "resourceTemplates":
        return {"uriTemplate": f"file:///page{number}/{{id}}", "name": f"page{number}"}
    return {"name": f"page{number}"}


def _page(key: str, entries: list[Any], cursor: str | None, fault: Any) -> dict[str, Any]:
    if fault == "count":
        number = int(cursor or 0)
        return {key: [_made(key, number)], "nextCursor": str(number + 1)}
    start = 0 if fault == "loop" else int(cursor or 0)
    result: dict[str, Any] = {key: entries[start : start + PAGE]}
    if fault == "loop":
        result["nextCursor"] = "again"
    elif start + PAGE < len(entries):
        result["nextCursor"] = str(start + PAGE)
    return result


def _faulted(ident: object, fault: Any) -> dict[str, Any] | None:
    """The answer a fault gives in place of the server's own, or None to answer as usual."""
    if fault == "crash":
        sys.stderr.write("crashing on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    if fault == "hang":
        time.sleep(3600)
    if fault == "error":
        return _error(ident, -32603, "failing on purpose")
    if isinstance(fault, dict) and "sleep" in fault:
        time.sleep(fault["sleep"])
    if isinstance(fault, dict) and "result" in fault:
        return {"jsonrpc": "2.0", "id": ident, "result": fault["result"]}
    return None


def _contents(uri: str, spec: dict[str, Any]) -> list[dict[str, Any]] | None:
    if uri in spec.get("contents", {}):
        return list(spec["contents"][uri])
    generated = spec.get("generated")
    if generated and uri.startswith("file:///r") and uri.endswith(".txt"):
        return [{"uri": uri, "mimeType": "text/plain", "text": "x" * generated["size"]}]
    return None


def _reply(message: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any] | None:
    method, ident, params = message.get("method"), message.get("id"), message.get("params") or {}
    if ident is None:
        return None
    faults = spec.get("faults", {})
    if method == "initialize":
        answer = {
            "protocolVersion": "2025-06-18",
            "capabilities": spec.get("capabilities", {"tools": {}}),
            "serverInfo": {"name": "unreliable", "version": "1.0.0"},
        }
        return {"jsonrpc": "2.0", "id": ident, "result": answer}
    fault = faults.get(method) if method in LISTS else faults.get(params.get("uri"))
    faulted = _faulted(ident, fault)
    if faulted is not None:
        return faulted
    listed = LISTS.get(str(method)) in spec or method == "tools/list" or "generated" in spec
    if method in LISTS and listed:
        entries = list(spec.get(LISTS[method], []))
        if method == "resources/list" and spec.get("generated"):
            count = spec["generated"]["count"]
            entries += [{"uri": f"file:///r{i}.txt", "name": f"r{i}", "mimeType": "text/plain"} for i in range(count)]
        return {"jsonrpc": "2.0", "id": ident, "result": _page(LISTS[method], entries, params.get("cursor"), fault)}
    if method == "resources/read":
        contents = _contents(str(params.get("uri")), spec)
        if contents is None:
            return _error(ident, -32002, f"no resource {params.get('uri')}")
        return {"jsonrpc": "2.0", "id": ident, "result": {"contents": contents}}
    return _error(ident, -32601, "Method not found")


def main(path: str) -> None:
    with open(path, encoding="utf-8") as file:
        spec = json.load(file)
    for line in sys.stdin:
        reply = _reply(json.loads(line), spec)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
