"""The built-in contracts' generated root models (imported from generated/python) and the two
verdicts on an envelope that the tests compare: the canonical schema's and the model's."""

from __future__ import annotations

import importlib
from typing import Any

from conftest import SCHEMAS, load_json
from pydantic import BaseModel, ValidationError
from reference_judge import reference_validator

ROOT_MODELS = {
    "code-scalpel": ("code_scalpel", "CodeScalpelEnvelope"),
    "foundry": ("foundry", "FoundryEnvelope"),
    "jsonrpc": ("jsonrpc", "JsonRpcEnvelope"),
    "mcp-envelope": ("mcp_envelope", "McpEnvelope"),
    "tuitbot": ("tuitbot", "TuitbotEnvelope"),
}


def root_model(contract: str) -> type[BaseModel]:
    module, name = ROOT_MODELS[contract]
    return getattr(importlib.import_module(f"mcp_contracts.{module}.models"), name)  # type: ignore[no-any-return]


def verdicts(contract: str, instance: Any) -> tuple[bool, bool]:
    """The canonical schema's verdict (python-jsonschema) and the generated root model's."""
    schema = load_json(SCHEMAS / "contracts" / contract / "envelope.schema.json")
    by_schema = reference_validator(schema).is_valid(instance)
    try:
        root_model(contract).model_validate(instance)
        by_model = True
    except ValidationError:
        by_model = False
    return by_schema, by_model
