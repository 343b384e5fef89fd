"""`conform --fuzz N [--seed S]` against real servers: ours with planted faults (each found with
its rule and the shrunk arguments), and `mcp-contracts mock` (none found). Each faulty server
passes plain `conform`: only fuzzing finds its fault."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli
from forkserver import python
from mcp_contracts_generator.conformance.fuzzing.fuzz_draw import breaches, valid_strategy
from mcp_contracts_generator.conformance.fuzzing.mutate import edges, long_integers
from mcp_servers import RAW_TOOLS

pytestmark = pytest.mark.first
SERVERS = ROOT / "tests" / "servers"
LATEST = ("--protocol", "2026-07-28")  # fuzzing is done at the newest revision checked
MOCK = python("-m", "mcp_contracts_generator", "mock")

PAGES = """\
tools:
  - name: get_page
    description: One page of results.
    mutation: false
    annotations: {openWorldHint: false}
    inputSchema:
      type: object
      required: [page]
      properties:
        page: {type: integer, minimum: 1, maximum: 100}
      additionalProperties: false
    outputSchema:
      type: object
      required: [page, items]
      properties:
        page: {type: integer}
        items: {type: array, items: {type: string}}
    examples:
      - arguments: {page: 1}
  - name: lookup
    description: Whether a text is known.
    mutation: false
    annotations: {openWorldHint: false}
    inputSchema:
      type: object
      required: [text]
      properties:
        text: {type: string, maxLength: 20}
        deep: {type: boolean}
      additionalProperties: false
    outputSchema:
      type: object
      required: [found]
      properties:
        found: {type: boolean}
    examples:
      - arguments: {text: pen}
  - name: delete_page
    description: Delete a page.
    mutation: true
    inputSchema:
      type: object
      required: [page]
      properties:
        page: {type: integer, minimum: 1}
      additionalProperties: false
    outputSchema:
      type: object
      required: [deleted]
      properties:
        deleted: {type: boolean}
    examples:
      - arguments: {page: 3}
"""

ITEMS = """\
tools:
  - name: get_item
    description: An item.
    mutation: false
    annotations: {openWorldHint: false}
    inputSchema:
      type: object
      required: [item_id]
      properties:
        item_id: {type: integer, minimum: 1}
        kind: {enum: [book, pen]}
      additionalProperties: false
    outputSchema:
      type: object
      required: [name, price]
      properties:
        name: {type: string}
        price: {type: number}
    examples:
      - arguments: {item_id: 1, kind: pen}
"""

# As the SDK's MCPServer publishes `search(text: str, limit: int | None = None) -> Found`.
SEARCH = """\
tools:
  - name: search
    description: Items that match.
    mutation: false
    annotations: {openWorldHint: false}
    inputSchema:
      title: searchArguments
      type: object
      required: [text]
      properties:
        text: {title: Text, type: string}
        limit: {anyOf: [{type: integer}, {type: "null"}], default: null, title: Limit}
    outputSchema:
      title: Found
      type: object
      required: [items]
      properties:
        items: {title: Items, type: array, items: {type: string}}
    examples:
      - arguments: {text: pen, limit: 2}
"""


FAULTY = {
    "pages": ("faulty_boundary.py", PAGES),
    "items": ("faulty_lax.py", ITEMS),
    "search": ("faulty_optional.py", SEARCH),
}


def _project(tmp_path: Path, contract: str) -> tuple[Path, tuple[str, ...]]:
    """A project with `contract` (one of FAULTY) and the command that starts its server."""
    server, tools = FAULTY[contract]
    assert run_cli("init", contract, cwd=tmp_path).returncode == 0
    (tmp_path / "schemas" / "contracts" / contract / "tools.yaml").write_text(tools, encoding="utf-8")
    return tmp_path, ("--", *python(str(SERVERS / server)))


def _conform(project: Path, contract: str, *args: str) -> tuple[int, dict[str, Any]]:
    result = run_cli("conform", "--contract", contract, "--format", "json", *LATEST, *args, cwd=project)
    return result.returncode, conform_report(result.stdout)


def _found(report: dict[str, Any]) -> list[tuple[str, str | None]]:
    return sorted((f["rule"], f["subject"]) for f in report["findings"])


@pytest.mark.parametrize("contract", sorted(FAULTY))
def test_each_faulty_server_passes_plain_conform(tmp_path: Path, contract: str) -> None:
    project, server = _project(tmp_path, contract)
    code, report = _conform(project, contract, *server)
    assert (code, report["findings"], report["problem"]) == (0, [], None)
    assert "fuzz" not in report


@pytest.mark.slow  # waits out a hang, then shrinks
@pytest.mark.fires("fuzz-crash", "fuzz-hang", "fuzz-skipped")
def test_a_crash_at_the_maximum_and_a_hang_are_found_with_the_shrunk_arguments(tmp_path: Path) -> None:
    project, server = _project(tmp_path, "pages")
    log = tmp_path / "calls.log"
    code, report = _conform(
        project, "pages", "--fuzz", "20", "--seed", "3", "--timeout", "3", *server, "--log", str(log)
    )
    assert code == 1 and report["problem"] is None
    assert _found(report) == [
        ("fuzz-crash", 'get_page({"page": 100})'),  # the boundary value itself
        ("fuzz-hang", 'lookup({"deep": true, "text": ""})'),
        ("fuzz-skipped", "delete_page"),
    ]
    crash = next(f for f in report["findings"] if f["rule"] == "fuzz-crash")
    assert crash["pointer"] == "/tools/0/inputSchema" and crash["revisions"] == ["2026-07-28"]
    assert crash["message"].endswith('{"page": 100} (--fuzz 20 --seed 3)')
    fuzz = report["fuzz"]
    assert (fuzz["seed"], fuzz["examples"], sorted(fuzz["tools"])) == (3, 20, ["get_page", "lookup"])
    assert all(t["drawn_by"] == "hypothesis-jsonschema" and t["valid"] > 0 for t in fuzz["tools"].values())
    called = log.read_text(encoding="utf-8").split()
    assert called.count("delete_page") == 1  # its example call: not read-only, not named
    assert report["calls"] == len(called)  # the server logs each call before it crashes or hangs


def test_over_http_a_crash_is_found_and_the_tools_after_it_are_noted(tmp_path: Path) -> None:
    """A server behind a URL cannot be started again: what it crashed on is the finding."""
    project, server = _project(tmp_path, "pages")
    url_file = tmp_path / "url"
    process = subprocess.Popen(
        [*server[1:], "--http", str(url_file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while not url_file.is_file() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        url = url_file.read_text(encoding="utf-8")
        code, report = _conform(project, "pages", "--fuzz", "20", "--seed", "3", "--url", url)
    finally:
        process.kill()
        process.wait(timeout=10)
    assert code == 1 and report["problem"] is None
    assert _found(report) == [
        ("fuzz-crash", 'get_page({"page": 100})'),
        ("fuzz-skipped", "delete_page"),
        ("fuzz-skipped", "lookup"),
    ]
    skipped = next(f for f in report["findings"] if f["subject"] == "lookup")
    assert skipped["message"].startswith("not fuzzed: the server could not be reached")


def test_the_same_seed_gives_the_same_calls_and_findings(tmp_path: Path) -> None:
    project, server = _project(tmp_path, "pages")
    runs = [_conform(project, "pages", "--fuzz", "20", "--seed", "3", "--tool", "get_page", *server) for _ in "ab"]
    assert runs[0] == runs[1]
    assert _found(runs[0][1]) == [("fuzz-crash", 'get_page({"page": 100})')]


@pytest.mark.slow  # fuzzes at every revision, then again by seed, and waits out a hang
@pytest.mark.fires("fuzz-invalid-accepted")
def test_a_server_that_accepts_invalid_arguments_is_found_and_the_seed_is_reported(tmp_path: Path) -> None:
    project, server = _project(tmp_path, "items")
    fuzz = ("--fuzz", "10", "--timeout", "5")
    text = run_cli("conform", "--contract", "items", *fuzz, *server, cwd=project)  # every revision
    assert text.returncode == 1
    [found] = [line for line in text.stdout.splitlines() if "fuzz-invalid-accepted" in line]
    assert "(MCP 2026-07-28; get_item(" in found  # fuzzed once, at the newest revision
    picked = re.search(r"reproduce with --seed (\d+)\.", text.stdout)
    assert picked is not None, text.stdout
    code, report = _conform(project, "items", *fuzz, "--seed", picked.group(1), *server)
    assert code == 1 and report["fuzz"]["seed"] == int(picked.group(1))
    # A seed that draws `item_id` past 4300 digits finds the SDK's hang too (the message is dropped).
    hangs = [f for f in report["findings"] if f["rule"] == "fuzz-hang"]
    assert all("(4301 digits)" in f["subject"] for f in hangs), hangs
    [finding] = [f for f in report["findings"] if f not in hangs]
    assert (finding["rule"], finding["subject"]) == ("fuzz-invalid-accepted", "get_item({})")  # shrunk
    assert finding["message"].startswith("a success on arguments that break `required` at /: {}")
    assert finding["pointer"] == "/tools/0/inputSchema/required"


@pytest.mark.fires("fuzz-crash")
@pytest.mark.parametrize(
    ("revision", "answer"),
    [
        ("2025-11-25", "error code 0, the Python MCP SDK's answer to an exception its handler raised ({})"),
        ("2026-07-28", "JSON-RPC internal error -32603 (Internal server error)"),  # the SDK hides the text there
    ],
)
def test_an_exception_a_python_sdk_server_did_not_handle_is_a_crash(tmp_path: Path, revision: str, answer: str) -> None:
    """faulty_boundary.py --unhandled raises where its faults are: the SDK answers each with error
    code 0 before 2026-07-28 (JSON-RPC says -32603, which it answers after), and each is a crash
    at the simplest arguments that raise."""
    project, server = _project(tmp_path, "pages")
    args = ("--contract", "pages", "--format", "json", "--protocol", revision, "--fuzz", "20", "--seed", "3")
    result = run_cli("conform", *args, *server, "--unhandled", cwd=project)
    code, report = result.returncode, conform_report(result.stdout)
    assert code == 1 and report["problem"] is None
    assert _found(report) == [
        ("fuzz-crash", 'get_page({"page": 100})'),
        ("fuzz-crash", 'lookup({"deep": true, "text": ""})'),
        ("fuzz-skipped", "delete_page"),
    ]
    crashes = [f["message"] for f in report["findings"] if f["rule"] == "fuzz-crash"]
    said = [answer.format(text) for text in ("no page 100", "maximum recursion depth exceeded")]
    assert [message[: len(text)] for message, text in zip(crashes, said, strict=True)] == said, crashes


def test_an_internal_error_is_a_crash_shown_with_the_simplest_arguments(tmp_path: Path) -> None:
    """raw_server.py --call-error answers every call with -32603: on arguments the input schema
    accepts, a crash shown with the simplest; on those it refuses, a refusal like any error."""
    project, _ = _project(tmp_path, "items")
    (project / "schemas" / "contracts" / "items" / "tools.yaml").write_text(RAW_TOOLS, encoding="utf-8")
    raw = ("--", *python(str(SERVERS / "raw_server.py"), "{}", "--call-error"))
    result = run_cli(
        "conform", "--contract", "items", "--format", "json", "--protocol", "2025-06-18", "--fuzz", "5", "--seed", "1",
        "--call-tool", "get_item", *raw, cwd=project,  # its openWorldHint is not given: fuzzed when named
    )  # fmt: skip
    report = conform_report(result.stdout)
    assert result.returncode == 1 and report["problem"] is None
    assert _found(report) == [
        ("call-failed", 'get_item({"item_id": 1, "kind": "book"})'),  # the example call
        ("fuzz-crash", 'get_item({"item_id": 0})'),
    ]
    [crash] = [f["message"] for f in report["findings"] if f["rule"] == "fuzz-crash"]
    assert crash.startswith("JSON-RPC internal error -32603 (it broke) on arguments the input schema accepts")
    assert report["fuzz"]["tools"]["get_item"]["invalid"] > 0


@pytest.mark.slow  # waits out the SDK's hang on a 4301-digit integer
@pytest.mark.fires("fuzz-crash")
def test_a_server_that_requires_an_optional_field_is_found(tmp_path: Path) -> None:
    """Its handler raises without `limit`, which MCPServer answers with `Error executing tool
    search` and nothing of the exception: a crash on arguments the input schema accepts."""
    project, server = _project(tmp_path, "search")
    code, report = _conform(project, "search", "--fuzz", "10", "--seed", "2", "--timeout", "3", *server)
    assert code == 1
    assert _found(report) == [
        ("fuzz-crash", 'search({"text": ""})'),  # the planted fault: no limit
        # The SDK cannot read a message with an integer past 4300 digits, and never answers it.
        ("fuzz-hang", 'search({"limit": -10000000000000000000…(4301 digits), "text": ""})'),
        # The SDK's MCPServer checks arguments with pydantic's lax mode, which takes `true` for
        # an integer: a finding of its own, real too.
        ("fuzz-invalid-accepted", 'search({"limit": true, "text": ""})'),
    ]
    crash = next(f for f in report["findings"] if f["rule"] == "fuzz-crash")
    assert crash["message"].startswith(
        "an isError result `Error executing tool search`, the Python MCP SDK MCPServer's answer to an exception"
    )


@pytest.mark.quiet(
    "fuzz-crash", "fuzz-hang", "fuzz-valid-refused", "fuzz-invalid-accepted", "fuzz-skipped", "fuzz-degraded"
)
def test_the_mock_gets_no_fuzz_findings_and_a_tool_named_is_fuzzed_though_not_read_only(tmp_path: Path) -> None:
    """jsonrpc's one tool is not read-only: named with --call-tool, it is fuzzed."""
    mock, tool = ("--", *MOCK, "--contract", "jsonrpc"), "mcp.tool:docs.load.fetch"
    code, report = _conform(ROOT, "jsonrpc", "--fuzz", "10", "--seed", "1", "--call-tool", tool, *mock)
    assert (code, report["findings"], report["problem"]) == (0, [], None)
    [(name, facts)] = report["fuzz"]["tools"].items()
    assert name == tool and facts["valid"] > 0 and facts["invalid"] > 0


@pytest.mark.fires("fuzz-hang")
def test_a_tool_not_read_only_is_called_when_named_and_an_integer_past_4300_digits_finds_the_sdk_hang(
    tmp_path: Path,
) -> None:
    """`page` has no maximum: it is also sent as 10**4300 (4301 digits, written in full), which
    the Python SDK cannot read (Python's limit on an integer's digits) and answers never."""
    project, server = _project(tmp_path, "pages")
    log = tmp_path / "calls.log"
    only = ("--tool", "delete_page", "--call-tool", "delete_page", "--timeout", "2")
    code, report = _conform(project, "pages", "--fuzz", "5", "--seed", "2", *only, *server, "--log", str(log))
    assert code == 1 and report["problem"] is None
    huge = '{"page": 10000000000000000000…(4301 digits)}'
    assert _found(report) == [("fuzz-hang", f"delete_page({huge})")]
    [hang] = report["findings"]
    accepts = "no answer within 2 s on arguments the input schema accepts"
    assert hang["message"] == f"{accepts}: {huge} (--fuzz 5 --seed 2)"
    assert hang["pointer"] == "/tools/2/inputSchema"
    called = log.read_text(encoding="utf-8").split()
    assert set(called) == {"delete_page"} and len(called) > 5  # the call it hangs on never reaches the tool
    assert report["calls"] == len(called) + 1


@pytest.mark.slow  # runs until a budget of seconds ends
def test_a_fuzz_budget_stops_the_run_says_so_and_leaves_the_exit_code(tmp_path: Path) -> None:
    """1000 argument sets asked for, 2 seconds given (from the start of the fuzzing): it stops, and
    the mock still conforms."""
    mock, tool = ("--", *MOCK, "--contract", "jsonrpc"), "mcp.tool:docs.load.fetch"
    asked = ("--fuzz", "1000", "--seed", "1", "--fuzz-budget", "2", "--call-tool", tool)
    code, report = _conform(ROOT, "jsonrpc", *asked, *mock)
    assert (code, report["conforms"], report["problem"]) == (0, True, None)
    fuzz = report["fuzz"]
    assert (fuzz["budget"], fuzz["budget_spent"]) == (2, True)
    facts = fuzz["tools"][tool]
    assert facts["valid"] < 1000 and facts["invalid"] == 0  # without it: about 1,800 calls, 3 minutes
    [note] = report["findings"]
    assert (note["rule"], note["level"], note["subject"]) == ("fuzz-skipped", "note", tool)
    spent = f"fuzzed in part: the --fuzz-budget of 2 s was spent after {facts['valid']} valid and 0 invalid call(s)"
    assert note["message"] == spent
    text = run_cli("conform", "--contract", "jsonrpc", *LATEST, *asked, *mock, cwd=ROOT)
    assert text.returncode == 0
    assert "reproduce with --seed 1. The --fuzz-budget of 2 s was spent: the fuzzing stopped early." in text.stdout


OPEN_WORLD = ("--", *python(str(SERVERS / "open_world.py")))


@pytest.fixture
def open_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A project with the contract `import` makes of open_world.py (no tool called), and the
    file the server names each call in."""
    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("OPEN_WORLD_CALLS", str(calls))
    assert run_cli("import", "world", *OPEN_WORLD, cwd=tmp_path).returncode == 0
    assert not calls.exists()
    return tmp_path, calls


def _called(calls: Path) -> list[str]:
    return calls.read_text(encoding="utf-8").split() if calls.exists() else []


@pytest.mark.fires("fuzz-skipped", "fuzz-degraded")
def test_a_tool_that_may_reach_other_hosts_or_destroy_is_fuzzed_only_when_named(open_world: tuple[Path, Path]) -> None:
    """Read-only is not enough: `openWorldHint` true or not given, or `destructiveHint` true,
    keeps a tool from being called; a tool hypothesis-jsonschema cannot draw for is a warning."""
    project, calls = open_world
    code, report = _conform(project, "world", "--fuzz", "5", "--seed", "1", *OPEN_WORLD)
    assert (code, report["problem"]) == (0, None)
    found = {(f["rule"], f["subject"]): f["message"] for f in report["findings"]}
    reach, named = "(it may reach hosts other than the server)", "names it to be"
    not_given = "openWorldHint is not given, which MCP takes for true"
    assert found.pop(("fuzz-degraded", "count_nodes")).startswith(
        "fuzzed with the synthesiser's few argument sets only: hypothesis-jsonschema cannot draw from the input"
        " schema: HypothesisRefResolutionError: Could not resolve recursive references"
    )
    lists = "not fuzzed: the server lists it with"
    assert found == {
        ("fuzz-skipped", "fetch"): f"{lists} openWorldHint true {reach}; --call-tool fetch {named}",
        ("fuzz-skipped", "peek"): f"not fuzzed: {not_given} {reach}; --call-tool peek {named}",
        ("fuzz-skipped", "wipe"): f"{lists} destructiveHint true (it may destroy something); --call-tool wipe {named}",
    }
    assert set(_called(calls)) == {"look", "count_nodes"}  # the contract has no example calls
    tools = report["fuzz"]["tools"]
    assert (tools["look"]["drawn_by"], tools["count_nodes"]["drawn_by"]) == ("hypothesis-jsonschema", "synthesiser")
    # A contract that calls `fetch` closed-world does not make it safe while the server says otherwise.
    tools_yaml = project / "schemas" / "contracts" / "world" / "tools.yaml"
    text = tools_yaml.read_text(encoding="utf-8")
    tools_yaml.write_text(text.replace("openWorldHint: true", "openWorldHint: false", 1), encoding="utf-8")
    only = ("--fuzz", "5", "--seed", "1", "--tool", "fetch")
    code, report = _conform(project, "world", *only, *OPEN_WORLD)
    differs = ("annotation-differs", "tools/list fetch.annotations.openWorldHint")
    assert code == 1 and _found(report) == [differs, ("fuzz-skipped", "fetch")]
    assert "fetch" not in _called(calls)
    code, report = _conform(project, "world", *only, "--call-tool", "fetch", *OPEN_WORLD)
    assert code == 1 and [f["rule"] for f in report["findings"]] == ["annotation-differs"]
    assert _called(calls).count("fetch") > 1  # named: fuzzed (the SDK refuses the invalid arguments itself)


def test_usage_errors_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project, server = _project(tmp_path, "items")
    for wrong in (("--seed", "1"), ("--call-tool", "get_item"), ("--fuzz-budget", "5")):  # without --fuzz
        result = run_cli("conform", "--contract", "items", *wrong, *server, cwd=project)
        assert result.returncode == 2 and "go with --fuzz" in result.stderr
    for flag in ("--call-tool", "--tool"):  # the error alone: no summary of a run that asked nothing
        unknown = run_cli("conform", "--contract", "items", "--fuzz", "1", flag, "nope", *server, cwd=project)
        assert (unknown.returncode, unknown.stdout) == (2, "")
        assert unknown.stderr == f"error: {flag} 'nope' is not a tool of the contract (it has: get_item)\n"
    monkeypatch.setitem(sys.modules, "hypothesis_jsonschema", None)  # as if it were not installed
    missing = run_cli("conform", "--contract", "items", "--fuzz", "1", *server, cwd=project)
    assert missing.returncode == 2 and "lacks hypothesis_jsonschema" in missing.stderr


GET_PAGE: dict[str, Any] = {
    "type": "object",
    "required": ["page"],
    "properties": {"page": {"type": "integer", "minimum": 1, "maximum": 100}, "tags": {"$ref": "#/$defs/tags"}},
    "additionalProperties": False,
    "$defs": {"tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "maxItems": 2}},
}


def test_each_mutant_kept_breaks_exactly_the_keyword_it_is_named_by() -> None:
    validator = jsonschema_rs.validator_for(GET_PAGE)
    found = breaches(validator, GET_PAGE, {"page": 7, "tags": ["a"]})
    for breach in found:
        [error] = list(validator.iter_errors(breach.arguments))
        assert (breach.keyword, breach.schema_at) == (error.schema_path[-1], tuple(error.schema_path))
    assert {(b.keyword, b.pointer) for b in found} >= {
        ("required", ""),
        ("additionalProperties", ""),
        ("type", "/page"),
        ("minimum", "/page"),
        ("maximum", "/page"),
        ("maxItems", "/tags"),
        ("type", "/tags/0"),
        ("pattern", "/tags/0"),
    }
    assert ["$defs", "tags", "maxItems"] in [list(b.schema_at) for b in found]  # through the $ref


def test_valid_arguments_are_drawn_at_the_edges_too() -> None:
    """The bounds themselves, which chance may miss; each enum member and boolean, the longest string."""
    assert edges(GET_PAGE, {"page": 7}) == [{"page": 1}, {"page": 100}]
    unbounded = {"type": "object", "properties": {"n": {"type": "integer"}, "m": {"type": "integer", "minimum": 0}}}
    below = {"type": "object", "properties": {"x": {"type": ["integer", "null"], "exclusiveMaximum": 5}}}
    with long_integers():  # past 4300 digits: the SDK in Python drops the message
        assert edges(unbounded, {}) == [{"m": 0}, {"m": 10**4300}, {"n": -(10**4300)}, {"n": 10**4300}]
        assert edges(below, {}) == [{"x": -(10**4300)}, {"x": 4}]
        halves = {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 0.5}}}
        validator = jsonschema_rs.validator_for(halves)  # its mutants: no float made of the integer
        assert ("type", "/n") in {(b.keyword, b.pointer) for b in breaches(validator, halves, {"n": 10**4300})}
    lookup = {"type": "object", "properties": {"text": {"maxLength": 3}, "deep": {"type": "boolean"}}}
    assert edges(lookup, {}) == [{"deep": False}, {"deep": True}, {"text": "xxx"}]


def test_a_property_behind_an_anchor_or_an_id_is_broken_and_drawn_at_its_edges() -> None:
    """The mutator reads `$ref` as the schema core resolves it: an `$anchor`, and a pointer
    written inside a resource of its own (`$id`), lead where the judge says they lead."""
    schema = {
        "type": "object",
        "properties": {"page": {"$ref": "#page"}, "size": {"$ref": "sizes.json#/$defs/size"}},
        "$defs": {
            "page": {"$anchor": "page", "type": "integer", "maximum": 9},
            "sizes": {"$id": "sizes.json", "$defs": {"size": {"type": "integer", "minimum": 2}}},
        },
    }
    validator = jsonschema_rs.validator_for(schema)
    huge = 10**4300  # past the end where there is no bound
    at_edges = [{"page": -huge, "size": 3}, {"page": 9, "size": 3}, {"page": 1, "size": 2}, {"page": 1, "size": huge}]
    assert edges(schema, {"page": 1, "size": 3}) == at_edges
    found = {(b.keyword, b.pointer) for b in breaches(validator, schema, {"page": 1, "size": 3})}
    assert {("maximum", "/page"), ("minimum", "/size"), ("type", "/page"), ("type", "/size")} <= found


@pytest.mark.slow  # draws against a judge that accepts nothing until hypothesis gives up
def test_what_hypothesis_jsonschema_cannot_read_is_drawn_from_the_synthesiser() -> None:
    recursive = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/t"}},
        "$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}},
    }
    validator = jsonschema_rs.validator_for(recursive)
    strategy, drawn_by, why = valid_strategy(recursive, lambda v: isinstance(v, dict) and validator.is_valid(v))
    assert strategy is not None and drawn_by == "synthesiser"
    assert why is not None and why.startswith("hypothesis-jsonschema cannot draw from the input schema: ")
    assert valid_strategy(GET_PAGE, lambda v: False) == (None, "nothing", None)  # the judge accepts nothing


def _keywords_contract() -> str:
    """The contract of `faulty_lax.py --keywords`: its tools as it lists them."""
    sys.path.insert(0, str(SERVERS))
    try:
        import faulty_lax
    finally:
        sys.path.remove(str(SERVERS))
    tools = [
        {
            "name": name,
            "description": "An item.",
            "mutation": False,
            "annotations": {"openWorldHint": False},
            "inputSchema": schema,
            "outputSchema": faulty_lax.OUTPUT,
        }
        for name, schema in faulty_lax.KEYWORDS.items()
    ]
    return json.dumps({"tools": tools})  # YAML reads JSON


@pytest.mark.fires("fuzz-invalid-accepted", "fuzz-skipped")
def test_a_server_that_ignores_one_keyword_is_found_for_each_keyword_at_a_small_n(tmp_path: Path) -> None:
    """`not`, `if`/`then`, `minProperties` (which the synthesiser's simplest arguments already
    break), `propertyNames`, `patternProperties`, `dependentRequired`; a tool whose schema no
    mutation breaks is noted, not silently left unchecked."""
    assert run_cli("init", "keywords", cwd=tmp_path).returncode == 0
    (tmp_path / "schemas" / "contracts" / "keywords" / "tools.yaml").write_text(_keywords_contract(), encoding="utf-8")
    server = ("--", *python(str(SERVERS / "faulty_lax.py"), "--keywords"))
    code, report = _conform(tmp_path, "keywords", "--fuzz", "5", "--seed", "1", *server)
    assert code == 1 and report["problem"] is None
    found = {(f["rule"], f["subject"].split("(")[0], f["pointer"]) for f in report["findings"]}
    assert found == {
        ("fuzz-invalid-accepted", "by_not", "/tools/0/inputSchema/not"),
        ("fuzz-invalid-accepted", "by_if_then", "/tools/1/inputSchema/then/required"),
        ("fuzz-invalid-accepted", "by_min_properties", "/tools/2/inputSchema/minProperties"),
        ("fuzz-invalid-accepted", "by_property_names", "/tools/3/inputSchema/propertyNames/pattern"),
        ("fuzz-invalid-accepted", "by_pattern_properties", "/tools/4/inputSchema/patternProperties/^x_/type"),
        ("fuzz-invalid-accepted", "by_dependent_required", "/tools/5/inputSchema/dependentRequired"),
        ("fuzz-skipped", "dependent_schemas", "/tools/6/inputSchema"),
    }
    skipped = next(f for f in report["findings"] if f["rule"] == "fuzz-skipped")
    assert skipped["message"].startswith("not fuzzed with invalid arguments: no valid arguments drawn could be")
    facts = report["fuzz"]["tools"]
    assert [name for name, tool in facts.items() if not tool["invalid"]] == ["dependent_schemas"]


def test_the_keywords_of_a_nested_object_are_broken_too() -> None:
    """Down a property: `not`, `if`/`then`, `propertyNames`, `patternProperties`, `dependentRequired`."""
    inner = {
        "type": "object",
        "not": {"required": ["admin"]},
        "if": {"required": ["courier"]},
        "then": {"required": ["address"]},
        "propertyNames": {"maxLength": 8},
        "patternProperties": {"^x_": {"type": "integer"}},
        "dependentRequired": {"card": ["cvv"]},
    }
    schema = {"type": "object", "properties": {"order": inner}}
    validator = jsonschema_rs.validator_for(schema)
    found = {"/".join(map(str, b.schema_at)) for b in breaches(validator, schema, {"order": {}})}
    assert {f"properties/order/{k}" for k in ("not", "then/required", "propertyNames/maxLength")} <= found
    assert {"properties/order/patternProperties/^x_/type", "properties/order/dependentRequired"} <= found
