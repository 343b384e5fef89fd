"""A contract's `tools/list` and `tools/call` answers as one protocol revision carries them.

The contract publishes its tools as the newest revision has them (`render.mcp.tool_listing`);
`mock` answers each client at the revision it negotiated, and `conform` expects of a server
at each revision what that revision can carry, through the same two functions:

- a revision without output schemas (2025-03-26) lists no `outputSchema` and no tool `title`
  (its clients read `annotations.title`), and no result carries `structuredContent`;
- a revision whose output schemas must be objects (2025-06-18, 2025-11-25) lists a tool whose
  listed schema's root does not say `"type": "object"` (`model.object_rooted` says it where it
  is proven) without `outputSchema`, and its results carry the JSON as text only: SEP-2106's
  backward compatibility, where non-object structured content reaches older clients as the
  serialized JSON in a TextContent block;
- 2026-07-28 carries everything as published;
- a field of a `Tool` a revision does not define (`execution` but at 2025-11-25, `_meta`
  at 2025-03-26, `icons` before 2025-11-25) is not listed there (`protocol.tool_fields`).

Every result keeps a TextContent with the serialized JSON of its document.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import mcp.types as types

from ..protocol import Revision
from ..render.listing_at import listing_at, tool_at
from ..runtime import NotJson, parse_json
from .served import ServedContract, same_json

__all__ = ["contract_at", "listing_at", "result_at", "tool_at"]


def result_at(result: types.CallToolResult, tool: dict[str, Any], revision: Revision) -> types.CallToolResult:
    """A result, as the newest revision carries it, as `revision` carries it for `tool` (its
    entry as listed at `revision`, see `tool_at`): at a revision with object-only structured
    content, `structuredContent` goes with a listed `outputSchema` and an object only; the
    serialized JSON stays (or is added) as text."""
    structured = result.structured_content
    if structured is None or not revision.legacy:
        return result
    if revision.output_schema and "outputSchema" in tool and isinstance(structured, dict):
        return result
    return result.model_copy(update={"structured_content": None, "content": _with_text(result.content, structured)})


def _with_text(content: list[types.ContentBlock], document: Any) -> list[types.ContentBlock]:
    """`content` holding a TextContent with the serialized document (added first if none does)."""
    if any(isinstance(block, types.TextContent) and _says(block.text, document) for block in content):
        return content
    return [types.TextContent(type="text", text=json.dumps(document, ensure_ascii=False)), *content]


def _says(text: str, document: Any) -> bool:
    try:
        return same_json(parse_json(text), document)
    except NotJson:
        return False


def contract_at(contract: ServedContract, revision: Revision, names: tuple[str, ...] | None = None) -> ServedContract:
    """What a server of `contract` lists at `revision` (of the tools `names`, else all): each
    tool's listing as `tool_at` gives it; the judges stay, for a document is the same whether
    it came as `structuredContent` or as text."""
    tools = tuple(
        replace(tool, listing=tool_at(tool.listing, revision))
        for tool in contract.tools
        if names is None or tool.name in names
    )
    return replace(contract, tools=tools)
