"""The README's thirty-second block, run as a reader runs it: twice, from inside a checkout.

The block makes its scratch project with `mktemp -d`, so a second run starts afresh, and it
installs the generated package into that project's own virtual environment, so nothing lands
in the checkout the reader stands in nor in the tool's environment. The tool is on PATH as
`uv tool install` puts it there: a link to this environment's `mcp-contracts`, alone in a
folder of its own (no `python` of this environment comes along).

Under `slow`: the block installs the generated package's dependencies and the MCP SDK from
the package index, as a reader's run does (the second run from pip's cache). A run without
the index would have to change the block (`--no-index` and a folder of wheels nobody has), and
the block is what is tested.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow

SECTION = "## In thirty seconds"


def thirty_seconds(readme: str) -> str:
    """The first bash block of the README's "In thirty seconds" section."""
    section = readme[readme.index(SECTION) :]
    found = re.search(r"^```bash\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert found is not None, "no bash block in the section"
    return found.group(1)


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def test_the_thirty_second_block_runs_twice_from_a_checkout_and_changes_nothing_there(tmp_path: Path) -> None:
    script = tmp_path / "thirty-seconds.sh"
    script.write_text("set -e\n" + thirty_seconds((ROOT / "README.md").read_text(encoding="utf-8")), encoding="utf-8")
    checkout = tmp_path / "checkout"  # where the reader stands: a clone of this repository
    _git("clone", "--quiet", "--local", str(ROOT), str(checkout), cwd=tmp_path)
    tools = tmp_path / "tools"  # the tool alone on PATH, as `uv tool install` links it
    tools.mkdir()
    (tools / "mcp-contracts").symlink_to(Path(sys.executable).parent / "mcp-contracts")
    scratch = tmp_path / "scratch"  # where `mktemp -d` makes its folders (TMPDIR)
    scratch.mkdir()
    unset = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(PATH=os.pathsep.join([str(tools), env.get("PATH", "")]), TMPDIR=str(scratch))
    before = _git("status", "--porcelain", "--ignored", cwd=checkout)
    for run in (1, 2):
        done = subprocess.run(
            ["bash", str(script)], cwd=checkout, env=env, capture_output=True, text=True, check=False, timeout=600
        )
        assert done.returncode == 0, f"run {run}:\n{done.stdout}\n{done.stderr}"
        assert '"success":false' in done.stdout and '"code":"example_error"' in done.stdout, done.stdout
        assert "conforms to billing-api" in done.stdout, done.stdout
        assert _git("status", "--porcelain", "--ignored", cwd=checkout) == before, f"run {run} wrote into the checkout"
    projects = sorted(path.name for path in scratch.iterdir())
    assert len(projects) == 2, projects  # one scratch project a run
    for project in projects:
        assert (scratch / project / "generated" / "python" / "billing_api_contracts").is_dir()
