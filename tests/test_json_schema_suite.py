"""The official JSON Schema Test Suite, through the generator: the schema is the judge.

Every group of the required files of draft 2020-12 and draft-07 generates, and both
`validate` and the root model's `model_validate_json` give the suite's verdict on every
instance; with `formats: assert`, so do the optional format files. The run happens in
a process of its own (tests/suite/run_suite.py): its generated package is not the
built-in one this process imports.

The same run generates TypeScript too (issue 21): its package is compiled with tsc, and each
instance is judged by its module's `validate` and `isEnvelope` (tests/ts/judge_suite.mjs),
which give the suite's verdict on every one as well.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SHARED, require_shared
from typescript_toolchain import compile_package, run_script

require_shared()
SUITE = SHARED / "jsts"
# Long tests: started before the short ones, and under `slow` (each generates about a thousand
# contracts and compiles their TypeScript); CI runs them.
pytestmark = [pytest.mark.first, pytest.mark.slow]


def run_suite(tmp_path: Path, *flags: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "suite" / "run_suite.py"), str(SUITE), str(tmp_path), *flags],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    report: dict[str, object] = json.loads(result.stdout)
    report["typescript"] = judged_by_typescript(tmp_path)
    return report


def judged_by_typescript(work: Path) -> dict[str, object]:
    """The report of tests/ts/judge_suite.mjs on the TypeScript the run generated."""
    compiled = compile_package(work / "generated" / "typescript" / "suite_contracts", work / "built")
    assert compiled.returncode == 0, compiled.stdout[-4000:]
    report: dict[str, object] = run_script("judge_suite.mjs", work / "built" / "dist", spec=work / "cases.json")
    return report


# Required instances of each draft in this copy of the suite; one test each, so that two
# workers run them side by side.
REQUIRED = {"draft2020-12": 1299, "draft7": 927}


@pytest.mark.parametrize("draft", sorted(REQUIRED))
def test_required_files_give_the_suites_verdict(tmp_path: Path, draft: str) -> None:
    report = run_suite(tmp_path, "--draft", draft)
    assert report["problems"] == []
    assert report["wrong"] == []
    assert report["instances"] == REQUIRED[draft], report["instances"]
    assert report["typescript"] == {"instances": REQUIRED[draft], "wrong": []}


def test_format_files_give_the_suites_verdict_when_formats_are_asserted(tmp_path: Path) -> None:
    report = run_suite(tmp_path, "--formats")
    assert report["problems"] == []
    assert report["wrong"] == []
    assert report["instances"] == 764 + 676, report["instances"]
    assert report["typescript"] == {"instances": 764 + 676, "wrong": []}
