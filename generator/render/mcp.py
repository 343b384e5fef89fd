"""`mcp/<name>.tools.json`: a contract's tools as an MCP `tools/list` result.

Each tool carries its `inputSchema` (`{"type": "object"}` when tools.yaml gives none), its
`title` (also as `annotations.title`, where clients of 2025-03-26 read it), its annotations
(`annotations:` of tools.yaml; a column with `role: mutation` gives `readOnlyHint`, its
opposite), and an `outputSchema`: its own, or the envelope and the files it refers to as one
self-contained document (`compound`): in draft-07 when the author wrote draft-07 (what a
TypeScript SDK 1.x client judges by), else in 2020-12; under the author's `$id`, or one
unique to the contract, never the folder's `file:///envelope.schema.json`. A tool whose results carry no
`structuredContent` (`result.structured: false`) publishes none. Its `execution`, `_meta`
and `other_fields` (an imported server's, kept as written) are published as they are.

Revisions 2025-06-18 and 2025-11-25 require `"type": "object"` at the root of an output
schema (see `protocol`). A root that is proven to accept objects only (`model.object_rooted`:
a `oneOf` of objects, say) gets it, and keeps every verdict; one that may accept something
else is published as written, and `lint` names the revisions it cannot be offered to.

Each `outputSchema` carries only what its root reaches (`schema.reach.pruned`): a definition
(of the envelope, or an embedded resource of its folder) that no reference from the root
leads into is left out, with every verdict kept. `published.json` keeps them all: its
classes point into them. The model computes both, once (`Bundle.listed`, and each tool's own
as `ToolArguments.listed_output`): this module only reads them.

The file holds one tool per line: `{"tools": [`, then each tool as compact JSON with sorted
keys, then `]}`. A diff names the tool that changed, and the file is about half the size of
the same JSON indented (the envelope is repeated in every tool, as `tools/list` sends it).
"""

from __future__ import annotations

from typing import Any

from ..model import Contract, Entry
from ..protocol import revision
from .json_text import COMPACT, CompactTexts, json_line


def structured(tool: Entry) -> bool:
    """Whether the tool's results carry `structuredContent` (tools.yaml `result.structured`)."""
    return (tool.get("result") or {}).get("structured", True) is not False


# The four hints MCP tool annotations carry, in the order docs and lint name them.
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def tool_annotations(tool: Entry, mutation_column: str | None) -> dict[str, Any]:
    """The tool's MCP annotations: its own, `readOnlyHint` from its mutation column, its title."""
    hints = dict(tool.get("annotations") or {})
    mutation = tool.get(mutation_column) if mutation_column is not None else None
    if isinstance(mutation, bool):
        hints.setdefault("readOnlyHint", not mutation)
    if tool.get("title"):
        hints["title"] = tool.get("title")
    return hints


def listed_as_written(tool: Entry) -> dict[str, Any]:
    """The fields of the tool's listing tools.yaml keeps as the server wrote them: `execution`,
    `_meta` and `other_fields` (`importing.files` writes them)."""
    fields = {key: tool.get(key) for key in ("execution", "_meta") if tool.get(key) is not None}
    return {**(tool.get("other_fields") or {}), **fields}


def tool_listing(contract: Contract) -> list[dict[str, Any]]:
    """The MCP `Tool` of each tool of a contract, in the manifest's order."""
    roles = {c.role: c.name for c in contract.manifest.tools.columns if c.role}
    outputs = any(revision(v).output_schema for v in contract.protocol)
    own = {arguments.tool: arguments for arguments in contract.arguments}
    tools = []
    for tool in contract.manifest.tools.entries:
        entry: dict[str, Any] = {"name": tool.code}
        if tool.get("title"):
            entry["title"] = tool.get("title")
        if tool.get("description"):
            entry["description"] = tool.get("description")
        entry["inputSchema"] = tool.get("inputSchema") or {"type": "object"}
        if outputs and structured(tool):
            given = tool.get("outputSchema")
            entry["outputSchema"] = own[tool.code].listed_output if given else contract.bundle.listed
        hints = tool_annotations(tool, roles.get("mutation"))
        if hints:
            entry["annotations"] = hints
        entry.update(listed_as_written(tool))
        tools.append(entry)
    return tools


def tools_list(contract: Contract) -> str:
    """The `tools/list` result of a contract, as `mcp/<name>.tools.json` holds it: one tool
    a line (see the module)."""
    compact = CompactTexts()  # the envelope, in every tool of a contract, written once
    tools = [_tool_line(tool, compact) for tool in tool_listing(contract)]
    return '{"tools": [\n' + ",\n".join(tools) + "\n]}\n" if tools else '{"tools": []}\n'


def _tool_line(tool: dict[str, Any], compact: CompactTexts) -> str:
    """`json_line` of one tool (sorted keys, compact), its `outputSchema` as `compact` writes it."""
    if "outputSchema" not in tool:
        return _compact(tool)
    members = (
        f"{json_line(key)}:{compact(value) if key == 'outputSchema' else _compact(value)}"
        for key, value in sorted(tool.items())
    )
    return "{" + ",".join(members) + "}"


def _compact(value: Any) -> str:
    return json_line(value, sort_keys=True, separators=COMPACT)
