"""Results as clients speak them: tools that answer in text, errors as `isError` results
(structured, JSON text or plain text with a code), and error results as strict clients judge
them. Servers on the official SDK (tests/servers/text_server.py, strict_error_server.py) are
held to the contracts of tests/contracts/git-text and strict-errors; the judging itself is
tested in process where that is cheaper."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import mcp.types as types
import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli
from forkserver import python
from mcp_contracts_generator import api
from mcp_contracts_generator.client.report import Report
from mcp_contracts_generator.conformance.listing import compare_listing
from mcp_contracts_generator.conformance.results import judge_result
from mcp_contracts_generator.model import ErrorResults
from mcp_contracts_generator.serving import answers
from mcp_contracts_generator.serving.mock import Mock
from mcp_contracts_generator.serving.served import ServedContract, served

SERVERS = ROOT / "tests" / "servers"
TEXT = python(str(SERVERS / "text_server.py"))
STRICT = python(str(SERVERS / "strict_error_server.py"))
CONTRACTS = ("git-text", "strict-errors")
AT = ("--protocol", "2025-11-25")  # one revision with output schemas, where one run suffices


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("results") / "schemas"
    for name in CONTRACTS:
        shutil.copytree(ROOT / "tests" / "contracts" / name, folder / "contracts" / name)
    return folder


@pytest.fixture(scope="module")
def contracts(schemas: Path) -> dict[str, ServedContract]:
    project = api.load(schemas).project
    assert project is not None
    return {c.name: served(c) for c in project.contracts}


def _conform(schemas: Path, contract: str, *target: str, extra: tuple[str, ...] = ()) -> tuple[int, dict[str, Any]]:
    result = run_cli("conform", "--schemas", str(schemas), "--contract", contract, "--format", "json", *extra, *target)
    report = conform_report(result.stdout)
    return result.returncode, report


def _rules(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(rule, level, what was asked) of each finding."""
    return sorted((f["rule"], f["level"], f["subject"]) for f in report["findings"])


@pytest.mark.quiet(
    "content-type-undeclared",
    "invalid-text",
    "error-code-missing",
    "structured-content-unexpected",
    "output-schema-unexpected",
)
def test_a_server_that_answers_in_text_conforms_to_a_contract_that_says_so(schemas: Path) -> None:
    code, report = _conform(schemas, "git-text", "--", *TEXT)
    assert (code, report["findings"], report["problem"]) == (0, [], None)
    assert report["calls"] == 4 * len(report["revisions"])


@pytest.mark.fires(
    "annotation-differs",
    "annotation-missing",
    "invalid-text",
    "output-schema-unexpected",
    "structured-content-unexpected",
    "title-differs",
    "title-missing",
    "example-code-differs",
)
def test_a_text_server_that_breaks_its_listing_and_content_gets_each_finding(schemas: Path) -> None:
    faults = ("--fault=structured-anyway", "--fault=hints", "--fault=not-json", "--fault=error-unknown")
    code, report = _conform(schemas, "git-text", "--", *TEXT, *faults, extra=AT)
    assert code == 1
    log, status = 'git_log({"repo_path": "/repo"})', 'git_status({"repo_path": "/repo"})'
    assert _rules(report) == [
        ("annotation-differs", "error", "tools/list git_status.annotations.readOnlyHint"),
        ("annotation-missing", "warning", "tools/list git_status.annotations.destructiveHint"),
        ("example-code-differs", "error", 'git_log({"repo_path": "/repo", "revision": "nope"})'),
        ("invalid-text", "error", log),
        ("output-schema-unexpected", "warning", "tools/list git_status.outputSchema"),
        ("structured-content-unexpected", "warning", status),
        ("title-differs", "warning", "tools/list git_status.title"),
        ("title-missing", "warning", "tools/list git_log.title"),
    ]
    messages = {f["rule"]: f["message"] for f in report["findings"]}
    assert messages["example-code-differs"] == (  # one finding: it says the code is unknown too
        "the error 'bad_revision', not a code of the catalogue, though the example expects 'unknown_revision'"
        " (examples/unknown_revision.json)"
    )
    assert messages["invalid-text"] == "content[0] is not JSON, which the tool's text_schema wants"
    assert messages["annotation-missing"] == "no destructiveHint (true, when absent); the contract gives false"


@pytest.mark.fires("content-type-undeclared", "error-code-missing")
def test_content_of_an_undeclared_type_and_an_error_without_a_code_are_findings(schemas: Path) -> None:
    code, report = _conform(schemas, "git-text", "--", *TEXT, "--fault=image", "--fault=error-no-code", extra=AT)
    assert code == 1
    assert [(f["rule"], f["subject"].split("(")[0]) for f in report["findings"]] == [
        ("content-type-undeclared", "git_status"),
        ("error-code-missing", "git_log"),
    ]
    missing = report["findings"][1]["message"]
    assert missing.startswith("isError result: no error code in its text (error_results.code_pattern): ")


@pytest.mark.fires("error-result-outside-schema", "output-schema-differs")
def test_an_error_result_outside_the_listed_output_schema_is_what_strict_clients_refuse(schemas: Path) -> None:
    code, report = _conform(schemas, "strict-errors", "--", *STRICT, extra=AT)
    assert code == 1
    assert _rules(report) == [
        ("error-result-outside-schema", "error", 'find_item({"id": 9})'),
        ("output-schema-differs", "error", "tools/list find_item.outputSchema/additionalProperties"),
    ]
    refused = next(f["message"] for f in report["findings"] if f["rule"] == "error-result-outside-schema")
    assert refused.startswith(
        "isError result: strict clients fail the call: structured content does not match the tool's output schema: "
    )
    assert "'error' was unexpected" in refused


@pytest.mark.parametrize("contract", CONTRACTS)
def test_conform_passes_against_the_mock_of_each_contract(schemas: Path, contract: str) -> None:
    """The oldest revision (no output schemas) and the newest: a stdio session is a process,
    and the real servers above are conformed at every revision."""
    mock = python("-m", "mcp_contracts_generator", "mock", "--schemas", str(schemas), "--contract", contract)
    ends = ("--probe-errors", "--protocol", "2025-03-26", "--protocol", "2026-07-28")
    code, report = _conform(schemas, contract, "--", *mock, extra=ends)
    assert (code, report["findings"], report["problem"]) == (0, [], None)
    assert report["revisions"] == ["2025-03-26", "2026-07-28"]


# In process: the judging of one result, and what the mock answers.


def _judge(contract: ServedContract, tool: str, result: types.CallToolResult) -> list[tuple[str, str, str]]:
    report = Report(contract.name, "in process")
    served_tool = contract.tool(tool)
    assert served_tool is not None
    judge_result(contract, served_tool, result, "call", report)
    return [(f.rule, f.level, f.message) for f in report.findings]


def _text(text: str, *, error: bool = False, structured: Any = None) -> types.CallToolResult:
    content: list[types.ContentBlock] = [types.TextContent(type="text", text=text)]
    return types.CallToolResult(content=content, is_error=error, structured_content=structured)


def test_a_plain_text_error_is_judged_by_the_code_the_pattern_finds(contracts: dict[str, ServedContract]) -> None:
    git = contracts["git-text"]
    assert _judge(git, "git_log", _text("unknown_revision: no such commit", error=True)) == []
    assert _judge(git, "git_status", _text("unknown_revision: HEAD", error=True)) == [
        (
            "undeclared-error-code",
            "error",
            "isError result: 'unknown_revision' is not among the codes the tool declares (not_a_repository)",
        )
    ]
    without = replace(git, contract=replace(git.contract, error_results=ErrorResults(structured=False)))
    assert _judge(without, "git_log", _text("fatal: anything", error=True)) == []  # nowhere to look: no no-document


def test_a_json_envelope_in_error_text_is_judged_as_a_document(contracts: dict[str, ServedContract]) -> None:
    git = contracts["git-text"]
    wrong = json.dumps({"error": {"code": "not_a_repository", "message": ""}})
    [(rule, level, message)] = _judge(git, "git_log", _text(wrong, error=True))
    assert (rule, level) == ("invalid-result", "error") and message.startswith("isError result: the contract refuses")
    success = json.dumps({"commits": []})
    assert [f[0] for f in _judge(git, "git_log", _text(success, error=True))] == ["is-error-mismatch"]
    envelope = json.dumps({"error": {"code": "unknown_revision", "message": "Unknown revision"}})
    assert [f[0] for f in _judge(git, "git_log", _text(envelope))] == ["is-error-mismatch"]


@pytest.mark.fires("error-not-structured")
def test_an_error_without_structured_content_is_a_warning_where_errors_are_structured(
    contracts: dict[str, ServedContract],
) -> None:
    strict = contracts["strict-errors"]
    envelope = {"error": {"code": "not_found", "message": "No such item"}}
    assert _judge(strict, "find_item", _text(json.dumps(envelope), error=True, structured=envelope)) == []
    assert _judge(strict, "find_item", _text(json.dumps(envelope), error=True)) == [
        (
            "error-not-structured",
            "warning",
            "isError result: no structuredContent, though the contract's errors are structured "
            "(error_results.structured)",
        )
    ]
    plain = _judge(strict, "find_item", _text("Error executing tool find_item: boom", error=True))
    assert [f[0] for f in plain] == ["error-not-structured"]


def test_text_that_breaks_the_text_schema_is_invalid_text(contracts: dict[str, ServedContract]) -> None:
    git = contracts["git-text"]
    [(rule, _, message)] = _judge(git, "git_log", _text(json.dumps({"commits": [{"hash": "XYZ", "message": "m"}]})))
    assert rule == "invalid-text" and message.startswith("the text_schema refuses content[0]: /commits/0/hash: ")
    assert _judge(git, "git_status", _text("anything at all")) == []  # no text_schema: free text


def test_each_hint_is_compared_with_its_default_in_mind(contracts: dict[str, ServedContract]) -> None:
    strict = contracts["strict-errors"]
    tool = strict.tools[0]
    hints = {"readOnlyHint": True, "destructiveHint": True, "idempotentHint": None, "openWorldHint": None}
    listed = {k: v for k, v in tool.listing.items() if k != "title"}
    listed["annotations"] = {k: v for k, v in hints.items() if v is not None}
    report = Report(strict.name, "in process")
    compare_listing(strict, {tool.name: types.Tool.model_validate(listed)}, report)
    assert [(f.rule, f.level, f.subject.rsplit(".", 1)[1]) for f in report.findings] == [
        ("annotation-differs", "error", "destructiveHint"),
        ("annotation-missing", "warning", "idempotentHint"),  # absent is false; the contract: true
        ("annotation-missing", "warning", "openWorldHint"),  # absent is true; the contract: false
        ("title-missing", "warning", "title"),
    ]  # readOnlyHint agrees


def test_the_mock_answers_a_text_tool_with_text_only(contracts: dict[str, ServedContract]) -> None:
    git = contracts["git-text"]
    mock = Mock(git)
    status = mock.answer("git_status", {"repo_path": "/repo"}, None)
    assert (status.structured_content, status.is_error, status.content[0].type) == (None, False, "text")
    log = mock.answer("git_log", {"repo_path": "/repo"}, None)
    assert log.structured_content is None and isinstance(log.content[0], types.TextContent)
    assert json.loads(log.content[0].text) == {"commits": [{"hash": "a1b2c3d", "message": "Initial commit"}]}
    error = mock.answer("git_log", {"repo_path": "/repo", "revision": "nope"}, None)
    assert error.is_error and error.structured_content is None
    tool = git.tool("git_log")
    assert tool is not None
    made = answers.success(git, replace(tool, calls=()))  # no example: made from the text_schema
    assert made.problem is None and tool.accepts_text(made.document) and made.document is not None


def test_the_mock_keeps_errors_out_of_structured_content_when_the_contract_says_so(
    contracts: dict[str, ServedContract],
) -> None:
    strict = contracts["strict-errors"]
    meta = {"mcp-contracts/error": "internal_error"}
    structured = Mock(strict).answer("find_item", {"id": 3}, meta)
    assert structured.is_error and structured.structured_content == {
        "error": {"code": "internal_error", "message": "Internal error"}
    }
    text_only = replace(strict, contract=replace(strict.contract, error_results=ErrorResults(structured=False)))
    answer = Mock(text_only).answer("find_item", {"id": 3}, meta)
    assert answer.is_error and answer.structured_content is None
    assert isinstance(answer.content[0], types.TextContent)
    assert json.loads(answer.content[0].text) == structured.structured_content


def test_a_tools_error_envelope_is_built_by_the_contract_whatever_its_output_schema(
    contracts: dict[str, ServedContract],
) -> None:
    strict = contracts["strict-errors"]
    tool = replace(strict.tools[0], check=lambda document: [])  # as if its own schema took anything
    made = answers.envelope_error(strict, tool, "not_found")
    assert made.problem is None and made.is_error
    assert made.document == {"error": {"code": "not_found", "message": "No such item"}}


CONTENT_TOOLS = """  - name: snapshot
    description: A picture.
    result: {structured: false, content: [image]}
    examples:
      - arguments: {}
  - name: recording
    description: A sound.
    result: {structured: false, content: [audio]}
    examples:
      - arguments: {}
  - name: attachment
    description: A file, linked or embedded.
    result: {structured: false, content: [resource, resource_link]}
    examples:
      - arguments: {}
"""
CONTENT_TOOLS_NAMES = ("snapshot", "recording", "attachment")


def test_the_mock_answers_a_content_tool_with_a_block_of_a_type_it_declares(tmp_path: Path) -> None:
    from mcp_contracts_generator import api
    from mcp_contracts_generator.serving.mock import Mock
    from mcp_contracts_generator.serving.served import served

    assert run_cli("init", "media", cwd=tmp_path).returncode == 0
    tools = tmp_path / "schemas" / "contracts" / "media" / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8") + CONTENT_TOOLS, encoding="utf-8")
    loaded = api.load(tmp_path / "schemas").project
    assert loaded is not None
    mock = Mock(served(loaded.contracts[0]))
    kinds = {name: [block.type for block in mock.answer(name, {}, None).content] for name in CONTENT_TOOLS_NAMES}
    assert kinds == {"snapshot": ["image"], "recording": ["audio"], "attachment": ["resource_link"]}
    mock_command = python("-m", "mcp_contracts_generator", "mock", "--contract", "media")
    result = run_cli(
        "conform", "--contract", "media", "--protocol", "2026-07-28", "--format", "json", "--", *mock_command,
        cwd=tmp_path,
    )  # fmt: skip
    report = conform_report(result.stdout)
    assert (result.returncode, report["findings"]) == (0, []), report
