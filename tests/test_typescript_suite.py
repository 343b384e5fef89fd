"""The official JSON Schema Test Suite through the generated TypeScript (issue 21).

Every group of the required files of draft 2020-12 and draft-07 (and, with `formats: assert`,
of the optional format files) becomes a contract, generated
with `languages = ["python", "typescript"]` (tests/suite/run_suite.py --typescript); the
TypeScript package is compiled with tsc, and each instance is judged by its module's
`validate` and `isEnvelope` (tests/ts/judge_suite.mjs): the suite's verdict on every one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SHARED, require_shared
from test_json_schema_suite import REQUIRED
from test_typescript_package import TS, compile_package, node_or_skip

require_shared()
SUITE = SHARED / "jsts"
pytestmark = pytest.mark.first


@pytest.mark.parametrize("draft", sorted(REQUIRED))
def test_the_typescript_judge_gives_the_suites_verdict(tmp_path: Path, draft: str) -> None:
    assert judged_by_typescript(tmp_path, "--draft", draft) == REQUIRED[draft]


def test_the_typescript_judge_gives_the_format_files_verdict_when_formats_are_asserted(tmp_path: Path) -> None:
    assert judged_by_typescript(tmp_path, "--formats") == 764 + 676


def judged_by_typescript(tmp_path: Path, *flags: str) -> int:
    """Generate the suite's groups with TypeScript, compile, judge; the instances judged, all
    of them with the suite's verdict."""
    node = node_or_skip()
    runner = ROOT / "tests" / "suite" / "run_suite.py"
    made = subprocess.run(
        [sys.executable, str(runner), str(SUITE), str(tmp_path), *flags, "--typescript"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    generated = json.loads(made.stdout)
    assert generated["problems"] == []
    compiled = compile_package(tmp_path / "generated" / "typescript" / "suite_contracts", tmp_path / "built")
    assert compiled.returncode == 0, compiled.stdout[-4000:]
    judged = subprocess.run(
        [node, str(TS / "judge_suite.mjs"), str(tmp_path / "built" / "dist"), str(tmp_path / "cases.json")],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert judged.returncode == 0, judged.stderr
    report = json.loads(judged.stdout)
    assert report["wrong"] == []
    assert report["instances"] == generated["instances"]
    return int(report["instances"])
