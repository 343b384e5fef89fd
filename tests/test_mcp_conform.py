"""`mock` and `conform` over real MCP connections: real server processes, the official SDK's
client, stdio and streamable HTTP on loopback."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import CONTRACTS, ROOT, SCHEMAS, run_cli
from forkserver import python
from mcp_contracts_generator.protocol import VERSIONS
from mcp_servers import GOOD_ITEM, MOCK, RAW, SHOP_TOOLS, expected_calls, http_mock
from ruamel.yaml import YAML

pytestmark = pytest.mark.first
FAULTY = [*python(str(ROOT / "tests" / "servers" / "faulty_server.py"), str(ROOT))]
FAULTS = ("extra-tool", "missing-tool", "input-required", "wrong-envelope", "wrong-retryable", "undeclared-code")
FAULTS += ("is-error", "hang")


@contextmanager
def http_faulty(tmp_path: Path, faults: tuple[str, ...]) -> Iterator[str]:
    url_file = tmp_path / "url"
    command = [*FAULTY, "--http", str(url_file), *(f"--fault={f}" for f in faults)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not url_file.is_file() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        yield url_file.read_text(encoding="utf-8")
    finally:
        process.terminate()
        process.wait(timeout=10)


# One revision is enough where the revisions are not the point (test_mcp_revisions.py).
LATEST = ("--protocol", "2026-07-28")


def _conform(
    contract: str, *target: str, extra: tuple[str, ...] = (), protocols: tuple[str, ...] = LATEST
) -> tuple[int, dict[str, Any]]:
    result = run_cli("conform", "--contract", contract, "--format", "json", *protocols, *extra, *target)
    report = conform_report(result.stdout)
    assert {"contract", "target", "conforms", "problem", "revisions", "tools_listed", "calls"} <= report.keys()
    assert all(f["contract"] == contract and f["file"].startswith("schemas/") for f in report["findings"])
    return result.returncode, report


@pytest.mark.quiet(
    "missing-tool",
    "extra-tool",
    "annotation-differs",
    "annotation-missing",
    "title-missing",
    "title-differs",
    "output-schema-unexpected",
    "structured-content-unexpected",
    "invalid-result",
    "is-error-mismatch",
    "catalogue-contradicted",
    "unknown-error-code",
    "undeclared-error-code",
    "error-not-structured",
    "error-result-outside-schema",
    "probe-unsupported",
)
@pytest.mark.parametrize("contract", CONTRACTS)
def test_conform_passes_against_the_mock_of_every_built_in_over_stdio(contract: str) -> None:
    """Over stdio a session is a process: every revision for tuitbot (the most tools and
    codes), the newest for the others. Over HTTP every contract is conformed at every
    revision in test_mcp_revisions.py (one mock serves them all)."""
    protocols = () if contract == "tuitbot" else LATEST
    mock = ("--", *MOCK, "--contract", contract)
    code, report = _conform(contract, *mock, extra=("--probe-errors",), protocols=protocols)
    assert report["findings"] == [], report["findings"]
    assert (code, report["conforms"], report["problem"]) == (0, True, None)
    tools = YAML(typ="safe").load((SCHEMAS / "contracts" / contract / "tools.yaml").read_text(encoding="utf-8"))
    assert report["tools_listed"] == len(tools["tools"])
    every = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
    assert report["revisions"] == (every if contract == "tuitbot" else ["2026-07-28"])
    assert report["calls"] == expected_calls(contract) * len(report["revisions"])  # each revision: its own session


def _findings(report: dict[str, Any]) -> list[tuple[str, str]]:
    """(rule, what was asked) of each finding but notes."""
    return sorted((f["rule"], f["subject"]) for f in report["findings"] if f["level"] != "note")


EXPECTED_FAULTS = [
    ("call-timeout", "get_reply_count_today({})"),
    ("catalogue-contradicted", 'x_post_tweet({"text": "Follow me for free followers!"})'),
    ("example-code-differs", 'x_post_tweet({"text": "One more for today."})'),
    ("extra-tool", "tools/list"),
    ("input-required", "tools/list x_post_tweet.inputSchema/required/media"),
    ("invalid-result", 'x_post_tweet({"text": "Follow me for free followers!"})'),
    ("invalid-result", 'x_post_tweet({"text": "Shipping the new release today."})'),
    ("is-error-mismatch", 'x_post_tweet({"text": "Follow me for free followers!"})'),
    ("is-error-mismatch", 'x_post_tweet({"text": "One more for today."})'),
    ("missing-tool", "tools/list"),
]


@pytest.mark.slow  # waits out the hanging tool over both transports, at every revision
@pytest.mark.fires(
    "call-timeout",
    "catalogue-contradicted",
    "extra-tool",
    "input-required",
    "invalid-result",
    "is-error-mismatch",
    "missing-tool",
    "example-code-differs",
)
def test_conform_reports_each_fault_of_a_broken_server_the_same_over_both_transports(tmp_path: Path) -> None:
    options = ("--timeout", "2.5")  # the hanging tool waits this long; the others answer at once
    code, over_stdio = _conform("tuitbot", "--", *FAULTY, *(f"--fault={f}" for f in FAULTS), extra=options)
    assert code == 1 and over_stdio["conforms"] is False
    assert _findings(over_stdio) == EXPECTED_FAULTS
    messages = {f["rule"]: f["message"] for f in over_stdio["findings"]}
    assert messages["catalogue-contradicted"] == (
        "/error/retryable is true, but the catalogue gives 'policy_denied_blocked' retryable: false"
    )
    assert messages["example-code-differs"].startswith("the error 'db_error', which the tool does not declare, though")
    refused = [f["message"] for f in over_stdio["findings"] if f["rule"] == "invalid-result"]
    assert 'the contract refuses the result: /data: "data" is a required property' in refused
    with http_faulty(tmp_path, FAULTS) as url:
        code, over_http = _conform("tuitbot", "--url", url, extra=options)
    assert code == 1
    assert over_http["findings"] == over_stdio["findings"]  # seed 003's parity: one pipeline, one verdict


def test_the_broken_server_without_faults_conforms() -> None:
    """The faults, not the test server, cause the findings above."""
    code, report = _conform("tuitbot", "--", *FAULTY)
    assert (code, report["findings"]) == (0, [])
    assert report["calls"] == expected_calls("tuitbot") - sum(
        len(t.get("possible_error_codes", []))
        for t in YAML(typ="safe").load((SCHEMAS / "contracts" / "tuitbot" / "tools.yaml").read_text("utf-8"))["tools"]
        if t.get("examples")
    )


@pytest.mark.fires("probe-unsupported")
def test_probing_a_server_that_ignores_the_request_is_a_note_not_a_failure() -> None:
    code, report = _conform("tuitbot", "--", *FAULTY, extra=("--probe-errors",))
    assert code == 0
    notes = [(f["rule"], f["level"], f["subject"]) for f in report["findings"]]
    assert notes == [
        ("probe-unsupported", "note", "get_reply_count_today"),
        ("probe-unsupported", "note", "x_post_tweet"),
    ]
    tools = (SCHEMAS / "contracts" / "tuitbot" / "tools.yaml").read_text(encoding="utf-8").splitlines()
    for finding in report["findings"]:  # at the tool's `possible_error_codes`
        assert tools[finding["line"] - 1].strip().startswith("possible_error_codes:"), finding


def test_text_and_github_reports_name_each_finding() -> None:
    faulty = ("--", *FAULTY, "--fault=extra-tool", "--fault=missing-tool")
    text = run_cli("conform", "--contract", "tuitbot", *LATEST, *faulty)
    assert text.returncode == 1
    tools = "schemas/contracts/tuitbot/tools.yaml"
    assert text.stdout.splitlines()[:-1] == [
        f"{tools}:4:1: extra-tool [error] the server lists 'x_extra_tool', which the contract lacks"
        " (MCP 2026-07-28; tools/list)",
        f"{tools}:5:5: missing-tool [error] the server does not list 'get_stats' (MCP 2026-07-28; tools/list)",
    ]
    summary = "does not conform to tuitbot at 2026-07-28: 65 tool(s) listed, 4 call(s), 2 error(s), 0 other finding(s)."
    assert summary in text.stdout
    github = run_cli("conform", "--contract", "tuitbot", "--format", "github", *LATEST, *faulty)
    assert github.returncode == 1
    assert github.stdout.splitlines() == [
        f"::error file={tools},line=4,col=1,title=extra-tool::the server lists 'x_extra_tool', which the contract"
        " lacks (MCP 2026-07-28; tools/list)",
        f"::error file={tools},line=5,col=5,title=missing-tool::the server does not list 'get_stats'"
        " (MCP 2026-07-28; tools/list)",
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--url", "http://127.0.0.1:9/mcp"), "cannot talk to the server http://127.0.0.1:9/mcp at 2026-07-28: "),
        (("--", "/nonexistent/server"), "cannot talk to the server at 2026-07-28: "),
        (("--", sys.executable, "-c", "pass"), "cannot talk to the server at 2026-07-28: "),
        ((), "give either --url URL or -- COMMAND ARGS... (one of them)"),
        (("--url", "http://127.0.0.1:9/mcp", "--", "server"), "give either --url URL or -- COMMAND ARGS..."),
    ],
    ids=["refused", "no-command", "exits-at-once", "no-target", "two-targets"],
)
def test_a_server_that_cannot_be_reached_exits_2_with_a_message(arguments: tuple[str, ...], message: str) -> None:
    result = run_cli("conform", "--contract", "tuitbot", "--timeout", "5", *LATEST, *arguments)
    assert result.returncode == 2, result.stdout
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_an_unknown_contract_exits_2_for_both_commands() -> None:
    for command in (
        ["conform", "--contract", "tuitbo", "--url", "http://127.0.0.1:9/mcp"],
        ["mock", "--contract", "tuitbo"],
    ):
        result = run_cli(*command)
        assert result.returncode == 2
        assert "unknown contract 'tuitbo': did you mean 'tuitbot'?" in result.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--port", "70000"), "--port 70000 is not a port (0 to 65535; 0 picks a free one)"),
        (("--host", "no-such-host.invalid", "--port", "0"), "--host 'no-such-host.invalid' does not resolve"),
        (("--host", "a" * 300, "--port", "0"), "does not resolve"),
    ],
)
def test_mock_refuses_a_bad_address_with_a_message(arguments: tuple[str, ...], message: str) -> None:
    result = run_cli("mock", "--contract", "tuitbot", "--transport", "http", *arguments)
    assert result.returncode == 2
    assert message in result.stderr


def test_mock_refuses_a_port_in_use() -> None:
    with http_mock("jsonrpc") as url:
        port = url.rsplit(":", 1)[1].split("/")[0]
        result = run_cli("mock", "--contract", "jsonrpc", "--transport", "http", "--port", port)
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in result.stderr


def test_the_api_holds_a_server_to_a_contract_and_returns_the_report() -> None:
    from mcp import StdioServerParameters
    from mcp_contracts_generator import api, options
    from mcp_contracts_generator.conformance.conform import ConformOptions

    chosen = api.settings()
    assert not isinstance(chosen, list)
    server = StdioServerParameters(command=FAULTY[0], args=[*FAULTY[1:], "--fault=extra-tool"])
    session = ConformOptions(timeout=5, protocols=("2026-07-28",))
    outcome = api.run(options.Conform(contract="tuitbot", target=server, session=session), chosen)
    assert (outcome.command, outcome.problem, outcome.loaded, outcome.exit_code) == ("conform", None, True, 1)
    assert outcome.facts.conforms is False and outcome.facts.revisions == ["2026-07-28"]
    [finding] = outcome.findings
    assert (finding.rule, finding.level, finding.contract, finding.revisions, finding.subject) == (
        "extra-tool",
        "error",
        "tuitbot",
        ("2026-07-28",),
        "tools/list",
    )
    assert (finding.file, finding.line, finding.pointer) == ("schemas/contracts/tuitbot/tools.yaml", 4, "/tools")
    assert "extra-tool" in outcome.rules and "source-invalid" in outcome.rules
    unknown = api.run(options.Conform(contract="nope", target=server), chosen)
    assert unknown.problem is not None and "unknown contract 'nope'" in unknown.problem
    assert unknown.exit_code == 2


@pytest.mark.fires("annotation-missing", "duplicate-tool", "endless-tool-list", "schema-unreadable")
def test_listing_faults_and_schemas_a_client_cannot_compile_are_findings() -> None:
    faults = ("--fault=duplicate-tool", "--fault=endless-list", "--fault=odd-schemas", "--fault=no-hint")
    code, report = _conform("tuitbot", "--", *FAULTY, *faults, extra=("--timeout", "5"))
    assert code == 1 and report["problem"] is None
    assert _findings(report) == [
        ("annotation-missing", "tools/list get_stats.annotations.readOnlyHint"),
        ("duplicate-tool", "tools/list"),
        ("endless-tool-list", "tools/list"),
        ("schema-unreadable", "tools/list get_stats.outputSchema"),
        ("schema-unreadable", "tools/list x_post_tweet.inputSchema"),
    ]


@pytest.mark.fires("connection-lost")
def test_a_server_that_dies_in_a_call_is_a_finding_and_the_calls_stop() -> None:
    code, report = _conform("tuitbot", "--", *FAULTY, "--fault=crash")
    assert code == 1 and report["problem"] is None
    assert _findings(report) == [("connection-lost", 'x_post_tweet({"text": "Shipping the new release today."})')]


def test_the_commands_that_do_not_speak_mcp_do_not_import_the_sdk() -> None:
    """The SDK and its server stack cost 0.6 s to import: `generate`, `check` and `validate`
    do not pay it."""
    probe = "import sys, mcp_contracts_generator.cli; print(sorted({'mcp', 'anyio', 'uvicorn'} & set(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_a_started_server_gets_this_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAULTY_SERVER_TOKEN", "set")
    code, report = _conform("tuitbot", "--", *FAULTY, "--fault=needs-env")
    assert (code, report["findings"]) == (0, [])


def test_headers_go_with_every_http_request(tmp_path: Path) -> None:
    with http_faulty(tmp_path, ("needs-token",)) as url:
        refused = run_cli("conform", "--contract", "tuitbot", "--url", url)
        assert refused.returncode == 2 and "cannot talk to the server" in refused.stderr
        code, report = _conform("tuitbot", "--url", url, extra=("--header", "Authorization: Bearer secret"))
    assert (code, report["findings"]) == (0, [])
    for wrong in (("--header", "no colon", "--url", url), ("--header", "A: b", "--", "server")):
        result = run_cli("conform", "--contract", "tuitbot", *wrong)
        assert result.returncode == 2 and "--header" in result.stderr


@pytest.mark.fires("input-schema-wider")
@pytest.mark.quiet("output-schema-differs", "input-example-refused", "input-argument-missing", "input-schema-differs")
def test_a_server_written_with_the_sdks_mcpserver_conforms(tmp_path: Path) -> None:
    """Its schemas come from Python types, spelt otherwise than the contract's: they say the
    same, and `search` takes `None` as well (an input that accepts more: a note)."""
    assert run_cli("init", "shop", cwd=tmp_path).returncode == 0
    (tmp_path / "schemas" / "contracts" / "shop" / "tools.yaml").write_text(SHOP_TOOLS, encoding="utf-8")
    server = ("--", *python(str(ROOT / "tests" / "servers" / "mcpserver_shop.py")))
    result = run_cli("conform", "--contract", "shop", "--format", "json", *server, cwd=tmp_path)
    report = conform_report(result.stdout)
    assert result.returncode == 0, report
    found = [(f["rule"], f["level"], f["subject"], f["revisions"]) for f in report["findings"]]
    assert found == [  # the same schema at each revision: one finding that lists them
        ("input-schema-wider", "note", "tools/list search.inputSchema/properties/text/type", list(VERSIONS))
    ]
    said = "it accepts more than the contract's: type: string -> null | string at /properties/text"
    said += " (the contract's -> the server's)"
    assert {f["message"] for f in report["findings"]} == {said}
    line = SHOP_TOOLS.splitlines().index("        text: {type: string}") + 1
    assert {(f["file"], f["line"], f["column"], f["pointer"]) for f in report["findings"]} == {
        ("schemas/contracts/shop/tools.yaml", line, 16, "/tools/1/inputSchema/properties/text/type")
    }
    assert report["calls"] == 2 * 4  # at each revision


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A project whose contract `shop` has the one tool the raw server lists."""
    assert run_cli("init", "shop", cwd=tmp_path).returncode == 0
    tools = SHOP_TOOLS.split("  - name: search")[0]
    (tmp_path / "schemas" / "contracts" / "shop" / "tools.yaml").write_text(tools, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("result", "rule", "message"),
    [
        (GOOD_ITEM, None, None),
        ('{"content": "x"}', "invalid-response", "not a tools/call result: content: "),
        (GOOD_ITEM.replace("1.5", "NaN"), "invalid-result", "/price: NaN is not a JSON number: JSON"),  # as sent
        (GOOD_ITEM.replace("1.5", "1e400"), "invalid-result", "/price: 1e400 is not a finite double: JSON parsers"),
    ],
    ids=["good", "not-a-result", "nan", "overflow"],
)
@pytest.mark.fires("invalid-response", "invalid-result")
def test_what_a_bare_server_answers_is_judged_call_by_call(
    shop: Path, result: str, rule: str | None, message: str | None
) -> None:
    only = ("--protocol", "2025-06-18")  # the one it speaks
    raw = run_cli("conform", "--contract", "shop", "--format", "json", *only, "--", *RAW, result, cwd=shop)
    report = conform_report(raw.stdout)
    assert report["problem"] is None and report["calls"] == 1
    if rule is None:
        assert (raw.returncode, report["findings"]) == (0, [])
        return
    assert raw.returncode == 1
    [finding] = report["findings"]
    assert finding["rule"] == rule and message is not None and message in finding["message"]


def test_a_schema_difference_names_the_change_at_the_schema_that_changed(shop: Path) -> None:
    """`tags` an array in the contract, a string on the server: the change and its place
    are the type of `tags`, not the `items` only one side has."""
    output = {
        "type": "object",
        "required": ["name", "price"],
        "properties": {
            "name": {"type": "string"},
            "price": {"type": "number"},
            "tags": {"type": "string"},
            "note": {"type": ["string", "null"]},
        },
    }
    server = ("--", *RAW, GOOD_ITEM, "--tool", json.dumps({"outputSchema": output}))
    raw = run_cli("conform", "--contract", "shop", "--format", "json", "--protocol", "2025-06-18", *server, cwd=shop)
    report = conform_report(raw.stdout)
    [finding] = report["findings"]
    assert finding["rule"] == "output-schema-differs" and raw.returncode == 1
    assert finding["message"] == "type: array -> string at /properties/tags (the contract's -> the server's)"
    line = SHOP_TOOLS.splitlines().index("        tags: {type: array, items: {type: string}}") + 1
    assert (finding["line"], finding["pointer"]) == (line, "/tools/0/outputSchema/properties/tags/type")


def test_a_server_that_quits_on_an_unknown_method_is_reached_with_the_older_handshake(shop: Path) -> None:
    strict = ("--", *RAW, GOOD_ITEM, "--quit-on-unknown")
    auto = run_cli("conform", "--contract", "shop", "--timeout", "3", *strict, cwd=shop)
    assert auto.returncode == 2 and "cannot talk to the server" in auto.stderr
    legacy = run_cli(
        "conform", "--contract", "shop", "--handshake", "legacy", "--protocol", "2025-06-18", *strict, cwd=shop
    )
    assert legacy.returncode == 0, legacy.stdout + legacy.stderr


def test_every_rule_conform_reports_is_on_the_mcp_page() -> None:
    from mcp_contracts_generator.rules import of_command

    page = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    rules = [rule.id for rule in of_command("conform") if rule.id != "source-invalid"]
    assert len(rules) > 20
    assert [rule for rule in rules if f"`{rule}`" not in page] == []
