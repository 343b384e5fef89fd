"""The hostile corpus (tests/hostile/cases.py): every input ends in a verdict.

Each case runs in a copy of a one-contract project; the output folder is hashed before and
after. Exit 0, 1 or 2 with the expected message, never a traceback or a hang; on a
refusal the output folder is byte for byte what it was. A case that could hang runs in a
process of its own with a time limit (`extra["timeout"]`): a hang fails it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from collections import Counter
from pathlib import Path

import pytest
from conftest import SCHEMAS, run_cli, run_process
from hostile.cases import CASES, Case

PYPROJECT = '[tool.mcp-contracts]\nschemas = "schemas"\noutput = "generated"\npackage = "contracts"\n'


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("hostile") / "base"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / "schemas" / "contracts" / "jsonrpc")
    (project / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    return project


def _file_digest(path: Path) -> bytes:
    """A regular file's sha256; a file over 64 MiB (a case's sparse GiB) by its size, inode and
    time of change instead, which any write changes, so that it is not read twice per case."""
    facts = path.lstat()
    if facts.st_size > 64 * 1024 * 1024:
        return b"%d:%d:%d" % (facts.st_size, facts.st_ino, facts.st_ctime_ns)
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").digest()


def _digest(folder: Path) -> str:
    """Every entry under `folder`, nothing followed: a regular file by its bytes, a symlink by
    where it leads, anything else by its kind (a FIFO is never opened)."""
    digest = hashlib.sha256()
    for top, folders, files in os.walk(folder) if folder.is_dir() else ():
        for name in sorted(folders + files):
            path = Path(top, name)
            mode = path.lstat().st_mode
            content = (
                _file_digest(path)
                if stat.S_ISREG(mode)
                else os.readlink(path).encode() if stat.S_ISLNK(mode) else b"%o" % stat.S_IFMT(mode)
            )
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + content + b"\0")
        folders.sort()
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
    timeout = case.extra.get("timeout")
    result = run_process(*case.args, cwd=project, timeout=timeout) if timeout else run_cli(*case.args, cwd=project)
    output = result.stdout + result.stderr
    assert result.returncode == case.exit_code, output
    assert case.message in output, output
    assert "Traceback" not in output
    if "absent" in case.extra:  # what a command must never print (a file it must not read)
        assert case.extra["absent"] not in output
    if "gone" in case.extra:
        assert not os.path.lexists(project / case.extra["gone"])
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
