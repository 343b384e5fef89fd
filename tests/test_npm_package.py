"""The npm package has the name (in npm's spelling) and version of the Python distribution,
the settings `distribution` and `distribution_version`, and `npm pack` builds it: its
package.json's `prepack` script compiles `dist/`. (npm packing it, and a server installing
the tarball: tests/test_install_end_to_end_typescript.py, under `slow`.)"""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest
from conftest import SCHEMAS, load_json, run_cli
from hypothesis import given
from hypothesis import strategies as st
from mcp_contracts_generator.config import DISTRIBUTION_NAME
from mcp_contracts_generator.render.typescript import npm_name
from packaging.utils import canonicalize_name

FOLDER = Path("generated") / "typescript" / "tuitbot_contracts"  # the package's, named after the project


def _project(tmp_path: Path, settings: str) -> Path:
    shutil.copytree(SCHEMAS / "contracts" / "tuitbot", tmp_path / "schemas" / "contracts" / "tuitbot")
    (tmp_path / "pyproject.toml").write_text(f"[tool.mcp-contracts]\n{settings}", encoding="utf-8")
    return tmp_path


def test_the_npm_package_has_the_distributions_name_and_version(tmp_path: Path) -> None:
    project = _project(
        tmp_path, 'languages = ["typescript"]\ndistribution = "Billing.Contracts_API"\ndistribution_version = "1.2.0"\n'
    )
    assert run_cli("generate", cwd=project).returncode == 0
    package = load_json(project / FOLDER / "package.json")
    assert (package["name"], package["version"]) == ("billing-contracts-api", "1.2.0")
    assert package["scripts"] == {"build": "tsc", "prepack": "tsc"}  # `npm pack` compiles dist/ first
    readme = (project / FOLDER / "README.md").read_text(encoding="utf-8")
    assert "# billing-contracts-api\n" in readme
    assert "`billing-contracts-api-1.2.0.tgz`" in readme and "| `billing-contracts-api/tuitbot` |" in readme
    page = (project / "generated" / "docs" / "tuitbot.md").read_text(encoding="utf-8")
    assert "billing-contracts-api/tuitbot" in page  # without Python, the page names the npm module
    assert run_cli("check", "--full", cwd=project).returncode == 0


def test_without_settings_both_are_named_after_the_project_at_its_version(tmp_path: Path) -> None:
    """No `[project]`: the first contract names them both, at its `version:` (tuitbot's 1.0.0)."""
    project = _project(tmp_path, 'package = "billing_contracts"\nlanguages = ["python", "typescript"]\n')
    assert run_cli("generate", cwd=project).returncode == 0
    package = load_json(project / "generated" / "typescript" / "billing_contracts" / "package.json")
    python = tomllib.loads((project / "generated" / "python" / "pyproject.toml").read_text(encoding="utf-8"))
    assert (package["name"], package["version"]) == ("tuitbot-contracts", "1.0.0")
    assert (python["project"]["name"], python["project"]["version"]) == ("tuitbot-contracts", "1.0.0")


@given(st.from_regex(DISTRIBUTION_NAME.pattern, fullmatch=True))
def test_every_distribution_name_is_an_npm_name_that_pip_reads_as_the_same(name: str) -> None:
    npm = npm_name("contracts", name)
    assert npm == canonicalize_name(name)  # the name pip installs, as pip compares names
    # npm's rules: lower case, URL-safe, starting with neither `.` nor `_`.
    assert re.fullmatch(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?", npm), npm


@pytest.mark.parametrize("version", ["1.0", "1.0.0rc1", "1.0.0.post1", "1!1.0.0", "1.0.0.1"])
def test_a_version_npm_does_not_take_is_refused_with_typescript_only(tmp_path: Path, version: str) -> None:
    languages = 'languages = ["python", "typescript"]\n'
    project = _project(tmp_path, f'{languages}distribution_version = "{version}"\n')
    result = run_cli("generate", cwd=project)
    assert result.returncode == 2
    said = f"pyproject.toml:3: {version!r} is no version npm takes: the npm package has this version too"
    assert said in result.stdout + result.stderr
    assert not (project / "generated").exists()
    python_only = project / "pyproject.toml"
    python_only.write_text(python_only.read_text(encoding="utf-8").replace(languages, ""), encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0  # PEP 440 takes it: pip alone does
