"""A server of any contract on its generated `Handlers` (issue 48): every tool answers its example
calls with their example documents (an error document raised as `ToolFailure`), and any other
call with the first success example of the tool, else the first success example of the
contract, else its first example. Its resources and prompts are the contract's own (no method
overrides them).

    python handlers_builtin.py PACKAGE CONTRACT_FOLDER

PACKAGE: the contract's generated package (`mcp_contracts.tuitbot`), importable;
CONTRACT_FOLDER: its sources (tools.yaml and examples/), for the example calls.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import yaml

PACKAGE, FOLDER = sys.argv[1], Path(sys.argv[2])
contract = importlib.import_module(PACKAGE)
tools = importlib.import_module(f"{PACKAGE}.tools")

entries = (yaml.safe_load((FOLDER / "tools.yaml").read_text(encoding="utf-8")) or {}).get("tools") or []
documents = {path.name: json.loads(path.read_text(encoding="utf-8")) for path in (FOLDER / "examples").glob("*.json")}
CODE_AT = json.loads((Path(tools.__file__).parent / "serving.json").read_text(encoding="utf-8"))["errors"]["code_at"]


def _is_error(document: Any) -> bool:
    if CODE_AT is None or not isinstance(document, dict):
        return False
    found: Any = document
    for token in CODE_AT.split("/")[1:]:
        if not isinstance(found, dict) or token not in found:
            return False
        found = found[token]
    return True


def _fallback(calls: list[dict[str, Any]]) -> Any:
    for call in calls:
        document = documents.get(call.get("result", ""))
        if document is not None and not _is_error(document):
            return document
    successes = [d for d in documents.values() if not _is_error(d)]
    return successes[0] if successes else next(iter(documents.values()))


class Examples(tools.Handlers):
    pass


def _handler(calls: list[dict[str, Any]]) -> Any:
    async def answer(self: Examples, arguments: Any) -> Any:
        given = arguments.model_dump(mode="json", by_alias=True)
        for call in calls:
            asked = call.get("arguments") or {}
            if all(given.get(k) == v for k, v in asked.items()) and call.get("result") in documents:
                document = documents[call["result"]]
                if _is_error(document):
                    raise tools.ToolFailure(document)
                return document
        return _fallback(calls)

    return answer


for entry in entries:
    setattr(Examples, tools.BINDING.methods[entry["name"]], _handler(entry.get("examples") or []))

if __name__ == "__main__":
    tools.server(Examples(), name=contract.__name__).run()
