"""Seed examples and upstream fixtures are judged as their documents say.

Each instance is judged twice: by the canonical JSON Schema (jsonschema) and by the
generated pydantic models.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from builtin_models import root_model
from conftest import CONTRACTS, SCHEMAS, SEEDS, load_json, require_shared
from jsonschema import Draft202012Validator
from pydantic import ValidationError


def schema_validator(contract: str) -> Draft202012Validator:
    return Draft202012Validator(load_json(SCHEMAS / "contracts" / contract / "envelope.schema.json"))


def model_accepts(contract: str, instance: Any) -> bool:
    try:
        root_model(contract).model_validate(instance)
    except ValidationError:
        return False
    return True


def assert_valid(contract: str, instance: Any) -> None:
    errors = [e.message for e in schema_validator(contract).iter_errors(instance)]
    assert errors == [], errors
    root_model(contract).model_validate(instance)


def assert_invalid(contract: str, instance: Any, *, models_too: bool = True) -> None:
    assert not schema_validator(contract).is_valid(instance)
    if models_too:
        assert not model_accepts(contract, instance)


def seed_json_blocks(number: str) -> list[Any]:
    """The JSON examples of a seed document that are complete JSON (some elide with `...`)."""
    require_shared()
    [seed] = SEEDS.glob(f"{number}_*.txt")
    blocks = []
    for block in re.findall(r"```json\n(.*?)```", seed.read_text(encoding="utf-8"), re.S):
        try:
            blocks.append(json.loads(block))
        except json.JSONDecodeError:
            continue
    return blocks


@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_builtin_example_is_valid(contract: str) -> None:
    examples = sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json"))
    assert examples, f"{contract} has no examples"
    for example in examples:
        assert_valid(contract, load_json(example))


def test_code_scalpel_seed_examples_are_valid() -> None:
    blocks = seed_json_blocks("000")
    assert len(blocks) == 2
    for block in blocks:
        assert_valid("code-scalpel", block)


def test_foundry_seed_envelopes_are_valid() -> None:
    envelopes = [b for b in seed_json_blocks("001") if "success" in b]
    assert len(envelopes) == 2  # content fidelity example, error response example
    for envelope in envelopes:
        assert_valid("foundry", envelope)


def test_mcp_envelope_seed_envelopes_are_valid() -> None:
    envelopes = [b for b in seed_json_blocks("002") if isinstance(b, dict) and "schema_version" in b]
    assert len(envelopes) == 6
    for envelope in envelopes:
        assert_valid("mcp-envelope", envelope)


def test_foundry_goldens_without_fixture_version_are_valid(reference: Path) -> None:
    goldens = sorted((reference / "foundry-mcp" / "golden").glob("*.json"))
    judged = 0
    for golden in goldens:
        document = load_json(golden)
        assert document.pop("fixture_version") == "1.0.0"
        responses = [case["response"] for case in document["test_cases"]] if "test_cases" in document else [document]
        for response in responses:
            assert_valid("foundry", response)
            judged += 1
    assert judged == 20


def test_foundry_golden_with_fixture_version_is_invalid(reference: Path) -> None:
    assert_invalid("foundry", load_json(reference / "foundry-mcp" / "golden" / "error_not_found.json"))


def test_ragx_invalid_envelopes_are_rejected(reference: Path) -> None:
    fixtures = sorted((reference / "ragx" / "envelope").glob("*.json"))
    assert [f.name for f in fixtures] == ["invalid_missing_method.json", "invalid_params_type.json"]
    for fixture in fixtures:
        assert_invalid("jsonrpc", load_json(fixture))


def test_prov_spec_example_is_valid(reference: Path) -> None:
    assert_valid("mcp-envelope", load_json(reference / "prov-spec" / "examples" / "mcp.envelope.example.json"))


def test_prov_spec_wrap_vector_output_is_valid(reference: Path) -> None:
    assert_valid(
        "mcp-envelope", load_json(reference / "prov-spec" / "vectors" / "adapter.wrap.envelope_v0_1" / "expected.json")
    )


def test_prov_spec_negative_vectors_are_rejected(reference: Path) -> None:
    negatives = sorted((reference / "prov-spec" / "vectors" / "adapter.wrap.envelope_v0_1" / "negative").glob("*.json"))
    assert [v.name for v in negatives] == ["double_wrapped.json", "wrong_schema_version.json"]
    for vector in negatives:
        document = load_json(vector)
        assert document["_vector_meta"]["expect"] == "fail"
        assert_invalid("mcp-envelope", document["envelope"])


def test_our_schema_agrees_with_upstream_prov_spec_on_its_instances(reference: Path) -> None:
    """Upstream's schema set and ours judge the upstream instances alike, except double wrapping."""
    from referencing import Registry, Resource

    schemas = reference / "prov-spec" / "schemas"
    resources = []
    for path in schemas.glob("*.json"):
        resource = Resource.from_contents(load_json(path))
        resources += [(path.name, resource), (resource.id(), resource)]
    registry = Registry().with_resources(resources)
    upstream = Draft202012Validator(load_json(schemas / "mcp.envelope.schema.v0.1.json"), registry=registry)
    ours = schema_validator("mcp-envelope")
    vectors = reference / "prov-spec" / "vectors" / "adapter.wrap.envelope_v0_1"
    instances = {
        "example": load_json(reference / "prov-spec" / "examples" / "mcp.envelope.example.json"),
        "expected": load_json(vectors / "expected.json"),
        "wrong_schema_version": load_json(vectors / "negative" / "wrong_schema_version.json")["envelope"],
        "double_wrapped": load_json(vectors / "negative" / "double_wrapped.json")["envelope"],
    }
    verdicts = {name: (upstream.is_valid(i), ours.is_valid(i)) for name, i in instances.items()}
    assert verdicts == {
        "example": (True, True),
        "expected": (True, True),
        "wrong_schema_version": (False, False),
        "double_wrapped": (True, False),  # upstream's schema misses its own negative vector
    }


def test_foundry_schema_agrees_with_upstream_on_the_goldens(reference: Path) -> None:
    upstream = load_json(reference / "foundry-mcp" / "response_schema.json")
    from jsonschema import Draft7Validator

    theirs = Draft7Validator(upstream)
    ours = schema_validator("foundry")
    for golden in sorted((reference / "foundry-mcp" / "golden").glob("*.json")):
        document = load_json(golden)
        document.pop("fixture_version")
        responses = [case["response"] for case in document["test_cases"]] if "test_cases" in document else [document]
        for response in responses:
            assert theirs.is_valid(response) == ours.is_valid(response) is True
    failure_without_message = {"success": False, "data": {}, "error": "", "meta": {"version": "response-v2"}}
    success_with_error = {"success": True, "data": {}, "error": "boom", "meta": {"version": "response-v2"}}
    for instance in (failure_without_message, success_with_error):
        assert not theirs.is_valid(instance) and not ours.is_valid(instance)
