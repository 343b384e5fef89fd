"""Real MCP servers from the package index, for the tests of `import` (tests/test_import_reference.py).

The reference servers (mcp-server-time, mcp-server-git, mcp-server-fetch) and FastMCP are
installed, pinned, into a virtual environment of their own that the test session makes
(tests/fresh_env.py): once for all pytest-xdist workers, under a file lock, in the folder
the workers share. They never enter the project's own environment (they bring their own `mcp`).

Without a package index, pip's message skips the tests, as the TypeScript client's tests skip
without node; CI (MCP_CONTRACTS_REQUIRE_SHARED=1) fails on it instead.

tests/conftest.py loads this module as a plugin: every test module may ask for the fixture.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import run_folder
from filelock import FileLock
from forkserver import forked
from fresh_env import BIN, fresh_environment, pip_run

HERE = Path(__file__).resolve().parent
# What the servers import, once, in the fork server on their environment's python
# (tests/forkserver.py): each start would pay 2 to 5 s for it.
WARM = (
    "anyio._backends._asyncio",
    "mcp",
    "mcp_server_time",
    "mcp_server_git",
    "mcp_server_fetch",
    "fastmcp",
    "fastmcp.server.server",  # not imported by `import fastmcp`: 3 s of the app's start
)
FASTMCP_APP = HERE / "servers" / "fastmcp_app.py"
# Measured together: they install beside mcp 2.3.0 in their own environment.
PINS = ("mcp-server-time==2026.10.19", "mcp-server-git==2026.10.19", "mcp-server-fetch==2026.10.24", "fastmcp==4.1.2")
PIP_TIMEOUT = 900  # seconds for the whole install; about 30 s with an index on this machine


@dataclass(frozen=True)
class ReferenceServers:
    """The commands that start each server over stdio, from the environment at `venv`."""

    venv: Path

    def _bin(self, name: str) -> str:
        return str(self.venv / BIN / name)

    @property
    def python(self) -> str:
        return self._bin("python")

    def _run(self, *args: str) -> list[str]:
        """`python ARGS` on the servers' environment, forked from its warm fork server (a
        console script of the environment runs as the script it is)."""
        return list(forked(self.python, WARM, *args))

    def time(self) -> list[str]:
        return self._run(self._bin("mcp-server-time"))

    def git(self, repository: Path) -> list[str]:
        """Serves a git repository it makes at `repository` (see `git_repository`)."""
        return self._run(self._bin("mcp-server-git"), "--repository", str(git_repository(repository)))

    def fetch(self) -> list[str]:
        """Lists `fetch` only; calling it needs the network, so no test calls it."""
        return self._run(self._bin("mcp-server-fetch"))

    def fastmcp(self, counter: Path) -> list[str]:
        """tests/servers/fastmcp_app.py; `borrow_book` counts its calls in `counter`."""
        return self._run(str(FASTMCP_APP), str(counter))

    @contextmanager
    def fastmcp_http(self, counter: Path) -> Iterator[str]:
        """The FastMCP server over streamable HTTP for the time of a block: its URL."""
        url_file = counter.with_name(counter.name + ".url")
        command = [*self.fastmcp(counter), "--http", str(url_file)]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while not url_file.is_file() and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            if not url_file.is_file():
                process.kill()
                said = process.communicate()[1]
                raise AssertionError(f"the FastMCP server did not start over HTTP (exit {process.poll()}): {said}")
            yield url_file.read_text(encoding="utf-8")
        finally:
            process.terminate()
            process.communicate(timeout=10)


def _pip_failed(venv: Path, pins: tuple[str, ...] = PINS) -> str:
    """Make the environment at `venv` with the pinned servers: '' when it is ready, else what
    failed (pip's own message)."""
    try:
        done = pip_run(fresh_environment(venv), "install", *pins, timeout=PIP_TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"pip install {' '.join(pins)} did not finish within {PIP_TIMEOUT} s"
    if done.returncode != 0:
        said = "\n".join(line for line in done.stderr.splitlines() if not line.startswith("WARNING: Location"))
        return f"pip install {' '.join(pins)} exited {done.returncode}:\n{said.strip() or done.stdout.strip()}"
    return ""


def reference_environment(
    shared: Path, name: str = "reference-servers", pins: tuple[str, ...] = PINS
) -> ReferenceServers:
    """The servers' environment `name` in `shared` (a folder every worker sees), made by the first
    worker to ask; each later one waits on the lock and reads the outcome it left."""
    venv, outcome = shared / name, shared / f"{name}.outcome"
    with FileLock(str(shared / f"{name}.lock")):
        if not outcome.is_file():
            outcome.write_text(_pip_failed(venv, pins), encoding="utf-8")
    problem = outcome.read_text(encoding="utf-8")
    if problem:
        reason = f"the reference MCP servers could not be installed from the package index: {problem}"
        if os.environ.get("MCP_CONTRACTS_REQUIRE_SHARED") == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return ReferenceServers(venv)


@pytest.fixture(scope="session")
def reference_servers(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> ReferenceServers:
    return reference_environment(run_folder(tmp_path_factory, worker_id))


def git_repository(folder: Path) -> Path:
    """A real git repository at `folder` with one commit on `main` (and an untracked file), for
    mcp-server-git to serve; the user's git configuration is not read."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    env |= {"GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    ident = ["-c", "user.name=Reference Test", "-c", "user.email=reference@example.invalid"]
    (folder / "README.md").write_text("# A repository for mcp-server-git\n", encoding="utf-8")
    for step in (["init", "-q", "-b", "main"], ["add", "README.md"], [*ident, "commit", "-q", "-m", "First commit"]):
        subprocess.run(["git", *step], cwd=folder, env=env, check=True, capture_output=True)
    (folder / "notes.txt").write_text("not yet added\n", encoding="utf-8")
    return folder
