"""`mock` as the TypeScript SDK's client sees it (issue 16): the npm package
`@modelcontextprotocol/sdk`, pinned in tests/ts/package.json, over stdio.

That client opens with `initialize`, compiles each tool's `outputSchema` with its default ajv
validator when it lists the tools, and refuses a `structuredContent` that schema refuses.
tests/ts/client.mjs runs it on each example call and reports; the judging happens here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CONTRACTS, ROOT, SCHEMAS, run_cli
from mcp_contracts_generator import api
from mcp_contracts_generator.serving.served import ServedContract, same_json, served
from typescript_toolchain import node_or_skip

pytestmark = [pytest.mark.first, pytest.mark.slow]  # a node client per built-in
TS = ROOT / "tests" / "ts"
CLIENT = TS / "client.mjs"
MOCK = (sys.executable, "-m", "mcp_contracts_generator", "mock")
# What the pinned SDK (1.32.2) asks for in `initialize`; the mock's SDK accepts it.
PROTOCOL = "2025-11-25"


@pytest.fixture(scope="module", autouse=True)
def node() -> str:
    """The `node` command; skip (fail in CI) without it or without the SDK in tests/ts/node_modules."""
    return node_or_skip("@modelcontextprotocol/sdk")


@pytest.fixture(scope="module")
def built_ins() -> dict[str, ServedContract]:
    loaded = api.load(SCHEMAS).project
    assert loaded is not None
    return {c.name: served(c) for c in loaded.contracts}


def ts_client(node: str, contract: ServedContract, command: list[str], cwd: Path, folder: Path) -> dict[str, Any]:
    """What the TypeScript client reports after listing the tools and making each example call."""
    calls = [{"tool": t.name, "arguments": c.arguments} for t in contract.tools for c in t.calls]
    spec = folder / "calls.json"
    spec.write_text(json.dumps({"command": command, "cwd": str(cwd), "calls": calls}), encoding="utf-8")
    process = subprocess.run([node, str(CLIENT), str(spec)], capture_output=True, text=True, timeout=120, check=False)
    assert process.returncode == 0 and process.stdout, process.stderr
    report: dict[str, Any] = json.loads(process.stdout)
    assert report["error"] is None, f"{report['error']}\n{report.get('stderr', '')}{process.stderr}"
    return report


def assert_as_the_examples_say(contract: ServedContract, report: dict[str, Any]) -> None:
    assert report["protocolVersion"] == PROTOCOL
    assert sorted(report["tools"]) == sorted(t.name for t in contract.tools)
    expected = [(t.name, c) for t in contract.tools for c in t.calls]
    assert len(report["calls"]) == len(expected)
    for (name, call), outcome in zip(expected, report["calls"], strict=True):
        where = f"{name}({json.dumps(call.arguments)})"
        assert outcome["error"] is None, f"{where}: {outcome['error']}"  # ajv's refusal or a JSON-RPC error
        if call.result is None:
            assert outcome["isError"] is False, where
            continue
        assert outcome["isError"] is (contract.error_code(call.result) is not None), where
        document = outcome["structuredContent"]
        if document is None and not contract.tool(name).structured:  # a text answer: the document as JSON text
            document = json.loads(outcome["text"])
        assert same_json(document, call.result), f"{where}: not {call.result_name}"


@pytest.mark.parametrize("name", CONTRACTS)
def test_the_typescript_client_lists_and_calls_the_mock_of_every_built_in(
    name: str, node: str, built_ins: dict[str, ServedContract], tmp_path: Path
) -> None:
    contract = built_ins[name]
    report = ts_client(node, contract, [*MOCK, "--contract", name], ROOT, tmp_path)
    assert_as_the_examples_say(contract, report)
    if name == "mcp-envelope":
        assert report["tools"] == [] and report["calls"] == []  # no tools: the listing alone
    else:
        assert report["calls"], "no example call was made"


def test_the_typescript_client_lists_and_calls_the_mock_of_a_new_scaffold(node: str, tmp_path: Path) -> None:
    created = run_cli("init", "billing-api", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    loaded = api.load(tmp_path / "schemas").project
    assert loaded is not None
    contract = served(loaded.contracts[0])
    report = ts_client(node, contract, [*MOCK, "--contract", "billing-api"], tmp_path, tmp_path)
    assert_as_the_examples_say(contract, report)
    assert report["tools"] == ["example_tool"] and len(report["calls"]) == 1


DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def _draft_07_scaffold(folder: Path, name: str) -> Path:
    """A new scaffold whose envelope is written in draft-07, as zod-based servers emit, with no
    `$id`, and whose success data is a pair (`items` as a list, no more items): the schemas folder."""
    assert run_cli("init", name, cwd=folder).returncode == 0
    contract = folder / "schemas" / "contracts" / name
    envelope = contract / "envelope.schema.json"
    text = envelope.read_text(encoding="utf-8").replace("$defs", "definitions")
    schema = json.loads(text.replace("https://json-schema.org/draft/2020-12/schema", DRAFT_07))
    del schema["$id"]
    pair = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": False}
    schema["definitions"]["SuccessEnvelope"]["properties"]["data"] = pair
    envelope.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    (contract / "examples" / "success.json").write_text('{"success": true, "data": ["a", 1]}', encoding="utf-8")
    settings = contract / "contract.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("/$defs/", "/definitions/"), encoding="utf-8")
    return folder / "schemas"


def test_the_typescript_client_judges_a_draft_07_contract_as_its_author_wrote_it(node: str, tmp_path: Path) -> None:
    """Said in 2020-12, the pair became `prefixItems` and `items: false`, which the SDK's draft-07
    ajv reads as "no item at all": it refused the valid example."""
    schemas = _draft_07_scaffold(tmp_path, "pairs")
    loaded = api.load(schemas).project
    assert loaded is not None
    contract = served(loaded.contracts[0])
    (listed,) = [t.listing for t in contract.tools]
    assert listed["outputSchema"]["$schema"] == DRAFT_07 and "prefixItems" not in json.dumps(listed)
    report = ts_client(node, contract, [*MOCK, "--contract", "pairs"], tmp_path, tmp_path)
    assert_as_the_examples_say(contract, report)
    assert report["calls"] and report["calls"][0]["structuredContent"] == {"success": True, "data": ["a", 1]}
