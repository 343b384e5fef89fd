"""SIGINT and SIGTERM end `mock` (stdio, in a terminal or not, and HTTP), `conform`, `import`
and `generate` within 2 s, with exit 130 and 143, after they have stopped the servers they
started and removed their temporary folders; `generate` says what changed only once it is in
place. Real processes, real signals; Ctrl-C typed at a real terminal (a pty).
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, SCHEMAS

pytestmark = pytest.mark.slow  # a command, and its server, started as processes per signal

COMMAND = [sys.executable, "-m", "mcp_contracts_generator"]
FAULTY = [sys.executable, str(ROOT / "tests" / "servers" / "faulty_server.py"), str(ROOT)]
CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}
BOUND = 2.0  # seconds from the signal to the exit
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
SIGNALS = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _handles_sigterm(pid: int) -> bool:
    """Whether the process has installed its handlers (SIGTERM among the signals it catches)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)))


def _ended(process: subprocess.Popen[str], signum: int) -> tuple[int, float, str]:
    """Send `signum`; the exit code, the seconds until the process ended, and what it printed."""
    sent = time.monotonic()
    process.send_signal(signum)
    try:
        code = process.wait(timeout=30)
        took = time.monotonic() - sent
    finally:
        process.kill()
        out, err = process.communicate(timeout=30)  # closes the pipes
    return code, took, (out or "") + (err or "")


def _wait_for(condition: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.05)
    raise AssertionError("the process never got there")


@SIGNALS
def test_mock_over_stdio_pipes_ends_on_a_signal(signum: int) -> None:
    mock = subprocess.Popen(
        [*COMMAND, "mock", "--contract", "tuitbot"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert mock.stdin is not None and mock.stdout is not None
    mock.stdin.write(json.dumps(INITIALIZE) + "\n")
    mock.stdin.flush()
    assert '"result"' in mock.stdout.readline()  # it serves
    code, took, printed = _ended(mock, signum)
    assert (code, took < BOUND) == (CODES[signum], True), (took, printed)


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_ctrl_c_at_a_terminal_ends_mock(transport: str) -> None:
    """In a terminal the SDK's stdio transport read standard input in a thread, which Ctrl-C
    did not end. Over HTTP the terminal only shows the URL."""
    pid, terminal = pty.fork()
    if pid == 0:  # the child: the mock, its standard streams the terminal
        os.chdir(ROOT)
        os.execv(sys.executable, [*COMMAND, "mock", "--contract", "tuitbot", "--transport", transport, "--port", "0"])
    try:
        ready = b'"result"' if transport == "stdio" else b"serving at"
        if transport == "stdio":
            os.write(terminal, json.dumps(INITIALIZE).encode() + b"\n")
        seen = b""
        deadline = time.monotonic() + 60
        while ready not in seen and time.monotonic() < deadline:  # it serves
            if select.select([terminal], [], [], 1)[0]:
                seen += os.read(terminal, 65536)
        assert ready in seen, seen
        typed = time.monotonic()
        os.write(terminal, b"\x03")  # Ctrl-C: the terminal sends SIGINT to its foreground group
        while time.monotonic() - typed < 30:
            ended, status = os.waitpid(pid, os.WNOHANG)
            if ended:
                break
            if select.select([terminal], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):  # the terminal is gone with its process
                    os.read(terminal, 65536)
        assert ended, "Ctrl-C did not end the mock"
        assert (os.waitstatus_to_exitcode(status), time.monotonic() - typed < BOUND) == (130, True)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(terminal)


@SIGNALS
def test_mock_over_http_ends_on_a_signal(signum: int) -> None:
    mock = subprocess.Popen(
        [*COMMAND, "mock", "--contract", "tuitbot", "--transport", "http", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert mock.stderr is not None
    assert "serving at" in mock.stderr.readline()
    code, took, printed = _ended(mock, signum)
    assert (code, took < BOUND) == (CODES[signum], True), (took, printed)


def _ends_with_its_server(args: list[str], signum: int, cwd: Path, env: dict[str, str] | None = None) -> None:
    """Run the command, send `signum` once its server runs: it ends in time with the signal's
    code, and its server ends too."""
    process = subprocess.Popen(
        [*COMMAND, *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    server = _server_of(process)
    code, took, printed = _ended(process, signum)
    assert (code, took < BOUND) == (CODES[signum], True), (took, printed)
    _wait_for(lambda: not _alive(server), 5)


def _server_of(process: subprocess.Popen[str]) -> int:
    """The server `process` started, once it runs (and a moment for the session to start)."""
    _wait_for(lambda: _children(process.pid) or process.poll() is not None)
    assert process.poll() is None, "it ended before its server started"
    time.sleep(1)
    return _children(process.pid)[0]


@SIGNALS
def test_conform_ends_on_a_signal_and_stops_its_server(signum: int) -> None:
    """The server never answers a call: the signal does not wait out --timeout."""
    hung = ("--timeout", "60", "--", *FAULTY, "--fault", "hang")
    _ends_with_its_server(["conform", "--contract", "tuitbot", *hung], signum, ROOT)


@SIGNALS
def test_import_ends_on_a_signal_stops_its_server_and_leaves_no_temporary_folder(signum: int, tmp_path: Path) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    (tmp_path / "schemas" / "contracts").mkdir(parents=True)
    hung = ("--timeout", "60", "--call-tool", "get_reply_count_today", "--", *FAULTY, "--fault", "hang")
    _ends_with_its_server(
        ["import", "shop", "--schemas", "schemas", *hung], signum, tmp_path, {**os.environ, "TMPDIR": str(temporary)}
    )
    assert list(temporary.iterdir()) == []
    assert list((tmp_path / "schemas" / "contracts").iterdir()) == []


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / "schemas" / "contracts" / "jsonrpc")
    (project / "pyproject.toml").write_text('[tool.mcp-contracts]\npackage = "judged"\n', encoding="utf-8")
    return project


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@SIGNALS
def test_generate_ends_on_a_signal_before_the_swap_and_changes_nothing(signum: int, tmp_path: Path) -> None:
    project = _project(tmp_path)
    assert subprocess.run([*COMMAND, "generate"], cwd=project, capture_output=True, check=False).returncode == 0
    (project / "generated" / "python" / "judged" / "jsonrpc" / "schema.json").unlink()
    before = _tree(project / "generated")
    generate = subprocess.Popen(
        [*COMMAND, "generate"], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    _wait_for(lambda: _handles_sigterm(generate.pid))  # then loading and rendering: long before the swap
    code, took, printed = _ended(generate, signum)
    assert (code, took < BOUND, printed) == (CODES[signum], True, "")
    assert _tree(project / "generated") == before
    assert sorted(p.name for p in project.iterdir()) == ["generated", "pyproject.toml", "schemas"]


SWAP = """
import os, signal, sys
from pathlib import Path
from mcp_contracts_generator import interrupt, write

class Signalled(write.FileSystem):
    def exchange(self, first, second):
        os.kill(os.getpid(), signal.SIGINT)  # the signal comes as the trees are exchanged
        super().exchange(first, second)

interrupt.install()
target = Path(sys.argv[1])
write.replace_tree({"new.txt": b"new"}, target, Signalled())
print(sorted(p.name for p in target.iterdir()), interrupt.exit_code())
"""


def test_a_signal_during_the_swap_waits_for_it_to_end(tmp_path: Path) -> None:
    """Once the trees are being exchanged the change is seen through: the command ends as it
    would have, and says what is in place (`generate` once said "N file(s) changed", exit 130)."""
    target = tmp_path / "out"
    target.mkdir()
    (target / "old.txt").write_text("old", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", SWAP, str(target)], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "['new.txt'] None\n", "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
