"""`mcp/<name>.resources.json`, `.resource-templates.json` and `.prompts.json`: what a
contract offers beside its tools, as the MCP `resources/list`, `resources/templates/list` and
`prompts/list` results a server sends. Each is written only for a contract that declares
some (resources.yaml, prompts.yaml), one entry a line with sorted keys, as the tools' file is.

An entry carries the fields MCP defines, as the contract writes them: `title` and
`annotations.lastModified` are of 2025-06-18 and later, and an earlier revision's schema
allows a member it does not define, so one listing is valid at every revision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..model import Contract
from .json_text import COMPACT, json_line


def resources_listing(contract: Contract) -> list[dict[str, Any]]:
    """The `resources/list` entries of a contract, in resources.yaml's order."""
    return [dict(resource.listing) for resource in contract.surface.resources]


def templates_listing(contract: Contract) -> list[dict[str, Any]]:
    """The `resources/templates/list` entries of a contract, in resources.yaml's order."""
    return [dict(template.listing) for template in contract.surface.templates]


def prompts_listing(contract: Contract) -> list[dict[str, Any]]:
    """The `prompts/list` entries of a contract, in prompts.yaml's order."""
    return [dict(prompt.listing) for prompt in contract.surface.prompts]


def surface_files(contract: Contract) -> dict[str, str]:
    """The listing files of the kinds the contract declares (none for a contract of tools only)."""
    files = {}
    for suffix, key, entries in (
        ("resources", "resources", resources_listing(contract)),
        ("resource-templates", "resourceTemplates", templates_listing(contract)),
        ("prompts", "prompts", prompts_listing(contract)),
    ):
        if entries:
            files[f"mcp/{contract.name}.{suffix}.json"] = listing_text(key, entries)
    return files


def listing_text(key: str, entries: Sequence[Mapping[str, Any]]) -> str:
    """`{key: [entries]}` with one entry a line, each compact with sorted keys."""
    lines = (json_line(entry, sort_keys=True, separators=COMPACT) for entry in entries)
    return f'{{"{key}": [\n' + ",\n".join(lines) + "\n]}\n"
