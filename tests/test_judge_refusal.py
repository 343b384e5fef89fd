"""What a refusal reports: one line per violation, the errors of the oneOf/anyOf branch the
document most likely meant, each at the member it is about, in order."""

from __future__ import annotations

from typing import Any

import pytest
from mcp_contracts_generator.runtime.judge import Judge
from pydantic import ValidationError

ROOT = "urn:test:refusal"


def _judge(schema: dict[str, Any]) -> Judge:
    return Judge(ROOT, {ROOT: {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}})


def _lines(judge: Judge, document: Any) -> list[tuple[str, str]]:
    return [(violation.pointer, violation.message) for violation in judge.violations(document)]


def test_of_two_branches_that_score_alike_the_first_is_reported() -> None:
    judge = _judge({"oneOf": [{"required": ["a"]}, {"required": ["b"]}]})
    assert _lines(judge, {}) == [("/a", '"a" is a required property')]


def test_the_branch_with_fewer_errors_is_reported_wherever_it_stands() -> None:
    judge = _judge({"anyOf": [{"required": ["a", "b"]}, {"required": ["c"]}]})
    assert _lines(judge, {}) == [("/c", '"c" is a required property')]


def test_the_branch_whose_type_fits_is_reported() -> None:
    judge = _judge({"oneOf": [{"type": "array"}, {"type": "object", "required": ["a", "b"]}]})
    assert [pointer for pointer, _ in _lines(judge, {})] == ["/a", "/b"]


def test_an_error_about_several_members_is_a_line_for_each_in_order() -> None:
    judge = _judge({"type": "object", "properties": {"a": {}}, "additionalProperties": False})
    assert _lines(judge, {"z": 1, "a": 1, "b": 2}) == [
        ("/b", "'b' is not allowed here (additional property)"),
        ("/z", "'z' is not allowed here (additional property)"),
    ]


def test_the_lines_of_several_errors_are_merged_and_ordered() -> None:
    judge = _judge({"required": ["b", "a"], "properties": {"c": {"type": "string"}}})
    assert _lines(judge, {"c": 1}) == [
        ("/a", '"a" is a required property'),
        ("/b", '"b" is a required property'),
        ("/c", '1 is not of type "string"'),
    ]


def test_a_refusal_is_pydantic_s_error_with_a_line_per_violation() -> None:
    judge = _judge({"oneOf": [{"required": ["a"]}, {"required": ["b"]}]})
    with pytest.raises(ValidationError) as raised:
        judge.refuse({}, "", "Thing")
    assert [(line["loc"], line["msg"]) for line in raised.value.errors()] == [(("a",), '"a" is a required property')]
