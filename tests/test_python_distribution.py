"""The generated Python folder is a distribution: `generate` writes `python/pyproject.toml`
(its name and version from the settings, the generated code's requirements) and the
package's `py.typed`, so `pip install generated/python` makes `import <package>.<module>`
work without PYTHONPATH, and a user's `mypy --strict` checks calls into it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT, SCHEMAS, run_cli
from fresh_env import fresh_environment, pip_run
from mcp_contracts_generator.resources import GENERATED_CODE_REQUIREMENTS
from packaging.requirements import Requirement

USER_CODE_OK = """\
from contracts.tuitbot import ErrorCode, error_info, success_response

info = error_info(ErrorCode("db_error"))
reply = success_response(data={"id": 1})
print(info.retryable, reply.model_dump_json(exclude_unset=True))
"""
USER_CODE_WRONG = """\
from contracts.tuitbot import error_info

error_info(42)
"""


def _project(tmp_path: Path, settings: str = "") -> Path:
    shutil.copytree(SCHEMAS / "contracts" / "tuitbot", tmp_path / "schemas" / "contracts" / "tuitbot")
    (tmp_path / "pyproject.toml").write_text(f"[tool.mcp-contracts]\n{settings}", encoding="utf-8")
    return tmp_path


def test_the_python_folder_is_a_typed_distribution_named_by_the_settings(tmp_path: Path) -> None:
    project = _project(tmp_path, 'distribution = "billing-contracts"\ndistribution_version = "1.2.0"\n')
    assert run_cli("generate", cwd=project).returncode == 0
    folder = project / "generated" / "python"
    metadata = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    assert metadata["project"]["name"] == "billing-contracts"
    assert metadata["project"]["version"] == "1.2.0"
    assert metadata["project"]["dependencies"] == list(GENERATED_CODE_REQUIREMENTS)
    assert metadata["tool"]["flit"]["module"]["name"] == "contracts"  # the package, whatever the name
    assert (folder / "contracts" / "py.typed").read_bytes() == b""
    assert run_cli("check", "--full", cwd=project).returncode == 0


def test_without_settings_the_distribution_is_the_package_at_0_0_0(tmp_path: Path) -> None:
    project = _project(tmp_path, 'package = "billing_contracts"\n')
    assert run_cli("generate", cwd=project).returncode == 0
    metadata = tomllib.loads((project / "generated" / "python" / "pyproject.toml").read_text(encoding="utf-8"))
    assert (metadata["project"]["name"], metadata["project"]["version"]) == ("billing-contracts", "0.0.0")


def test_the_generated_pyproject_is_no_project_of_its_own(tmp_path: Path) -> None:
    """From inside `generated/python` (which now holds a pyproject.toml), the project is still
    the one above: without a section its defaults apply there, and paths show relative to it."""
    shutil.copytree(SCHEMAS / "contracts" / "tuitbot", tmp_path / "schemas" / "contracts" / "tuitbot")
    (tmp_path / ".git").mkdir()  # a project root without a pyproject.toml
    assert run_cli("generate", cwd=tmp_path).returncode == 0
    inside = tmp_path / "generated" / "python"
    assert (inside / "pyproject.toml").is_file()
    tools = tmp_path / "schemas" / "contracts" / "tuitbot" / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8").replace("description:", "description: ", 1), encoding="utf-8")
    again = run_cli("generate", cwd=inside)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "file(s) changed in .." in again.stdout or "is up to date" in again.stdout, again.stdout


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ('distribution = "-bad name"', "'-bad name' is not a distribution name (PEP 508)"),
        ('distribution = "name\\n"', "'name\\n' is not a distribution name (PEP 508)"),  # `$` let it by
        ('distribution_version = "one"', "'one' is not a version (PEP 440)"),
        ('distribution_version = "1.0-rc1"', "'1.0-rc1' is not a version (PEP 440)"),  # 1.0rc1 is what it means
    ],
)
def test_a_bad_name_or_version_is_refused_at_its_line(tmp_path: Path, setting: str, said: str) -> None:
    project = _project(tmp_path, f'package = "contracts"\n{setting}\n')
    result = run_cli("generate", cwd=project)
    assert result.returncode == 2
    assert f"pyproject.toml:3: {said}" in result.stdout + result.stderr
    assert not (project / "generated").exists()


def test_the_requirements_are_the_ranges_the_tool_tests_the_generated_code_with() -> None:
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    ranges = {Requirement(text).name: str(Requirement(text).specifier) for text in tool}
    for text in GENERATED_CODE_REQUIREMENTS:
        requirement = Requirement(text)
        assert ranges[requirement.name] == str(requirement.specifier), requirement.name


@pytest.mark.slow  # pip installs from the package index into a fresh environment
def test_pip_installs_it_and_a_users_mypy_strict_checks_calls_into_it(tmp_path: Path) -> None:
    project = _project(tmp_path / "project")
    assert run_cli("generate", cwd=project).returncode == 0
    python = fresh_environment(tmp_path / "venv")
    installed = pip_run(python, "install", project / "generated" / "python")
    assert installed.returncode == 0, installed.stderr
    assert run_cli("check", "--full", cwd=project).returncode == 0  # the build wrote nothing there
    user = tmp_path / "user"  # far from the output folder: only the installed package is found
    user.mkdir()
    (user / "ok.py").write_text(USER_CODE_OK, encoding="utf-8")
    (user / "wrong.py").write_text(USER_CODE_WRONG, encoding="utf-8")
    ran = subprocess.run([python, "ok.py"], cwd=user, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("True ")
    mypy = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable", python]
    assert subprocess.run([*mypy, "ok.py"], cwd=user, capture_output=True, text=True).returncode == 0
    wrong = subprocess.run([*mypy, "wrong.py"], cwd=user, capture_output=True, text=True)
    assert wrong.returncode == 1
    assert 'Argument 1 to "error_info" has incompatible type "int"; expected "str"' in wrong.stdout
    for typed in python.parent.parent.glob("lib/python*/site-packages/contracts/py.typed"):
        typed.unlink()
    untyped = subprocess.run([*mypy, "wrong.py"], cwd=user, capture_output=True, text=True)  # the marker counts
    assert "missing library stubs or py.typed marker" in untyped.stdout
