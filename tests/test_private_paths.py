"""The runtime's private paths behind their bar: on a pydantic release outside the range they
are tested on (`_runtime/canary.py`'s `TESTED`), the runtime takes the public path only, and
a generated model does what it does on the private one.

The private paths: the fast view (view.py: a class's core schema read, `BaseModel`'s slots set)
and the contract's own JSON Schema (published.py: two methods of pydantic's schema generator
wrapped). Each behaviour below runs through both (`path`); the public one is forced as a
release outside the range forces it. CI runs these (`-m private_api`) on the lowest and the
highest pydantic the runtime supports.
"""

from __future__ import annotations

import importlib
import json
import re
import tomllib
from collections.abc import Iterator
from typing import Any

import pydantic
import pytest
from builtin_models import root_model
from conftest import CONTRACTS, ROOT, SCHEMAS, load_json
from mcp.server.mcpserver.utilities.func_metadata import StrictJsonSchema
from mcp_contracts_generator.schema.engine import standalone_validator
from pydantic import BaseModel, TypeAdapter, ValidationError

pytestmark = pytest.mark.private_api

RUNTIME = "mcp_contracts._runtime"


def _judged_classes() -> Iterator[type]:
    """Every class on the generated runtime's `_Judged` that is imported so far."""
    stack = list(importlib.import_module(f"{RUNTIME}.models")._Judged.__subclasses__())
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        yield cls


@pytest.fixture(params=["private", "public"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The runtime as it is on this pydantic ("private"), or as on a release outside the tested
    range ("public"): the caches of every class made afresh either way."""
    for contract in CONTRACTS:
        root_model(contract)  # every built-in class imported, so that its caches are cleared
    canary = importlib.import_module(f"{RUNTIME}.canary")
    monkeypatch.setattr(canary, "PRIVATE", request.param == "private" and canary.PRIVATE)
    monkeypatch.setattr(importlib.import_module(f"{RUNTIME}.models"), "_FAST", {})
    for cls in _judged_classes():
        if "__view__" in cls.__dict__:
            monkeypatch.delattr(cls, "__view__")
        monkeypatch.setattr(cls, "__checked__", False)
    return str(request.param)


def _pydantic_view(model: Any, value: Any) -> Any:
    return BaseModel.model_validate.__func__(model, value)  # type: ignore[attr-defined]


def _examples(contract: str) -> list[Any]:
    return [load_json(path) for path in sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json"))]


def test_the_range_is_checked_against_pydantics_version() -> None:
    canary = importlib.import_module(f"{RUNTIME}.canary")
    assert canary.tested(pydantic.VERSION) is canary.PRIVATE
    assert canary.tested("2.14.3") and canary.tested("2.14.4") and canary.tested("2.14.12")
    for outside in ("2.14.2", "2.13.9", "2.15.0", "2.15", "3.0.0", "2.15.0b1", "2.14.4.dev0", "2.14.3a1"):
        assert not canary.tested(outside), outside


def test_the_lowest_of_the_range_is_the_lowest_pydantic_supported() -> None:
    """The range starts where the dependency does: CI's lowest pydantic is in it."""
    pins = tomllib.loads((ROOT / "generated" / "python" / "pyproject.toml").read_text(encoding="utf-8"))
    [pin] = [p for p in pins["project"]["dependencies"] if p.startswith("pydantic")]
    lowest = re.search(r">=([\d.]+)", pin)
    assert lowest is not None, pin
    canary = importlib.import_module(f"{RUNTIME}.canary")
    assert tuple(int(part) for part in lowest.group(1).split(".")) == canary.TESTED[0]


@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_example_is_read_alike_on_either_path(path: str, contract: str) -> None:
    model = root_model(contract)
    for example in _examples(contract):
        expected = _pydantic_view(model, example)
        for built in (model.model_validate_json(json.dumps(example)), model.model_validate(example)):
            assert type(built) is type(expected) and built == expected
            assert built.model_fields_set == expected.model_fields_set
            assert built.model_dump_json(exclude_unset=True) == expected.model_dump_json(exclude_unset=True)
    fast = model._fast()[1]  # type: ignore[attr-defined]
    assert (fast is not None) == (path == "private"), "the fast view is taken on the private path only"


@pytest.mark.parametrize("contract", CONTRACTS)
def test_a_document_the_schema_refuses_is_refused_on_either_path(path: str, contract: str) -> None:
    model = root_model(contract)
    for example in _examples(contract):
        for refused in ([example], json.dumps(example)):  # an envelope is an object, not an array or a string
            with pytest.raises(ValidationError):
                model.model_validate_json(json.dumps(refused))
            with pytest.raises(ValidationError):
                model.model_validate(refused)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_published_schema_is_the_contracts_or_pydantics_own(path: str, contract: str) -> None:
    """Private: the contract's document, as the MCP SDK asks for it. Public: the schema pydantic
    derives from the fields, with a warning, and still a schema a validator takes."""
    envelope = importlib.import_module(f"mcp_contracts.{contract.replace('-', '_')}").Envelope
    contracts = envelope.__published__.document(envelope.__location__)
    if path == "private":
        assert TypeAdapter(envelope).json_schema(schema_generator=StrictJsonSchema) == contracts
        return
    with pytest.warns(RuntimeWarning, match="outside the runtime's tested range"):
        schema = TypeAdapter(envelope).json_schema(schema_generator=StrictJsonSchema)
    assert schema != contracts and contracts["$id"] not in json.dumps(schema)
    standalone_validator(schema)
