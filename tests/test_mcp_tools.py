"""`mcp/<name>.tools.json`: what an MCP server publishes in `tools/list`, checked against the
MCP specification's own schema; each `outputSchema` stands alone and accepts the examples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import CONTRACTS, GENERATED, REFERENCE, SCHEMAS, load_json, require_shared, run_cli
from jsonschema import Draft7Validator, Draft202012Validator, validators
from mcp_contracts_generator.protocol import VERSIONS
from mcp_contracts_generator.runtime import Judge
from referencing import Registry
from referencing.exceptions import Unresolvable

require_shared()
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
SPEC = load_json(REFERENCE / "mcp-spec" / "schema-2026-07-28.json")


def _tool_validator(version: str) -> Any:
    """The `Tool` definition of one revision's own schema (draft-07 up to 2025-06-18)."""
    spec = load_json(REFERENCE / "mcp-spec" / f"schema-{version}.json")
    container = "$defs" if "$defs" in spec else "definitions"
    schema = {**spec, "$ref": f"#/{container}/Tool"}
    return validators.validator_for(schema)(schema)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_tool_meets_every_revision_of_the_mcp_specification(contract: str, version: str) -> None:
    published = load_json(GENERATED / "mcp" / f"{contract}.tools.json")
    # Each entry is a Tool; the rest of a ListToolsResult (cacheScope, ttlMs...) is the server's.
    validator = _tool_validator(version)
    assert list(published) == ["tools"]
    for tool in published["tools"]:
        errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator.iter_errors(tool)]
        assert errors == [], tool["name"]
    manifest = load_json(GENERATED / "manifests" / f"{contract}.json")
    assert [tool["name"] for tool in published["tools"]] == [tool["name"] for tool in manifest["tools"]]


@pytest.mark.parametrize("contract", CONTRACTS)
def test_each_output_schema_stands_alone_and_accepts_the_examples(contract: str) -> None:
    published = load_json(GENERATED / "mcp" / f"{contract}.tools.json")
    examples = [load_json(p) for p in sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json"))]
    for tool in published["tools"]:
        assert tool["inputSchema"].get("type") == "object"
        if "outputSchema" not in tool:  # its results are content (result.structured: false)
            continue
        # No registry: a `$ref` that leaves the schema cannot resolve.
        validator = Draft202012Validator(tool["outputSchema"], registry=Registry())
        try:
            verdicts = [validator.is_valid(example) for example in examples]
        except Unresolvable as exc:
            raise AssertionError(f"{tool['name']}: the output schema is not self-contained: {exc}") from exc
        assert all(verdicts), tool["name"]
        assert tool["inputSchema"].get("type") == "object"


def test_annotations_come_from_the_column_with_the_mutation_role() -> None:
    published = {tool["name"]: tool for tool in load_json(GENERATED / "mcp" / "tuitbot.tools.json")["tools"]}
    manifest = load_json(GENERATED / "manifests" / "tuitbot.json")["tools"]
    for tool in manifest:
        assert published[tool["name"]]["annotations"] == {"readOnlyHint": not tool["mutation"]}


def test_a_draft_07_envelope_is_published_in_draft_07_as_written(rpc_schemas: Path, tmp_path: Path) -> None:
    """A draft-07 envelope is published in draft-07, as its author wrote it (what a TypeScript
    SDK 1.x client judges by: issue 30), and judges as the contract's own judge does."""
    envelope = rpc_schemas / "contracts" / "jsonrpc" / "envelope.schema.json"
    text = envelope.read_text(encoding="utf-8").replace("https://json-schema.org/draft/2020-12/schema", DRAFT_07)
    envelope.write_text(text.replace("$defs", "definitions"), encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli("generate", "--schemas", str(rpc_schemas), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    published = load_json(out / "mcp" / "jsonrpc.tools.json")["tools"][0]["outputSchema"]
    assert published["$schema"] == DRAFT_07
    assert published["properties"]["params"] == {"$ref": "#/definitions/Params"} and "$defs" not in published
    judge = Judge.from_bundle(load_json(out / "python" / "mcp_contracts" / "jsonrpc" / "schema.json"))
    validator = Draft7Validator(published, registry=Registry())
    example = load_json(SCHEMAS / "contracts" / "jsonrpc" / "examples" / "tool-invoke.json")
    for document in (example, {**example, "params": []}, {**example, "method": ""}, {"id": "x"}):
        assert validator.is_valid(document) == judge.is_valid(document), document
