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

from . import Rule

B = ("breaking",)
BC = ("breaking", "conform")  # conform reports a published input schema that accepts less so


def _break(rule_id: str, category: str, purpose: str, commands: tuple[str, ...] = B) -> Rule:
    return Rule(rule_id, commands, "error", category, purpose, bump="major")


def _note(rule_id: str, category: str, purpose: str, bump: str | None = "minor") -> Rule:
    return Rule(rule_id, B, "note", category, purpose, bump=bump)


BREAKING_RULES = (
    _break("contract-removed", "listing", "A contract is not removed."),
    _note("contract-added", "listing", "A new contract."),
    _break("tool-removed", "listing", "A tool is not removed."),
    _note("tool-added", "listing", "A new tool."),
    _break("tool-value-changed", "listing", "A declared column of a tool keeps its value (a mutation flag...)."),
    _break(
        "tool-hint-weakened",
        "listing",
        "A hint clients rely on holds: readOnlyHint stays true, destructiveHint false, idempotentHint true,"
        " openWorldHint false.",
    ),
    _note("tool-hint-strengthened", "listing", "A hint now promises more (readOnlyHint false to true...)."),
    _note("tool-title-changed", "listing", "A tool's title, for people, changed.", bump="patch"),
    _note(
        "tool-examples-changed",
        "listing",
        "A tool's example calls changed: the calls `conform` makes and `mock` answers.",
        bump="patch",
    ),
    _break("resource-removed", "resources", "A resource (by URI) is not removed."),
    _note("resource-added", "resources", "A new resource."),
    _break("template-removed", "resources", "A resource template (by name) is not removed."),
    _note("template-added", "resources", "A new resource template."),
    _break("template-variable-removed", "resources", "A resource template keeps every variable it had."),
    _break("template-changed", "resources", "A resource template keeps its URI template: clients expand it."),
    _break("resource-media-type-changed", "resources", "A resource or template keeps its media type."),
    _break("prompt-removed", "resources", "A prompt is not removed."),
    _note("prompt-added", "resources", "A new prompt."),
    _break("prompt-argument-removed", "resources", "A prompt keeps every argument it took."),
    _break(
        "prompt-argument-required",
        "resources",
        "A prompt requires no argument it did not: none made required, no new one required.",
    ),
    _note("prompt-argument-added", "resources", "A new optional argument of a prompt."),
    _break("code-removed", "catalogue", "An error code is not removed."),
    Rule(
        "code-added",
        B,
        "warning",
        "catalogue",
        "A new error code: clients need a default for codes they do not know.",
        bump="minor",
    ),
    _break(
        "code-value-changed",
        "catalogue",
        "A declared column of an error code keeps its value (a retryable flag, an HTTP status...).",
    ),
    Rule(
        "tool-code-added",
        B,
        "warning",
        "catalogue",
        "A tool that gains a possible error code: its clients need a default for it.",
        bump="minor",
    ),
    _break("object-opened", "response", "An object of a response stays closed to other properties."),
    _break("property-removed", "response", "A property of a response is not removed."),
    _break("property-optional", "response", "A required property of a response stays required."),
    _note("property-added", "response", "A new property of a response."),
    _break("response-type-widened", "response", "A value of a response admits no JSON type it did not."),
    Rule(
        "response-enum-widened",
        B,
        "warning",
        "response",
        "A const or enum of a response gains values: clients need a default for values they do not know.",
        bump="minor",
    ),
    _break(
        "response-bound-loosened",
        "response",
        "A bound of a response value holds (minLength, maxItems, maximum, pattern...): clients rely on it.",
    ),
    _break("response-branch-added", "response", "A union of a response gains no branch clients do not know."),
    _note("response-narrowed", "response", "A response guarantees more than it did (no client breaks)."),
    _break("result-unstructured", "response", "A tool's results keep carrying structuredContent."),
    _break("result-content-added", "response", "A tool's results hold no content block type they did not."),
    _note("union-by-position", "comparison", "Union branches without a tag are compared by position.", bump=None),
    _note("comparison-cut-short", "comparison", "A comparison stopped at its depth or size limit.", bump=None),
    _break(
        "input-required",
        "input",
        "No argument of a tool becomes required: callers that leave it out are refused.",
        BC,
    ),
    _break("input-enum-narrowed", "input", "An argument keeps accepting every value of its enum or const.", BC),
    _break("input-type-narrowed", "input", "An argument keeps accepting every type it did.", BC),
    _break("input-closed", "input", "A tool's arguments stay open to other properties.", BC),
    _break(
        "input-bound-tightened",
        "input",
        "No bound of an argument tightens (minLength, maximum, pattern... added or raised).",
        BC,
    ),
    _break("input-property-removed", "input", "A declared argument of a closed object is not removed.", BC),
    _break("input-branch-removed", "input", "A union of an input keeps every branch it had.", BC),
    _note("input-widened", "input", "An input accepts more than it did (no caller breaks)."),
    Rule(
        "version-not-bumped",
        B,
        "error",
        "version",
        "A contract's `version` is raised as much as its changes need: major for a break, minor for an addition.",
    ),
    Rule(
        "accepted-break-unused",
        B,
        "warning",
        "version",
        "Each entry of accepted-breaks.yaml for the contract's current version matches a finding.",
    ),
)
