"""The hooks of `.pre-commit-hooks.yaml`, run by pre-commit itself in a scratch repository.

pre-commit clones this repository at its HEAD and installs the tool into an environment of
its own, as it would for any user; then `check` passes on a fresh project and fails once
a source is edited without generating. `pytest -m slow` runs it (CI does).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

pytestmark = pytest.mark.slow

CONFIG = """repos:
  - repo: {repo}
    rev: {rev}
    hooks:
      - id: mcp-contracts-check
      - id: mcp-contracts-lint
      - id: mcp-contracts-breaking
"""


def _run(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, check=False)


def test_pre_commit_runs_check_lint_and_breaking_without_a_remote(tmp_path: Path) -> None:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
    repo = tmp_path / "server"
    repo.mkdir()
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    (repo / "pyproject.toml").write_text('[tool.mcp-contracts]\npackage = "server_contracts"\n', encoding="utf-8")
    assert run_cli("init", "orders", cwd=repo).returncode == 0
    assert run_cli("generate", cwd=repo).returncode == 0
    (repo / ".pre-commit-config.yaml").write_text(CONFIG.format(repo=ROOT, rev=head.stdout.strip()), encoding="utf-8")
    for command in (["git", "init", "--quiet", "-b", "main"], ["git", "add", "."]):  # no remote, no commit yet
        done = _run(*command, cwd=repo, env=env)
        assert done.returncode == 0, done.stderr
    first = _run(
        sys.executable,
        "-m",
        "pre_commit",
        "run",
        "mcp-contracts-breaking",
        "--all-files",
        "--verbose",
        cwd=repo,
        env=env,
    )
    assert first.returncode == 0, first.stdout + first.stderr
    assert "nothing to compare with (merge-base): no commit yet" in first.stdout
    done = _run("git", "commit", "--quiet", "-m", "start", cwd=repo, env=env)  # from here: the merge-base with main
    assert done.returncode == 0, done.stderr
    passed = _run(sys.executable, "-m", "pre_commit", "run", "--all-files", cwd=repo, env=env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "mcp-contracts check" in passed.stdout and "Passed" in passed.stdout
    assert "mcp-contracts breaking" in passed.stdout

    errors = repo / "schemas" / "contracts" / "orders" / "errors.yaml"
    errors.write_text(errors.read_text(encoding="utf-8").replace("Example error", "Changed"), encoding="utf-8")
    failed = _run(sys.executable, "-m", "pre_commit", "run", "--all-files", cwd=repo, env=env)
    assert failed.returncode == 1
    assert "has drifted from the sources" in failed.stdout
    # A code that becomes retryable breaks clients since the last commit on main: the breaking hook fails too.
    errors.write_text(
        errors.read_text(encoding="utf-8").replace("retryable: false", "retryable: true"), encoding="utf-8"
    )
    broken = _run(sys.executable, "-m", "pre_commit", "run", "mcp-contracts-breaking", "--all-files", cwd=repo, env=env)
    assert broken.returncode == 1
    assert "example_error" in broken.stdout and "retryable" in broken.stdout
