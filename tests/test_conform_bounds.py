"""`conform` reads a server within its bounds and says what it could not read: an answer past
`limits.message_bytes`, or nested deeper than the SDK's JSON parser reads, is a finding about
that request, its connection is replaced by a new session and the run goes on (exit 1); the
run's own bounds (`limits.server_bytes`, `limits.server_seconds`) end it with a finding that
names the bound; a `--fuzz` that fuzzed nothing says why; an HTTP body that is not JSON is one
clear message, no traceback. The server is tests/servers/bounds_server.py, over stdio and
streamable HTTP (JSON bodies, or event streams).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli, run_process
from forkserver import python
from mcp_servers import RAW_TOOLS

BOUNDS = ROOT / "tests" / "servers" / "bounds_server.py"
SPOKEN = ("--protocol", "2025-06-18")  # the one revision the server speaks
LIMIT = 65_536
RESOURCES = """\
resources:
  - uri: test://big
    name: big
    description: A text that may be big.
    mimeType: text/plain
    contents: big.txt
  - uri: test://small
    name: small
    description: A small text.
    mimeType: text/plain
    contents: small.txt
"""
PROMPTS = """\
prompts:
  - name: greeting
    description: A greeting.
    messages:
      - role: user
        content: {type: text, text: Hello.}
"""
TOO_LARGE = f"a message from the server exceeded limits.message_bytes ({LIMIT:,} bytes)"
TOO_DEEP = "nested deeper than the MCP SDK's JSON parser reads"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose contract `shop` is what bounds_server.py serves, read with a message
    bound of 64 KiB."""
    assert run_cli("init", "shop", cwd=tmp_path).returncode == 0
    folder = tmp_path / "schemas" / "contracts" / "shop"
    (folder / "tools.yaml").write_text(RAW_TOOLS, encoding="utf-8")
    (folder / "resources.yaml").write_text(RESOURCES, encoding="utf-8")
    (folder / "prompts.yaml").write_text(PROMPTS, encoding="utf-8")
    (folder / "examples" / "resources").mkdir(parents=True)
    for name in ("big.txt", "small.txt"):
        (folder / "examples" / "resources" / name).write_text("", encoding="utf-8")
    _limits(tmp_path, message_bytes=LIMIT)
    return tmp_path


def _limits(project: Path, **limits: int) -> None:
    settings = "".join(f"{key} = {value}\n" for key, value in limits.items())
    text = "[tool.mcp-contracts]\n\n[tool.mcp-contracts.limits]\n" + settings
    (project / "pyproject.toml").write_text(text, encoding="utf-8")


@contextmanager
def _server(tmp_path: Path, transport: str, *options: str) -> Iterator[tuple[str, ...]]:
    """The arguments of `conform` that reach bounds_server.py with `options`, over `transport`."""
    if transport == "stdio":
        yield ("--", *python(str(BOUNDS), *options))
        return
    url_file = tmp_path / "url"
    sse = ("--sse",) if transport == "sse" else ()
    process = subprocess.Popen(python(str(BOUNDS), *options, *sse, "--http", str(url_file)))
    try:
        deadline = time.monotonic() + 30
        while not url_file.is_file() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        yield ("--url", url_file.read_text(encoding="utf-8"))
    finally:
        process.terminate()
        process.wait(timeout=10)


def _conform(project: Path, *args: str) -> tuple[int, dict[str, Any]]:
    command = ("conform", "--contract", "shop", "--format", "json", "--timeout", "20", *SPOKEN)
    result = run_cli(*command, *args, cwd=project)
    report = conform_report(result.stdout)
    return result.returncode, report


def _found(report: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["rule"], f["subject"]) for f in report["findings"])


@pytest.mark.fires("bound-exceeded")
@pytest.mark.parametrize("transport", ["stdio", "http", "sse"])
def test_an_answer_past_the_message_bound_is_a_finding_and_the_run_goes_on(
    project: Path, tmp_path: Path, transport: str
) -> None:
    """The read of test://big and the prompt answer 200 KB each: each is a finding at its entry,
    and test://small (read after test://big) and the prompts' listing are read on new sessions."""
    with _server(tmp_path, transport, "--big", "test://big:200000", "--big", "prompts/get:200000") as server:
        code, report = _conform(project, *server)
    assert (code, report["problem"]) == (1, None), report
    assert _found(report) == [
        ("bound-exceeded", "prompts/get greeting"),
        ("bound-exceeded", "resources/read test://big"),
    ], report["findings"]
    assert {f["message"] for f in report["findings"]} == {TOO_LARGE}
    assert sorted((f["file"].rsplit("/", 1)[-1], f["line"]) for f in report["findings"]) == [
        ("prompts.yaml", 2),
        ("resources.yaml", 2),
    ]


@pytest.mark.quiet("bound-exceeded")
def test_answers_within_the_bounds_give_no_finding(project: Path, tmp_path: Path) -> None:
    with _server(tmp_path, "stdio", "--big", "test://big:60000") as server:
        code, report = _conform(project, *server)
    assert (code, report["findings"]) == (0, []), report


@pytest.mark.fires("bound-exceeded")
@pytest.mark.quiet("fuzz-crash")
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_under_fuzz_an_answer_past_the_bound_is_that_finding_not_a_crash(
    project: Path, tmp_path: Path, transport: str
) -> None:
    with _server(tmp_path, transport, "--big", "prompts/get:200000") as server:
        code, report = _conform(project, "--fuzz", "3", "--seed", "1", *server)
    assert (code, report["problem"]) == (1, None), report
    rules = {(f["rule"], f["subject"]) for f in report["findings"] if f["level"] != "note"}
    assert rules == {("bound-exceeded", "prompts/get greeting")}, report["findings"]
    fuzzed = [f for f in report["findings"] if "--seed 1" in f["message"]]
    assert len(fuzzed) == 1 and TOO_LARGE in fuzzed[0]["message"], report["findings"]
    assert report["fuzz"]["surface"]["prompt greeting"]["valid"] >= 1, report["fuzz"]


@pytest.mark.fires("bound-exceeded")
@pytest.mark.quiet("call-timeout", "read-failed", "stdout-not-protocol")
@pytest.mark.parametrize("transport", ["stdio", "http", "sse"])
def test_an_answer_nested_too_deep_is_named_so_not_a_timeout(project: Path, tmp_path: Path, transport: str) -> None:
    _limits(project)  # 100,000 levels are 200 KB: within the default message bound
    with _server(tmp_path, transport, "--deep", "test://big:100000") as server:
        code, report = _conform(project, *server)
    assert (code, report["problem"]) == (1, None), report
    [finding] = report["findings"]
    assert (finding["rule"], finding["subject"]) == ("bound-exceeded", "resources/read test://big"), finding
    assert TOO_DEEP in finding["message"], finding


@pytest.mark.fires("bound-exceeded")
@pytest.mark.parametrize("listing", ["tools/list", "prompts/list"])
def test_a_listing_nested_too_deep_is_named_so(project: Path, tmp_path: Path, listing: str) -> None:
    with _server(tmp_path, "stdio", "--deep", f"{listing}:300") as server:
        code, report = _conform(project, *server)
    assert (code, report["problem"]) == (1, None), report
    found = [f for f in report["findings"] if f["rule"] == "bound-exceeded"]
    assert found and all(TOO_DEEP in f["message"] for f in found), report["findings"]
    assert not [f for f in report["findings"] if f["rule"] in ("call-timeout", "stdout-not-protocol")], report


@pytest.mark.fires("bound-exceeded")
def test_the_bytes_of_a_whole_run_are_bounded_and_the_rest_is_not_asked(project: Path, tmp_path: Path) -> None:
    """150 KB in all: the read of test://big (100 KB) passes, the prompt's answer (100 KB) ends the run."""
    _limits(project, server_bytes=150_000)
    with _server(tmp_path, "stdio", "--big", "test://big:100000", "--big", "prompts/get:100000") as server:
        code, report = _conform(project, *server)
    assert (code, report["problem"]) == (1, None), report
    [finding] = report["findings"]
    assert finding["rule"] == "bound-exceeded", finding
    assert "limits.server_bytes (150,000 bytes in all)" in finding["message"], finding


@pytest.mark.fires("bound-exceeded")
@pytest.mark.quiet("call-timeout", "read-failed")
@pytest.mark.parametrize("transport", ["stdio", pytest.param("http", marks=pytest.mark.slow)])
def test_the_time_of_a_whole_run_is_bounded_and_the_rest_is_not_asked(
    project: Path, tmp_path: Path, transport: str
) -> None:
    """The read of test://big takes 30 s; the run may take 3 s in all: it ends with the bound
    named, the prompt is not asked for, and no other revision is begun."""
    _limits(project, server_seconds=3)
    with _server(tmp_path, transport, "--slow", "test://big:30") as server:
        code, report = _conform(project, *server)
    assert (code, report["problem"]) == (1, None), report
    [finding] = report["findings"]
    assert finding["rule"] == "bound-exceeded", finding
    assert "limits.server_seconds (3 s in all)" in finding["message"], finding


@pytest.mark.fires("fuzz-skipped")
@pytest.mark.parametrize(
    ("options", "protocols", "said"),
    [
        (("--lose", "tools/call"), SPOKEN, "the server exited with status 3"),
        ((), ("--protocol", "2025-11-25"), "asked for 2025-11-25, the server answered 2025-06-18"),
    ],
)
def test_a_fuzz_that_fuzzed_nothing_says_why(
    project: Path, tmp_path: Path, options: tuple[str, ...], protocols: tuple[str, ...], said: str
) -> None:
    with _server(tmp_path, "stdio", *options) as server:
        command = ("conform", "--contract", "shop", "--format", "json", *protocols, "--fuzz", "2", "--seed", "1")
        result = run_cli(*command, "--call-tool", "get_item", *server, cwd=project)
    report = conform_report(result.stdout)
    assert (result.returncode, report["problem"], report["fuzz"]["tools"]) == (1, None, {}), report
    [skipped] = [f for f in report["findings"] if f["rule"] == "fuzz-skipped"]
    assert skipped["message"].startswith("nothing was fuzzed: ") and said in skipped["message"], skipped


def test_an_http_body_that_is_not_json_is_one_clear_message_without_a_traceback(project: Path, tmp_path: Path) -> None:
    with _server(tmp_path, "http", "--not-json") as server:
        result = run_process("conform", "--contract", "shop", *SPOKEN, "--timeout", "20", *server, cwd=project)
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr, result.stderr
    [said] = [line for line in result.stderr.splitlines() if line.strip()]
    url = server[server.index("--url") + 1]
    assert said.startswith(
        f"error: cannot talk to the server {url} at 2025-06-18: its answer to initialize: an answer that is not JSON"
    ), said
    assert "expected value at line 1 column 1" in said and "pydantic" not in said, said


@pytest.mark.parametrize(("options", "said"), [(("--not-json",), "an answer that is not JSON (expected value")])
def test_import_says_an_http_body_it_cannot_parse_in_a_line_without_a_traceback(
    tmp_path: Path, options: tuple[str, ...], said: str
) -> None:
    """`import` reads a server as `conform` does: the SDK's tracebacks of a body it cannot
    parse (one per revision asked) stay off standard error, and its pydantic text too."""
    project = tmp_path / "project"
    project.mkdir()
    with _server(tmp_path, "http", *options) as server:
        result = run_process("import", "shop", "--timeout", "20", *server, cwd=project)
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: cannot read the tools of "), lines
    assert said in lines[0] and "pydantic" not in lines[0], lines[0]
