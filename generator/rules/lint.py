"""The rules of `mcp-contracts lint`: what can be generated but should not be."""

from __future__ import annotations

from . import Rule

# The longest tool description `description-length` allows by default (`lint.description_limit`).
DESCRIPTION_LIMIT = 1024

L = ("lint",)

LINT_RULES = (
    Rule("code-unique", L, "error", "catalogue", "No error code appears twice. (Loading refuses it too.)"),
    Rule(
        "code-identifier",
        L,
        "error",
        "catalogue",
        "No two codes map to one Python name, such as `a.b` and `A_B`. (Loading too.)",
    ),
    Rule(
        "tool-codes-known",
        L,
        "error",
        "catalogue",
        "Every `possible_error_codes` entry is a code of errors.yaml. (Loading too.)",
    ),
    Rule(
        "code-style",
        L,
        "error",
        "catalogue",
        "Every error code follows one naming style: `lint.code_style`, or the first code's.",
    ),
    Rule(
        "code-unused",
        L,
        "warning",
        "catalogue",
        "Every error code is a possible error code of some tool (when there are tools).",
    ),
    Rule("tool-name", L, "error", "tools", "Tool names are valid MCP tool names: 1 to 128 of A-Z a-z 0-9 _ - ."),
    Rule(
        "jsonrpc-range",
        L,
        "error",
        "catalogue",
        "A column with `role: jsonrpc_code` holds -32000..-32019 (left to servers) or a standard code.",
    ),
    Rule("http-range", L, "error", "catalogue", "A column with `role: http_status` holds an error status, 400..599."),
    Rule(
        "retry-4xx",
        L,
        "warning",
        "catalogue",
        "A code whose `role: retryable` column is true has no 4xx status but 408, 425 or 429.",
    ),
    Rule("code-described", L, "warning", "docs", "Every error code has a description."),
    Rule("tool-described", L, "warning", "docs", "Every tool has a description."),
    Rule(
        "property-described",
        L,
        "warning",
        "docs",
        "Every property the envelope schema declares, and each JSON resource's `schema:`, has a description (the"
        " conditions of an `if` or a `not` declare none).",
    ),
    Rule("resource-described", L, "warning", "docs", "Every resource and resource template has a description."),
    Rule(
        "prompt-described",
        L,
        "warning",
        "docs",
        "Every prompt, and each of its arguments, has a description (clients show it; the official conformance"
        " suite's prompts-list wants one).",
    ),
    Rule(
        "placeholder-unknown",
        L,
        "warning",
        "resources",
        "Every `{name}` in a prompt's messages names one of its arguments, and in a template's contents one of"
        " its variables: `mock` fills those, and leaves any other as written.",
    ),
    Rule("def-unused", L, "warning", "envelope", "Every `$defs` entry of the envelope schema is referenced."),
    Rule(
        "shape-copy-differs",
        L,
        "error",
        "envelope",
        "Where the envelope is the `anyOf` of output shapes under its `$defs` or `definitions` (as `import` writes"
        " it), each tool's own `outputSchema` in tools.yaml means what one of them means: the two copies agree.",
    ),
    Rule(
        "output-not-object",
        L,
        "error",
        "protocol",
        "A tool's output schema accepts only objects when the contract serves a revision that needs one"
        " (2025-06-18, 2025-11-25: `protocol:` in contract.yaml); the message names the revisions.",
    ),
    Rule(
        "error-outside-output",
        L,
        "error",
        "protocol",
        "With `error_results.structured` (the default), a tool's own `outputSchema` admits the error envelope"
        " of each code it declares: strict clients refuse an error result its schema refuses.",
    ),
    Rule(
        "hints-explicit",
        L,
        "warning",
        "directory",
        "Every tool sets all four hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint.",
        "directory",
    ),
    Rule(
        "example-match-unresolved",
        L,
        "error",
        "tools",
        "Each JSON pointer of an example call's `match:` names a value of its `result` document.",
    ),
    Rule("tool-title", L, "warning", "directory", "Every tool has a `title` for people.", "directory"),
    Rule(
        "description-length",
        L,
        "warning",
        "directory",
        f"A tool's description is at most `lint.description_limit` characters ({DESCRIPTION_LIMIT} by default).",
        "directory",
    ),
    Rule(
        "typescript-sdk-keyword",
        L,
        "warning",
        "protocol",
        "A published output schema says nothing the TypeScript SDK 1.x client (a draft-07 ajv that asserts `format`)"
        " reads otherwise: in 2020-12 `prefixItems`, `unevaluated*`, `dependentRequired`, `dependentSchemas`,"
        " `minContains`, `maxContains`, `$dynamicRef`; in draft-07 a keyword beside `$ref`; `format` not asserted.",
        "typescript-sdk",
    ),
)
