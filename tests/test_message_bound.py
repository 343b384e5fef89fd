"""`conform` and `import` hold one message from a server to `limits.message_bytes`: a
server that answers `initialize` with 2 GB of JSON (written lazily by
tests/servers/huge_server.py), over stdio or streamable HTTP (JSON, an event stream, or
gzip though it was not asked for), ends the connection with a
message that says the cap was hit, exit 2, and the command's peak memory stays small.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import ROOT, SCHEMAS
from forkserver import python

HUGE = ROOT / "tests" / "servers" / "huge_server.py"
TWO_GB = 2_000_000_000
CAPPED = "a message from the server exceeded limits.message_bytes (16,777,216 bytes)"
pytestmark = pytest.mark.slow  # servers answering 2 GB, a command process per transport

# The command under a parent of its own, which reports the peak resident memory of its
# child (the command; its server, forked by tests/forkserver.py, is not counted) once it ends.
MEASURED = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"code": done.returncode, "stdout": done.stdout, "stderr": done.stderr, "peak": peak}))
"""
PEAK_BYTES = 300 * 1024 * 1024


def _measured(*args: str, cwd: Path = ROOT) -> dict[str, object]:
    command = [sys.executable, "-c", MEASURED, sys.executable, "-m", "mcp_contracts_generator", *args]
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True, timeout=120)
    result: dict[str, object] = json.loads(done.stdout)
    return result


@contextmanager
def _huge_http(tmp_path: Path, size: int, *mode: str) -> Iterator[str]:
    url_file = tmp_path / "url"
    server = subprocess.Popen(python(str(HUGE), str(size), "--http", str(url_file), *mode))
    try:
        deadline = time.monotonic() + 30
        while not url_file.is_file() and time.monotonic() < deadline:
            time.sleep(0.05)
        yield url_file.read_text(encoding="utf-8")
    finally:
        server.terminate()
        server.wait(timeout=10)


def _target(tmp_path: Path, transport: str, size: int) -> Iterator[tuple[str, ...]]:
    if transport == "stdio":
        yield ("--", *python(str(HUGE), str(size)))
        return
    with _huge_http(tmp_path, size, *((f"--{transport}",) if transport != "http" else ())) as url:
        yield ("--url", url)


@pytest.mark.parametrize("command", ["conform", "import"])
@pytest.mark.parametrize("transport", ["stdio", "http", "sse", "gzip"])
def test_a_server_answering_2_gb_is_cut_at_the_cap_in_little_memory(
    tmp_path: Path, command: str, transport: str
) -> None:
    asked = ("conform", "--contract", "tuitbot") if command == "conform" else ("import", "huge")
    for target in _target(tmp_path, transport, TWO_GB):
        result = _measured(*asked, "--timeout", "30", *target)
        assert result["code"] == 2, result
        assert CAPPED in str(result["stderr"]), result["stderr"]
        assert "Traceback" not in str(result["stderr"]) and "credentials" not in str(result["stderr"])
        assert isinstance(result["peak"], int) and result["peak"] < PEAK_BYTES, result["peak"]


def test_the_cap_is_the_projects_setting(tmp_path: Path) -> None:
    """`[tool.mcp-contracts.limits] message_bytes` is the cap: 4 KiB stops the mock's listing,
    which the default lets through. The server was reached: that answer is a finding (exit 1),
    not a server that cannot be talked to."""
    project = tmp_path / "project"
    shutil.copytree(SCHEMAS / "contracts" / "tuitbot", project / "schemas" / "contracts" / "tuitbot")
    settings = "[tool.mcp-contracts]\n\n[tool.mcp-contracts.limits]\nmessage_bytes = {limit}\n"
    mock = ("--", *python("-m", "mcp_contracts_generator", "mock", "--contract", "tuitbot"))
    asked = ("conform", "--contract", "tuitbot", "--protocol", "2025-11-25", "--format", "json", *mock)
    for limit, code in ((4096, 1), (16777216, 0)):
        (project / "pyproject.toml").write_text(settings.format(limit=limit), encoding="utf-8")
        command = [sys.executable, "-m", "mcp_contracts_generator", *asked]
        done = subprocess.run(command, cwd=project, capture_output=True, text=True, check=False)
        assert done.returncode == code, done.stderr
        capped = f"a message from the server exceeded limits.message_bytes ({limit:,} bytes)"
        found = [(f["rule"], f["subject"], f["message"]) for f in json.loads(done.stdout)["findings"]]
        assert found == ([("bound-exceeded", "tools/list", capped)] if code else []), found
