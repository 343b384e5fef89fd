"""A server built on the generated code publishes the contract: each generated model's JSON
Schema is the contract's own (`published.json`), so the MCP SDK's `MCPServer` lists a tool
annotated `-> Envelope` with the contract's output schema, and `conform` agrees."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from conform_json import conform_report
from conftest import CONTRACTS, GENERATED, ROOT, SCHEMAS, generated_package, run_cli
from forkserver import python
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client, StdioServerParameters
from mcp.server.mcpserver.utilities.func_metadata import StrictJsonSchema
from mcp_contracts_generator.schema.engine import standalone_validator
from mcp_contracts_generator.schema.reach import pruned
from pydantic import BaseModel, TypeAdapter
from schema_strategies import from_schema, mutations

SERVER = ROOT / "tests" / "servers" / "sdk_envelope_server.py"
# The revisions with output schemas: MCPServer lists one at 2025-03-26 too, where the
# contract's tools carry none (`output-schema-unexpected`, a warning about the SDK).
OUTPUT_REVISIONS = ("2025-06-18", "2025-11-25", "2026-07-28")


def _package(contract: str) -> Any:
    return importlib.import_module(f"mcp_contracts.{contract.replace('-', '_')}")


def _classes(contract: str) -> list[Any]:
    """Every model class `judge.py` binds, the root first."""
    models = importlib.import_module(f"{_package(contract).__name__}.models")
    found = [c for c in vars(models).values() if isinstance(c, type) and getattr(c, "__published__", None)]
    return sorted(found, key=lambda c: (c.__location__ != "", c.__name__))


def _listed_output_schemas(contract: str) -> list[Any]:
    tools = json.loads((GENERATED / "mcp" / f"{contract}.tools.json").read_text(encoding="utf-8"))["tools"]
    return [tool["outputSchema"] for tool in tools if "outputSchema" in tool]


def _documents(contract: str) -> list[Any]:
    """The contract's examples, every value inside them, and a few that are no envelope."""
    found: list[Any] = [None, 1, "x", [], {}, {"unexpected": True}]

    def walk(value: Any) -> None:
        found.append(value)
        for inner in value.values() if isinstance(value, dict) else value if isinstance(value, list) else ():
            walk(inner)

    for path in sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.private_api
@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_root_model_publishes_the_listed_output_schema(contract: str) -> None:
    envelope = _package(contract).Envelope
    published = envelope.model_json_schema()
    assert TypeAdapter(envelope).json_schema(schema_generator=StrictJsonSchema) == published  # what MCPServer asks
    assert published.get("type") == "object"  # every revision with output schemas takes it
    listed = _listed_output_schemas(contract)
    assert all(schema == pruned(published) for schema in listed)  # listed: what its root reaches
    # mcp-envelope lists no tools; foundry's (as foundry-mcp 0.16.0 lists them) answer in text.
    assert len(listed) > 0 or contract in ("mcp-envelope", "foundry")
    standalone_validator(published)  # self-contained: nothing to fetch


@pytest.mark.private_api
@pytest.mark.parametrize("contract", CONTRACTS)
def test_each_model_publishes_a_schema_that_judges_as_the_class_does(contract: str) -> None:
    judge = _package(contract).JUDGE
    documents = _documents(contract)
    classes = _classes(contract)
    assert len(classes) >= 2
    for model in classes:
        schema = model.model_json_schema()
        assert TypeAdapter(model).json_schema(schema_generator=StrictJsonSchema) == schema
        assert schema.get("type") == "object", model.__name__
        validator = standalone_validator(schema)
        verdicts = [(validator.is_valid(d), judge.is_valid(d, model.__location__)) for d in documents]
        assert all(ours == theirs for ours, theirs in verdicts), model.__name__
    envelope = standalone_validator(classes[0].model_json_schema())
    assert {envelope.is_valid(d) for d in documents} == {True, False}


@pytest.mark.private_api
@pytest.mark.parametrize("contract", CONTRACTS)
@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_instances_made_for_each_class_are_judged_alike(contract: str, data: st.DataObject) -> None:
    """Instances meant to be valid for each class (and mutations of them): the published
    schema and the class's own judge agree on every one."""
    judge = _package(contract).JUDGE
    root = judge.resources[judge.root]
    for model in _classes(contract):
        pointer = model.__location__.partition("#")[2]  # every built-in class is the root or in its $defs
        made = from_schema({"$ref": f"#{pointer}", "$defs": root["$defs"]} if pointer else root)
        instance = data.draw(st.one_of(made, mutations(made)), label=model.__name__)
        published = _validator(model)
        assert published.is_valid(instance) == judge.is_valid(instance, model.__location__), model.__name__


_VALIDATORS: dict[Any, Any] = {}


def _validator(model: Any) -> Any:
    if model not in _VALIDATORS:
        _VALIDATORS[model] = standalone_validator(model.model_json_schema())
    return _VALIDATORS[model]


@pytest.mark.private_api
def test_a_model_inside_a_model_of_ones_own_keeps_its_schema() -> None:
    tuitbot = _package("tuitbot")
    error = importlib.import_module("mcp_contracts.tuitbot.models").PermanentToolError

    class Reply(BaseModel):
        envelope: tuitbot.Envelope
        last_error: error | None = None  # type: ignore[valid-type]

    schema = Reply.model_json_schema()
    validator = standalone_validator(schema)
    success = json.loads((SCHEMAS / "contracts" / "tuitbot" / "examples" / "api-success.json").read_text("utf-8"))
    assert validator.is_valid({"envelope": success, "last_error": None})
    assert not validator.is_valid({"envelope": {**success, "success": "yes"}})
    assert not validator.is_valid({"envelope": success, "last_error": {"code": 7}})


@pytest.mark.private_api
def test_a_pydantic_that_refuses_the_contracts_document_publishes_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """As with a pydantic release whose schema generator walks references in methods of other
    names than the runtime wraps: the canary does not come back whole, and each class
    publishes the schema pydantic derives from its fields, with a warning, instead of failing."""
    published = importlib.import_module("mcp_contracts._runtime.published")
    monkeypatch.setattr(published, "_WALKS", ("count_references", "collect_definitions"))
    monkeypatch.setattr(published, "_TRIED", {})
    envelope = _package("tuitbot").Envelope
    contracts = envelope.__published__.document(envelope.__location__)
    with pytest.warns(RuntimeWarning, match="derives from its fields"):
        schema = TypeAdapter(envelope).json_schema(schema_generator=StrictJsonSchema)
    assert schema != contracts and "urn:mcp-contracts:tuitbot:envelope" not in json.dumps(schema)
    standalone_validator(schema)
    monkeypatch.undo()
    assert envelope.model_json_schema() == contracts


@pytest.mark.private_api
def test_the_sdk_derives_the_contracts_output_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(SERVER.parent))
    server = importlib.import_module("sdk_envelope_server")
    tools = anyio.run(server.app.list_tools)
    [listed] = {json.dumps(s, sort_keys=True) for s in _listed_output_schemas("code-scalpel")}
    assert len(tools) == 20
    assert {json.dumps(t.output_schema, sort_keys=True) for t in tools} == {listed}


def _server_environment() -> dict[str, str]:
    paths = [str(GENERATED / "python"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def test_conform_says_only_the_arguments_the_sdk_server_leaves_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PYTHONPATH", _server_environment()["PYTHONPATH"])
    revisions = [f"--protocol={r}" for r in OUTPUT_REVISIONS]
    command = ("--", *python(str(SERVER)))
    tools = ("--tool", "security_scan", "--tool", "extract_code")  # the others take none of the real arguments
    result = run_cli("conform", "--contract", "code-scalpel", "--format", "json", *revisions, *tools, *command)
    report = conform_report(result.stdout)
    # It takes fewer of the real server's optional arguments (codescalpel 2.1.4): clients read the
    # listing, so they never send the others, one error each at every revision; nothing else.
    assert result.returncode == 1, report
    assert {f["rule"] for f in report["findings"]} == {"input-argument-missing"}
    left_out = sorted(f["subject"].split(".inputSchema/properties/")[1] for f in report["findings"])
    assert left_out[:3] == ["as_microservice", "closure_detection", "code"] and len(left_out) == 16
    assert {tuple(f["revisions"]) for f in report["findings"]} == {OUTPUT_REVISIONS}
    assert report["calls"] == 2 * len(OUTPUT_REVISIONS)  # security_scan succeeds, extract_code fails


def test_a_client_that_opens_with_initialize_lists_and_calls_it() -> None:
    async def session() -> tuple[str, list[Any], Any]:
        parameters = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=_server_environment())
        async with Client(parameters, mode="legacy") as client:
            listed = await client.list_tools()
            result = await client.call_tool("security_scan", {"code": "eval(input())"})
            return client.protocol_version, listed.tools, result

    version, tools, result = anyio.run(session)
    assert version in ("2025-06-18", "2025-11-25")
    assert len(tools) == 20 and all(t.output_schema is not None and t.output_schema["type"] == "object" for t in tools)
    assert not result.is_error
    assert result.structured_content["data"] == {"success": True, "risk_level": "high", "findings": []}


def test_classes_of_a_contract_across_files_publish_schemas_that_judge_alike(tmp_path: Path) -> None:
    """tests/contracts/every-keyword refers across three files: each class's document
    embeds them all and judges the examples, and every value inside them, as its class."""
    folder = ROOT / "tests" / "contracts" / "every-keyword"
    shutil.copytree(folder, tmp_path / "schemas" / "contracts" / "every-keyword")
    result = run_cli("generate", "--schemas", str(tmp_path / "schemas"), "--out", str(tmp_path / "generated"))
    assert result.returncode == 0, result.stdout + result.stderr
    documents = [None, {}, []]
    for path in sorted((folder / "examples").glob("*.json")):
        documents += _values(json.loads(path.read_text(encoding="utf-8")))
    with generated_package(tmp_path / "generated", "every_keyword") as package:
        models = importlib.import_module(f"{package.__name__}.models")
        classes = [c for c in vars(models).values() if isinstance(c, type) and getattr(c, "__published__", None)]
        assert len(classes) >= 5
        for model in classes:
            validator = standalone_validator(model.model_json_schema())
            for document in documents:
                expected = package.JUDGE.is_valid(document, model.__location__)
                assert validator.is_valid(document) == expected, (model.__name__, document)


def _values(value: Any) -> list[Any]:
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [value, *(v for item in inner for v in _values(item))]
