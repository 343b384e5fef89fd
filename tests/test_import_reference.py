"""`import` from real servers (issue 20): the reference servers of the package index
(mcp-server-time, mcp-server-git, mcp-server-fetch) and a FastMCP server
(tests/servers/fastmcp_app.py), each run from its own virtual environment
(tests/reference_servers.py), and `mock` of a built-in contract over stdio and over HTTP.

Each round trip starts from an empty project: `import` -> `generate` -> `lint` -> `conform`
against the same server at every revision the contract declares, with no error; then a tool
taken out of tools.yaml is found again (reported, nothing written) and `--write` puts it back.
No server here is a mock of one. A server start costs about two seconds, and `import` asks at
each of the four revisions: the tests keep their starts few.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conform_json import conform_report
from conftest import SCHEMAS, assert_report, run_cli, run_process, tree_bytes
from forkserver import python
from mcp import Client, StdioServerParameters
from mcp_contracts_generator.protocol import VERSIONS
from mcp_servers import http_mock
from ruamel.yaml import YAML

if TYPE_CHECKING:
    from reference_servers import ReferenceServers

# Long tests, started first, on one worker: the others need not wait on the lock while the
# first to ask makes the servers' environment (about 40 s). The tests of the reference servers
# need the package index: they run under `pytest -m slow` (as CI does), not by default.
pytestmark = [pytest.mark.first, pytest.mark.xdist_group("reference-servers")]

MOCK = [*python("-m", "mcp_contracts_generator", "mock", "--schemas", str(SCHEMAS))]
PACKAGE = "imported"
NEWEST = "2026-07-28"
LISTING_TIMEOUT = 120  # seconds: a listing that never comes fails the test instead of hanging it
FILES = ["contract.yaml", "envelope.schema.json", "errors.yaml", "tools.yaml"]
SURFACE_FILES = {"fetch": ["prompts.yaml"]}  # mcp-server-fetch lists a prompt, `fetch`
# What each server lists (the versions pinned in reference_servers.PINS).
TIME_TOOLS = ["convert_time", "get_current_time"]
GIT_READ_ONLY = ["git_branch", "git_diff", "git_diff_staged", "git_diff_unstaged", "git_log", "git_show", "git_status"]
GIT_TOOLS = sorted([*GIT_READ_ONLY, "git_add", "git_checkout", "git_commit", "git_create_branch", "git_reset"])
FETCH_TOOLS = ["fetch"]
FASTMCP_TOOLS = ["borrow_book", "count_books", "describe_shelf", "find_book", "get_book", "shelf_stats"]


def _yaml(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def new_project(folder: Path) -> Path:
    """An empty project: a pyproject with its `[tool.mcp-contracts]` section, no contract yet."""
    (folder / "schemas" / "contracts").mkdir(parents=True)
    (folder / "pyproject.toml").write_text(f'[tool.mcp-contracts]\npackage = "{PACKAGE}"\n', encoding="utf-8")
    return folder


def cli(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=project)


def _target(target: list[str]) -> list[str]:
    """`--url URL` for a one-item list of a URL, else `-- COMMAND ARGS`."""
    return ["--url", target[0]] if target[0].startswith("http") else ["--", *target]


def import_(project: Path, name: str, target: list[str], *options: str) -> tuple[int, dict[str, Any]]:
    """`import NAME OPTIONS --format json` from the server: its exit code and report."""
    result = cli(project, "import", name, "--format", "json", *options, *_target(target))
    assert result.stdout, result.stderr
    report = json.loads(result.stdout)
    assert_report(report, "findings-report")
    assert report["command"] == "import" and report["exit_code"] == result.returncode
    return result.returncode, report


def folder_of(project: Path, name: str) -> Path:
    return project / "schemas" / "contracts" / name


def tools_of(project: Path, name: str) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in _yaml(folder_of(project, name) / "tools.yaml")["tools"]}


def listing(target: list[str]) -> dict[str, dict[str, Any]]:
    """What the server lists, each tool as it is on the wire, read by the SDK's own client."""

    async def read() -> dict[str, dict[str, Any]]:
        server: Any = target[0]
        if not server.startswith("http"):
            server = StdioServerParameters(command=target[0], args=target[1:])
        async with Client(server) as client:
            tools = (await client.list_tools()).tools
        return {t.name: t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools}

    return asyncio.run(asyncio.wait_for(read(), LISTING_TIMEOUT))


def lint_errors(project: Path) -> list[dict[str, Any]]:
    result = cli(project, "lint", "--format", "json")
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return [f for f in json.loads(result.stdout)["findings"] if f["level"] == "error"]


def assert_conforms(project: Path, name: str, target: list[str], *options: str) -> dict[str, Any]:
    result = cli(project, "conform", "--contract", name, "--format", "json", *options, *_target(target))
    report = conform_report(result.stdout)
    assert report["findings"] == [], report["findings"]
    assert (result.returncode, report["conforms"], report["problem"]) == (0, True, None)
    return report


def assert_generates(project: Path) -> None:
    generated = cli(project, "generate")
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert cli(project, "check").returncode == 0
    assert lint_errors(project) == []


def examples_of(project: Path, name: str) -> dict[str, list[dict[str, Any]]]:
    """Each tool's example calls (the tools that have some), each result file there."""
    folder = folder_of(project, name)
    examples = {tool: entry["examples"] for tool, entry in tools_of(project, name).items() if entry.get("examples")}
    for tool, calls in examples.items():
        for call in calls:
            assert "result" not in call or (folder / "examples" / call["result"]).is_file(), (tool, call)
    return examples


def assert_imported(project: Path, name: str, target: list[str], *options: str) -> dict[str, Any]:
    """A new contract from the server: its files; it generates, lints without an error and
    conforms to the server it came from at every revision it declares, each example call
    made. The conform report."""
    code, report = import_(project, name, target, *options)
    assert code == 0, report
    assert not [f for f in report["findings"] if f["level"] == "error"], report["findings"]
    assert sorted(p.name for p in folder_of(project, name).glob("*.*")) == sorted(FILES + SURFACE_FILES.get(name, []))
    assert_generates(project)
    conformed = assert_conforms(project, name, target)
    revisions = _yaml(folder_of(project, name) / "contract.yaml").get("protocol", list(VERSIONS))
    assert conformed["revisions"] == revisions
    calls = sum(len(c) for c in examples_of(project, name).values())
    assert conformed["calls"] == calls * len(revisions)  # each revision: a session of its own
    return conformed


def take_out(project: Path, name: str, tool: str) -> None:
    path = folder_of(project, name) / "tools.yaml"
    yaml = YAML()
    document = yaml.load(path.read_text(encoding="utf-8"))
    document["tools"] = [t for t in document["tools"] if t["name"] != tool]
    with path.open("w", encoding="utf-8") as stream:
        yaml.dump(document, stream)


def assert_tool_found_again(project: Path, name: str, target: list[str], tool: str) -> None:
    """Take `tool` out of tools.yaml: import reports it and writes nothing; `--write` puts it
    back as it was, and the contract conforms again."""
    was = tools_of(project, name)[tool]
    take_out(project, name, tool)
    before = tree_bytes(project / "schemas")
    code, report = import_(project, name, target)
    assert code == 1, report
    assert [(f["rule"], f["subject"]) for f in report["findings"]] == [("tool-added", f"tool {tool}")]
    assert (report["facts"]["changed"], report["facts"]["written"]) == (True, [])
    assert tree_bytes(project / "schemas") == before  # nothing written without --write
    code, report = import_(project, name, target, "--write")
    assert code == 0, report
    assert report["facts"]["written"], report["facts"]
    assert tools_of(project, name)[tool] == {k: v for k, v in was.items() if k != "examples"}
    assert_generates(project)
    assert_conforms(project, name, target, "--protocol", NEWEST)


# Per server: what `import --call` meets there.


def _time(project: Path, target: list[str], calls: Path) -> None:
    """Title and version from the server's info, every revision; each tool as listed.
    `get_current_time` is called (its timezone drawn from the description's examples);
    `convert_time` wants `time` as HH:MM, which only its description says."""
    contract = _yaml(folder_of(project, "time") / "contract.yaml")
    assert (contract["title"], contract["version"], contract["protocol"]) == ("mcp-time", "2026.10.19", list(VERSIONS))
    assert contract["metadata"]["negotiated_revision"] == NEWEST
    listed, tools = listing(target), tools_of(project, "time")
    for name, wire in listed.items():
        fields = ("description", "annotations", "inputSchema", "outputSchema")
        assert {k: tools[name].get(k) for k in fields} == {k: wire.get(k) for k in fields}, name
    assert "get_current_time" in examples_of(project, "time")


def _git(project: Path, target: list[str], calls: Path) -> None:
    """Text results only; the tools not annotated read-only are never called (the repository
    keeps its one commit, its untracked file unstaged)."""
    tools = tools_of(project, "git")
    assert all("outputSchema" not in t and t["result"]["structured"] is False for t in tools.values())
    assert [n for n in GIT_TOOLS if tools[n]["annotations"]["readOnlyHint"]] == GIT_READ_ONLY
    assert set(examples_of(project, "git")) <= set(GIT_READ_ONLY)
    repository = Path(target[-1])
    log = subprocess.run(["git", "log", "--format=%s"], cwd=repository, capture_output=True, text=True, check=True)
    status = subprocess.run(["git", "status", "--short"], cwd=repository, capture_output=True, text=True, check=True)
    assert (log.stdout, status.stdout) == ("First commit\n", "?? notes.txt\n")


def _fetch(project: Path, target: list[str], calls: Path) -> None:
    """One text tool, read-only and open-world; not called here (it needs the network)."""
    fetch = tools_of(project, "fetch")["fetch"]
    assert fetch["result"]["structured"] is False and "outputSchema" not in fetch
    assert fetch["annotations"]["openWorldHint"] is True
    assert examples_of(project, "fetch") == {}
    prompts = _yaml(folder_of(project, "fetch") / "prompts.yaml")["prompts"]  # as listed: no messages
    assert [(p["name"], [(a["name"], a.get("required")) for a in p["arguments"]]) for p in prompts] == [
        ("fetch", [("url", True)])
    ]


def _fastmcp(project: Path, target: list[str], calls: Path) -> None:
    """get_book and find_book return one pydantic model: one branch of the envelope for both;
    the TypedDict of shelf_stats, borrow_book's model and count_books' wrapped int are branches
    of their own; the text tool has none. borrow_book, not read-only, was not called."""
    assert not calls.exists()
    folder, tools = folder_of(project, "fastmcp"), tools_of(project, "fastmcp")
    envelope = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    branches = [envelope["$defs"][b["$ref"].rpartition("/")[2]] for b in envelope["anyOf"]]
    outputs = [tools[n]["outputSchema"] for n in ("get_book", "shelf_stats", "borrow_book", "count_books")]
    assert sorted(map(json.dumps, branches)) == sorted(map(json.dumps, outputs))
    assert tools["get_book"]["outputSchema"] == tools["find_book"]["outputSchema"]
    assert tools["describe_shelf"]["result"] == {"structured": False, "content": ["text"]}
    assert tools["find_book"]["inputSchema"]["properties"]["genre"]["enum"] == ["fiction", "history", "science"]
    examples = examples_of(project, "fastmcp")
    assert sorted(examples) == ["count_books", "describe_shelf", "find_book", "get_book", "shelf_stats"]
    assert tools["count_books"]["outputSchema"]["x-fastmcp-wrap-result"] is True  # kept as listed


SERVERS: dict[str, tuple[list[str], str, tuple[str, ...], Callable[[Path, list[str], Path], None]]] = {
    # name: (the tools it lists, the tool taken out, import's options, what else holds)
    "time": (TIME_TOOLS, "convert_time", ("--call",), _time),
    "git": (GIT_TOOLS, "git_log", ("--call",), _git),
    "fetch": (FETCH_TOOLS, "fetch", (), _fetch),  # --call would fetch a URL from the internet
    "fastmcp": (FASTMCP_TOOLS, "shelf_stats", ("--call",), _fastmcp),
}


def start(server: str, servers: ReferenceServers, tmp_path: Path) -> tuple[list[str], Path]:
    """The command that starts `server`, and the file FastMCP's borrow_book counts its calls in."""
    calls = tmp_path / "loans"
    commands = {"time": servers.time, "fetch": servers.fetch, "git": lambda: servers.git(tmp_path / "repository")}
    return commands.get(server, lambda: servers.fastmcp(calls))(), calls


@pytest.mark.parametrize("server", sorted(SERVERS))
@pytest.mark.slow  # the reference servers come from the package index
def test_import_generate_lint_conform_and_a_tool_taken_out_is_found_again(
    server: str, reference_servers: ReferenceServers, tmp_path: Path
) -> None:
    target, calls = start(server, reference_servers, tmp_path)
    project = new_project(tmp_path / "project")
    names, taken_out, options, holds = SERVERS[server]
    assert_imported(project, server, target, *options)
    assert sorted(tools_of(project, server)) == names
    holds(project, target, calls)
    assert_tool_found_again(project, server, target, taken_out)


@pytest.mark.slow  # the reference servers come from the package index
def test_a_tool_not_read_only_is_called_only_when_named(reference_servers: ReferenceServers, tmp_path: Path) -> None:
    """`--call-tool borrow_book` calls it (once, at one revision) and records the answer; into
    the existing contract, the call is shown as a change and written only with --write."""
    calls = tmp_path / "loans"
    target = reference_servers.fastmcp(calls)
    project = new_project(tmp_path / "project")
    code, report = import_(project, "library", target, "--call", "--call-tool", "borrow_book")
    assert code == 0, report
    assert calls.read_text(encoding="utf-8") == "1"
    examples = examples_of(project, "library")
    assert [c["arguments"] for c in examples["borrow_book"]] == [{"book_id": "x"}]
    answer = folder_of(project, "library") / "examples" / examples["borrow_book"][0]["result"]
    assert json.loads(answer.read_text(encoding="utf-8")) == {"book_id": "x", "loans": 1}


@pytest.mark.slow  # the reference servers come from the package index
def test_examples_a_new_call_would_add_are_shown_before_they_are_written(
    reference_servers: ReferenceServers, tmp_path: Path
) -> None:
    """Importing again with --call into a contract imported without: the example calls it would
    add are what changed (exit 1), named, and written only with --write."""
    target = reference_servers.time()
    project = new_project(tmp_path / "project")
    assert import_(project, "clock", target)[0] == 0
    before = tree_bytes(project / "schemas")
    code, report = import_(project, "clock", target, "--call")
    assert tree_bytes(project / "schemas") == before
    assert (code, report["facts"]["changed"]) == (1, True)
    assert "get_current_time" in json.dumps(report["findings"]), report["findings"]  # the change, named
    code, report = import_(project, "clock", target, "--call", "--write")
    assert code == 0, report
    assert "get_current_time" in examples_of(project, "clock")


def _hand_write(project: Path, name: str) -> None:
    """What a team writes by hand into an imported contract: a title and summary, a tool's
    description, an error code of the catalogue and the tool that may return it."""
    folder = folder_of(project, name)
    yaml = YAML()
    contract = yaml.load((folder / "contract.yaml").read_text(encoding="utf-8"))
    contract["title"], contract["summary"] = "The library", "Our library's tools, described by hand."
    tools = yaml.load((folder / "tools.yaml").read_text(encoding="utf-8"))
    get_book = next(t for t in tools["tools"] if t["name"] == "get_book")
    get_book["description"], get_book["possible_error_codes"] = "One book of the shelf, by its id.", ["book_missing"]
    errors = {"errors": [{"code": "book_missing", "message": "No such book.", "description": "Not on the shelf."}]}
    for file, document in (("contract.yaml", contract), ("tools.yaml", tools), ("errors.yaml", errors)):
        with (folder / file).open("w", encoding="utf-8") as stream:
            yaml.dump(document, stream)


@pytest.mark.slow  # the reference servers come from the package index
def test_a_new_release_imported_into_a_contract_keeps_what_was_written_by_hand(
    reference_servers: ReferenceServers, tmp_path: Path
) -> None:
    """The library's next release (`--next`: a new tool, a wider limit, a new version) imported
    into the contract of the last one, edited by hand: the changes are shown as `breaking`
    findings and written only with --write; what was written by hand stays."""
    calls = tmp_path / "loans"
    project = new_project(tmp_path / "project")
    assert import_(project, "library", reference_servers.fastmcp(calls))[0] == 0
    _hand_write(project, "library")
    assert_generates(project)
    edited = tree_bytes(project / "schemas")
    released = [*reference_servers.fastmcp(calls), "--next"]
    code, report = import_(project, "library", released)
    assert tree_bytes(project / "schemas") == edited
    found = sorted((f["rule"], f["subject"]) for f in report["findings"])
    assert code == 1
    assert found == [("input-widened", "tool describe_shelf input /limit"), ("tool-added", "tool return_book")]
    code, report = import_(project, "library", released, "--write")
    assert code == 0, report
    contract, tools = _yaml(folder_of(project, "library") / "contract.yaml"), tools_of(project, "library")
    assert (contract["title"], contract["version"]) == ("The library", "1.5.0")
    assert contract["summary"] == "Our library's tools, described by hand."
    assert tools["get_book"]["description"] == "One book of the shelf, by its id."
    assert tools["get_book"]["possible_error_codes"] == ["book_missing"]
    assert [e["code"] for e in _yaml(folder_of(project, "library") / "errors.yaml")["errors"]] == ["book_missing"]
    assert tools["describe_shelf"]["inputSchema"]["properties"]["limit"]["maximum"] == 20
    assert sorted(tools) == sorted([*FASTMCP_TOOLS, "return_book"])
    assert_generates(project)
    assert_conforms(project, "library", released, "--protocol", NEWEST)
    assert not calls.exists()


@pytest.mark.slow  # the reference servers come from the package index
def test_importing_again_with_call_changes_nothing_when_the_server_answers_the_same(
    reference_servers: ReferenceServers, tmp_path: Path
) -> None:
    """FastMCP's library answers the same to the same call: two imports make the same bytes (one
    here, one a process of its own with another hash seed), and importing again with --call
    finds nothing to change (exit 0, nothing written)."""
    target = reference_servers.fastmcp(tmp_path / "loans")
    first, second = new_project(tmp_path / "first"), new_project(tmp_path / "second")
    assert import_(first, "library", target, "--call")[0] == 0
    command = ("import", "library", "--call", "--", *target)
    alone = run_process(*command, cwd=second, env={"PYTHONHASHSEED": "1"}, timeout=300)
    assert alone.returncode == 0, alone.stdout + alone.stderr
    assert tree_bytes(first / "schemas") == tree_bytes(second / "schemas")
    code, report = import_(first, "library", target, "--call")
    assert tree_bytes(first / "schemas") == tree_bytes(second / "schemas")
    assert (code, report["facts"]["changed"], report["findings"]) == (0, False, []), report


@pytest.mark.slow  # the reference servers come from the package index
def test_fastmcp_over_http_imports_as_over_stdio(reference_servers: ReferenceServers, tmp_path: Path) -> None:
    """The same server over streamable HTTP: the same contract, byte for byte, and it conforms
    over HTTP at every revision."""
    over_stdio, over_http = new_project(tmp_path / "stdio"), new_project(tmp_path / "http")
    assert import_(over_stdio, "library", reference_servers.fastmcp(tmp_path / "loans"), "--call")[0] == 0
    with reference_servers.fastmcp_http(tmp_path / "loans") as url:
        assert_imported(over_http, "library", [url], "--call")
    assert tree_bytes(over_http / "schemas") == tree_bytes(over_stdio / "schemas")
    assert not (tmp_path / "loans").exists()


def assert_as_listed(project: Path, name: str, listed: dict[str, dict[str, Any]]) -> None:
    """The imported tools.yaml holds each tool as listed: its schemas and hints; a structured
    tool without an outputSchema of its own returns the envelope."""
    tools = tools_of(project, name)
    envelope = json.loads((folder_of(project, name) / "envelope.schema.json").read_text(encoding="utf-8"))
    assert sorted(tools) == sorted(listed)
    for tool, wire in listed.items():
        entry = dict(tools[tool])
        if entry.get("result", {}).get("structured", True):
            entry.setdefault("outputSchema", envelope)
        fields = ("title", "description", "annotations", "inputSchema", "outputSchema")
        assert {k: entry.get(k) for k in fields} == {k: wire.get(k) for k in fields}, tool


@pytest.mark.slow  # the mock at every revision, over each transport
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_import_of_a_mock_holds_what_the_mock_lists(transport: str, tmp_path: Path) -> None:
    """`mock` of a built-in contract (a server of ours, in our environment; every tool with its
    hints) imported: the same tools, schemas and annotations; and the mock of the imported
    contract lists what the first one did."""
    project = new_project(tmp_path / "project")
    if transport == "stdio":
        target = [*MOCK, "--contract", "tuitbot"]
        assert_imported(project, "tuitbot", target)
        listed = listing(target)
    else:
        with http_mock("tuitbot") as url:
            assert_imported(project, "tuitbot", [url])
            listed = listing([url])
    assert_as_listed(project, "tuitbot", listed)
    assert all(t.get("annotations") for t in listed.values())
    again = listing([*MOCK[:-1], str(project / "schemas"), "--contract", "tuitbot"])
    assert again == listed


def test_a_server_that_cannot_be_started_is_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    project = new_project(tmp_path / "project")
    code, report = import_(project, "nothing", [str(tmp_path / "no-such-server")])
    assert code == 2 and report["problem"], report
    assert not folder_of(project, "nothing").exists()
