"""The hostile corpus (tests/hostile/cases.py): every input ends in a verdict.

Each case runs in a copy of a one-contract project; the output folder is hashed before and
after. Exit 0, 1 or 2 with the expected message, never a traceback or a hang; on a
refusal the output folder is byte for byte what it was.
"""

from __future__ import annotations

import hashlib
import shutil
from collections import Counter
from pathlib import Path

import pytest
from conftest import SCHEMAS, run_cli, tree_bytes
from hostile.cases import CASES, Case

PYPROJECT = '[tool.mcp-contracts]\nschemas = "schemas"\noutput = "generated"\npackage = "contracts"\n'


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("hostile") / "base"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / "schemas" / "contracts" / "jsonrpc")
    (project / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    return project


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path, content in tree_bytes(folder).items() if folder.is_dir() else ():
        digest.update(path.encode() + b"\0" + content)
    return digest.hexdigest()


def test_the_corpus_covers_every_class() -> None:
    kinds = Counter(case.kind for case in CASES)
    assert len(CASES) >= 60
    assert set(kinds) == {"broken", "recursion", "cost", "names", "injection", "documents"}
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_every_hostile_input_ends_in_a_verdict(case: Case, base: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(base, project, symlinks=True)
    case.setup(project)
    before = _digest(project / "generated")
    result = run_cli(*case.args, cwd=project)
    output = result.stdout + result.stderr
    assert result.returncode == case.exit_code, output
    assert case.message in output, output
    assert "Traceback" not in output
    after = _digest(project / "generated")
    if case.output_changes:
        assert after != before
    else:
        assert after == before, "the output folder changed"
    if "export" in case.extra:  # a name from a source never replaces an export of the package
        package = project / "generated" / "python" / "contracts" / "jsonrpc" / "__init__.py"
        text = package.read_text(encoding="utf-8")
        assert f"Envelope = {case.extra['export']}" in text
        assert "from .errors import ERRORS, ErrorCode, error_info" in text
