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
from conftest import run_cli, run_process
from mcp_servers import GOOD_ITEM, RAW, RAW_TOOLS

SPOKEN = ("--protocol", "2025-06-18")  # the one revision the bare server speaks
TOOLS = RAW_TOOLS
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
    "example-is-error",
    "stdout-not-protocol",
)
def test_a_server_that_lists_and_answers_as_the_contract_says_has_no_finding(scaffold: Path) -> None:
    assert _conform(scaffold, GOOD_ITEM) == (0, [])


RAISED = json.dumps(
    {"content": [{"type": "text", "text": "Error executing tool get_item: it raised"}], "isError": True}
)


def _conform_json(project: Path, *server: str) -> tuple[int, dict[str, Any]]:
    """The exit code and the whole JSON report (its summary too) of conform at the one revision."""
    command = ("conform", "--contract", "shop", "--format", "json", "--timeout", "5", *SPOKEN)
    result = run_cli(*command, "--", *RAW, *server, cwd=project)
    assert "Traceback" not in result.stderr, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    conform_report(result.stdout)  # valid against the findings-report schema
    return result.returncode, report


@pytest.mark.fires("example-is-error")
def test_an_example_call_answered_is_error_fails_whatever_error_results_says(shop: Path) -> None:
    """A tool that raises on every call (as an SDK answers it: `isError` and text), under
    `error_results.structured: false`, which every imported contract has: gave 0 findings, exit 0."""
    contract = shop / "schemas" / "contracts" / "shop" / "contract.yaml"
    contract.write_text(contract.read_text(encoding="utf-8") + "error_results:\n  structured: false\n")
    code, report = _conform_json(shop, RAISED)
    assert code == 1
    [finding] = report["findings"]
    where = (finding["rule"], finding["level"], finding["pointer"])
    assert where == ("example-is-error", "error", "/tools/0/examples/0")
    assert finding["message"] == (
        'isError: true, though the example call expects a success: "Error executing tool get_item: it raised"'
    )
    assert (report["facts"]["calls"], report["facts"]["calls_failed"], report["facts"]["conforms"]) == (1, 1, False)
    assert "1 tool(s) listed, 1 call(s) (1 failed), 1 error(s), 0 other finding(s)." in report["summary"]


def test_calls_that_got_no_result_are_counted_failed(scaffold: Path) -> None:
    code, report = _conform_json(scaffold, GOOD_ITEM, "--call-error")
    assert (code, [f["rule"] for f in report["findings"]]) == (1, ["call-failed"])
    assert (report["facts"]["calls"], report["facts"]["calls_failed"]) == (1, 1)
    code, report = _conform_json(scaffold, GOOD_ITEM)
    assert (code, report["facts"]["calls_failed"]) == (0, 0) and "failed" not in report["summary"]


@pytest.mark.fires("stdout-not-protocol")
def test_a_server_that_prints_to_its_standard_output_is_an_error_saying_what_it_printed(scaffold: Path) -> None:
    """The stdio transport's MUST NOT: the SDK logs such a line and reads on, so the session
    works, and the server conformed."""
    code, report = _conform_json(scaffold, GOOD_ITEM, "--stray", "debug: \x1b[31mready\x1b[0m " + "x" * 300)
    assert code == 1
    [finding] = report["findings"]
    assert (finding["rule"], finding["level"], finding["subject"]) == ("stdout-not-protocol", "error", "stdout")
    assert finding["file"] == "schemas/contracts/shop/contract.yaml"
    shown = "debug: \\x1b[31mready\\x1b[0m " + "x" * 171 + "…"  # escaped, and cut at 200 characters
    said = "line(s) of its standard output are no MCP message, which stdio forbids"
    assert finding["message"] == f"3 {said}: {shown} | {shown} | {shown}"  # before each of 3 answers


def test_a_server_that_exits_while_asked_is_said_with_its_status_and_last_words(scaffold: Path) -> None:
    """Its standard error is kept in a file (tests/test_server_log.py); the finding holds its
    last three lines, escaped."""
    code, report = _conform_json(scaffold, GOOD_ITEM, "--exit-at", "tools/call:3")
    assert code == 1
    [finding] = report["findings"]
    last = " | ".join(f"raw: line {n} before the end" for n in range(29, 31))
    words = f"{last} | raw: tools/call \\x1b[31mis too much\\x1b[0m, giving up"
    assert (finding["rule"], finding["pointer"]) == ("connection-lost", "/tools/0/examples/0")
    assert finding["message"] == f"the server exited with status 3 (the last lines of its standard error: {words})"
    assert report["facts"]["calls_failed"] == 1


def test_a_server_that_exits_before_answering_is_said_with_its_status_and_last_words(scaffold: Path) -> None:
    """A process of its own: the server's standard error is kept whole in the file a note
    names, not in ours; the error names the command and quotes its last three lines."""
    command = ("conform", "--contract", "shop", "--timeout", "5", *SPOKEN)
    result = run_process(*command, "--", *RAW, GOOD_ITEM, "--exit-at", "initialize:4", cwd=scaffold, timeout=120)
    assert result.returncode == 2
    assert "raw: line 1 before the end" not in result.stderr and "Traceback" not in result.stderr
    kept = result.stderr.split("; the server's standard error is kept in ", 1)[1].split("\n", 1)[0]
    assert "raw: line 1 before the end\n" in Path(kept).read_text(encoding="utf-8")  # as it wrote it
    said = (
        f"error: cannot talk to the server at 2025-06-18: {' '.join((*RAW, GOOD_ITEM))} --exit-at initialize:4"
        " exited with status 4 before it answered initialize (the last lines of its standard error: raw: line 29"
        " before the end | raw: line 30 before the end | raw: initialize \\x1b[31mis too much\\x1b[0m, giving up)"
    )
    assert said in result.stderr, result.stderr


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
    assert (finding["revisions"], finding["subject"]) == (["2025-06-18"], 'get_item({"item_id": 1, "kind": "book"})')


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
