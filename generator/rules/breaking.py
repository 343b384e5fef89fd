"""The rules of `mcp-contracts breaking --against REF`: what an edit breaks, for which clients.

Categories, in buf's sense of what kind of client a change breaks: `response` (clients that
read results), `input` (clients that call tools with arguments), `catalogue` (clients that
handle error codes), `listing` (clients that discover tools), `version` (the contract's
version against what changed). `bump` is the version bump the change needs.
"""

from __future__ import annotations

from . import Rule

B = ("breaking",)
BC = ("breaking", "conform")  # conform reports a published input schema that accepts less so

BREAKING_RULES = (
    Rule("contract-removed", B, "error", "listing", "A contract is not removed.", bump="major"),
    Rule("tool-removed", B, "error", "listing", "A tool is not removed.", bump="major"),
    Rule("tool-added", B, "note", "listing", "A new tool.", bump="minor"),
    Rule("code-removed", B, "error", "catalogue", "An error code is not removed.", bump="major"),
    Rule(
        "code-added",
        B,
        "warning",
        "catalogue",
        "A new error code: clients need a default for codes they do not know.",
        bump="minor",
    ),
    Rule(
        "code-value-changed",
        B,
        "error",
        "catalogue",
        "A declared column of an error code keeps its value (a retryable flag, an HTTP status...).",
        bump="major",
    ),
    Rule(
        "tool-value-changed",
        B,
        "error",
        "listing",
        "A declared column of a tool keeps its value (a mutation flag...).",
        bump="major",
    ),
    Rule(
        "tool-code-added",
        B,
        "warning",
        "catalogue",
        "A tool that gains a possible error code: its clients need a default for it.",
        bump="minor",
    ),
    Rule(
        "object-opened",
        B,
        "error",
        "response",
        "An object of a response stays closed to other properties.",
        bump="major",
    ),
    Rule("property-removed", B, "error", "response", "A property of a response is not removed.", bump="major"),
    Rule(
        "property-optional", B, "error", "response", "A required property of a response stays required.", bump="major"
    ),
    Rule("property-added", B, "note", "response", "A new property of a response.", bump="minor"),
    Rule(
        "property-type-changed",
        B,
        "error",
        "response",
        "A property of a response admits no value it did not: clients may not handle it.",
        bump="major",
    ),
    Rule(
        "input-required",
        BC,
        "error",
        "input",
        "No argument of a tool becomes required: callers that leave it out are refused.",
        bump="major",
    ),
    Rule(
        "input-enum-narrowed",
        BC,
        "error",
        "input",
        "An argument keeps accepting every value of its enum.",
        bump="major",
    ),
    Rule("input-type-narrowed", BC, "error", "input", "An argument keeps accepting every type it did.", bump="major"),
    Rule("input-closed", BC, "error", "input", "A tool's arguments stay open to other properties.", bump="major"),
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
