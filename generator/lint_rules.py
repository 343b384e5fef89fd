"""The rules of `mcp-contracts lint`: stable IDs, default levels, one sentence each.

Data only, so that the docs page of the rules and the linter read the same table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str
    level: str  # error or warning
    summary: str
    profile: str | None = None  # a rule of a profile runs only where `lint.profiles` turns it on


# The longest tool description `description-length` allows by default (`lint.description_limit`).
DESCRIPTION_LIMIT = 1024


RULES = (
    Rule("code-unique", "error", "No error code appears twice. (Loading refuses it too.)"),
    Rule("code-identifier", "error", "No two codes map to one Python name, such as `a.b` and `A_B`. (Loading too.)"),
    Rule("tool-codes-known", "error", "Every `possible_error_codes` entry is a code of errors.yaml. (Loading too.)"),
    Rule("code-style", "error", "Every error code follows one naming style: `lint.code_style`, or the first code's."),
    Rule("code-unused", "warning", "Every error code is a possible error code of some tool (when there are tools)."),
    Rule("tool-name", "error", "Tool names are valid MCP tool names: 1 to 128 of A-Z a-z 0-9 _ - ."),
    Rule(
        "jsonrpc-range",
        "error",
        "A column with `role: jsonrpc_code` holds -32000..-32019 (left to servers) or a standard code.",
    ),
    Rule("http-range", "error", "A column with `role: http_status` holds an error status, 400..599."),
    Rule(
        "retry-4xx",
        "warning",
        "A code whose `role: retryable` column is true has no 4xx status but 408, 425 or 429.",
    ),
    Rule("code-described", "warning", "Every error code has a description."),
    Rule("tool-described", "warning", "Every tool has a description."),
    Rule("property-described", "warning", "Every property of the envelope schema has a description."),
    Rule("def-unused", "warning", "Every `$defs` entry of the envelope schema is referenced."),
    Rule(
        "output-not-object",
        "error",
        "A tool's output schema accepts only objects when the contract serves a revision that needs one"
        " (2025-06-18, 2025-11-25: `protocol:` in contract.yaml); the message names the revisions.",
    ),
    Rule(
        "error-outside-output",
        "error",
        "With `error_results.structured` (the default), a tool's own `outputSchema` admits the error envelope"
        " of each code it declares: strict clients refuse an error result its schema refuses.",
    ),
    Rule(
        "hints-explicit",
        "warning",
        "Every tool sets all four hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint.",
        "directory",
    ),
    Rule("tool-title", "warning", "Every tool has a `title` for people.", "directory"),
    Rule(
        "description-length",
        "warning",
        f"A tool's description is at most `lint.description_limit` characters ({DESCRIPTION_LIMIT} by default).",
        "directory",
    ),
)
