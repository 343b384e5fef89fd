"""A published `Tool` as one protocol revision lists it, and whether its results carry
`structuredContent` there: what `mock` and a generated server answer each client with, and
what `conform` expects of a server at each revision.

- a revision without output schemas (2025-03-26) lists no `outputSchema` and no tool `title`
  (its clients read `annotations.title`), and no result carries `structuredContent`;
- a revision whose output schemas must be objects (2025-06-18, 2025-11-25) lists a tool whose
  schema is not proven object-only without `outputSchema` (a published one says
  `"type": "object"` at its root when it is proven, `model.object_rooted`), and its results
  carry the JSON as text only (SEP-2106's backward compatibility);
- 2026-07-28 carries everything as published;
- a field of a `Tool` a revision does not define (`execution` but at 2025-11-25, `_meta`
  at 2025-03-26, `icons` before 2025-11-25) is not listed there (`protocol.tool_fields`).
"""

from __future__ import annotations

from typing import Any

from ..protocol import VERSIONED_TOOL_FIELDS, Revision


def tool_at(tool: dict[str, Any], revision: Revision) -> dict[str, Any]:
    """One published `Tool` (a `tools.json` entry) as `revision` lists it."""
    shown = dict(tool)
    schema = shown.get("outputSchema")
    if schema is not None and not revision.accepts_output(isinstance(schema, dict) and schema.get("type") == "object"):
        del shown["outputSchema"]
    if not revision.title:
        shown.pop("title", None)  # `annotations.title` says it at this revision
    for key in VERSIONED_TOOL_FIELDS - {"title", "outputSchema"} - set(revision.tool_fields):
        shown.pop(key, None)  # `execution` at 2025-11-25 only, `_meta` from 2025-06-18...
    return shown


def listing_at(listing: list[dict[str, Any]], revision: Revision) -> list[dict[str, Any]]:
    """The published tools as `revision` lists them."""
    return [tool_at(tool, revision) for tool in listing]


def carries_structured(listed: dict[str, Any], revision: Revision) -> bool:
    """Whether a result of a tool listed as `listed` (at `revision`) carries its object
    document as `structuredContent` there: at a revision with object-only structured content,
    only with a listed `outputSchema`; at 2026-07-28, always."""
    return not revision.legacy or (revision.output_schema and "outputSchema" in listed)
