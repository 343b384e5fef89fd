"""`mock` and `conform` at each MCP protocol revision, over real connections: the official
SDK's `initialize` sessions at 2025-03-26, 2025-06-18 and 2025-11-25 and its 2026-07-28 client,
over stdio and streamable HTTP, against the mock of every built-in contract and of a fresh
`init` scaffold. What comes over the wire must meet that revision's own specification schema.

One HTTP mock per contract serves every revision, for every contract; stdio needs a process
per session, so it is held to every revision for tuitbot (the most tools and codes) and the
scaffold, the four sessions of one contract side by side: what the mock lists and answers
does not depend on the transport, which these two show at each revision.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from conform_json import conform_report
from conftest import CONTRACTS, REFERENCE, ROOT, require_shared, run_cli
from forkserver import python
from jsonschema.validators import validator_for
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_contracts_generator.api import served_contract
from mcp_contracts_generator.config import load_settings
from mcp_contracts_generator.protocol import VERSIONS, Revision, revision
from mcp_contracts_generator.serving.revisions import listing_at
from mcp_contracts_generator.serving.served import ServedContract
from mcp_servers import GOOD_ITEM, SHOP_TOOLS, expected_calls, http_mock, read_url
from mcp_servers import RAW as RAW_SERVER
from mcp_sessions import offer
from pydantic import TypeAdapter
from ruamel.yaml import YAML

# One worker runs the module (six mock processes shared by the module's tests),
# not each worker again (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("mcp-revisions")

require_shared()

MOCK = [*python("-m", "mcp_contracts_generator", "mock")]
SCAFFOLD = "shop"
CASES = (*CONTRACTS, SCAFFOLD)
RAW = TypeAdapter(dict[str, Any])  # the result as it came, after the SDK's own check of it


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh `init shop` project."""
    folder = tmp_path_factory.mktemp("scaffold")
    assert run_cli("init", SCAFFOLD, cwd=folder).returncode == 0
    return folder


def _folder(contract: str, scaffold: Path) -> Path:
    return scaffold if contract == SCAFFOLD else ROOT


def _served(contract: str, folder: Path) -> ServedContract:
    settings = load_settings(folder)
    assert not isinstance(settings, list), settings
    loaded = served_contract(settings, contract)
    assert not isinstance(loaded, list), loaded
    return loaded


@pytest.fixture(scope="module")
def http_mocks(scaffold: Path) -> Iterator[dict[str, str]]:
    """One `mock --transport http --port 0` per contract, started together; their URLs."""
    processes = {
        contract: subprocess.Popen(
            [*MOCK, "--contract", contract, "--transport", "http", "--port", "0"],
            cwd=_folder(contract, scaffold),
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        for contract in CASES
    }
    try:
        yield {contract: read_url(process, time.monotonic() + 60) for contract, process in processes.items()}
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            process.communicate(timeout=10)


# ---------------------------------------------------------------- sessions of the SDK


@asynccontextmanager
async def _session(target: str | StdioServerParameters, at: Revision) -> AsyncIterator[ClientSession]:
    """A session at `at`: the SDK's own client for 2025-11-25 (mode legacy) and 2026-07-28,
    an SDK `ClientSession` opened with our offer for the two older revisions."""
    if at.version == "2025-11-25" or not at.handshake:
        async with Client(target, mode="legacy" if at.handshake else at.version) as client:
            assert client.protocol_version == at.version
            yield client.session
        return
    transport = stdio_client(target) if isinstance(target, StdioServerParameters) else streamable_http_client(target)
    async with transport as (read, write), ClientSession(read, write) as session:
        await offer(session, at.version)
        yield session


# ---------------------------------------------------------------- the wire, judged


def _spec_check(at: Revision, name: str) -> Any:
    """A validator of `name` (ListToolsResult, CallToolResult) by revision `at`'s own schema."""
    spec = json.loads((REFERENCE / "mcp-spec" / f"schema-{at.version}.json").read_text(encoding="utf-8"))
    folder = "definitions" if "definitions" in spec else "$defs"
    return validator_for(spec)({**spec, "$ref": f"#/{folder}/{name}"})


def _violations(validator: Any, document: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


async def _check_revision(target: str | StdioServerParameters, served: ServedContract, at: Revision) -> None:
    listing_check, result_check = _spec_check(at, "ListToolsResult"), _spec_check(at, "CallToolResult")
    expected = {tool["name"]: tool for tool in listing_at([t.listing for t in served.tools], at)}
    async with _session(target, at) as session:
        listed = await session.send_request(types.ListToolsRequest(), RAW)
        assert _violations(listing_check, listed) == [], at.version
        tools = {tool["name"]: tool for tool in listed["tools"]}
        assert tools.keys() == expected.keys()
        for name, tool in tools.items():
            assert ("outputSchema" in tool) == ("outputSchema" in expected[name]), (at.version, name)
            assert at.output_schema or "outputSchema" not in tool
        for tool in served.tools:
            for call in tool.calls:
                params = types.CallToolRequestParams(name=tool.name, arguments=call.arguments)
                result = await session.send_request(types.CallToolRequest(params=params), RAW)
                assert _violations(result_check, result) == [], (at.version, tool.name)
                _check_result(result, tool.structured, "outputSchema" in expected[tool.name], at)


def _check_result(result: dict[str, Any], structured: bool, schema_listed: bool, at: Revision) -> None:
    """Structured content exactly where the revision carries it; the JSON always as text."""
    if not structured:
        assert "structuredContent" not in result
        return
    assert ("structuredContent" in result) == schema_listed, at.version
    texts = [json.loads(block["text"]) for block in result["content"] if block["type"] == "text"]
    assert texts, "a structured result keeps its JSON as text"
    if schema_listed:
        assert result["structuredContent"] in texts


@pytest.mark.parametrize("contract", CASES)
def test_the_mock_answers_each_revision_as_its_schema_says_over_http(
    contract: str, scaffold: Path, http_mocks: dict[str, str]
) -> None:
    served = _served(contract, _folder(contract, scaffold))

    async def main() -> None:
        for version in VERSIONS:
            await _check_revision(http_mocks[contract], served, revision(version))

    anyio.run(main)


@pytest.mark.parametrize("contract", ["tuitbot", SCAFFOLD])
def test_the_mock_answers_each_revision_as_its_schema_says_over_stdio(contract: str, scaffold: Path) -> None:
    folder = _folder(contract, scaffold)
    served = _served(contract, folder)
    command = StdioServerParameters(command=MOCK[0], args=[*MOCK[1:], "--contract", contract], cwd=str(folder))

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for version in VERSIONS:
                group.start_soon(_check_revision, command, served, revision(version))

    anyio.run(main)


# ---------------------------------------------------------------- conform at a revision


# The two largest built-ins under `slow` (a conform session per revision, each with every example call).
@pytest.mark.parametrize(
    "contract", [pytest.param(c, marks=pytest.mark.slow) if c in ("code-scalpel", "foundry") else c for c in CASES]
)
def test_conform_finds_nothing_in_the_mock_at_each_revision(
    contract: str, scaffold: Path, http_mocks: dict[str, str]
) -> None:
    """One run per contract: by default conform checks every revision the contract declares
    (all four), each in a session of its own (stdio: test_mcp_conform.py)."""
    url = http_mocks[contract]
    assert url.startswith("http://127.0.0.1:")  # loopback unless told otherwise
    folder = _folder(contract, scaffold)
    result = run_cli(
        "conform", "--contract", contract, "--probe-errors", "--format", "json", "--url", url, cwd=folder
    )  # fmt: skip
    report = conform_report(result.stdout)
    assert (result.returncode, report["findings"], report["revisions"]) == (0, [], list(VERSIONS))
    assert (report["conforms"], report["problem"]) == (True, None)
    tools_yaml = folder / "schemas" / "contracts" / contract / "tools.yaml"
    tools = YAML(typ="safe").load(tools_yaml.read_text(encoding="utf-8"))
    assert report["tools_listed"] == len(tools["tools"])
    assert report["calls"] == expected_calls(contract, folder / "schemas") * len(VERSIONS)


NOT_AN_OBJECT = """\
tools:
  - name: tags
    description: Tags, as a list.
    mutation: false
    outputSchema: {type: array, items: {type: string}}
    examples:
      - arguments: {}
"""


def test_a_tool_whose_output_is_not_an_object_reaches_older_clients_as_text(tmp_path: Path) -> None:
    """SEP-2106's backward compatibility: at 2025-11-25 the tool is listed without its
    schema and answered with the JSON as text; at 2026-07-28 with both."""
    assert run_cli("init", SCAFFOLD, cwd=tmp_path).returncode == 0
    (tmp_path / "schemas" / "contracts" / SCAFFOLD / "tools.yaml").write_text(NOT_AN_OBJECT, encoding="utf-8")
    seen: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}

    async def ask(url: str, at: Revision) -> None:
        async with _session(url, at) as session:
            listed = await session.send_request(types.ListToolsRequest(), RAW)
            params = types.CallToolRequestParams(name="tags", arguments={})
            seen[at.version] = listed["tools"][0], await session.send_request(types.CallToolRequest(params=params), RAW)

    with http_mock(SCAFFOLD, cwd=tmp_path) as url:
        for version in ("2025-11-25", "2026-07-28"):
            anyio.run(ask, url, revision(version))
            result = run_cli(
                "conform", "--contract", SCAFFOLD, "--protocol", version, "--format", "json", "--url", url, cwd=tmp_path
            )
            assert (result.returncode, conform_report(result.stdout)["findings"]) == (0, []), result.stdout
    (old_tool, old_result), (new_tool, new_result) = seen["2025-11-25"], seen["2026-07-28"]
    assert "outputSchema" not in old_tool and "structuredContent" not in old_result
    document = json.loads(old_result["content"][0]["text"])
    assert isinstance(document, list) and all(isinstance(tag, str) for tag in document)
    assert new_tool["outputSchema"] == {"type": "array", "items": {"type": "string"}}
    assert new_result["structuredContent"] == document


# ---------------------------------------------------------------- revisions a server refuses; tools chosen

SHOP_ITEM = SHOP_TOOLS.split("  - name: search")[0]  # the one tool the raw server lists


def test_a_server_that_answers_another_revision_is_a_finding(tmp_path: Path) -> None:
    """The bare server always answers 2025-06-18: asked for 2025-11-25, that is the finding,
    with the revision it concerns, and nothing more is asked at that revision."""
    assert run_cli("init", SCAFFOLD, cwd=tmp_path).returncode == 0
    (tmp_path / "schemas" / "contracts" / SCAFFOLD / "tools.yaml").write_text(SHOP_ITEM, encoding="utf-8")
    protocols = ("--protocol", "2025-06-18", "--protocol", "2025-11-25", "--handshake", "legacy")
    result = run_cli(
        "conform", "--contract", SCAFFOLD, "--format", "json", *protocols, "--", *RAW_SERVER, GOOD_ITEM, cwd=tmp_path
    )
    report = conform_report(result.stdout)
    assert result.returncode == 1 and report["revisions"] == ["2025-06-18", "2025-11-25"]
    assert [(f["rule"], f["revisions"]) for f in report["findings"]] == [("revision-unsupported", ["2025-11-25"])]
    assert report["calls"] == 1
    text = run_cli("conform", "--contract", SCAFFOLD, *protocols, "--", *RAW_SERVER, GOOD_ITEM, cwd=tmp_path)
    said = "revision-unsupported [error] the server answered 2025-06-18, not the revision asked for"
    assert f"contract.yaml:11:1: {said}" in text.stdout and "MCP 2025-11-25;" in text.stdout
    assert "(MCP 2025-11-25; initialize)" in text.stdout


def test_only_the_tools_asked_for_are_compared_and_extra_tools_take_the_contract_s_level(
    tmp_path: Path, http_mocks: dict[str, str]
) -> None:
    """Against the mock of the scaffold (one tool, `example_tool`), a contract that lists
    another tool besides: --tool example_tool leaves it out; a contract without
    `example_tool` gets an extra-tool finding at the level of its `extra_tools`."""
    url = http_mocks[SCAFFOLD]
    assert run_cli("init", SCAFFOLD, cwd=tmp_path).returncode == 0
    folder = tmp_path / "schemas" / "contracts" / SCAFFOLD
    tools = (folder / "tools.yaml").read_text(encoding="utf-8")
    more = tools + "  - name: another_tool\n    mutation: false\n"
    (folder / "tools.yaml").write_text(more, encoding="utf-8")
    at = ("--protocol", "2026-07-28", "--format", "json", "--url", url)
    whole = conform_report(run_cli("conform", "--contract", SCAFFOLD, *at, cwd=tmp_path).stdout)
    assert [f["rule"] for f in whole["findings"]] == ["missing-tool"]
    chosen = run_cli("conform", "--contract", SCAFFOLD, "--tool", "example_tool", *at, cwd=tmp_path)
    assert (chosen.returncode, conform_report(chosen.stdout)["findings"]) == (0, [])
    unknown = run_cli("conform", "--contract", SCAFFOLD, "--tool", "nope", *at, cwd=tmp_path)
    assert unknown.returncode == 2 and "--tool 'nope'" in unknown.stderr

    (folder / "tools.yaml").write_text(tools.replace("example_tool", "own_tool"), encoding="utf-8")
    contract_yaml = (folder / "contract.yaml").read_text(encoding="utf-8")
    levels = {}
    for level in ("error", "warning", "ignore"):
        (folder / "contract.yaml").write_text(f"{contract_yaml}extra_tools: {level}\n", encoding="utf-8")
        chosen_tool = run_cli("conform", "--contract", SCAFFOLD, "--tool", "own_tool", *at, cwd=tmp_path)
        report = conform_report(chosen_tool.stdout)
        assert [f["rule"] for f in report["findings"]] == ["missing-tool"]  # --tool: the others are not extra
        report = conform_report(run_cli("conform", "--contract", SCAFFOLD, *at, cwd=tmp_path).stdout)
        levels[level] = [(f["rule"], f["level"]) for f in report["findings"] if f["rule"] == "extra-tool"]
    assert levels == {"error": [("extra-tool", "error")], "warning": [("extra-tool", "warning")], "ignore": []}
