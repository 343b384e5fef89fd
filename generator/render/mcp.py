"""`mcp/<name>.tools.json`: a contract's tools as an MCP `tools/list` result.

Each tool carries its `inputSchema` (`{"type": "object"}` when tools.yaml gives none) and
an `outputSchema`: its own, or the envelope and the files it refers to as one self-contained
draft 2020-12 document (`compound`). Annotations come from columns
declared with a role: `role: mutation` gives `readOnlyHint`, its opposite.
"""

from __future__ import annotations

import json
from typing import Any

from ..model import Contract
from .compound import compound


def bundled_envelope(contract: Contract) -> Any:
    """The contract's envelope as one self-contained draft 2020-12 schema (see `compound`)."""
    bundle = json.loads(contract.bundle_json)
    return compound(bundle["root"], bundle["resources"])


def tool_listing(contract: Contract) -> list[dict[str, Any]]:
    """The MCP `Tool` of each tool of a contract, in the manifest's order."""
    roles = {c.role: c.name for c in contract.manifest.tools.columns if c.role}
    envelope: Any = None
    tools = []
    for tool in contract.manifest.tools.entries:
        values = dict(tool.values)
        entry: dict[str, Any] = {"name": tool.code}
        if values.get("description"):
            entry["description"] = values["description"]
        entry["inputSchema"] = values.get("inputSchema") or {"type": "object"}
        if values.get("outputSchema"):
            entry["outputSchema"] = values["outputSchema"]
        else:
            envelope = envelope if envelope is not None else bundled_envelope(contract)
            entry["outputSchema"] = envelope
        mutation = values.get(roles["mutation"]) if "mutation" in roles else None
        if isinstance(mutation, bool):
            entry["annotations"] = {"readOnlyHint": not mutation}
        tools.append(entry)
    return tools


def tools_list(contract: Contract) -> str:
    """The `tools/list` result of a contract, as `mcp/<name>.tools.json` holds it."""
    return json.dumps({"tools": tool_listing(contract)}, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
