"""The conform rules no other test reaches, each fired by a bare server over stdio
(tests/servers/raw_server.py: no SDK, a process that starts at once) told how to break, and
each finding placed in the contract's sources: the tool's entry in tools.yaml as deep as is
known, contract.yaml for the session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import run_cli
from test_mcp_conform import GOOD_ITEM, RAW

SPOKEN = ("--protocol", "2025-06-18")  # the one revision the bare server speaks
TOOLS = """\
tools:
  - name: get_item
    description: An item.
    mutation: false
    inputSchema:
      type: object
      required: [item_id]
      properties:
        item_id: {type: integer}
        verbose: {type: boolean}
        kind: {enum: [book, pen]}
    outputSchema:
      type: object
      required: [name, price]
      properties:
        name: {type: string}
        price: {type: number}
        tags: {type: array, items: {type: string}}
        note: {type: [string, "null"]}
    examples:
      - arguments: {item_id: 1, kind: book}
"""
INPUT = json.loads(json.dumps({"type": "object", "required": ["item_id"], "properties": {}}))
INPUT["properties"] = {
    "item_id": {"type": "integer"},
    "verbose": {"type": "boolean"},
    "kind": {"enum": ["book", "pen"]},
}


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shop")
    assert run_cli("init", "shop", cwd=root).returncode == 0
    (root / "schemas" / "contracts" / "shop" / "tools.yaml").write_text(TOOLS, encoding="utf-8")
    return root


@pytest.fixture
def shop(scaffold: Path, tmp_path: Path) -> Path:
    """A copy of the project, for a test that edits its contract."""
    shutil.copytree(scaffold, tmp_path / "shop")
    return tmp_path / "shop"


def _conform(project: Path, *server: str, protocols: tuple[str, ...] = SPOKEN) -> tuple[int, list[dict[str, Any]]]:
    command = ("conform", "--contract", "shop", "--format", "json", "--timeout", "5", *protocols)
    result = run_cli(*command, "--", *RAW, *server, cwd=project)
    report = conform_report(result.stdout)
    assert report["problem"] is None, report
    return result.returncode, report["findings"]


def _line(needle: str, text: str = TOOLS) -> int:
    return next(n + 1 for n, line in enumerate(text.splitlines()) if needle in line)


def _input(**properties: Any) -> dict[str, Any]:
    """The input schema the server lists: the contract's, with `properties` set."""
    return {**INPUT, "properties": {**INPUT["properties"], **properties}}


def _doubling(levels: int) -> dict[str, Any]:
    """An output schema of a few lines whose references, each followed twice, unfold into
    2 ** `levels` schemas: more than comparing brings to normal form."""
    defs: dict[str, Any] = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    return {"type": "object", "properties": {"name": {"$ref": "#/$defs/d0"}}, "$defs": defs}


@pytest.mark.quiet(
    "revision-unsupported",
    "invalid-response",
    "call-failed",
    "call-timeout",
    "connection-lost",
    "missing-tool",
    "extra-tool",
    "duplicate-tool",
    "endless-tool-list",
    "output-schema-missing",
    "output-schema-differs",
    "input-schema-differs",
    "input-example-refused",
    "input-required",
    "input-enum-narrowed",
    "input-type-narrowed",
    "input-closed",
    "schema-unreadable",
    "schema-not-compared",
    "no-document",
    "no-structured-content",
    "invalid-result",
)
def test_a_server_that_lists_and_answers_as_the_contract_says_has_no_finding(scaffold: Path) -> None:
    assert _conform(scaffold, GOOD_ITEM) == (0, [])


@pytest.mark.fires("call-failed")
def test_a_call_answered_with_a_json_rpc_error_is_placed_at_its_example_call(scaffold: Path) -> None:
    code, findings = _conform(scaffold, GOOD_ITEM, "--call-error")
    assert code == 1
    [finding] = findings
    assert (finding["rule"], finding["message"]) == ("call-failed", "JSON-RPC error -32603: it broke")
    assert (finding["file"], finding["line"], finding["pointer"]) == (
        "schemas/contracts/shop/tools.yaml",
        _line("- arguments: {item_id: 1, kind: book}"),
        "/tools/0/examples/0",
    )
    assert (finding["revision"], finding["subject"]) == ("2025-06-18", 'get_item({"item_id": 1, "kind": "book"})')


@pytest.mark.fires("revision-unsupported")
def test_a_revision_the_server_does_not_speak_is_placed_at_protocol(scaffold: Path) -> None:
    code, findings = _conform(scaffold, GOOD_ITEM, protocols=("--protocol", "2025-11-25", "--handshake", "legacy"))
    assert code == 1
    [finding] = findings
    assert (finding["rule"], finding["file"], finding["pointer"]) == (
        "revision-unsupported",
        "schemas/contracts/shop/contract.yaml",
        "/protocol",
    )
    contract = (scaffold / "schemas" / "contracts" / "shop" / "contract.yaml").read_text(encoding="utf-8")
    assert finding["line"] == _line("protocol:", contract) and finding["subject"] == "initialize"


LISTINGS = [
    pytest.param(
        {"outputSchema": None},
        None,
        ("output-schema-missing", "/tools/0/outputSchema"),
        marks=pytest.mark.fires("output-schema-missing"),
        id="output-schema-missing",
    ),
    pytest.param(
        # `not` is a keyword the input comparison does not read: the example call tells
        {"inputSchema": _input(item_id={"type": "integer", "not": {"const": 1}})},
        None,
        ("input-example-refused", "/tools/0/examples/0"),
        marks=pytest.mark.fires("input-example-refused"),
        id="input-example-refused",
    ),
    pytest.param(
        {"inputSchema": {**INPUT, "required": ["item_id", "verbose"]}},
        None,
        ("input-required", "/tools/0/inputSchema/required"),
        marks=pytest.mark.fires("input-required"),
        id="input-required",
    ),
    pytest.param(
        {"inputSchema": _input(kind={"enum": ["book"]})},
        None,
        ("input-enum-narrowed", "/tools/0/inputSchema/properties/kind/enum"),
        marks=pytest.mark.fires("input-enum-narrowed"),
        id="input-enum-narrowed",
    ),
    pytest.param(
        {},
        ("verbose: {type: boolean}", "verbose: {type: [boolean, string]}"),
        ("input-type-narrowed", "/tools/0/inputSchema/properties/verbose/type"),
        marks=pytest.mark.fires("input-type-narrowed"),
        id="input-type-narrowed",
    ),
    pytest.param(
        {"inputSchema": {**INPUT, "additionalProperties": False}},
        None,
        ("input-closed", "/tools/0/inputSchema"),
        marks=pytest.mark.fires("input-closed"),
        id="input-closed",
    ),
    pytest.param(
        {"outputSchema": _doubling(20)},
        None,
        ("schema-not-compared", "/tools/0/outputSchema"),
        marks=pytest.mark.fires("schema-not-compared"),
        id="schema-not-compared",
    ),
]


@pytest.mark.parametrize(("listed", "edit", "expected"), LISTINGS)
def test_each_way_a_listing_departs_is_placed_in_the_tool_s_entry(
    shop: Path, listed: dict[str, Any], edit: tuple[str, str] | None, expected: tuple[str, str]
) -> None:
    if edit is not None:
        tools = shop / "schemas" / "contracts" / "shop" / "tools.yaml"
        tools.write_text(tools.read_text(encoding="utf-8").replace(*edit), encoding="utf-8")
    code, findings = _conform(shop, GOOD_ITEM, "--tool", json.dumps(listed))
    assert [(f["rule"], f["pointer"]) for f in findings] == [expected], findings
    [finding] = findings
    assert finding["file"] == "schemas/contracts/shop/tools.yaml" and finding["line"] is not None
    assert code == (0 if finding["level"] in ("warning", "note") else 1)


@pytest.mark.parametrize(
    ("result", "rule"),
    [
        pytest.param('{"content": []}', "no-document", marks=pytest.mark.fires("no-document"), id="no-document"),
        pytest.param(
            json.dumps({"content": [{"type": "text", "text": json.dumps({"name": "pen", "price": 1.5})}]}),
            "no-structured-content",
            marks=pytest.mark.fires("no-structured-content"),
            id="no-structured-content",
        ),
    ],
)
def test_a_result_without_its_document_is_placed_at_the_example_call(scaffold: Path, result: str, rule: str) -> None:
    code, findings = _conform(scaffold, result)
    assert code == 1
    assert [(f["rule"], f["pointer"]) for f in findings] == [(rule, "/tools/0/examples/0")]
