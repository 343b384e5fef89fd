"""The two installs the README leads with: the tool in an environment of its own, and what it
generates in a server's.

`uv tool install './mcp-contracts[mcp]'` from a copy of this checkout (the build writes beside
its sources) into a tool folder of the test's own (UV_TOOL_DIR, UV_TOOL_BIN_DIR, UV_CACHE_DIR),
then `init`, `generate`, `check` and `conform` of init's server in a project of its own. The
generated package then installs into a fresh environment beside a server's own pins, black
24 and isort 5 (which the tool's exact pin of black refuses to share an environment with),
the MCP SDK 2.x and the lowest pydantic the package allows, and builds an envelope there.

Under `slow`: both install from the package index.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import GENERATED, ROOT
from fresh_env import fresh_environment, pip_run
from packaging.requirements import Requirement

pytestmark = pytest.mark.slow

# What a wheel of the tool is built from (pyproject.toml's package-dir and package-data).
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "generator", "templates", "schemas/meta")
# A server's own pins that the tool's cannot live beside.
SERVER_PINS = ("black==24.10.0", "isort==5.13.2")


def _clean_env(**more: str) -> dict[str, str]:
    unset = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    return {**{k: v for k, v in os.environ.items() if k not in unset}, **more}


def _run(*args: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=900
    )


def _copy_of_the_checkout(folder: Path) -> Path:
    for part in SOURCES:
        (folder / part).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / part).is_dir():
            shutil.copytree(ROOT / part, folder / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / part, folder / part)
    return folder


def test_uv_tool_install_of_the_checkout_runs_init_generate_check_and_conform(tmp_path: Path) -> None:
    _copy_of_the_checkout(tmp_path / "mcp-contracts")
    tools, bin_dir = tmp_path / "uv-tools", tmp_path / "uv-bin"
    env = _clean_env(
        UV_TOOL_DIR=str(tools),
        UV_TOOL_BIN_DIR=str(bin_dir),
        UV_CACHE_DIR=str(tmp_path / "uv-cache"),
        UV_PYTHON_DOWNLOADS="never",  # the interpreter that runs the tests: no download
        UV_NO_CONFIG="1",
    )
    from uv import find_uv_bin  # the test extra's: imported here, so that collecting needs no uv

    uv = find_uv_bin()
    installed = _run(uv, "tool", "install", "--python", sys.executable, "./mcp-contracts[mcp]", cwd=tmp_path, env=env)
    assert installed.returncode == 0, installed.stderr
    cli = bin_dir / "mcp-contracts"
    tool_python = tools / "mcp-contracts" / "bin" / "python"
    versions = _run(tool_python, "-c", VERSIONS, "black", "datamodel-code-generator", "mcp", cwd=tmp_path, env=env)
    pins = {
        Requirement(line).name: line.split("==")[1] for line in _dependencies(ROOT / "pyproject.toml") if "==" in line
    }
    found = json.loads(versions.stdout)
    assert {name: found[name] for name in pins} == pins  # the tool's environment holds its pins
    assert found["mcp"].startswith("2.")  # the extra

    project = tmp_path / "billing"
    project.mkdir()
    for command in (("init", "billing-api"), ("generate",), ("check",), ("lint",)):
        done = _run(cli, *command, cwd=project, env=env)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert (project / "generated" / "python" / "billing_api_contracts" / "billing_api" / "tools.py").is_file()
    # init's server, run by an interpreter that has what the generated package needs (the
    # tool's: pydantic, jsonschema-rs, msgspec and the MCP SDK), the package found on its path.
    server = ("env", "PYTHONPATH=generated/python", tool_python, "billing_api_server.py")
    conformed = _run(
        cli, "conform", "--contract", "billing-api", "--timeout", "60", "--", *server, cwd=project, env=env
    )
    assert conformed.returncode == 0, conformed.stdout + conformed.stderr
    assert "conforms to billing-api" in conformed.stdout
    assert _run(cli, "check", "--full", cwd=project, env=env).returncode == 0  # conform wrote nothing


VERSIONS = """\
import json, sys
from importlib.metadata import version
print(json.dumps({name: version(name) for name in sys.argv[1:]}))
"""

BUILD = """\
from mcp_contracts.tuitbot import ErrorCode, error_info, error_response, success_response
from mcp_contracts.code_scalpel import tools

print(error_response("db_error", "The database is down").model_dump_json())
print(success_response(data={"id": 1}).model_dump_json(exclude_unset=True))
print(error_info(ErrorCode("db_error")).retryable, tools.Handlers.__name__)
"""


def _dependencies(pyproject: Path) -> list[str]:
    return list(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"])


def test_the_generated_package_installs_beside_a_servers_pins(tmp_path: Path) -> None:
    package = tmp_path / "python"  # a copy: pip builds beside its sources, not in this checkout
    shutil.copytree(GENERATED / "python", package, ignore=shutil.ignore_patterns("__pycache__"))
    [pydantic] = [
        Requirement(line) for line in _dependencies(package / "pyproject.toml") if line.startswith("pydantic")
    ]
    [lowest] = [spec.version for spec in pydantic.specifier if spec.operator == ">="]
    python = fresh_environment(tmp_path / "server-env")
    wanted = (*SERVER_PINS, f"pydantic=={lowest}", "mcp>=2.3,<3")
    installed = pip_run(python, "install", f"{package}[mcp]", *wanted, cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr
    assert pip_run(python, "check", cwd=tmp_path).returncode == 0
    env = _clean_env()
    versions = _run(python, "-c", VERSIONS, "black", "isort", "pydantic", "mcp", cwd=tmp_path, env=env)
    found = json.loads(versions.stdout)
    assert (found["black"], found["isort"], found["pydantic"]) == ("24.10.0", "5.13.2", lowest)
    assert found["mcp"].startswith("2.")
    built = _run(python, "-c", BUILD, cwd=tmp_path, env=env)
    assert built.returncode == 0, built.stderr
    error, success, facts = built.stdout.splitlines()
    assert json.loads(error)["error"]["code"] == "db_error"
    assert json.loads(success) == {"success": True, "data": {"id": 1}}
    assert facts.split() == ["True", "Handlers"]
