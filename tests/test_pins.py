"""`generate` and `check` refuse a black or datamodel-code-generator other than the pinned release
(installed with `pip --no-deps`, or over the tool's own afterwards): the bytes would differ from
every other machine's. The pins come from the installed mcp-contracts' own requirements.

The refusal is seen in a real process whose environment holds another black's metadata: a
`black-24.10.0.dist-info` folder first on its path, which `importlib.metadata` finds before
the installed one, as it finds the only one where pip has put black 24.10.0 in place of the pin.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

from conftest import ROOT, run_cli, run_process
from mcp_contracts_generator.fingerprint import PINNED
from mcp_contracts_generator.render import typescript
from mcp_contracts_generator.render.pins import mismatches, pin_problem, pinned
from packaging.requirements import Requirement

# What pyproject.toml pins exactly, read from the file the metadata is built from.
PINS = {
    Requirement(line).name: line.split("==", 1)[1]
    for line in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    if "==" in line
}


def test_the_pins_are_the_exact_requirements_of_the_installed_tool() -> None:
    from importlib.metadata import requires

    assert pinned(requires("mcp-contracts") or []) == PINS
    assert sorted(PINS) == sorted(PINNED)  # what the fingerprint records the versions of
    assert pin_problem() is None  # this environment has them


def test_only_an_unmarked_exact_pin_is_a_pin() -> None:
    lines = ["black==26.10.1", "pydantic>=2.14.3,<3", 'pytest==9.0.3; extra == "test"', "ruff==0.17.6,!=0.17.5"]
    assert pinned(lines) == {"black": "26.10.1"}


def test_a_release_other_than_the_pin_is_named_with_both_versions() -> None:
    wanted = {"black": "26.10.1", "datamodel-code-generator": "0.89.0"}
    assert mismatches(wanted, dict(wanted)) is None
    said = mismatches(wanted, {"black": "24.10.0", "datamodel-code-generator": None})
    assert said is not None
    assert "black==26.10.1 (this environment has black 24.10.0)" in said
    assert "datamodel-code-generator==0.89.0 (this environment has no datamodel-code-generator)" in said
    assert "uv tool install './mcp-contracts[mcp]'" in said
    only_one = mismatches(wanted, {"black": "26.10.1", "datamodel-code-generator": "0.88.0"})
    assert only_one is not None and "black==" not in only_one and "(this environment has datamodel" in only_one


def _another_black(folder: Path, release: str) -> dict[str, str]:
    """The environment variables of a process that finds black `release` installed."""
    info = folder / f"black-{release}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: black\nVersion: {release}\n", encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    return {"PYTHONPATH": path}


def test_generate_and_check_refuse_another_black_and_write_nothing(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert run_cli("init", "billing-api", cwd=project).returncode == 0
    before = sorted(path.relative_to(project) for path in project.rglob("*"))
    env = _another_black(tmp_path / "elsewhere", "24.10.0")
    said = f"black=={PINS['black']} (this environment has black 24.10.0)"
    for command in ("generate", "check"):
        refused = run_process(command, cwd=project, env=env)
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert said in refused.stdout + refused.stderr
        assert "datamodel-code-generator==" not in refused.stdout + refused.stderr  # that one is the pin
    assert sorted(path.relative_to(project) for path in project.rglob("*")) == before  # nothing written
    assert run_process("generate", cwd=project).returncode == 0  # the pinned black, as installed


def test_a_typescript_only_project_needs_neither_pin(tmp_path: Path) -> None:
    """Neither black nor datamodel-code-generator writes a byte of TypeScript: another black's
    release refuses nothing there."""
    project = tmp_path / "project"
    project.mkdir()
    assert run_cli("init", "billing-api", cwd=project).returncode == 0
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace('languages = ["python"]', 'languages = ["typescript"]'), encoding="utf-8")
    env = _another_black(tmp_path / "elsewhere", "24.10.0")
    generated = run_process("generate", cwd=project, env=env)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert (project / "generated" / "typescript").is_dir() and not (project / "generated" / "python").exists()


def test_the_zod_releases_judged_hooks_are_the_range_the_package_pins_and_the_tests_run() -> None:
    """The runtime's zod.ts takes zod's internals on `TESTED` only (first in, second out): the
    generated package's `~` pin allows exactly those releases, and the tests run one of them."""
    text = (ROOT / "generator" / "typescript" / "zod.ts").read_text(encoding="utf-8")
    found = re.search(r"TESTED = \[\s*\[(\d+), (\d+), (\d+)\],\s*\[(\d+), (\d+), (\d+)\],\s*\]", text)
    assert found is not None, "zod.ts names no TESTED range"
    numbers = [int(n) for n in found.groups()]
    first, last = tuple(numbers[:3]), tuple(numbers[3:])
    assert typescript.ZOD.startswith("~")
    pinned_first = tuple(int(n) for n in typescript.ZOD[1:].split("."))
    assert (pinned_first, (pinned_first[0], pinned_first[1] + 1, 0)) == (first, last)
    tests_zod = json.loads((ROOT / "tests" / "ts" / "package.json").read_text(encoding="utf-8"))["dependencies"]["zod"]
    assert first <= tuple(int(n) for n in tests_zod.split(".")) < last
