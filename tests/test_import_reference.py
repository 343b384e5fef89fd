"""`import` from real servers (issue 20): the reference servers of the package index
(mcp-server-time, mcp-server-git, mcp-server-fetch) and a FastMCP server, each in its own
virtual environment (tests/reference_servers.py), and `mock` of a built-in contract, over
stdio and over streamable HTTP.

Each round trip starts from an empty project: `import` -> `generate` -> `lint` -> `conform`
against the same server, with no error; then a tool taken out of tools.yaml is found again
(reported, nothing written) and `--write` puts it back. No server here is a mock of one.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conform_json import conform_report
from conftest import ROOT, SCHEMAS, run_cli, tree_bytes
from mcp import Client, StdioServerParameters
from mcp_contracts_generator.protocol import VERSIONS
from ruamel.yaml import YAML

if TYPE_CHECKING:
    from reference_servers import ReferenceServers

# The session's environment of the reference servers (the fixture `reference_servers`).
pytest_plugins = ["reference_servers"]
pytestmark = pytest.mark.first

MOCK = [sys.executable, "-m", "mcp_contracts_generator", "mock"]
PACKAGE = "imported"
# What each server lists (pinned in reference_servers.PINS): the names import must write.
TIME_TOOLS = ["convert_time", "get_current_time"]
GIT_TOOLS = [
    *("git_add", "git_branch", "git_checkout", "git_commit", "git_create_branch", "git_diff", "git_diff_staged"),
    *("git_diff_unstaged", "git_log", "git_reset", "git_show", "git_status"),
]
FETCH_TOOLS = ["fetch"]
FASTMCP_TOOLS = ["borrow_book", "describe_shelf", "find_book", "get_book", "shelf_stats"]
FASTMCP_READ_ONLY = ["describe_shelf", "find_book", "get_book", "shelf_stats"]


def _yaml(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def new_project(folder: Path) -> Path:
    """An empty project: a pyproject with its `[tool.mcp-contracts]` section, no contract yet."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text(f'[tool.mcp-contracts]\npackage = "{PACKAGE}"\n', encoding="utf-8")
    (folder / "schemas" / "contracts").mkdir(parents=True)
    return folder


def cli(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=project)


def import_(project: Path, name: str, target: list[str], *options: str) -> subprocess.CompletedProcess[str]:
    """`import NAME OPTIONS -- COMMAND` (a command list) or `--url URL` (a one-item list of a URL)."""
    where = ["--url", target[0]] if target[0].startswith("http") else ["--", *target]
    return cli(project, "import", name, *options, *where)


def contract_folder(project: Path, name: str) -> Path:
    return project / "schemas" / "contracts" / name


def tools_yaml(project: Path, name: str) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = _yaml(contract_folder(project, name) / "tools.yaml")["tools"]
    return tools


def listing(target: list[str]) -> dict[str, dict[str, Any]]:
    """What the server lists, each tool as it is on the wire, read by the SDK's own client."""

    async def read() -> dict[str, dict[str, Any]]:
        server: Any = target[0]
        if not server.startswith("http"):
            server = StdioServerParameters(command=target[0], args=target[1:])
        async with Client(server) as client:
            tools = (await client.list_tools()).tools
        return {t.name: t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools}

    return asyncio.run(read())


def lint_errors(project: Path) -> list[dict[str, Any]]:
    result = cli(project, "lint", "--format", "json")
    report = json.loads(result.stdout)
    errors = [f for f in report["findings"] if f["level"] == "error"]
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return errors


def conform(project: Path, name: str, target: list[str]) -> tuple[int, dict[str, Any]]:
    where = ["--url", target[0]] if target[0].startswith("http") else ["--", *target]
    result = cli(project, "conform", "--contract", name, "--format", "json", *where)
    return result.returncode, conform_report(result.stdout)


def assert_conforms(project: Path, name: str, target: list[str]) -> dict[str, Any]:
    code, report = conform(project, name, target)
    assert report["findings"] == [], report["findings"]
    assert (code, report["conforms"], report["problem"]) == (0, True, None)
    return report


def assert_imported(project: Path, name: str, target: list[str], *options: str) -> None:
    """A new contract from the server: its files, and it generates, lints without an error
    and conforms to the server it came from."""
    result = import_(project, name, target, *options)
    assert result.returncode == 0, result.stdout + result.stderr
    folder = contract_folder(project, name)
    for file in ("contract.yaml", "envelope.schema.json", "errors.yaml", "tools.yaml"):
        assert (folder / file).is_file(), f"{file} was not written: {sorted(tree_bytes(folder))}"
    generated = cli(project, "generate")
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert cli(project, "check").returncode == 0
    assert lint_errors(project) == []
    assert_conforms(project, name, target)


def assert_tool_found_again(project: Path, name: str, target: list[str], tool: str) -> None:
    """Take `tool` out of tools.yaml: import reports it and writes nothing; `--write` puts it
    back, and the contract conforms again."""
    path = contract_folder(project, name) / "tools.yaml"
    yaml = YAML()
    document = yaml.load(path.read_text(encoding="utf-8"))
    document["tools"] = [t for t in document["tools"] if t["name"] != tool]
    with path.open("w", encoding="utf-8") as stream:
        yaml.dump(document, stream)
    before = tree_bytes(project / "schemas")
    found = import_(project, name, target)
    assert found.returncode == 1, found.stdout + found.stderr
    assert tool in found.stdout, found.stdout
    assert tree_bytes(project / "schemas") == before  # nothing written without --write
    written = import_(project, name, target, "--write")
    assert written.returncode == 0, written.stdout + written.stderr
    assert tool in [t["name"] for t in tools_yaml(project, name)]
    assert cli(project, "generate").returncode == 0
    assert lint_errors(project) == []
    assert_conforms(project, name, target)
    again = import_(project, name, target)
    assert again.returncode == 0, again.stdout + again.stderr  # nothing changed since


def _served(name: str, venv: ReferenceServers, tmp_path: Path) -> list[str]:
    if name == "time":
        return venv.time()
    if name == "git":
        return venv.git(tmp_path / "repo")
    if name == "fetch":
        return venv.fetch()
    return venv.fastmcp(tmp_path / "loans")


ROUND_TRIPS = {
    "time": (TIME_TOOLS, "convert_time"),
    "git": (GIT_TOOLS, "git_log"),
    "fetch": (FETCH_TOOLS, "fetch"),
    "fastmcp": (FASTMCP_TOOLS, "shelf_stats"),
}


@pytest.mark.parametrize("server", sorted(ROUND_TRIPS))
def test_import_generate_lint_conform_and_a_tool_taken_out_is_found_again(
    server: str, reference_servers: ReferenceServers, tmp_path: Path
) -> None:
    target = _served(server, reference_servers, tmp_path)
    project = new_project(tmp_path / "project")
    names, taken_out = ROUND_TRIPS[server]
    assert sorted(listing(target)) == names
    assert_imported(project, server, target)
    assert sorted(t["name"] for t in tools_yaml(project, server)) == names
    assert_tool_found_again(project, server, target, taken_out)


def test_the_contract_says_what_the_server_said_of_itself(reference_servers: ReferenceServers, tmp_path: Path) -> None:
    """Title and version from the server's info; the protocol revision negotiated; each tool's
    schemas and hints as listed."""
    target = reference_servers.time()
    project = new_project(tmp_path / "project")
    assert import_(project, "clock", target).returncode == 0
    contract = _yaml(contract_folder(project, "clock") / "contract.yaml")
    assert contract["version"] == "2026.10.19"
    assert "mcp-time" in contract["title"]
    assert "2026-07-28" in contract["protocol"]
    listed = listing(target)
    for tool in tools_yaml(project, "clock"):
        wire = listed[tool["name"]]
        assert tool["inputSchema"] == wire["inputSchema"]
        assert tool["description"] == wire["description"]
        assert tool["annotations"] == {k: v for k, v in wire["annotations"].items() if k != "readOnlyHint"} or (
            tool["annotations"] == wire["annotations"]
        )


def test_fastmcp_tools_that_share_a_shape_share_the_envelope(
    reference_servers: ReferenceServers, tmp_path: Path
) -> None:
    """get_book and find_book return one pydantic model: import makes it the envelope; the
    TypedDict of shelf_stats and borrow_book's Loan stay the tools' own, describe_shelf is text."""
    target = reference_servers.fastmcp(tmp_path / "loans")
    project = new_project(tmp_path / "project")
    assert import_(project, "library", target).returncode == 0
    folder = contract_folder(project, "library")
    envelope = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    listed = listing(target)
    book = listed["get_book"]["outputSchema"]
    assert envelope["properties"] == book["properties"]
    assert envelope["required"] == book["required"]
    tools = {t["name"]: t for t in tools_yaml(project, "library")}
    for own in ("shelf_stats", "borrow_book"):
        assert tools[own]["outputSchema"] == listed[own]["outputSchema"]
    for shared in ("get_book", "find_book"):
        assert "outputSchema" not in tools[shared] or "$ref" in json.dumps(tools[shared]["outputSchema"])
    assert "outputSchema" not in tools["describe_shelf"]
    assert tools["describe_shelf"]["result"]["structured"] is False
    assert not (tmp_path / "loans").exists()  # listing calls nothing


def test_call_stores_example_calls_of_the_read_only_tools_and_conform_makes_them(
    reference_servers: ReferenceServers, tmp_path: Path
) -> None:
    target = reference_servers.time()
    project = new_project(tmp_path / "project")
    assert_imported(project, "clock", target, "--call")
    tools = {t["name"]: t for t in tools_yaml(project, "clock")}
    examples = {name: tool.get("examples", []) for name, tool in tools.items()}
    assert all(examples.values()), examples  # both tools are annotated read-only
    folder = contract_folder(project, "clock")
    for name, calls in examples.items():
        for call in calls:
            if "result" in call:
                assert (folder / "examples" / call["result"]).is_file(), (name, call)
    report = assert_conforms(project, "clock", target)
    revisions = _yaml(folder / "contract.yaml").get("protocol", VERSIONS)
    assert report["calls"] == sum(len(c) for c in examples.values()) * len(revisions)


def test_a_tool_not_read_only_is_called_only_when_named(reference_servers: ReferenceServers, tmp_path: Path) -> None:
    loans = tmp_path / "loans"
    target = reference_servers.fastmcp(loans)
    project = new_project(tmp_path / "project")
    assert_imported(project, "library", target, "--call")
    assert not loans.exists()  # borrow_book was never called
    tools = {t["name"]: t for t in tools_yaml(project, "library")}
    assert [name for name in sorted(tools) if tools[name].get("examples")] == FASTMCP_READ_ONLY
    named = import_(project, "library", target, "--call", "--call-tool", "borrow_book", "--write")
    assert named.returncode == 0, named.stdout + named.stderr
    assert loans.read_text(encoding="utf-8") == "1"  # called once, when named
    borrowed = {t["name"]: t for t in tools_yaml(project, "library")}["borrow_book"]
    assert borrowed.get("examples"), borrowed


@contextmanager
def http_mock(contract: str) -> Iterator[str]:
    """`mock --transport http --port 0` of a built-in contract; its URL (printed on stderr)."""
    command = [*MOCK, "--schemas", str(SCHEMAS), "--contract", contract, "--transport", "http", "--port", "0"]
    process = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert process.stderr is not None
    try:
        url = ""
        for line in process.stderr:
            if "serving at " in line:
                url = line.split("serving at ", 1)[1].strip()
                break
        assert url, f"the mock did not announce its URL (exit {process.poll()})"
        yield url
    finally:
        process.terminate()
        process.communicate(timeout=10)


def assert_same_tools(project: Path, name: str, listed: dict[str, dict[str, Any]]) -> None:
    """The imported tools.yaml holds each tool as listed: names, input schemas, hints."""
    tools = {t["name"]: t for t in tools_yaml(project, name)}
    assert sorted(tools) == sorted(listed)
    for tool_name, wire in listed.items():
        tool = tools[tool_name]
        assert tool["inputSchema"] == wire["inputSchema"], tool_name
        hints = dict(tool.get("annotations", {}))
        assert hints == wire.get("annotations", {}), tool_name
        assert tool.get("title") == wire.get("title"), tool_name


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_import_of_a_mock_lists_what_the_mock_lists(transport: str, tmp_path: Path) -> None:
    """`mock` of a built-in contract (our own server, our environment) imported: the same tools,
    schemas and annotations; and the imported contract's own mock lists the same output schemas."""
    project = new_project(tmp_path / "project")
    if transport == "stdio":
        target = [*MOCK, "--schemas", str(SCHEMAS), "--contract", "code-scalpel"]
        assert_imported(project, "scalpel", target)
        listed = listing(target)
    else:
        with http_mock("code-scalpel") as url:
            assert_imported(project, "scalpel", [url])
            listed = listing([url])
    assert_same_tools(project, "scalpel", listed)
    again = listing([*MOCK, "--schemas", str(project / "schemas"), "--contract", "scalpel"])
    assert {n: t.get("outputSchema") for n, t in again.items()} == {n: t.get("outputSchema") for n, t in listed.items()}


def test_a_server_that_cannot_be_started_is_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    project = new_project(tmp_path / "project")
    result = import_(project, "nothing", [str(tmp_path / "no-such-server")])
    assert result.returncode == 2
    assert not contract_folder(project, "nothing").exists()
