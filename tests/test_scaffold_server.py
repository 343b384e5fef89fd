"""`mcp-contracts init` writes a server on the generated `Handlers` beside the sources (issue 48,
point 6): a dozen lines that answer the scaffolded tool's example call with its example, conform
fuzzed at every revision the scaffold declares with no finding at all, and pass `mypy --strict`,
which refuses the same server with its handler misspelt (`@override` of nothing). The server
and the client docs/python.md shows do the same on tests/contracts/billing-api, as written. Where
TypeScript is generated, `<module>_server.ts` beside it is the same server on the npm package's
`Handlers`: compiled by `tsc --strict` as its comment says, it conforms fuzzed at each revision
the TypeScript SDK speaks, and tsc refuses it with its handler misspelt.

The server is `<module>_server.py` beside the sources folder (the project root in the usual
layout), not in the contract folder: a contract folder holds the contract alone, language-free,
as a buf module holds its .proto files and the code that serves them lives in the project.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from conform_json import conform_report
from conftest import ROOT, generated_package, run_cli
from forkserver import python
from handlers_projects import SDK_REVISIONS
from mcp_contracts_generator.protocol import VERSIONS
from pydantic import ValidationError
from typescript_toolchain import TS, compile_package, node_or_skip

SERVER = "billing_api_server.py"
PAGE = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
BILLING = ROOT / "tests" / "contracts" / "billing-api"  # the docs' contract: `charge`
FUZZ = ("--fuzz", "10", "--seed", "1")


def _block(opening: str) -> str:
    """The Python code block of docs/python.md that starts with `opening`."""
    found = re.search(rf"```python\n({re.escape(opening)}.*?)```", PAGE, re.DOTALL)
    assert found, f"no block of docs/python.md starts with {opening!r}"
    return found.group(1)


def _conform(project: Path, server: Path, contract: str, *flags: str) -> dict[str, Any]:
    """`conform --fuzz 10 --seed 1` of `server` at every revision the contract declares, with no
    finding at all: its report."""
    flags = ("--contract", contract, "--format", "json", *FUZZ, *flags)
    result = run_cli("conform", *flags, "--", *python(str(server)), cwd=project)
    report = conform_report(result.stdout)
    assert report["problem"] is None, report["problem"]
    assert report["findings"] == [], report["findings"]
    assert (result.returncode, report["conforms"]) == (0, True)
    assert report["revisions"] == list(VERSIONS)
    assert report["calls_failed"] == 0  # each example call got its example
    return report


def _mypy(path: Path, generated: Path) -> subprocess.CompletedProcess[str]:
    """`mypy --strict` on `path`, the generated package found as an installed one would be
    (its cache beside the project, so that a second run checks the package once)."""
    env = {**os.environ, "MYPYPATH": str(generated / "python")}
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(path.parent / ".mypy_cache"), str(path)]
    return subprocess.run(command, cwd=path.parent, env=env, capture_output=True, text=True, check=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`init billing-api` then `generate`, the generated package on the PYTHONPATH servers inherit."""
    created = run_cli("init", "billing-api", cwd=tmp_path)
    assert created.returncode == 0, created.stdout + created.stderr
    assert SERVER in created.stdout  # the report names it among the files made
    generated = run_cli("generate", cwd=tmp_path)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    paths = [str(tmp_path / "generated" / "python"), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    return tmp_path


def test_init_writes_a_dozen_line_server_beside_the_sources(project: Path) -> None:
    server = project / SERVER
    code = [line for line in server.read_text(encoding="utf-8").splitlines() if line.strip()]
    body = [line for line in code if not line.lstrip().startswith("#")]
    assert len(body) <= 16, body  # a dozen lines, its docstring and imports counted
    assert "class BillingApi(tools.Handlers):" in code
    folder = project / "schemas" / "contracts" / "billing-api"
    assert not list(folder.rglob("*.py"))  # the contract folder holds the contract alone
    assert run_cli("check", cwd=project).returncode == 0  # nothing `generate` or `check` reads
    assert run_cli("lint", cwd=project).returncode == 0


@pytest.mark.slow
def test_the_scaffolded_server_conforms_fuzzed_at_every_revision(project: Path) -> None:
    report = _conform(project, project / SERVER, "billing-api")  # every revision the scaffold declares
    assert sorted(report["fuzz"]["tools"]) == ["example_tool"]


@pytest.mark.slow
def test_mypy_strict_passes_on_the_server_and_refuses_a_misspelt_handler(project: Path) -> None:
    server = project / SERVER
    checked = _mypy(server, project / "generated")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    misspelt = project / "misspelt_server.py"
    misspelt.write_text(server.read_text(encoding="utf-8").replace("def example_tool", "def example_tol"))
    refused = _mypy(misspelt, project / "generated")
    assert refused.returncode == 1, refused.stdout
    assert '"example_tol" is marked as an override, but no base method was found' in refused.stdout


def test_init_keeps_a_server_file_of_yours_and_writes_none_without_python(tmp_path: Path) -> None:
    mine = tmp_path / SERVER
    mine.write_text("# mine\n", encoding="utf-8")
    created = run_cli("init", "billing-api", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert mine.read_text(encoding="utf-8") == "# mine\n" and SERVER not in created.stdout
    typescript = tmp_path / "ts"
    typescript.mkdir()
    (typescript / "pyproject.toml").write_text('[tool.mcp-contracts]\nlanguages = ["typescript"]\n', encoding="utf-8")
    assert run_cli("init", "orders", cwd=typescript).returncode == 0
    assert not list(typescript.glob("*.py"))  # a TypeScript project gets no Python server


@pytest.fixture
def billing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tests/contracts/billing-api generated as the docs' project has it (the package named after
    its one contract, `billing_api_contracts`), with the docs' server in `billing_server.py`."""
    shutil.copytree(BILLING, tmp_path / "schemas" / "contracts" / "billing-api")
    (tmp_path / "pyproject.toml").write_text("[tool.mcp-contracts]\n", encoding="utf-8")
    generated = run_cli("generate", cwd=tmp_path)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    (tmp_path / "billing_server.py").write_text(_block("from typing_extensions import override"), encoding="utf-8")
    paths = [str(tmp_path / "generated" / "python"), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    return tmp_path


@pytest.mark.slow
def test_the_docs_server_conforms_fuzzed_and_its_recipes_pass_mypy_strict(billing: Path) -> None:
    """`charge` may change its world (readOnlyHint false): conform fuzzes it when told to. Its
    `cents` has no bound, so 10^4300 is among the arguments: answered, not dropped."""
    report = _conform(billing, billing / "billing_server.py", "billing-api", "--call-tool", "charge")
    assert report["fuzz"]["tools"]["charge"]["domain_answers"] > 0  # card_declined past 50,000 cents
    client = billing / "billing_client.py"
    client.write_text(
        _block("from mcp import ClientSession\nfrom billing_api_contracts.billing_api.tools import Client")
    )
    for recipe in (billing / "billing_server.py", client):
        checked = _mypy(recipe, billing / "generated")
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_docs_client_gets_the_envelope_and_refuses_before_sending(billing: Path) -> None:
    """The page's client on the page's server, in memory: a success and an error envelope as
    models, and arguments the contract refuses raised before any request."""
    from mcp import Client as Connection

    with generated_package(billing / "generated", "billing_api", package="billing_api_contracts") as package:
        served: dict[str, Any] = {"__name__": "billing_server"}
        exec(_block("from typing_extensions import override"), served)
        client: dict[str, Any] = {}
        exec(
            _block("from mcp import ClientSession\nfrom billing_api_contracts.billing_api.tools import Client"), client
        )

        async def calls() -> list[Any]:
            async with Connection(served["server"](served["Billing"]()).lowlevel) as connected:
                said = [await client["pay"](connected.session, cents) for cents in (100, 60_000)]
                with pytest.raises(ValidationError):
                    await package.tools.Client(connected.session).charge(card_id="4242", cents="100")
                return said

        assert anyio.run(calls) == ["charged: {'id': 7}", "refused: card_declined"]


@pytest.mark.parametrize("name", ["none", "true", "a-1"])
def test_the_server_of_any_name_init_takes_compiles(tmp_path: Path, name: str) -> None:
    """`None`, `True`: a contract name whose class name would be a keyword gets one with `_`."""
    assert run_cli("init", name, cwd=tmp_path).returncode == 0
    server = tmp_path / f"{name.replace('-', '_')}_server.py"
    compile(server.read_text(encoding="utf-8"), str(server), "exec")


# TypeScript (issue 48, point 6: "the same holds in TypeScript"): a project whose languages
# include typescript gets `<module>_server.ts` where the Python server goes, on the generated
# npm package's `Handlers` and `server()`, imported by the package's name as its users import it.
TS_SERVER = "billing_api_server.ts"
BOTH = '[tool.mcp-contracts]\nlanguages = ["python", "typescript"]\n'


def _typescript_init(folder: Path, settings: str = BOTH) -> subprocess.CompletedProcess[str]:
    folder.mkdir(exist_ok=True)
    (folder / "pyproject.toml").write_text(settings, encoding="utf-8")
    return run_cli("init", "billing-api", cwd=folder)


def test_init_writes_a_dozen_line_typescript_server_where_typescript_is_generated(tmp_path: Path) -> None:
    created = _typescript_init(tmp_path)
    assert created.returncode == 0, created.stdout + created.stderr
    assert SERVER in created.stdout and TS_SERVER in created.stdout  # both named among the files made
    code = [line for line in (tmp_path / TS_SERVER).read_text(encoding="utf-8").splitlines() if line.strip()]
    body = [line for line in code if not line.lstrip().startswith("//")]
    assert len(body) <= 16, body  # a dozen lines, imports counted
    # the npm package by its name (the project's: `<project>-contracts`), as users import it
    assert 'from "billing-api-contracts/billing_api";' in body[1]
    assert "const handlers: Handlers = {" in body
    page = (ROOT / "docs" / "typescript.md").read_text(encoding="utf-8")  # the page shows it as written
    shown = re.search(r"```ts\n(import \{ StdioServerTransport.*?)```", page, re.DOTALL)
    assert shown and (tmp_path / TS_SERVER).read_text(encoding="utf-8").endswith("\n" + shown.group(1))
    assert run_cli("generate", cwd=tmp_path).returncode == 0
    assert run_cli("check", cwd=tmp_path).returncode == 0  # nothing `generate` or `check` reads
    alone = tmp_path / "ts"  # TypeScript alone, an npm name of the settings' distribution, a server of yours
    alone.mkdir()
    (alone / TS_SERVER).write_text("// mine\n", encoding="utf-8")
    alone_settings = '[tool.mcp-contracts]\nlanguages = ["typescript"]\ndistribution = "Acme.Billing"\n'
    created = _typescript_init(alone, alone_settings)
    assert created.returncode == 0, created.stdout + created.stderr
    assert (alone / TS_SERVER).read_text(encoding="utf-8") == "// mine\n" and TS_SERVER not in created.stdout
    assert not list(alone.glob("*.py"))
    other = run_cli("init", "orders", cwd=alone)
    assert other.returncode == 0 and "orders_server.ts" in other.stdout
    assert 'from "acme-billing/orders";' in (alone / "orders_server.ts").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def typescript_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`init billing-api` and `generate` with TypeScript, the npm package compiled (tsc --strict)
    and linked into the project's node_modules beside the SDK it uses (one copy, as npm installs
    the packed package and the SDK: tests/test_install_end_to_end_typescript.py takes that road
    through npm); the project ESM ("type": "module"), as the server's comment asks."""
    node_or_skip("typescript", "zod", "@modelcontextprotocol/sdk")
    project = tmp_path_factory.mktemp("typescript")
    created = _typescript_init(project)
    assert created.returncode == 0, created.stdout + created.stderr
    generated = run_cli("generate", cwd=project)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    package = project / "build" / "billing-api-contracts"
    built = compile_package(project / "generated" / "typescript" / "billing_api_contracts", package)
    assert built.returncode == 0, built.stdout + built.stderr
    modules = project / "node_modules"
    modules.mkdir()
    (modules / "billing-api-contracts").symlink_to(package, target_is_directory=True)
    (modules / "@modelcontextprotocol").symlink_to(TS / "node_modules" / "@modelcontextprotocol", True)
    (project / "package.json").write_text('{"private": true, "type": "module"}\n', encoding="utf-8")
    return project


def _tsc(project: Path, source: str) -> subprocess.CompletedProcess[str]:
    """The `npx tsc --strict ...` the server's comment gives, on the one file `source` of `project`
    (compiled beside it), with the tests' tsc."""
    comment = " ".join(line.removeprefix("//") for line in (project / TS_SERVER).read_text().splitlines()[:6])
    said = re.search(r"`npx tsc (--strict [^`]*) billing_api_server\.ts`", comment)
    assert said, comment
    command = [str(TS / "node_modules" / ".bin" / "tsc"), *said.group(1).split(), source]
    return subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.slow
def test_the_scaffolded_typescript_server_compiles_strict_and_conforms_fuzzed(typescript_project: Path) -> None:
    """At each revision the TypeScript SDK speaks (1.32.2 does not answer 2026-07-28), its
    example call answered with its example, fuzzed, no finding at all."""
    compiled = _tsc(typescript_project, TS_SERVER)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    protocols = [flag for revision in SDK_REVISIONS for flag in ("--protocol", revision)]
    flags = ("--contract", "billing-api", "--format", "json", *FUZZ, "--call-tool", "example_tool", *protocols)
    server = (node_or_skip(), str(typescript_project / "billing_api_server.js"))
    result = run_cli("conform", *flags, "--", *server, cwd=typescript_project)
    report = conform_report(result.stdout)
    assert report["problem"] is None, report["problem"]
    assert report["findings"] == [], report["findings"]
    assert (result.returncode, report["conforms"], report["calls_failed"]) == (0, True, 0)
    assert report["revisions"] == list(SDK_REVISIONS)
    assert sorted(report["fuzz"]["tools"]) == ["example_tool"]


@pytest.mark.slow
def test_tsc_strict_refuses_the_typescript_server_with_its_handler_misspelt(typescript_project: Path) -> None:
    """`Handlers` is an object type: a method named like no tool of the contract is an excess property."""
    server = (typescript_project / TS_SERVER).read_text(encoding="utf-8")
    (typescript_project / "misspelt_server.ts").write_text(server.replace("example_tool", "example_tol"))
    refused = _tsc(typescript_project, "misspelt_server.ts")
    assert refused.returncode != 0, refused.stdout
    assert "'example_tol' does not exist in type 'Handlers'" in refused.stdout, refused.stdout
