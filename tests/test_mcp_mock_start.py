"""What the mock's start pays for, and how it serves standard input and output.

No timing here (BENCHMARKS.md measures): the mock's path to its first `tools/list` answer
imports none of the rendering pipeline, the listing it hands to the SDK as JSON is the one
the SDK's `Tool` models give, and a client that writes its requests and closes its end
gets every answer, through a real `mcp-contracts mock` process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import mcp.types as types
import pytest
from conftest import CONTRACTS, ROOT, SCHEMAS
from mcp_contracts_generator import api
from mcp_contracts_generator.protocol import VERSIONS
from mcp_contracts_generator.serving.mock import Mock
from mcp_contracts_generator.serving.served import served

pytestmark = pytest.mark.slow  # the mock started as a process, cold, per test

PROJECT = api.load(SCHEMAS).project
assert PROJECT is not None

# What rendering and formatting import: the mock renders nothing.
RENDERING = ("jinja2", "black", "datamodel_code_generator", "isort", "markupsafe")

_START = textwrap.dedent("""
    import sys
    from mcp_contracts_generator.config import load_settings
    from mcp_contracts_generator.load.reading import Reading
    from mcp_contracts_generator.load.project import load_project
    from mcp_contracts_generator.serving.mock import Mock, build_server
    from mcp_contracts_generator.serving.served import served
    from mcp_contracts_generator.protocol import VERSIONS

    chosen = load_settings()
    project = load_project(chosen.schemas, Reading.within(chosen.schemas, chosen.limits)).project
    mock = Mock(served(next(c for c in project.contracts if c.name == sys.argv[1])))
    build_server(mock)
    for version in VERSIONS:
        mock.wire_listing_at(version)
    print("\\n".join(sorted({name.split(".")[0] for name in sys.modules})))
    """)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_mock_builds_its_server_and_listings_without_the_rendering_pipeline(contract: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _START, contract], cwd=ROOT, capture_output=True, text=True, check=True
    )
    imported = set(done.stdout.split())
    assert "mcp" in imported and "mcp_contracts_generator" in imported
    assert not imported & set(RENDERING), sorted(imported & set(RENDERING))


@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_listing_handed_to_the_sdk_is_what_its_tool_models_give(contract: str) -> None:
    mock = Mock(served(next(c for c in PROJECT.contracts if c.name == contract)))
    for version in VERSIONS:
        sent = types.ListToolsResult.model_validate(mock.wire_listing_at(version))
        parsed = types.ListToolsResult(tools=mock.listing_at(version))
        dumped = {"by_alias": True, "mode": "json", "exclude_none": True}
        assert sent.model_dump(**dumped) == parsed.model_dump(**dumped)  # type: ignore[arg-type]


def _message(ident: int | None, method: str, params: dict[str, object]) -> str:
    message: dict[str, object] = {"jsonrpc": "2.0", "method": method, "params": params}
    if ident is not None:
        message["id"] = ident
    return json.dumps(message)


def test_a_client_that_closes_its_end_gets_every_answer() -> None:
    """Requests written at once, then the end of standard input: each is answered, in a
    real process whose standard input and output are pipes (the loop's own transport)."""
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "pipe", "version": "0"}}
    call = {"name": "x_post_tweet", "arguments": {"text": "Shipping the new release today."}}
    lines = [
        _message(1, "initialize", hello),
        _message(None, "notifications/initialized", {}),
        _message(2, "tools/list", {}),
        _message(3, "tools/call", call),
        _message(4, "tools/call", {"name": "no_such_tool", "arguments": {}}),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "mcp_contracts_generator", "mock", "--contract", "tuitbot"],
        input="\n".join(lines) + "\n",
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answers = {answer["id"]: answer for answer in map(json.loads, done.stdout.splitlines())}
    assert sorted(answers) == [1, 2, 3, 4]
    tuitbot = next(c for c in PROJECT.contracts if c.name == "tuitbot")
    assert [tool["name"] for tool in answers[2]["result"]["tools"]] == [e.code for e in tuitbot.manifest.tools.entries]
    assert answers[3]["result"]["structuredContent"]["success"] is True
    assert answers[4]["error"]["code"] == -32602


@pytest.mark.parametrize("pipe_out", [True, False], ids=["stdout-pipe", "stdout-devnull"])
def test_standard_input_that_the_loop_cannot_watch_is_served_by_the_sdk(pipe_out: bool) -> None:
    """`/dev/null` (a character device epoll refuses) as standard input: the SDK's own
    transport reads its end at once, and the mock stops without an error."""
    done = subprocess.run(
        [sys.executable, "-m", "mcp_contracts_generator", "mock", "--contract", "jsonrpc"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE if pipe_out else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert not done.stderr
