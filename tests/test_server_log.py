"""What a server started over stdio writes to its standard error stays out of the report:
`conform` (with and without `--fuzz`) and `import` keep it in a file (`--server-log PATH`, by
default one of this machine's cache folder that a note names), and a finding of a crash
quotes its last lines, on its one line. A server that cannot be started, or does not answer
the opening request, is one error that names the command, its exit status and those lines;
`import` never leaves out a revision that a slow server did not answer in time. And the
numbers a server sends are judged as it wrote them: `1e-400` is not the 0 the SDK reads.

Every server here is a real one: the SDK's `MCPServer` and low-level `Server`
(tests/servers/crashing_shop.py, tests/servers/mcpserver_shop.py), or a bare one writing
JSON-RPC lines itself (tests/servers/raw_server.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli, run_process
from forkserver import python
from mcp import StdioServerParameters
from mcp_contracts_generator.client.connect import connected
from mcp_contracts_generator.client.server_log import ServerLog
from mcp_contracts_generator.conformance.link import Link
from mcp_contracts_generator.protocol import revision
from mcp_servers import GOOD_ITEM, RAW, RAW_TOOLS, SHOP_TOOLS

SERVERS = ROOT / "tests" / "servers"
CRASHING = python(str(SERVERS / "crashing_shop.py"))
CRASHING_LOW = (*CRASHING, "--low-level")
SHOP_SERVER = SERVERS / "mcpserver_shop.py"
SPOKEN = ("--protocol", "2025-06-18")  # the one revision the bare server speaks
NOTE = re.compile(r"^note: the server's standard error is kept in (.+)$", re.MULTILINE)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose contract `shop` has the tools of the crashing shop, each with an example."""
    root = tmp_path_factory.mktemp("crashing")
    assert run_cli("init", "shop", cwd=root).returncode == 0
    (root / "schemas" / "contracts" / "shop" / "tools.yaml").write_text(SHOP_TOOLS, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def raw_shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose contract `shop` has the one tool the bare server lists."""
    root = tmp_path_factory.mktemp("raw")
    assert run_cli("init", "shop", cwd=root).returncode == 0
    (root / "schemas" / "contracts" / "shop" / "tools.yaml").write_text(RAW_TOOLS, encoding="utf-8")
    return root


def _kept_in(stderr: str) -> Path:
    """The file the note names."""
    found = NOTE.search(stderr)
    assert found is not None, stderr
    return Path(found.group(1))


FUZZ = ("--fuzz", "2", "--seed", "1", "--call-tool", "get_item", "--call-tool", "search")


@pytest.mark.parametrize(
    ("server", "flags"),
    [
        pytest.param(CRASHING, (), id="mcpserver"),
        pytest.param(CRASHING_LOW, (), id="low-level"),
        # MCPServer hangs on an integer past 4,300 digits (the fuzz draws one): a timeout a call.
        pytest.param(CRASHING, FUZZ, id="mcpserver-fuzz", marks=pytest.mark.slow),
        pytest.param(CRASHING_LOW, FUZZ, id="low-level-fuzz", marks=pytest.mark.slow),
    ],
)
def test_a_server_whose_every_call_crashes_is_reported_in_a_few_lines(
    shop: Path, tmp_path: Path, server: tuple[str, ...], flags: tuple[str, ...]
) -> None:
    """A process of its own, as a user runs it: standard output and error together hold one
    line per finding, the summary and the note that names where the tracebacks went (the
    SDK's fill hundreds of lines over four revisions, more under --fuzz)."""
    report = tmp_path / "report.json"
    asked = ("conform", "--contract", "shop", "--timeout", "3", *flags, "--report", f"json:{report}")
    result = run_process(*asked, "--", *server, cwd=shop, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    said = (result.stdout + result.stderr).splitlines()
    assert len(said) < 40, "\n".join(said)
    written = json.loads(report.read_text(encoding="utf-8"))
    assert len(said) == len(written["findings"]) + 1 + len(written["notes"]), "\n".join(said)
    assert "Traceback" not in result.stdout + result.stderr
    kept = _kept_in(result.stderr)
    assert kept.is_relative_to(os.environ["MCP_CONTRACTS_CACHE_DIR"])  # this session's, not the project
    assert "Traceback" in kept.read_text(encoding="utf-8", errors="replace")


def test_server_log_keeps_the_standard_error_in_the_file_it_names(shop: Path, tmp_path: Path) -> None:
    """The file is emptied first, then holds each session's part, headed by its revision."""
    log = tmp_path / "server.log"
    log.write_text("=== mcp-contracts: a session at 2025-03-26 ===\nan older run's lines\n", encoding="utf-8")
    result = run_cli("conform", "--contract", "shop", "--server-log", str(log), "--", *CRASHING_LOW, cwd=shop)
    assert result.returncode == 1, result.stdout + result.stderr
    assert _kept_in(result.stderr) == log
    text = log.read_text(encoding="utf-8")
    assert "an older run's lines" not in text
    assert text.startswith("=== mcp-contracts: a session at 2025-03-26 ===\n")
    assert text.count("RuntimeError: the get_item handler is gone") >= 4  # once a revision


def test_the_default_log_is_one_file_per_contract_and_command_and_never_a_symlink(shop: Path, tmp_path: Path) -> None:
    """The same run writes the same file again; a symlink put in its place is not followed:
    the run keeps its log elsewhere, and what the link leads to is left as it was."""
    command = ("conform", "--contract", "shop", "--protocol", "2025-06-18", "--", *CRASHING_LOW)
    first = _kept_in(run_cli(*command, cwd=shop).stderr)
    again = _kept_in(run_cli(*command, cwd=shop).stderr)
    assert first == again and first.parent.name == "server-logs" and first.name.startswith("conform-shop-")
    assert not first.is_relative_to(shop)
    elsewhere = tmp_path / "precious.txt"
    elsewhere.write_text("precious\n", encoding="utf-8")
    first.unlink()
    first.symlink_to(elsewhere)
    moved = _kept_in(run_cli(*command, cwd=shop).stderr)
    try:
        assert moved != first and "RuntimeError" in moved.read_text(encoding="utf-8")
        assert elsewhere.read_text(encoding="utf-8") == "precious\n" and first.is_symlink()
    finally:
        first.unlink()
        if moved != first:
            moved.unlink()


def test_server_log_dash_leaves_the_standard_error_on_ours(shop: Path) -> None:
    """As before there was a file: for a run whose reader wants the server's words inline."""
    command = ("conform", "--contract", "shop", "--protocol", "2025-06-18", "--server-log", "-")
    result = run_process(*command, "--", *CRASHING_LOW, cwd=shop, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "RuntimeError: the get_item handler is gone\n" in result.stderr and NOTE.search(result.stderr) is None


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("link", "a symlink: the server's standard error is kept only in a regular file"),
        ("folder", "not a regular file: the server's standard error is kept only in a regular file"),
        ("schemas/server.log", "in the sources folder schemas, which is no place for the server's standard error"),
        ("url", "--server-log goes with -- COMMAND ARGS...: a server at a URL keeps its standard error"),
    ],
)
def test_server_log_refuses_what_is_no_file_of_its_own(shop: Path, tmp_path: Path, where: str, said: str) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "target")
    path = tmp_path / where if where in ("link", "folder") else shop / where
    server = ("--url", "http://127.0.0.1:9/mcp") if where == "url" else ("--", *CRASHING_LOW)
    result = run_cli("conform", "--contract", "shop", "--server-log", str(path), *server, cwd=shop)
    assert result.returncode == 2 and said in result.stderr, result.stderr
    assert not (tmp_path / "target").exists() and not (shop / "schemas" / "server.log").exists()


def test_server_log_never_empties_a_file_through_another_name_of_it(shop: Path, tmp_path: Path) -> None:
    """A hard link of a source: emptying the log would empty errors.yaml too."""
    errors = shop / "schemas" / "contracts" / "shop" / "errors.yaml"
    before = errors.read_bytes()
    os.link(errors, tmp_path / "hard.log")
    command = ("conform", "--contract", "shop", "--server-log", str(tmp_path / "hard.log"), "--", *CRASHING_LOW)
    result = run_cli(*command, cwd=shop)
    assert result.returncode == 2 and "a file with another name (a hard link)" in result.stderr, result.stderr
    assert errors.read_bytes() == before


def test_server_log_never_empties_a_file_that_is_no_log_of_its_own(shop: Path, tmp_path: Path) -> None:
    """`--server-log ~/.bashrc` (or, as root, /etc/passwd) was emptied; a log of an earlier
    run, and an empty file, are written again."""
    other = tmp_path / "notes.txt"
    other.write_text("mine\n", encoding="utf-8")
    command = ("conform", "--contract", "shop", "--protocol", "2025-06-18", "--server-log")
    result = run_cli(*command, str(other), "--", *CRASHING_LOW, cwd=shop)
    assert result.returncode == 2 and "a file that is no server log of mcp-contracts" in result.stderr, result.stderr
    assert other.read_text(encoding="utf-8") == "mine\n"
    log = tmp_path / "server.log"
    for _ in range(2):  # the second run empties the first's log and writes its own
        result = run_cli(*command, str(log), "--", *CRASHING_LOW, cwd=shop)
        assert result.returncode == 1, result.stderr
        assert log.read_text(encoding="utf-8").count("=== mcp-contracts: a session at 2025-06-18 ===") == 1


def test_a_crash_answer_carries_the_last_lines_of_standard_error_the_server_wrote_meanwhile(tmp_path: Path) -> None:
    """A JSON-RPC error that stands for an exception the handler did not handle (code 0 from
    the low-level `Server`): its answer quotes the traceback's last lines, on one line."""
    target = StdioServerParameters(command=CRASHING_LOW[0], args=list(CRASHING_LOW[1:]))
    at = revision("2025-06-18")
    reconnect = partial(connected, target, at, 10.0, {}, log=ServerLog(), server_log=tmp_path / "server.log")

    async def asked() -> Any:
        link = Link(reconnect, at.version, 10.0)
        async with link.held():
            return await link.call("search", {"text": "pen"})

    answer = anyio.run(asked)
    assert (answer.kind, answer.code, answer.text) == ("rpc-error", 0, "the search handler is gone")
    lines = answer.stderr.split(" | ")
    assert len(lines) <= 3 and lines[-1] == "RuntimeError: the search handler is gone", answer.stderr
    said = "a JSON-RPC error that stands for an exception its handler did not handle"  # the same at every revision
    assert answer.rpc_error() == f"{said}; its standard error: {answer.stderr}"
    assert answer.crash() == (
        "error code 0, the Python MCP SDK's answer to an exception its handler raised"
        f" (the search handler is gone); its standard error: {answer.stderr}"
    )


@pytest.mark.fires("fuzz-crash")
def test_a_fuzz_crash_quotes_the_servers_last_lines(shop: Path) -> None:
    fuzz = ("--fuzz", "2", "--seed", "1", "--tool", "search", "--call-tool", "search", "--protocol", "2025-06-18")
    result = run_cli("conform", "--contract", "shop", "--format", "json", *fuzz, "--", *CRASHING_LOW, cwd=shop)
    crashes = [f for f in conform_report(result.stdout)["findings"] if f["rule"] == "fuzz-crash"]
    assert crashes and all(
        "; its standard error: " in f["message"] and "RuntimeError: the search handler is gone" in f["message"]
        for f in crashes
    ), crashes


@pytest.mark.fires("connection-lost")
def test_a_server_that_exits_while_asked_is_one_line_with_its_last_three_lines(raw_shop: Path) -> None:
    command = ("conform", "--contract", "shop", "--format", "json", "--timeout", "5", *SPOKEN)
    result = run_cli(*command, "--", *RAW, GOOD_ITEM, "--exit-at", "tools/call:3", cwd=raw_shop)
    [finding] = conform_report(result.stdout)["findings"]
    words = " | ".join(f"raw: line {n} before the end" for n in (29, 30))
    words += " | raw: tools/call \\x1b[31mis too much\\x1b[0m, giving up"
    assert finding["rule"] == "connection-lost"
    assert finding["message"] == f"the server exited with status 3 (the last lines of its standard error: {words})"


SILENT = (sys.executable, "-c", "import sys, time; print('warming up', file=sys.stderr, flush=True); time.sleep(60)")


@pytest.mark.parametrize(
    ("server", "said"),
    [
        (
            (*RAW, GOOD_ITEM, "--exit-at", "initialize:4"),
            "exited with status 4 before it answered initialize (the last lines of its standard error: raw: line 29"
            " before the end | raw: line 30 before the end | raw: initialize \\x1b[31mis too much\\x1b[0m, giving up)",
        ),
        (SILENT, "did not answer initialize within 1 s (the last lines of its standard error: warming up)"),
    ],
    ids=["exits", "silent"],
)
def test_a_server_that_does_not_open_a_session_is_one_error_naming_its_command(
    raw_shop: Path, server: tuple[str, ...], said: str
) -> None:
    """No finding, no summary of a run that did not happen: one error, the command as typed."""
    result = run_cli("conform", "--contract", "shop", "--timeout", "1", *SPOKEN, "--", *server, cwd=raw_shop)
    assert result.returncode == 2, result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    said = f"error: cannot talk to the server at 2025-06-18: {' '.join(server)} {said}; the server's standard error"
    assert len(errors) == 1 and errors[0].startswith(said + " is kept in "), result.stderr
    assert result.stderr == errors[0] + "\n"  # one error, first and last: no note before it
    assert "Traceback" not in result.stderr and "raw: line 1 before" not in result.stderr


def test_a_command_that_cannot_be_started_is_one_error(raw_shop: Path, tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-server")
    conformed = run_cli("conform", "--contract", "shop", "--", missing, "--flag", cwd=raw_shop)
    said = f"{missing} --flag could not be started: No such file or directory"
    assert conformed.returncode == 2 and conformed.stderr == f"error: cannot talk to the server at 2025-03-26: {said}\n"
    imported = run_cli("import", "other", "--", missing, "--flag", cwd=raw_shop)
    assert imported.returncode == 2 and imported.stderr == f"error: {said}\n", imported.stderr


def test_import_of_a_server_slow_at_one_revision_is_one_error_never_a_revision_left_out(tmp_path: Path) -> None:
    """Its second start (2025-11-25, after 2026-07-28) waits longer than --timeout: before, the
    contract said `protocol:` without it, as if the server did not speak it."""
    slow = python(str(SERVERS / "slow_start.py"), str(tmp_path / "starts"), "2", "8", str(SHOP_SERVER))
    result = run_cli("import", "shop", "--timeout", "2", "--", *slow, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and errors[0].startswith("error: cannot read the tools at 2025-11-25: "), result.stderr
    assert "did not answer initialize within 2 s" in errors[0]
    assert not (tmp_path / "schemas" / "contracts" / "shop").exists()


@contextmanager
def _raw_http(tmp_path: Path, result: str) -> Iterator[str]:
    url = tmp_path / "url"
    process = subprocess.Popen([*RAW, result, "--http", str(url)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not url.is_file() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        yield url.read_text(encoding="utf-8")
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("transport", ["stdio", "http"])
@pytest.mark.parametrize(
    ("number", "said"),
    [
        ("1e-400", "1e-400 is too small for a double: it reads as 0, and JSON parsers disagree on it"),
        ("-1e-400", "-1e-400 is too small for a double: it reads as 0, and JSON parsers disagree on it"),
        ("1e400", "1e400 is not a finite double: JSON parsers disagree on it"),
        ("NaN", "NaN is not a JSON number: JSON has no infinity or NaN"),
    ],
)
@pytest.mark.fires("invalid-result")
def test_a_number_is_judged_as_the_server_sent_it(
    raw_shop: Path, tmp_path: Path, transport: str, number: str, said: str
) -> None:
    """`price: 1e-400` is a number no double holds (the SDK reads 0, which the schema accepts):
    the contract refuses it as written, over stdio and HTTP alike."""
    answer = GOOD_ITEM.replace("1.5", number)
    command = ("conform", "--contract", "shop", "--format", "json", *SPOKEN)
    if transport == "stdio":
        result = run_cli(*command, "--", *RAW, answer, cwd=raw_shop)
    else:
        with _raw_http(tmp_path, answer) as url:
            result = run_cli(*command, "--url", url, cwd=raw_shop)
    report = conform_report(result.stdout)
    assert result.returncode == 1, report
    [finding] = report["findings"]
    assert finding["rule"] == "invalid-result"
    assert finding["message"] == f"the contract refuses the result: /price: {said}"


@pytest.mark.parametrize("number", ["1e-400", "1e400"])
def test_a_number_in_text_content_is_judged_as_the_server_sent_it(raw_shop: Path, number: str) -> None:
    """A result without `structuredContent`, its JSON in text: `1e-400` is no 0 there either."""
    text = json.dumps('{"name": "pen", "price": ' + number + "}")
    answer = '{"content": [{"type": "text", "text": ' + text + "}]}"
    result = run_cli("conform", "--contract", "shop", "--format", "json", *SPOKEN, "--", *RAW, answer, cwd=raw_shop)
    report = conform_report(result.stdout)
    refused = [f["message"] for f in report["findings"] if f["rule"] == "invalid-result"]
    assert result.returncode == 1 and len(refused) == 1, report
    assert refused[0].startswith(f"the contract refuses the result: /price: {number} ")
