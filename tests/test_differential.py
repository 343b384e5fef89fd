"""The JSON Schema and the generated models judge every instance alike.

Instances are drawn from each envelope schema and mutated; jsonschema judges the parsed
JSON, the generated root model judges the JSON text (the way a server receives it).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from builtin_models import root_model
from conftest import CONTRACTS, SCHEMAS, load_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from reference_judge import reference_validator
from schema_strategies import from_schema, mutations

pytestmark = pytest.mark.slow  # drawn documents by the thousand, through every judge

EXAMPLES_PER_CONTRACT = 250


def _judges(contract: str) -> tuple[Any, Any]:
    schema = load_json(SCHEMAS / "contracts" / contract / "envelope.schema.json")
    return reference_validator(schema), root_model(contract)


def _model_accepts(model: Any, text: str) -> bool:
    try:
        model.model_validate_json(text)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("contract", CONTRACTS)
def test_schema_and_models_agree(contract: str) -> None:
    validator, model = _judges(contract)
    schema = load_json(SCHEMAS / "contracts" / contract / "envelope.schema.json")
    instances = from_schema(schema)
    examples = [load_json(p) for p in sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json"))]
    seeds = st.sampled_from(examples) | instances

    verdicts = {True: 0, False: 0}

    @settings(
        max_examples=EXAMPLES_PER_CONTRACT, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(st.one_of(instances, mutations(seeds)))
    def agree(instance: Any) -> None:
        text = json.dumps(instance)
        by_schema = validator.is_valid(json.loads(text))
        by_model = _model_accepts(model, text)
        assert by_schema == by_model, f"schema says {by_schema}, models say {by_model}: {text}"
        verdicts[by_schema] += 1

    agree()
    print(f"{contract}: {verdicts[True]} valid and {verdicts[False]} invalid instances, judged alike")
    # Both verdicts must be well represented, or the agreement proves little.
    assert min(verdicts.values()) >= EXAMPLES_PER_CONTRACT // 10, verdicts
