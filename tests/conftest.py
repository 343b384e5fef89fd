"""Shared paths and helpers for the test suite."""

from __future__ import annotations

import atexit
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from mcp_contracts_generator.cli import app
from typer.testing import CliRunner

# The session's environment of the reference MCP servers (the fixture `reference_servers`),
# loaded here once so that every test module may import from it.
pytest_plugins = ["reference_servers"]

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
GENERATED = ROOT / "generated"
CONTRACTS = ("code-scalpel", "foundry", "jsonrpc", "mcp-envelope", "tuitbot")
# The upstream data files and seed documents live beside the repository (../shared/).
SHARED = ROOT.parent / "shared"
REFERENCE = SHARED / "reference"
SEEDS = SHARED / "seeds"


def require_shared() -> None:
    """Skip the calling test module, with the reason shown, when ../shared is not beside the clone.

    CI sets MCP_CONTRACTS_REQUIRE_SHARED=1: there the absence fails the run instead.
    """
    if SHARED.is_dir():
        return
    reason = f"needs the upstream data beside the repository: {SHARED} is missing"
    if os.environ.get("MCP_CONTRACTS_REQUIRE_SHARED") == "1":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run the `mcp-contracts` command in this process (typer's CliRunner), from `cwd`.

    A real process costs a second of imports per run; `run_process` is for the few tests
    whose point is the process itself (hash seeds, `python -m`, standard input).
    """
    before = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    finally:
        os.chdir(before)
    return subprocess.CompletedProcess(list(args), result.exit_code, result.stdout, result.stderr)


def run_process(
    *args: str,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `python -m mcp_contracts_generator` as a user would, in a separate process."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "mcp_contracts_generator", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        input=input,
    )


def run_folder(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """A folder of this test run that every pytest-xdist worker sees (the workers' common parent)."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


@pytest.fixture(scope="session", autouse=True)
def plans_kept() -> Iterator[None]:
    """The suite renders the same sources again and again in one process: it keeps their
    plans (`api.plans_cached`, which a command run never turns on)."""
    from mcp_contracts_generator import api

    with api.plans_cached(api.PlanCache()):
        yield


@pytest.fixture(scope="session")
def generated_corpus(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Iterator[Path]:
    """The corpus project (tests/corpus_project.py), generated once for the run; the output folder."""
    from corpus_project import corpus_generated

    with corpus_generated(run_folder(tmp_path_factory, worker_id)) as out:
        yield out


@pytest.fixture(scope="session")
def reference() -> Path:
    require_shared()
    return REFERENCE


@pytest.fixture
def out_copy(tmp_path: Path) -> Path:
    """A private copy of this repository's output folder that a test may change."""
    target = tmp_path / "generated"
    shutil.copytree(GENERATED, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.fixture
def schemas_copy(tmp_path: Path) -> Path:
    """A private copy of the built-in schemas that a test may break."""
    target = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, target)
    return target


@pytest.fixture
def rpc_schemas(tmp_path: Path) -> Path:
    """A sources folder with one built-in contract, jsonrpc, for tests that render often."""
    target = tmp_path / "schemas"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", target / "contracts" / "jsonrpc")
    return target


# A one-contract project (the jsonrpc contract) as a user keeps it, generated once per module.
JSONRPC_PYPROJECT = '[tool.mcp-contracts]\nschemas = "schemas"\noutput = "generated"\npackage = "contracts"\n'
JSONRPC = Path("schemas") / "contracts" / "jsonrpc"


@pytest.fixture(scope="module")
def jsonrpc_generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The jsonrpc project, generated once for a module: tests change a copy (`jsonrpc_project`)."""
    project = tmp_path_factory.mktemp("jsonrpc") / "base"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / JSONRPC)
    (project / "pyproject.toml").write_text(JSONRPC_PYPROJECT, encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    return project


@pytest.fixture
def jsonrpc_project(jsonrpc_generated: Path, tmp_path: Path) -> Path:
    """A copy of `jsonrpc_generated` of this test's own."""
    copy = tmp_path / "project"
    shutil.copytree(jsonrpc_generated, copy, symlinks=True)
    return copy


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@contextmanager
def generated_package(out: Path, module: str, package: str = "mcp_contracts") -> Iterator[ModuleType]:
    """`<package>.<module>` imported from the output folder `out`, for the time of a block.

    A package of that name imported before is set aside meanwhile and restored after, so
    that a test can import a contract it generated into a temporary folder.
    """

    def ours() -> dict[str, ModuleType]:
        return {name: m for name, m in sys.modules.items() if name.partition(".")[0] == package}

    saved = ours()
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(out / "python"))
    try:
        yield importlib.import_module(f"{package}.{module}")
    finally:
        sys.path.remove(str(out / "python"))
        for name in ours():
            del sys.modules[name]
        sys.modules.update(saved)


def assert_report(report: Any, kind: str) -> None:
    """`report` meets the published schema of its JSON output (`schemas/meta/<kind>.schema.json`)."""
    from jsonschema import Draft202012Validator

    schema = load_json(SCHEMAS / "meta" / f"{kind}.schema.json")
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(report)]
    assert errors == [], errors


def pytest_configure(config: pytest.Config) -> None:
    # `check`'s cache of verdicts (generator/fingerprint.py) in a folder of this session, not
    # the user's cache folder; each process the tests start inherits it.
    cache = tempfile.mkdtemp(prefix="mcp-contracts-cache-")
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    os.environ["MCP_CONTRACTS_CACHE_DIR"] = cache
    config.addinivalue_line("markers", "first: a long test, started before the others")
    config.addinivalue_line(
        "markers",
        "slow: needs the package index, builds a wheel or a TypeScript package, runs a whole external"
        " suite, starts servers by the dozen, waits out a hang, or holds at another revision or variant"
        " what the default run holds once (its 4 minutes); run by `pytest -m slow` (CI runs it), not by default",
    )
    # Each rule of the registry has a test that makes it fire and one that keeps it quiet
    # (tests/test_rules.py reads these marks from the test files).
    config.addinivalue_line("markers", "fires(*rule_ids): the test makes these rules report a finding")
    config.addinivalue_line("markers", "quiet(*rule_ids): the test shows these rules silent where they should be")
    # pytest-xdist's own marker, named here too for a run without xdist (`-p no:xdist`).
    config.addinivalue_line("markers", "xdist_group(name): tests that one worker runs (`--dist loadgroup`)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Long tests first, so that the workers do not wait on one at the end."""
    items.sort(key=lambda item: item.get_closest_marker("first") is None)


@pytest.fixture(scope="session")
def node() -> str:
    """The `node` command of the TypeScript tests (see tests/typescript_toolchain.py)."""
    from typescript_toolchain import node_or_skip

    return node_or_skip()


@pytest.fixture(scope="session")
def built(node: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built-ins' TypeScript package, compiled once per worker: its folder (with `dist/`)."""
    from typescript_toolchain import PACKAGE, compile_package

    folder = tmp_path_factory.mktemp("ts") / "mcp_contracts"
    compiled = compile_package(PACKAGE, folder)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return folder
