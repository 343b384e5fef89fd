"""The fork server the MCP tests start their servers with (tests/forkserver.py) behaves as the
process it stands for: a script gets its arguments, folder, environment and pipes, and its
exit status or the signal it died of is the client's; a signal sent to the client reaches
it, and a killed client takes it along."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from forkserver import forked, python

SCRIPT = """\
import json, os, sys, time
print(json.dumps({"argv": sys.argv, "cwd": os.getcwd(), "probe": os.environ.get("PROBE"),
                  "name": __name__, "pid": os.getpid(), "path": sys.path[0]}), flush=True)
mode = sys.argv[1]
if mode == "echo":
    sys.stdout.write(sys.stdin.read().upper())
elif mode == "wait":
    time.sleep(60)
sys.exit(7 if mode == "exit" else 0)
"""


@pytest.fixture
def script(tmp_path: Path) -> str:
    path = tmp_path / "probe.py"
    path.write_text(SCRIPT, encoding="utf-8")
    return str(path)


def _gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def test_the_child_runs_as_python_would_and_its_exit_status_is_the_clients(script: str, tmp_path: Path) -> None:
    command = python(script, "exit")
    forking = os.environ.get("MCP_CONTRACTS_TEST_FORK", "1") != "0"  # off: every start an exec
    assert (command[:2] == (sys.executable, "-I")) == forking
    env = {**os.environ, "PROBE": "seen"}
    forked = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    real = subprocess.run([sys.executable, script, "exit"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert forked.returncode == real.returncode == 7, forked.stderr
    said, expected = json.loads(forked.stdout), json.loads(real.stdout)
    assert said.pop("pid") != expected.pop("pid")
    assert (
        said
        == expected
        == {
            "argv": [script, "exit"],
            "cwd": str(tmp_path),
            "probe": "seen",
            "name": "__main__",
            "path": str(tmp_path),
        }
    )


def test_the_pipes_are_the_childs(script: str) -> None:
    done = subprocess.run(python(script, "echo"), input="hello\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == ["HELLO"]


def test_a_signal_to_the_client_reaches_the_child_and_is_its_end(script: str) -> None:
    with subprocess.Popen(python(script, "wait"), stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        pid = json.loads(process.stdout.readline())["pid"]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == -signal.SIGTERM
    assert _gone(pid)


def test_a_killed_client_takes_its_child_along(script: str) -> None:
    with subprocess.Popen(python(script, "wait"), stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        pid = json.loads(process.stdout.readline())["pid"]
        process.kill()
        process.wait(timeout=10)
    assert _gone(pid)


PARENT = "import os; print(os.getppid())"


@pytest.mark.parametrize(("warm", "forks"), [(("pydantic", "mcp.types"), True), (("no_such_module_here",), False)])
def test_a_client_waits_for_a_starting_server_and_execs_without_one(
    tmp_path: Path, warm: tuple[str, ...], forks: bool
) -> None:
    """A server of another interpreter's own (`forked`), asked at once: the client waits while
    it imports and is forked by it; one that cannot import what it warms is no server, and the
    client execs the real interpreter at once rather than waiting out its start."""
    script = tmp_path / "parent.py"
    script.write_text(PARENT, encoding="utf-8")
    command = forked(sys.executable, warm, str(script))
    assert command[:3] == (sys.executable, "-I", "-S")
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    # Forked, its parent is the fork server; exec'd, it is the client, whose parent is this process.
    assert (int(done.stdout) != os.getpid()) is forks
