"""The code generated for every corpus schema (tests/corpus/) is code a project can keep:
ruff finds nothing (pyflakes, pycodestyle, bugbear, pyupgrade, import order) and mypy
--strict finds nothing, as CI asks of the built-in contracts' code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from corpus_project import PACKAGE


def _run(*command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=cwd, capture_output=True, text=True, check=False)


def test_the_corpus_code_passes_ruff_with_import_order(generated_corpus: Path) -> None:
    python = generated_corpus / "python"
    result = _run("ruff", "check", "--no-cache", "--select", "F,E,W,B,UP,I", "--ignore", "E501", ".", cwd=python)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # CI runs it; the README's command leaves it out (its 4 minutes)
def test_the_corpus_code_passes_mypy_strict(generated_corpus: Path) -> None:
    python = generated_corpus / "python"
    result = _run("mypy", "--strict", "--no-incremental", "--cache-dir", "/dev/null", PACKAGE, cwd=python)
    assert result.returncode == 0, result.stdout + result.stderr
