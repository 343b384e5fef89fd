"""The schema differ of `breaking` on its own: two schemas, a direction, the rules found.

The end-to-end cases (a git repository, the command) are in tests/test_breaking_rules.py;
these are the corners of the comparison a scaffold does not reach, judged directly.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import SCHEMAS
from mcp_contracts_generator import api
from mcp_contracts_generator.breaking import changes_between, input_narrowings
from mcp_contracts_generator.breaking.differ import INPUT, RESPONSE, Differ
from mcp_contracts_generator.breaking.shape import Side


def found(direction: str, old: Any, new: Any) -> list[tuple[str, str]]:
    """(rule, instance path) of each change from `old` to `new`."""
    differ = Differ(Side.of({"": old}), Side.of({"": new}), direction)
    return [(c.rule, "".join(c.path) or "/") for c in differ.run(old, new, ("", ()), ("", ()))]


def obj(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


CASES = [
    pytest.param(INPUT, {"minimum": 0}, {"minimum": 1}, [("input-bound-tightened", "/")], id="input minimum raised"),
    pytest.param(INPUT, {"minimum": 1}, {"minimum": 0}, [("input-widened", "/")], id="input minimum lowered"),
    pytest.param(RESPONSE, {"maximum": 9}, {"maximum": 10}, [("response-bound-loosened", "/")], id="maximum raised"),
    pytest.param(RESPONSE, {"maximum": 9}, {}, [("response-bound-loosened", "/")], id="maximum dropped"),
    pytest.param(RESPONSE, {}, {"maxLength": 5}, [("response-narrowed", "/")], id="maxLength added to a response"),
    pytest.param(INPUT, {"multipleOf": 2}, {"multipleOf": 4}, [("input-bound-tightened", "/")], id="step multiplied"),
    pytest.param(INPUT, {"multipleOf": 4}, {"multipleOf": 2}, [("input-widened", "/")], id="step divided"),
    pytest.param(
        INPUT,
        {"pattern": "^a"},
        {"pattern": "^b"},
        [("input-bound-tightened", "/"), ("input-widened", "/")],
        id="pattern changed: both ways",
    ),
    pytest.param(INPUT, {"type": "array"}, {"type": "array", "uniqueItems": True}, [("input-bound-tightened", "/")]),
    pytest.param(
        RESPONSE, {"type": "integer"}, {"type": "number"}, [("response-type-widened", "/")], id="integer to number"
    ),
    pytest.param(RESPONSE, {"type": "number"}, {"type": "integer"}, [("response-narrowed", "/")], id="number to int"),
    pytest.param(
        RESPONSE,
        {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]},
        {"type": "array", "items": [{"type": "string"}, {"type": "string"}]},
        [("response-type-widened", "/1"), ("response-narrowed", "/1")],
        id="draft-07 tuple items",
    ),
    pytest.param(
        RESPONSE,
        {"type": "object", "additionalProperties": {"type": "string"}},
        {"type": "object", "additionalProperties": {"type": ["string", "null"]}},
        [("response-type-widened", "/*")],
        id="map values widened",
    ),
    pytest.param(
        RESPONSE,
        {"$defs": {"A": obj(id={"type": "string"})}, "$ref": "#/$defs/A", "required": ["id"]},
        {"$defs": {"A": obj(id={"type": "string"})}, "$ref": "#/$defs/A"},
        [("property-optional", "/id")],
        id="a $ref with siblings",
    ),
    pytest.param(
        RESPONSE,
        {**obj(a={"type": "string"}, b={"type": "integer"}), "required": ["a", "b"]},
        {
            "allOf": [
                {**obj(a={"type": "string"}), "required": ["a"]},
                {**obj(b={"type": "integer"}), "required": ["b"]},
            ]
        },
        [],
        id="properties split into allOf",
    ),
    pytest.param(
        RESPONSE,
        {
            "discriminator": {"propertyName": "kind"},
            "oneOf": [obj(kind={"enum": ["a", "b"]}, x={"type": "string"}), obj(kind={"const": "c"})],
        },
        {
            "discriminator": {"propertyName": "kind"},
            "oneOf": [obj(kind={"const": "c"}), obj(kind={"enum": ["a", "b"]}, x={"type": "string"})],
        },
        [],
        id="a discriminator pairs branches whatever their order",
    ),
    pytest.param(
        RESPONSE,
        {
            "discriminator": {"propertyName": "kind"},
            "oneOf": [
                {**obj(ok={"const": True}, data={"type": "string"}), "required": ["ok", "data"]},
                {**obj(ok={"const": False}, error={"type": "string"}), "required": ["ok", "error"]},
            ],
        },
        {
            "discriminator": {"propertyName": "kind"},
            "oneOf": [
                {**obj(ok={"const": True}, data={"type": "string"}), "required": ["ok"]},
                {**obj(ok={"const": False}, error={"type": "string"}), "required": ["ok", "error"]},
            ],
        },
        [("property-optional", "[ok=true]/data")],
        id="a discriminator no branch says as a const hides no branch",
    ),
    pytest.param(
        INPUT,
        obj(a={"type": "string"}),
        {**obj(a={"type": "string"}), "unevaluatedProperties": False},
        [("input-closed", "/")],
        id="unevaluatedProperties closes an input",
    ),
    pytest.param(
        RESPONSE,
        {"type": "object", "required": ["id"]},
        {"type": "object"},
        [("property-optional", "/id")],
        id="an undeclared property no longer required",
    ),
    pytest.param(RESPONSE, {"const": 1}, {"enum": [1, 2]}, [("response-enum-widened", "/")], id="const to enum"),
    pytest.param(RESPONSE, True, False, [("response-narrowed", "/")], id="true to false"),
    pytest.param(INPUT, True, False, [("input-type-narrowed", "/")], id="an input that refuses everything"),
]


@pytest.mark.parametrize(("direction", "old", "new", "expected"), CASES)
def test_the_differ_finds_what_changed_for_the_reader(direction: str, old: Any, new: Any, expected: Any) -> None:
    assert sorted(found(direction, old, new)) == sorted(expected)


def test_the_same_schema_is_no_change_in_either_direction() -> None:
    schema = {"$defs": {"N": {**obj(next={"$ref": "#/$defs/N"}), "maxProperties": 3}}, "$ref": "#/$defs/N"}
    assert found(RESPONSE, schema, dict(schema)) == found(INPUT, schema, dict(schema)) == []


def test_conform_gets_the_input_narrowings_with_pointers_into_the_new_schema() -> None:
    """`conform` names what a published input schema refuses that the contract's accepts."""
    ours = {"type": "object", "properties": {"path": {"type": "string"}, "mode": {"enum": ["a", "b"]}}}
    theirs = {**ours, "required": ["path"], "properties": {**ours["properties"], "mode": {"enum": ["a"]}}}
    assert input_narrowings(ours, theirs) == [
        ("input-enum-narrowed", "/properties/mode/enum", 'no longer "b"'),
        ("input-required", "/required/path", "'path' is now required"),
    ]
    assert input_narrowings(theirs, ours) == []  # accepting more breaks no caller
    assert input_narrowings("not a schema", ours) == []


def test_every_built_in_contract_against_itself_is_no_finding() -> None:
    """Two loads of the same sources: nothing changed, not even a note."""
    old, new = api.load(SCHEMAS), api.load(SCHEMAS)
    assert old.project is not None and new.project is not None
    assert len(new.project.contracts) == 5
    assert changes_between(old.project, new.project) == []


@pytest.mark.parametrize("depth", [300, 5_000])
def test_a_schema_nested_past_every_limit_is_a_note_not_a_crash(depth: int) -> None:
    """Unions of one branch in unions of one branch (no instance path grows), as a server may
    publish: past the nesting limit, or past what Python encodes, the comparison stops."""
    old: Any = {"type": "string"}
    new: Any = {"type": "integer"}
    for _ in range(depth):
        old, new = {"oneOf": [old]}, {"oneOf": [new]}
    assert [rule for rule, _ in found(INPUT, old, new)] == ["comparison-cut-short"]
    assert input_narrowings(old, new) == []
