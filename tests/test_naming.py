"""One naming module: class names, enum members, slugs and anchors have one rule each, in
`generator/naming.py`; a second copy elsewhere would drift from it."""

from __future__ import annotations

import ast
import re

from conftest import ROOT
from mcp_contracts_generator import naming
from mcp_contracts_generator.load import view
from mcp_contracts_generator.render import describe, docs

GENERATOR = ROOT / "generator"
RULES = {
    "camel",
    "class_name_from",
    "member_name",
    "slug",
    "row_anchor",
    "definition_anchor",
    "flag_set_name",
    "root_name",
}
# The character classes the rules are written with.
PATTERNS = (r"[A-Za-z0-9]+", r"[^0-9A-Za-z]+", r"[^a-z0-9._-]+", r"[^a-z0-9_-]")


def _others() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(GENERATOR.rglob("*.py"))
        if path != GENERATOR / "naming.py"
    ]


def test_no_other_module_defines_a_naming_rule() -> None:
    defined = [
        (where, node.name)
        for where, tree in _others()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and (node.name.lstrip("_") in RULES or node.name.endswith("_anchor") or node.name.lstrip("_") == "anchor")
    ]
    assert defined == []
    written = [
        (where, node.value)
        for where, tree in _others()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and any(p in node.value for p in PATTERNS)
    ]
    assert written == []


def test_the_others_use_the_rules_of_naming() -> None:
    assert view.class_name_from is naming.class_name_from and view.camel is naming.camel
    assert docs.error_anchor is naming.error_anchor and describe.definition_anchor is naming.definition_anchor


def test_the_rules() -> None:
    assert naming.class_name_from("rate_limit info") == "RateLimitInfo"
    assert naming.class_name_from("meta") == "Meta" and naming.class_name_from("class") == "Class"
    assert naming.class_name_from("2fa") == "Model2fa"
    assert naming.member_name("x-rate.limited") == "X_RATE_LIMITED"
    assert naming.row_anchor("error_types", "Auth Failure") == "error-type-auth-failure"
    assert naming.row_anchor("tools", "mcp.tool:docs") == "tool-mcp.tool-docs"
    assert re.fullmatch(r"def-[a-z0-9_-]+", naming.definition_anchor("Rate.Limit (v2)")) is not None
    assert naming.root_name(None, "billing-api") == "BillingApiEnvelope"
    assert naming.root_name("Judge", "x") == "JudgeModel"  # a package export keeps its meaning
    assert naming.root_name("Envelope", "x") == "Envelope"
    assert naming.flag_set_name("retryable") == "RETRYABLE_CODES"
    assert naming.flag_set_name("retryable", "warning codes") == "RETRYABLE_WARNING_CODES"
