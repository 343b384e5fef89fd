"""The rules of `mcp-contracts lint`: what can be generated but should not be."""

from __future__ import annotations

from . import Level, Rule, declared

# The longest tool description `description-length` allows by default (`lint.description_limit`).
DESCRIPTION_LIMIT = 1024

L = ("lint",)


def _error(rule_id: str, category: str, purpose: str, profile: str | None = None) -> Rule:
    return Rule(rule_id, L, Level.ERROR, category, purpose, profile)


def _warning(rule_id: str, category: str, purpose: str, profile: str | None = None) -> Rule:
    return Rule(rule_id, L, Level.WARNING, category, purpose, profile)


CODE_UNIQUE = _error("code-unique", "catalogue", "No error code appears twice. (Loading refuses it too.)")
CODE_IDENTIFIER = _error(
    "code-identifier", "catalogue", "No two codes map to one Python name, such as `a.b` and `A_B`. (Loading too.)"
)
TOOL_CODES_KNOWN = _error(
    "tool-codes-known", "catalogue", "Every `possible_error_codes` entry is a code of errors.yaml. (Loading too.)"
)
CODE_STYLE = _error(
    "code-style", "catalogue", "Every error code follows one naming style: `lint.code_style`, or the first code's."
)
CODE_UNUSED = _warning(
    "code-unused", "catalogue", "Every error code is a possible error code of some tool (when there are tools)."
)
TOOL_NAME = _error("tool-name", "tools", "Tool names are valid MCP tool names: 1 to 128 of A-Z a-z 0-9 _ - .")
JSONRPC_RANGE = _error(
    "jsonrpc-range",
    "catalogue",
    "A column with `role: jsonrpc_code` holds -32000..-32019 (left to servers) or a standard code.",
)
HTTP_RANGE = _error("http-range", "catalogue", "A column with `role: http_status` holds an error status, 400..599.")
RETRY_4XX = _warning(
    "retry-4xx", "catalogue", "A code whose `role: retryable` column is true has no 4xx status but 408, 425 or 429."
)
CODE_DESCRIBED = _warning("code-described", "docs", "Every error code has a description.")
TOOL_DESCRIBED = _warning("tool-described", "docs", "Every tool has a description.")
PROPERTY_DESCRIBED = _warning(
    "property-described",
    "docs",
    "Every property the envelope schema declares, and each JSON resource's `schema:`, has a description (the"
    " conditions of an `if` or a `not` declare none).",
)
RESOURCE_DESCRIBED = _warning("resource-described", "docs", "Every resource and resource template has a description.")
PROMPT_DESCRIBED = _warning(
    "prompt-described",
    "docs",
    "Every prompt, and each of its arguments, has a description (clients show it; the official conformance"
    " suite's prompts-list wants one).",
)
PLACEHOLDER_UNKNOWN = _warning(
    "placeholder-unknown",
    "resources",
    "Every `{name}` in a prompt's messages names one of its arguments, and in a template's contents one of"
    " its variables: `mock` fills those, and leaves any other as written.",
)
DEF_UNUSED = _warning("def-unused", "envelope", "Every `$defs` entry of the envelope schema is referenced.")
SHAPE_COPY_DIFFERS = _error(
    "shape-copy-differs",
    "envelope",
    "Where the envelope is the `anyOf` of output shapes under its `$defs` or `definitions` (as `import` writes"
    " it), each tool's own `outputSchema` in tools.yaml means what one of them means: the two copies agree.",
)
OUTPUT_NOT_OBJECT = _error(
    "output-not-object",
    "protocol",
    "A tool's output schema accepts only objects when the contract serves a revision that needs one"
    " (2025-06-18, 2025-11-25: `protocol:` in contract.yaml); the message names the revisions.",
)
ERROR_OUTSIDE_OUTPUT = _error(
    "error-outside-output",
    "protocol",
    "With `error_results.structured` (the default), a tool's own `outputSchema` admits the error envelope"
    " of each code it declares: strict clients refuse an error result its schema refuses.",
)
HINTS_EXPLICIT = _warning(
    "hints-explicit",
    "directory",
    "Every tool sets all four hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint.",
    "directory",
)
EXAMPLE_MATCH_UNRESOLVED = _error(
    "example-match-unresolved",
    "tools",
    "Each JSON pointer of an example call's `match:` names a value of its `result` document.",
)
TOOL_TITLE = _warning("tool-title", "directory", "Every tool has a `title` for people.", "directory")
DESCRIPTION_LENGTH = _warning(
    "description-length",
    "directory",
    f"A tool's description is at most `lint.description_limit` characters ({DESCRIPTION_LIMIT} by default).",
    "directory",
)
TYPESCRIPT_SDK_KEYWORD = _warning(
    "typescript-sdk-keyword",
    "protocol",
    "A published output schema says nothing the TypeScript SDK 1.x client (a draft-07 ajv that asserts `format`)"
    " reads otherwise: in 2020-12 `prefixItems`, `unevaluated*`, `dependentRequired`, `dependentSchemas`,"
    " `minContains`, `maxContains`, `$dynamicRef`; in draft-07 a keyword beside `$ref`; `format` not asserted.",
    "typescript-sdk",
)

LINT_RULES = declared(globals())
# What loading refuses too: `lint.rules` (the old table) cannot set them; `rules:` can.
LOADING_TOO = tuple(rule.id for rule in (CODE_UNIQUE, CODE_IDENTIFIER, TOOL_CODES_KNOWN))
