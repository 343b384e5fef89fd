"""The README's walkthrough, as a user runs it: the wheel, a fresh environment, a repository of theirs.

The wheel is built from this checkout and installed into a new virtual environment
(its dependencies from the package index); the walkthrough then runs in a scratch git
repository with a `[tool.mcp-contracts]` section, from the repository and from a
subfolder. Nothing of this checkout is on that environment's path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT
from fresh_env import fresh_environment, pip_run

pytestmark = pytest.mark.slow  # half a minute of pip: `pytest -m slow`, which CI runs

PYPROJECT = """[project]
name = "billing-server"
version = "0.1.0"

[tool.mcp-contracts]
schemas = "contracts"
output = "generated"
package = "billing_contracts"
"""

NEW_CODE = """  - code: card_declined
    retryable: true
    http_status: 402
    message: The card was declined
    description: The issuer refused the charge.
"""


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, env={**clean, **(env or {})}, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"  # a copy: the build writes beside its sources, not in this checkout
    for part in ("pyproject.toml", "README.md", "LICENSE", "generator", "templates", "schemas/meta"):
        copy = shutil.copytree if (ROOT / part).is_dir() else shutil.copy
        (source / part).parent.mkdir(parents=True, exist_ok=True)
        copy(ROOT / part, source / part)
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", work / "dist", source, cwd=work)
    assert built.returncode == 0, built.stderr
    [built_wheel] = (work / "dist").glob("mcp_contracts-*.whl")
    return built_wheel


def test_the_wheel_carries_the_license_and_needs_neither_jsonschema_nor_mkdocs(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        [metadata] = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        assert "MIT License" in archive.read(metadata.replace("METADATA", "licenses/LICENSE")).decode("utf-8")
        lines = archive.read(metadata).decode("utf-8").splitlines()
    assert "License-Expression: MIT" in lines
    needs = [line.split(": ", 1)[1] for line in lines if line.startswith("Requires-Dist: ") and "extra ==" not in line]
    assert not [need for need in needs if need.startswith(("jsonschema<", "jsonschema>", "mkdocs"))], needs
    assert 'Requires-Dist: mkdocs<2,>=1.6.1; extra == "docs"' in lines


def _environment(folder: Path, *requirements: str | Path) -> Path:
    """The `bin/` folder of a fresh environment with `requirements` installed."""
    python = fresh_environment(folder)
    installed = pip_run(python, "install", *requirements, cwd=folder)
    assert installed.returncode == 0, installed.stderr
    return python.parent


@pytest.fixture(scope="module")
def tool(wheel: Path) -> Path:
    """The `bin/` folder of a fresh environment with the wheel of this checkout installed."""
    return _environment(wheel.parent.parent / "venv", wheel)


def test_it_installs_beside_a_server_on_mcp_1(wheel: Path, tmp_path: Path) -> None:
    """A server's own environment keeps its mcp 1.x: the tool generates there, and `mock` and
    `conform`, which need the SDK 2.x, say how to run them instead of failing on an import."""
    bin_dir = _environment(tmp_path / "server-env", "mcp==1.30.0")
    installed = pip_run(bin_dir / "python", "install", wheel, cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr
    shown = pip_run(bin_dir / "python", "show", "mcp", cwd=tmp_path)
    assert "Version: 1.30.0" in shown.stdout
    repo = tmp_path / "server"
    repo.mkdir()
    cli = bin_dir / "mcp-contracts"
    assert _run(cli, "init", "orders", cwd=repo).returncode == 0
    generated = _run(cli, "generate", cwd=repo)
    assert generated.returncode == 0, generated.stderr
    for command in (("mock", "--contract", "orders"), ("conform", "--contract", "orders", "--", "true")):
        refused = _run(cli, *command, cwd=repo)
        assert refused.returncode == 2, refused.stderr
        assert "needs the MCP SDK, mcp>=2.3,<3 (this environment has mcp 1.30.0)" in refused.stderr
        assert "pipx install 'mcp-contracts[mcp]'" in refused.stderr


# Schemas the fuzzer draws arguments from: the simplest object, properties with bounds, an
# enum, a pattern, a nested array.
DRAWN = [
    {"type": "object"},
    {
        "type": "object",
        "required": ["page"],
        "properties": {"page": {"type": "integer", "minimum": 1, "maximum": 100}, "kind": {"enum": ["a", "b"]}},
        "additionalProperties": False,
    },
    {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}}}},
]

DRAW = """\
import json, sys
import jsonschema_rs
from hypothesis import HealthCheck, given, settings
from mcp_contracts_generator.conformance.fuzzing.fuzz_draw import valid_strategy

found = []
for schema in json.loads(sys.argv[1]):
    judge = jsonschema_rs.validator_for(schema)
    drawing = valid_strategy(schema, lambda value: isinstance(value, dict) and judge.is_valid(value))
    drawn = []
    if drawing.strategy is not None:
        quick = settings(max_examples=20, database=None, suppress_health_check=list(HealthCheck))
        quick(given(drawing.strategy)(lambda value: drawn.append(value)))()
    distinct = len({json.dumps(value, sort_keys=True) for value in drawn})
    valid = all(map(judge.is_valid, drawn))
    found.append({"drawn_by": drawing.drawn_by, "degraded": drawing.degraded, "valid": valid, "distinct": distinct})
print(json.dumps(found))
"""


def test_fuzzing_draws_with_the_releases_the_mcp_extra_installs(wheel: Path, tmp_path: Path) -> None:
    """`pip install 'mcp-contracts[mcp]'` as a user runs it (the resolver's choice of hypothesis,
    not the test extra's pins): hypothesis-jsonschema draws through the tool's own fuzz code,
    and `conform --fuzz` against `mock` draws its tool's arguments with it, no `fuzz-degraded`."""
    bin_dir = _environment(tmp_path / "env", f"{wheel}[mcp]")
    releases = pip_run(bin_dir / "python", "show", "hypothesis", "hypothesis-jsonschema", cwd=tmp_path)
    drawn = _run(bin_dir / "python", "-c", DRAW, json.dumps(DRAWN), cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    for one in json.loads(drawn.stdout):
        assert one["drawn_by"] == "hypothesis-jsonschema" and one["degraded"] is None, (one, releases.stdout)
        assert one["valid"] and one["distinct"] > 3, one

    repo = tmp_path / "server"
    repo.mkdir()
    cli = bin_dir / "mcp-contracts"
    assert _run(cli, "init", "orders", cwd=repo).returncode == 0
    mock = ("--", bin_dir / "python", "-m", "mcp_contracts_generator", "mock", "--contract", "orders")
    fuzz = ("--fuzz", "10", "--seed", "1")
    fuzzed = _run(cli, "conform", "--contract", "orders", "--format", "json", *fuzz, *mock, cwd=repo)
    assert fuzzed.returncode == 0, fuzzed.stdout + fuzzed.stderr
    report = json.loads(fuzzed.stdout)
    assert report["findings"] == [], (report["findings"], releases.stdout)
    assert report["facts"]["fuzz"]["tools"]["example_tool"]["drawn_by"] == "hypothesis-jsonschema"
    assert report["facts"]["fuzz"]["tools"]["example_tool"]["valid"] > 3


def test_the_walkthrough_in_a_repository_of_ones_own(tool: Path, wheel: Path, tmp_path: Path) -> None:
    repo = tmp_path / "billing-server"
    (repo / "src" / "billing").mkdir(parents=True)
    assert _run("git", "init", "--quiet", cwd=repo).returncode == 0
    (repo / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    cli = tool / "mcp-contracts"

    created = _run(cli, "init", "billing-api", cwd=repo / "src")
    assert created.returncode == 0, created.stderr
    folder = repo / "contracts" / "contracts" / "billing-api"
    assert (folder / "contract.yaml").is_file()
    assert (repo / "pyproject.toml").read_text(encoding="utf-8") == PYPROJECT  # the section is kept

    # Add a code: to the catalogue and to the enum of the schema.
    errors = folder / "errors.yaml"
    errors.write_text(errors.read_text(encoding="utf-8") + NEW_CODE, encoding="utf-8")
    schema = folder / "envelope.schema.json"
    text = schema.read_text(encoding="utf-8").replace(
        '"enum": ["example_error"]', '"enum": ["example_error", "card_declined"]'
    )
    schema.write_text(text, encoding="utf-8")

    generated = _run(cli, "generate", cwd=repo / "src" / "billing")
    assert generated.returncode == 0, generated.stdout + generated.stderr
    package = repo / "generated" / "python" / "billing_contracts"
    assert (package / "billing_api" / "builders.py").is_file()

    use = (
        "import json\n"
        "from billing_contracts.billing_api import Envelope, ERRORS, error_info, error_response, success_response\n"
        "print(json.dumps({\n"
        "  'retryable': error_info('card_declined').retryable,\n"
        "  'failure': error_response('card_declined').model_dump(mode='json'),\n"
        "  'success': success_response(data={'id': 7}).model_dump(mode='json'),\n"
        "  'codes': sorted(code.value for code in ERRORS),\n"
        "}))\n"
    )
    installed = pip_run(tool / "python", "install", "-e", repo / "generated" / "python", cwd=repo)
    assert installed.returncode == 0, installed.stderr  # the walkthrough's `pip install -e generated/python`
    imported = _run(tool / "python", "-c", use, cwd=repo / "src")
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout) == {
        "retryable": True,
        "failure": {"success": False, "error": {"code": "card_declined", "message": "The card was declined"}},
        "success": {"success": True, "data": {"id": 7}},
        "codes": ["card_declined", "example_error"],
    }

    good, bad = repo / "good.json", repo / "bad.json"
    good.write_text('{"success": false, "error": {"code": "card_declined", "message": "no"}}', encoding="utf-8")
    bad.write_text('{"success": false, "error": {"code": "card_stolen", "message": "no"}}', encoding="utf-8")
    judged = _run(cli, "validate", "--contract", "billing-api", good, bad, cwd=repo / "src")
    assert judged.returncode == 1, judged.stderr
    assert judged.stdout.splitlines()[:2] == [f"{good}: valid", f"{bad}: invalid"]

    assert _run(cli, "check", cwd=repo).returncode == 0
    errors.write_text(errors.read_text(encoding="utf-8").replace("was declined\n", "was refused\n"), encoding="utf-8")
    drifted = _run(cli, "check", cwd=repo / "src")
    assert drifted.returncode == 1
    assert "changed  python/billing_contracts/billing_api/errors.py" in drifted.stdout

    # mkdocs is the `docs` extra: without it, `docs` says how to get it and writes nothing.
    refused = _run(cli, "docs", cwd=repo / "src")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "pip install 'mkdocs>=1.6.1,<2'" in refused.stderr  # the docs extra's requirement
    assert not (repo / "site").exists()
    with_docs = pip_run(tool / "python", "install", f"{wheel}[docs]", cwd=tmp_path)
    assert with_docs.returncode == 0, with_docs.stderr
    site = _run(cli, "docs", cwd=repo / "src")
    assert site.returncode == 0, site.stdout + site.stderr
    assert (repo / "site" / "billing-api" / "index.html").is_file()

    # The environment holds the tool and no contracts: neither the built-ins nor a generic name;
    # nor python-jsonschema, which only the tests use (the judge is jsonschema-rs).
    for name in ("mcp_contracts", "generator", "contracts", "jsonschema"):
        found = _run(tool / "python", "-c", f"import {name}", cwd=tmp_path)
        assert "ModuleNotFoundError" in found.stderr, name
    version = _run(cli, "--version", cwd=tmp_path)
    assert version.stdout.startswith("mcp-contracts 0.")
