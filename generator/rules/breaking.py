"""The rules of `mcp-contracts breaking --against REF`: what an edit breaks, for which clients.

Categories, in buf's sense of what kind of client a change breaks: `response` (clients that
read results), `input` (clients that call tools with arguments), `catalogue` (clients that
handle error codes), `listing` (clients that discover tools), `resources` (clients that read
resources and get prompts), `version` (the contract's version against what changed),
`comparison` (how the comparison itself went: no change).
`bump` is the version bump the change needs (None: none).

A bound of a response (minLength, maximum, pattern...) loosened is an error: clients size
buffers, columns and parsers by it. Narrowing a response, or widening an input, is a note
that needs a minor bump: the contract changed, and no client breaks.
"""

from __future__ import annotations

from . import Bump, Level, Rule, declared

B = ("breaking",)
BC = ("breaking", "conform")  # conform reports a published input schema that accepts less so


def _break(rule_id: str, category: str, purpose: str, commands: tuple[str, ...] = B) -> Rule:
    return Rule(rule_id, commands, Level.ERROR, category, purpose, bump=Bump.MAJOR)


def _note(rule_id: str, category: str, purpose: str, bump: Bump | None = Bump.MINOR) -> Rule:
    return Rule(rule_id, B, Level.NOTE, category, purpose, bump=bump)


CONTRACT_REMOVED = _break("contract-removed", "listing", "A contract is not removed.")
CONTRACT_ADDED = _note("contract-added", "listing", "A new contract.")
TOOL_REMOVED = _break("tool-removed", "listing", "A tool is not removed.")
TOOL_ADDED = _note("tool-added", "listing", "A new tool.")
TOOL_VALUE_CHANGED = _break(
    "tool-value-changed", "listing", "A declared column of a tool keeps its value (a mutation flag...)."
)
TOOL_HINT_WEAKENED = _break(
    "tool-hint-weakened",
    "listing",
    "A hint clients rely on holds: readOnlyHint stays true, destructiveHint false, idempotentHint true,"
    " openWorldHint false.",
)
TOOL_HINT_STRENGTHENED = _note(
    "tool-hint-strengthened", "listing", "A hint now promises more (readOnlyHint false to true...)."
)
TOOL_TITLE_CHANGED = _note("tool-title-changed", "listing", "A tool's title, for people, changed.", bump=Bump.PATCH)
TOOL_EXAMPLES_CHANGED = _note(
    "tool-examples-changed",
    "listing",
    "A tool's example calls changed: the calls `conform` makes and `mock` answers.",
    bump=Bump.PATCH,
)
RESOURCE_REMOVED = _break("resource-removed", "resources", "A resource (by URI) is not removed.")
RESOURCE_ADDED = _note("resource-added", "resources", "A new resource.")
TEMPLATE_REMOVED = _break("template-removed", "resources", "A resource template (by name) is not removed.")
TEMPLATE_ADDED = _note("template-added", "resources", "A new resource template.")
TEMPLATE_VARIABLE_REMOVED = _break(
    "template-variable-removed", "resources", "A resource template keeps every variable it had."
)
TEMPLATE_CHANGED = _break(
    "template-changed", "resources", "A resource template keeps its URI template: clients expand it."
)
RESOURCE_MEDIA_TYPE_CHANGED = _break(
    "resource-media-type-changed", "resources", "A resource or template keeps its media type."
)
PROMPT_REMOVED = _break("prompt-removed", "resources", "A prompt is not removed.")
PROMPT_ADDED = _note("prompt-added", "resources", "A new prompt.")
PROMPT_ARGUMENT_REMOVED = _break("prompt-argument-removed", "resources", "A prompt keeps every argument it took.")
PROMPT_ARGUMENT_REQUIRED = _break(
    "prompt-argument-required",
    "resources",
    "A prompt requires no argument it did not: none made required, no new one required.",
)
PROMPT_ARGUMENT_ADDED = _note("prompt-argument-added", "resources", "A new optional argument of a prompt.")
CODE_REMOVED = _break("code-removed", "catalogue", "An error code is not removed.")
CODE_ADDED = Rule(
    "code-added",
    B,
    Level.WARNING,
    "catalogue",
    "A new error code: clients need a default for codes they do not know.",
    bump=Bump.MINOR,
)
CODE_VALUE_CHANGED = _break(
    "code-value-changed",
    "catalogue",
    "A declared column of an error code keeps its value (a retryable flag, an HTTP status...).",
)
TOOL_CODE_ADDED = Rule(
    "tool-code-added",
    B,
    Level.WARNING,
    "catalogue",
    "A tool that gains a possible error code: its clients need a default for it.",
    bump=Bump.MINOR,
)
OBJECT_OPENED = _break("object-opened", "response", "An object of a response stays closed to other properties.")
PROPERTY_REMOVED = _break("property-removed", "response", "A property of a response is not removed.")
PROPERTY_OPTIONAL = _break("property-optional", "response", "A required property of a response stays required.")
PROPERTY_ADDED = _note("property-added", "response", "A new property of a response.")
RESPONSE_TYPE_WIDENED = _break(
    "response-type-widened", "response", "A value of a response admits no JSON type it did not."
)
RESPONSE_ENUM_WIDENED = Rule(
    "response-enum-widened",
    B,
    Level.WARNING,
    "response",
    "A const or enum of a response gains values: clients need a default for values they do not know.",
    bump=Bump.MINOR,
)
RESPONSE_BOUND_LOOSENED = _break(
    "response-bound-loosened",
    "response",
    "A bound of a response value holds (minLength, maxItems, maximum, pattern...): clients rely on it.",
)
RESPONSE_BRANCH_ADDED = _break(
    "response-branch-added", "response", "A union of a response gains no branch clients do not know."
)
RESPONSE_NARROWED = _note("response-narrowed", "response", "A response guarantees more than it did (no client breaks).")
RESULT_UNSTRUCTURED = _break("result-unstructured", "response", "A tool's results keep carrying structuredContent.")
RESULT_CONTENT_ADDED = _break(
    "result-content-added", "response", "A tool's results hold no content block type they did not."
)
UNION_BY_POSITION = _note(
    "union-by-position", "comparison", "Union branches without a tag are compared by position.", bump=None
)
COMPARISON_CUT_SHORT = _note(
    "comparison-cut-short", "comparison", "A comparison stopped at its depth or size limit.", bump=None
)
INPUT_REQUIRED = _break(
    "input-required",
    "input",
    "No argument of a tool becomes required: callers that leave it out are refused.",
    BC,
)
INPUT_ENUM_NARROWED = _break(
    "input-enum-narrowed", "input", "An argument keeps accepting every value of its enum or const.", BC
)
INPUT_TYPE_NARROWED = _break("input-type-narrowed", "input", "An argument keeps accepting every type it did.", BC)
INPUT_CLOSED = _break("input-closed", "input", "A tool's arguments stay open to other properties.", BC)
INPUT_BOUND_TIGHTENED = _break(
    "input-bound-tightened",
    "input",
    "No bound of an argument tightens (minLength, maximum, pattern... added or raised).",
    BC,
)
INPUT_PROPERTY_REMOVED = _break(
    "input-property-removed", "input", "A declared argument of a closed object is not removed.", BC
)
INPUT_BRANCH_REMOVED = _break("input-branch-removed", "input", "A union of an input keeps every branch it had.", BC)
INPUT_WIDENED = _note("input-widened", "input", "An input accepts more than it did (no caller breaks).")
VERSION_NOT_BUMPED = Rule(
    "version-not-bumped",
    B,
    Level.ERROR,
    "version",
    "A contract's `version` is raised as much as its changes need: major for a break, minor for an addition.",
)
ACCEPTED_BREAK_UNUSED = Rule(
    "accepted-break-unused",
    B,
    Level.WARNING,
    "version",
    "Each entry of accepted-breaks.yaml for the contract's current version matches a finding.",
)

BREAKING_RULES = declared(globals())
