"""`mcp/<name>.tools.json`: each tool's `outputSchema` carries only what its root reaches, with
every verdict of the full envelope kept; one tool a line.

The pruning (`schema.reach.pruned`) is held to the JSON Schema Test Suite: every group's
published document, pruned, gives the suite's verdict on every instance.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from conftest import ROOT, SCHEMAS, load_json, run_cli
from mcp_contracts_generator import api
from mcp_contracts_generator.model import Contract
from mcp_contracts_generator.model.schemas import object_rooted
from mcp_contracts_generator.protocol import revision
from mcp_contracts_generator.render.listing_at import tool_at
from mcp_contracts_generator.render.mcp import tool_listing, tools_list
from mcp_contracts_generator.render.published import published_schemas
from mcp_contracts_generator.schema.compound import compound
from mcp_contracts_generator.schema.dialect import resource_dialects
from mcp_contracts_generator.schema.reach import pruned, unreached_definitions
from suite_groups import FILES, ROOT_URI, names_a_meta_schema, no_fetch, suite_resources

GENERATED = ROOT / "generated"
PROJECT = api.load(ROOT / "schemas").project
assert PROJECT is not None
CONTRACTS = {c.name: c for c in PROJECT.contracts}


@pytest.mark.parametrize(("draft", "path"), FILES, ids=[f"{d}-{p.stem}" for d, p in FILES])
def test_a_pruned_document_gives_the_suites_verdict(draft: str, path: Path) -> None:
    wrong = []
    for group in json.loads(path.read_text(encoding="utf-8")):
        resources = suite_resources(group["schema"], draft)
        if names_a_meta_schema(resources):
            continue
        for as_written in (False, True) if draft == "draft7" else (False,):  # said in 2020-12, or kept
            published = compound(ROOT_URI, resources, resource_dialects(resources, ROOT_URI), keep_draft_07=as_written)
            kept = pruned(published)
            assert unreached_definitions(kept) == [], group["description"]
            validator = jsonschema_rs.validator_for(kept, retriever=no_fetch)
            for case in group["tests"]:
                if validator.is_valid(case["data"]) != case["valid"]:
                    wrong.append(f"{group['description']} / {case['description']} ({as_written=})")
    assert wrong == []


def test_definitions_no_reference_leads_into_are_left_out() -> None:
    schema = {
        "$defs": {
            "unused": {"type": "string"},
            "used": {"$defs": {"inner": {"type": "integer"}, "spare": {}}, "$ref": "#/$defs/used/$defs/inner"},
            "dynamic": {"$dynamicAnchor": "node", "type": "object"},
        },
        "properties": {"a": {"$ref": "#/$defs/used"}, "b": {"$dynamicRef": "#node"}},
    }
    assert unreached_definitions(schema) == [("$defs", "unused"), ("$defs", "used", "$defs", "spare")]
    kept = pruned(schema)
    assert set(kept["$defs"]) == {"used", "dynamic"} and set(kept["$defs"]["used"]["$defs"]) == {"inner"}
    assert "unused" in schema["$defs"]  # the given schema is left as it is


def _instances(contract: Contract) -> list[Any]:
    """The contract's examples, each without one of its top-level keys and with each of them
    replaced by values of every JSON type, and a few that are not objects."""
    found: list[Any] = [None, [], {}, "x", 1]
    for example in contract.examples:
        value = example.value
        found.append(value)
        if isinstance(value, dict):
            for key in value:
                found.append({k: v for k, v in value.items() if k != key})
                found += [{**value, key: other} for other in (None, 0, "", [], {}, True)]
    return found


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_each_published_output_schema_keeps_the_verdicts_of_the_full_envelope(name: str) -> None:
    contract = CONTRACTS[name]
    full = jsonschema_rs.validator_for(object_rooted(contract.bundle.as_written), retriever=no_fetch)
    instances = _instances(contract)
    for entry, tool in zip(contract.manifest.tools.entries, tool_listing(contract), strict=True):
        schema = tool.get("outputSchema")
        if schema is None or entry.get("outputSchema"):  # a tool's own: not the envelope's verdicts
            continue
        assert unreached_definitions(schema) == [], tool["name"]
        published = jsonschema_rs.validator_for(schema, retriever=no_fetch)
        assert [published.is_valid(i) for i in instances] == [full.is_valid(i) for i in instances], tool["name"]


def test_a_definition_the_envelope_never_reaches_stays_in_published_json_only() -> None:
    """jsonrpc's `ToolIo` is a class of the models (published.json points at it) that no
    reference of the envelope leads to."""
    tool = load_json(GENERATED / "mcp" / "jsonrpc.tools.json")["tools"][0]
    assert "ToolIo" not in tool["outputSchema"]["$defs"]
    published = load_json(GENERATED / "python" / "mcp_contracts" / "jsonrpc" / "published.json")
    assert "ToolIo" in published["schema"]["$defs"]


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_tools_json_holds_one_tool_a_line(name: str) -> None:
    text = (GENERATED / "mcp" / f"{name}.tools.json").read_text(encoding="utf-8")
    assert text == tools_list(CONTRACTS[name])
    listed = tool_listing(CONTRACTS[name])
    lines = text.splitlines()
    if not listed:
        assert lines == ['{"tools": []}']
        return
    assert lines[0] == '{"tools": [' and lines[-1] == "]}"
    assert [json.loads(line.removesuffix(",")) for line in lines[1:-1]] == listed
    assert json.loads(text) == {"tools": listed}


def _without_id(folder: Path, name: str, minimum: int) -> Contract:
    """A new scaffold's contract whose envelope declares no `$id` (and message length `minimum`)."""
    assert run_cli("init", name, cwd=folder).returncode == 0
    envelope = folder / "schemas" / "contracts" / name / "envelope.schema.json"
    schema = json.loads(envelope.read_text(encoding="utf-8"))
    del schema["$id"]
    schema["$defs"]["ToolError"]["properties"]["message"]["minLength"] = minimum
    envelope.write_text(json.dumps(schema), encoding="utf-8")
    loaded = api.load(folder / "schemas").project
    assert loaded is not None
    return loaded.contracts[0]


def test_two_contracts_without_id_publish_two_ids_and_no_file_uri(tmp_path: Path) -> None:
    """A client that reuses a validator by `$id` (the TypeScript SDK does) took one contract's for
    the other's, both published as `file:///envelope.schema.json`."""
    for name in "abc":
        (tmp_path / name).mkdir()
    one, other = _without_id(tmp_path / "a", "orders", 1), _without_id(tmp_path / "b", "orders", 5)
    ids = []
    for contract in (one, other):
        (listed,) = tool_listing(contract)
        published = published_schemas(contract)["schema"]
        assert listed["outputSchema"]["$id"] == published["$id"]
        assert "file:" not in json.dumps([listed, published])
        ids.append(published["$id"])
    assert ids[0] != ids[1]
    assert tool_listing(_without_id(tmp_path / "c", "orders", 1)) == tool_listing(one)  # the same schema, the same id


def test_a_revision_of_object_roots_lists_an_output_schema_only_where_its_root_says_object(tmp_path: Path) -> None:
    """The listing says at each root whether it is proven object-only (`object_rooted`), and
    `tool_at` reads that: an envelope of `false` (nothing to prove it by, nor the
    `"type": "object"` these revisions require) is listed from 2026-07-28 only."""
    folder = tmp_path / "contracts" / "mcp-envelope"
    shutil.copytree(SCHEMAS / "contracts" / "mcp-envelope", folder)
    (folder / "envelope.schema.json").write_text("false", encoding="utf-8")
    shutil.rmtree(folder / "examples")  # each breaks it now
    (folder / "tools.yaml").write_text("tools:\n  - name: ping\n", encoding="utf-8")
    loaded = api.load(tmp_path).project
    assert loaded is not None
    listed = tool_listing(loaded.contracts[0])
    assert listed and all(tool["outputSchema"] is False for tool in listed)
    for version, kept in (("2025-06-18", False), ("2025-11-25", False), ("2026-07-28", True)):
        assert all(("outputSchema" in tool_at(tool, revision(version))) is kept for tool in listed), version
    rooted = tool_listing(CONTRACTS["tuitbot"])  # a `oneOf` of objects, "type": "object" put beside it
    assert all("outputSchema" in tool_at(tool, revision("2025-06-18")) for tool in rooted)
