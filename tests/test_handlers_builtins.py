"""The built-in contracts served on their generated `Handlers` (issue 48): a server that answers
each example call with its example document (tests/servers/handlers_builtin.py) conforms with
`--fuzz` at every revision with no finding at all, and answers every example call as `mock`
does."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
import yaml
from conform_json import conform_report
from conftest import CONTRACTS, GENERATED, ROOT, SCHEMAS, run_process
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SERVER = ROOT / "tests" / "servers" / "handlers_builtin.py"
MODULES = {"code-scalpel": "code_scalpel", "mcp-envelope": "mcp_envelope"}


def _command(contract: str) -> list[str]:
    module = MODULES.get(contract, contract)
    return [sys.executable, str(SERVER), f"mcp_contracts.{module}", str(SCHEMAS / "contracts" / contract)]


def _every_tool(contract: str) -> list[str]:
    """`--call-tool` for each tool: the handlers answer from examples, so each may be fuzzed."""
    listing = json.loads((GENERATED / "mcp" / f"{contract}.tools.json").read_text(encoding="utf-8"))
    return [flag for tool in listing["tools"] for flag in ("--call-tool", tool["name"])]


def _env() -> dict[str, str]:
    paths = [str(GENERATED / "python"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


@pytest.mark.slow
@pytest.mark.parametrize("contract", CONTRACTS)
def test_a_builtin_served_on_its_handlers_conforms_with_fuzz_at_every_revision(contract: str, tmp_path: Path) -> None:
    done = run_process(
        "conform", "--schemas", str(SCHEMAS), "--contract", contract, "--format", "json",
        "--fuzz", "5", "--seed", "1", "--server-log", str(tmp_path / "server.log"), *_every_tool(contract),
        "--", *_command(contract),
        env=_env(), timeout=600,
    )  # fmt: skip
    report = conform_report(done.stdout)
    findings: list[dict[str, Any]] = report["findings"]
    assert done.returncode == 0 and not findings, (findings, done.stderr[-2000:])


def _example_calls(contract: str) -> list[tuple[str, dict[str, Any]]]:
    tools = yaml.safe_load((SCHEMAS / "contracts" / contract / "tools.yaml").read_text(encoding="utf-8")) or {}
    return [
        (tool["name"], call.get("arguments") or {})
        for tool in tools.get("tools") or []
        for call in tool.get("examples") or []
    ]


def _said(result: types.CallToolResult) -> tuple[bool, Any, list[Any]]:
    """What an answer says: its isError, structuredContent and the JSON of each text block."""
    texts = [json.loads(block.text) for block in result.content if isinstance(block, types.TextContent)]
    return bool(result.is_error), result.structured_content, texts


async def _answers(command: list[str], calls: list[tuple[str, dict[str, Any]]], revision: str) -> list[Any]:
    target = StdioServerParameters(command=command[0], args=command[1:], env=_env())
    async with stdio_client(target) as (read, write), ClientSession(read, write) as session:
        params = types.InitializeRequestParams(
            protocol_version=revision,
            capabilities=types.ClientCapabilities(),
            client_info=types.Implementation(name="test_handlers_builtins", version="0"),
        )
        result = await session.send_request(types.InitializeRequest(params=params), types.InitializeResult)
        session.adopt(result)
        await session.send_notification(types.InitializedNotification())
        return [_said(await session.call_tool(tool, arguments)) for tool, arguments in calls]


@pytest.mark.slow
@pytest.mark.parametrize("revision", ["2025-03-26", "2025-11-25"])
@pytest.mark.parametrize("contract", [c for c in CONTRACTS if c != "mcp-envelope"])  # it has no tool
def test_mock_and_a_handlers_server_answer_every_example_alike(contract: str, revision: str) -> None:
    calls = _example_calls(contract)
    assert calls
    mock = [sys.executable, "-m", "mcp_contracts_generator", "mock", "--schemas", str(SCHEMAS), "--contract", contract]
    served = anyio.run(_answers, _command(contract), calls, revision)
    mocked = anyio.run(_answers, mock, calls, revision)
    assert served == mocked
