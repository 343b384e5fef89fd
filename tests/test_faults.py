"""Faults while `generate` writes: the output folder is the old tree or the new one, never
neither nor a mix, and the next run leaves nothing behind.

Every file-system call of the swap is made to fail in turn (through `write.FileSystem`), on
the exchange path and on the two-rename path used where the exchange is unavailable; a real
SIGKILL then stops a writing process at many moments.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import GENERATED, run_cli
from faulty_fs import Faulty
from mcp_contracts_generator import write
from mcp_contracts_generator.drift import read_tree
from mcp_contracts_generator.write import replace_tree

pytestmark = pytest.mark.first  # killed processes and many runs: start them early

OLD = {f"python/pkg/m{i}.py": f"old {i}\n".encode() for i in range(12)} | {"README.md": b"old\n"}
NEW = {f"python/pkg/m{i}.py": f"new {i}\n".encode() for i in range(8)} | {
    "docs/new.md": b"new\n",
    "README.md": b"new\n",
}


def _strays(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name != out.name)


@pytest.mark.parametrize("no_exchange", [False, True], ids=["exchange", "two renames"])
def test_a_fault_at_every_call_leaves_the_old_or_the_new_tree(tmp_path: Path, no_exchange: bool) -> None:
    out = tmp_path / "generated"
    replace_tree(OLD, out)
    faults = 0
    for fail_at in range(1, 200):
        fs = Faulty(fail_at, no_exchange=no_exchange)
        try:
            replace_tree(NEW, out, fs)
        except OSError:
            faults += 1
        else:
            assert read_tree(out) == NEW
            break
        finally:
            tree = read_tree(out) if out.exists() else None
        if tree is None:  # only between the two renames, where no exchange exists
            assert no_exchange, f"the output vanished after a fault at call {fail_at}"
        else:
            assert tree in (OLD, NEW), f"a mixed tree after a fault at call {fail_at}"
        replace_tree(OLD, out)  # the next run: recovers, cleans, and writes
        assert read_tree(out) == OLD
        assert _strays(out) == [], f"left behind after a fault at call {fail_at}"
    assert faults > len(NEW)  # every call of a whole run failed once
    assert _strays(out) == []


KILLED_WRITER = """
import json, sys
from pathlib import Path
from mcp_contracts_generator.write import replace_tree
files = {f"docs/page{i}.md": (sys.argv[2] * 2000).encode() for i in range(int(sys.argv[3]))}
print("ready", flush=True)
replace_tree(files, Path(sys.argv[1]))
print("done", flush=True)
"""


def test_sigkill_at_many_moments_leaves_the_old_or_the_new_tree(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    count = 300
    old = {f"docs/page{i}.md": ("o" * 2000).encode() for i in range(count)}
    new = {f"docs/page{i}.md": ("n" * 2000).encode() for i in range(count)}
    replace_tree(old, out)
    rng = random.Random(20261123)
    outcomes = []
    duration = 0.0
    for attempt in range(10):
        writer = subprocess.Popen(
            [sys.executable, "-c", KILLED_WRITER, str(out), "n", str(count)], stdout=subprocess.PIPE, text=True
        )
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        if attempt == 0:  # a whole run first, to learn how long the write takes
            started = time.monotonic()
            assert writer.stdout.readline() == "done\n"
            duration = time.monotonic() - started
        else:
            time.sleep(rng.uniform(0, duration * 1.2))
            os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        tree = read_tree(out)
        assert tree in (old, new), "a killed run left a mixed or missing tree"
        outcomes.append("new" if tree == new else "old")
        replace_tree(old, out)  # the next run cleans what the killed one left
        assert _strays(out) == []
    assert read_tree(out) == old
    print(json.dumps({"outcomes": outcomes}))


def test_concurrent_runs_take_turns(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    replace_tree(OLD, out)
    writers = [
        subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(out), letter, "200"], stdout=subprocess.PIPE)
        for letter in "abcd"
    ]
    for writer in writers:
        assert writer.wait() == 0
        assert writer.stdout is not None
        writer.stdout.close()
    trees = [{f"docs/page{i}.md": (letter * 2000).encode() for i in range(200)} for letter in "abcd"]
    assert read_tree(out) in trees
    assert _strays(out) == []


def test_a_write_error_is_a_diagnostic_and_the_output_stays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    out = tmp_path / "generated"
    replace_tree(read_tree(GENERATED), out)
    (out / "docs" / "index.md").write_text("edited\n", encoding="utf-8")
    before = read_tree(out)
    monkeypatch.setattr(write, "FS", Faulty(6))  # a write into the staging folder
    result = run_cli("generate", "--out", str(out))
    assert result.returncode == 2
    assert "cannot write: injected fault in " in result.stderr
    assert "Traceback" not in result.stderr
    assert read_tree(out) == before and _strays(out) == []
