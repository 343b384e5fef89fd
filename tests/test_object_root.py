"""`"type": "object"` at the root of a published union envelope changes no verdict.

`always_object` proves that every branch accepts objects only; here the published schema
and the envelope as written (both self-contained, judged by jsonschema-rs alone) are held to
the same verdict on every example of the contract and on instances drawn from the schema,
type confusions at the root and inside included.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CONTRACTS, SCHEMAS, load_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_contracts_generator import api
from mcp_contracts_generator.model.schemas import object_rooted
from mcp_contracts_generator.schema.engine import standalone_validator
from schema_strategies import from_schema, mutations

PROJECT = api.load(SCHEMAS).project
assert PROJECT is not None
BY_NAME = {c.name: c for c in PROJECT.contracts}
NOT_OBJECTS = [None, True, 0, 1.5, "text", [], [{}], [{"success": True}]]


@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_object_root_keeps_every_verdict(contract: str) -> None:
    written = BY_NAME[contract].bundle.as_written
    published = object_rooted(written)
    assert published.get("type") == "object", "every built-in envelope accepts objects only"
    as_written, as_published = standalone_validator(written), standalone_validator(published)
    examples = [load_json(p) for p in sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json"))]
    for instance in [*examples, *NOT_OBJECTS]:
        assert as_written.is_valid(instance) == as_published.is_valid(instance), instance
    assert all(as_published.is_valid(e) for e in examples)

    envelope = load_json(SCHEMAS / "contracts" / contract / "envelope.schema.json")
    instances = from_schema(envelope)
    verdicts = {True: 0, False: 0}

    @settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.one_of(instances, mutations(st.sampled_from(examples) | instances), st.sampled_from(NOT_OBJECTS)))
    def agree(instance: Any) -> None:
        verdict = as_written.is_valid(instance)
        assert as_published.is_valid(instance) == verdict, instance
        verdicts[verdict] += 1

    agree()
    assert verdicts[True] and verdicts[False], verdicts


def test_a_root_that_may_be_no_object_is_published_as_written() -> None:
    schema = {"oneOf": [{"type": "object"}, {"type": "array"}]}
    assert object_rooted(schema) is schema
