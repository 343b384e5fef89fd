"""The seams between modules carry enums, not strings a typo would pass: a finding's level is a
`Level`, a rule is reported by its constant, a view's type kinds are `TypeKind`s; each prints
and serialises as the string it replaced, so every report keeps its bytes."""

from __future__ import annotations

import json

from conftest import SCHEMAS
from mcp_contracts_generator.config import Limits
from mcp_contracts_generator.findings.finding import Finding
from mcp_contracts_generator.findings.policy import Policy
from mcp_contracts_generator.load import load_project
from mcp_contracts_generator.load.reading import Reading
from mcp_contracts_generator.model import Place
from mcp_contracts_generator.model.schemas import TypeKind, ViewType
from mcp_contracts_generator.rules import Level
from mcp_contracts_generator.rules.lint import CODE_UNUSED, TOOL_NAME


def test_a_finding_of_a_rule_constant_has_its_level_as_an_enum_printed_as_before() -> None:
    place = Place("schemas/contracts/shop/errors.yaml", 3, 5, "/errors/0/code")
    finding = Finding.of(CODE_UNUSED, place, "no tool returns 'X'", contract="shop")
    assert (finding.rule, finding.level) == ("code-unused", Level.WARNING) and type(finding.level) is Level
    assert str(finding) == "schemas/contracts/shop/errors.yaml:3:5: code-unused [warning] no tool returns 'X'"
    assert json.dumps(finding.as_json()["level"]) == '"warning"'


def test_a_level_a_setting_names_becomes_the_enum() -> None:
    """`rules:` in contract.yaml is YAML text: the policy re-levels with the enum, not the text."""
    finding = Finding.of(TOOL_NAME, Place("tools.yaml"), "bad", contract="shop")
    kept = Policy({}, {"shop": {"tool-name": "note"}}).apply([finding])
    assert [(f.level, type(f.level)) for f in kept] == [(Level.NOTE, Level)]


def _kinds(kind: ViewType) -> list[object]:
    return [kind.kind, *(found for item in kind.items for found in _kinds(item))]


def test_every_type_of_the_built_in_views_has_a_kind_of_the_enum() -> None:
    loaded = load_project(SCHEMAS, Reading.within(SCHEMAS, Limits()))
    assert loaded.project is not None, loaded.diagnostics
    kinds = [
        kind
        for contract in loaded.project.contracts
        for model in contract.view.classes
        for field in model.fields
        for kind in _kinds(field.type)
    ]
    assert kinds and all(type(kind) is TypeKind for kind in kinds)
    assert {TypeKind.CLASS, TypeKind.LIST, TypeKind.STRING} <= set(kinds)
