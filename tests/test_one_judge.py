"""One judge per contract: compiled while loading, and the one `validate`, `mock` and
`conform` judge with, so that an output folder not regenerated yet cannot make them disagree."""

from __future__ import annotations

import json
from pathlib import Path

import mcp.types as types
import pytest
from conftest import run_cli
from mcp_contracts_generator import api, options
from mcp_contracts_generator.client.report import Report
from mcp_contracts_generator.conformance.results import judge_result
from mcp_contracts_generator.runtime import Judge
from mcp_contracts_generator.serving.mock import Mock
from mcp_contracts_generator.validate import load_judge

REQUEST = {"id": "1", "jsonrpc": "2.0", "method": "m", "params": {}}


def _stale(rpc_schemas: Path, tmp_path: Path) -> Path:
    """Generate, then make `method` need 5 characters in the sources without generating again."""
    out = tmp_path / "out"
    assert run_cli("generate", "--schemas", str(rpc_schemas), "--out", str(out)).returncode == 0
    schema = rpc_schemas / "contracts" / "jsonrpc" / "envelope.schema.json"
    schema.write_text(schema.read_text(encoding="utf-8").replace('"minLength": 1', '"minLength": 5', 1))
    assert run_cli("check", "--schemas", str(rpc_schemas), "--out", str(out)).returncode == 1  # stale indeed
    return out


def test_with_stale_output_validate_mock_and_conform_give_one_verdict(rpc_schemas: Path, tmp_path: Path) -> None:
    out = _stale(rpc_schemas, tmp_path)
    document = tmp_path / "request.json"
    document.write_text(json.dumps(REQUEST), encoding="utf-8")
    chosen = api.settings(rpc_schemas, out)
    assert not isinstance(chosen, list)
    # The stale package still accepts the document; the sources no longer do.
    assert load_judge("jsonrpc", out, chosen.package).judge.is_valid(REQUEST)

    validated = run_cli("validate", "--contract", "jsonrpc", "--schemas", str(rpc_schemas), str(document))
    assert validated.returncode == 1 and validated.stdout.startswith(f"{document}: invalid\n  /method: "), validated

    served = api.served_contract(chosen, "jsonrpc")
    assert not isinstance(served, list)
    mock = Mock(served)
    tool = served.tools[0]
    assert mock.contract.tool(tool.name) is tool and [v.pointer for v in tool.check(REQUEST)] == ["/method"]

    report = Report("jsonrpc", "in process")
    judge_result(served, tool, types.CallToolResult(content=[], structured_content=REQUEST), "call", report)
    assert [(f.rule, f.subject) for f in report.findings] == [("invalid-result", "call")], report.findings


def test_validate_mock_and_conform_reuse_the_judge_compiled_at_load(
    rpc_schemas: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing compiles a judge again from the bundle: the contract carries the one load built."""

    def refused(*_: object) -> Judge:
        raise AssertionError("a judge compiled again from the bundle")

    monkeypatch.setattr(Judge, "from_bundle", classmethod(refused))
    chosen = api.settings(rpc_schemas)
    assert not isinstance(chosen, list)
    contract = api.source_contract(chosen, "jsonrpc")
    assert not isinstance(contract, list)
    served = api.served_contract(chosen, "jsonrpc")
    assert not isinstance(served, list)
    envelope = served.as_envelope(served.tools[0])
    assert envelope.check(REQUEST) == [] and served.tools[0].check({}) != []
    example = rpc_schemas / "contracts" / "jsonrpc" / "examples" / "tool-invoke.json"
    result = api.run(options.Validate(contract="jsonrpc", documents=(str(example),)), chosen)
    assert result.problem is None and [d["valid"] for d in result.facts.documents] == [True]  # type: ignore[attr-defined]
    assert contract.judge is not None and contract == api.source_contract(chosen, "jsonrpc")  # equal, judge aside
