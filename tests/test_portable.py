"""The tool where the POSIX-only modules and names of `os` are missing (Windows): `generate`,
`check`, `lint` and `validate` end as they do here, and `generate`'s lock still makes runs take turns.

Each run is a real process whose first act is to hide those modules: a `sys.meta_path`
finder refuses them as a system without them would, before the command is imported.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import JSONRPC, JSONRPC_PYPROJECT, SCHEMAS
from mcp_contracts_generator.fingerprint import CACHE_VARIABLE, cache_folder

# The modules of CPython that exist on POSIX only, and that a tool might import.
HIDDEN = ("fcntl", "grp", "pwd", "pty", "resource", "syslog", "termios", "tty")
# The names of `os` that Windows lacks and the commands might reach: gone as they are there.
WINDOWS_LACKS = ("O_NONBLOCK", "O_NOCTTY", "O_NOFOLLOW", "O_CLOEXEC", "O_DIRECTORY", "geteuid")
HIDE = f"""
import sys

class _Missing:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {HIDDEN!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

for _name in {HIDDEN!r}:
    sys.modules.pop(_name, None)
sys.meta_path.insert(0, _Missing())
import os
for _name in {WINDOWS_LACKS!r}:
    delattr(os, _name)
"""
RUN = HIDE + "sys.argv[0] = 'mcp-contracts'\nfrom mcp_contracts_generator.__main__ import main\nmain()\n"
COMMANDS = (
    ("generate",),
    ("check",),
    ("lint",),
    ("validate", "--contract", "jsonrpc", str(JSONRPC / "examples" / "tool-invoke.json")),
)


def _project(folder: Path) -> Path:
    project = folder / "project"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / JSONRPC)
    (project / "pyproject.toml").write_text(JSONRPC_PYPROJECT, encoding="utf-8")
    return project


def _run(project: Path, args: tuple[str, ...], *, hidden: bool) -> tuple[int, str, str]:
    """`mcp-contracts ARGS` in `project`, with its own cache folder (both runs answer alike)."""
    start = ["-c", RUN] if hidden else ["-m", "mcp_contracts_generator"]
    env = {**os.environ, "MCP_CONTRACTS_CACHE_DIR": str(project.parent / "cache")}
    result = subprocess.run(
        [sys.executable, *start, *args], cwd=project, env=env, capture_output=True, text=True, timeout=300
    )
    return result.returncode, result.stdout, result.stderr


def test_the_commands_end_as_on_posix_without_the_posix_modules(tmp_path: Path) -> None:
    posix, elsewhere = _project(tmp_path / "posix"), _project(tmp_path / "elsewhere")
    for args in COMMANDS:
        expected = _run(posix, args, hidden=False)
        assert expected[0] == 0, (args, expected)
        assert _run(elsewhere, args, hidden=True) == expected, args
    assert (elsewhere / "generated").is_dir()
    assert sorted(p.name for p in elsewhere.iterdir()) == sorted(p.name for p in posix.iterdir())


LOCKS = HIDE + """
import errno, threading, time
from pathlib import Path
from mcp_contracts_generator import write
from mcp_contracts_generator.write import FS

folder = Path(sys.argv[1])
taken = []
first = FS.lock(folder)
second = threading.Thread(target=lambda: taken.append((FS.lock(folder), time.monotonic())))
second.start()
time.sleep(0.5)
released = time.monotonic()
FS.unlock(first)
second.join(30)
assert taken and taken[0][1] >= released, "the second run did not wait for the first"
FS.unlock(taken[0][0])
print(sorted(p.name for p in folder.iterdir()))
# A lock file that a killed run left: the wait ends, and the error names it.
write.LOCK_WAIT = 0.2
(folder / write.LOCK_FILE).touch()
try:
    FS.lock(folder)
except OSError as exc:
    print(exc.errno == errno.EEXIST, exc.filename == str(folder / write.LOCK_FILE), exc.strerror)
"""


def test_runs_take_turns_on_the_lock_without_fcntl(tmp_path: Path) -> None:
    """Two holders of the lock of one folder, the second waiting until the first lets go;
    nothing is left in the folder afterwards. A lock never let go is waited for a while."""
    (tmp_path / "out").mkdir()
    result = subprocess.run(
        [sys.executable, "-c", LOCKS, str(tmp_path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    held = "another run has held the lock for 0 s; remove it if no run is writing"
    assert result.stdout == f"['out']\nTrue True {held}\n"


def test_the_cache_folder_is_the_platforms(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The user's cache folder as each system names it (this one's in tests/test_fingerprint.py)."""
    monkeypatch.delenv(CACHE_VARIABLE)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "AppData" / "Local"))
    assert cache_folder("darwin") == tmp_path / "Library" / "Caches" / "mcp-contracts"
    assert cache_folder("win32") == tmp_path / "AppData" / "Local" / "mcp-contracts"
    assert cache_folder("linux") == tmp_path / ".cache" / "mcp-contracts"
    monkeypatch.delenv("LOCALAPPDATA")
    assert cache_folder("win32") == tmp_path / ".cache" / "mcp-contracts"
