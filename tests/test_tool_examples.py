"""`examples:` of a tool: calls whose arguments and answers the contract must accept."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GENERATED, run_cli, tree_bytes


def _edit(schemas: Path, contract: str, old: str, new: str) -> None:
    path = schemas / "contracts" / contract / "tools.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("{text: Shipping the new release today.}", "{tweet: hello}", '"text" is a required property'),
        ("result: api-success.json", "result: nowhere.json", "no 'nowhere.json' in examples/"),
        (
            "      - arguments: {}\n        result: workflow-success.json",
            "      - arguments: {}\n        result: rate-limited.json",
            "rate-limited.json carries error code 'x_rate_limited', which the tool does not declare",
        ),
        ("{text: One more for today.}", "{text: ''}", 'at /text: "" is shorter than 1 character'),
    ],
    ids=["arguments", "missing-result", "undeclared-code", "constraint"],
)
def test_a_tool_example_the_contract_refuses_is_reported_at_its_line(
    schemas_copy: Path, tmp_path: Path, old: str, new: str, message: str
) -> None:
    _edit(schemas_copy, "tuitbot", old, new)
    out = tmp_path / "out"
    result = run_cli("generate", "--schemas", str(schemas_copy), "--out", str(out))
    report = result.stdout + result.stderr
    assert result.returncode == 2, result.stdout
    line = next(line for line in report.splitlines() if message in line)
    assert "contracts/tuitbot/tools.yaml:" in line
    assert not out.exists()


def test_a_result_the_tools_own_output_schema_refuses_is_reported(schemas_copy: Path, tmp_path: Path) -> None:
    _edit(
        schemas_copy,
        "jsonrpc",
        "    examples:\n",
        "    outputSchema:\n      type: object\n      required: [result]\n    examples:\n",
    )
    result = run_cli("generate", "--schemas", str(schemas_copy), "--out", str(tmp_path / "out"))
    report = result.stdout + result.stderr
    assert result.returncode == 2
    assert 'the tool\'s outputSchema refuses tool-invoke.json: "result" is a required property' in report


def test_examples_are_in_the_manifest_the_docs_and_the_inputs_published() -> None:
    """Read from generated/, which the golden test holds to what the sources produce."""
    files = tree_bytes(GENERATED)
    docs = files["docs/tuitbot.md"].decode()
    assert '{"text": "Shipping the new release today."} → api-success.json' in docs
    assert b'"result": "policy-denied.json"' in files["manifests/tuitbot.json"]


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ("{type: object, properties: {a: {$ref: nope.json}}}", "does not compile on its own: "),
        ("{type: object, properties: {a: {minimum: .inf}}}", ".inf is not a JSON number: JSON has no infinity or NaN"),
    ],
    ids=["reference-out", "infinity"],
)
def test_a_tool_schema_that_does_not_compile_alone_is_refused(
    schemas_copy: Path, tmp_path: Path, schema: str, message: str
) -> None:
    """MCP clients are given these schemas as they are: `mock` and `conform` compile them."""
    _edit(schemas_copy, "code-scalpel", "    description: Replaces a symbol's definition in a file.\n",
          f"    description: Replaces a symbol's definition in a file.\n    outputSchema: {schema}\n")  # fmt: skip
    result = run_cli("generate", "--schemas", str(schemas_copy), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    line = next(line for line in (result.stdout + result.stderr).splitlines() if message in line)
    text = (schemas_copy / "contracts" / "code-scalpel" / "tools.yaml").read_text(encoding="utf-8")
    at = text.splitlines().index(f"    outputSchema: {schema}") + 1
    assert f"contracts/code-scalpel/tools.yaml:{at}: " in line
