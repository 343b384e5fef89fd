"""The TypeScript package `generate` writes with `languages = ["python", "typescript"]`
(issue 21): it compiles under `tsc --strict`, and its judge, catalogue and builders say
what the Python package says.

The package is compiled with the TypeScript and zod that tests/ts/package.json pins (`npm ci`
in tests/ts), in a copy beside a link to those packages; node runs what tsc emitted.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import CONTRACTS, GENERATED, SCHEMAS, load_json, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_contracts_generator import api, options
from schema_strategies import from_schema, mutations
from typescript_toolchain import PACKAGE, TS, call, compile_package, node_or_skip

MODULES = {name: name.replace("-", "_") for name in CONTRACTS}
pytestmark = [pytest.mark.xdist_group("typescript-package"), pytest.mark.slow]  # tsc builds, node runs


def test_the_built_ins_package_is_an_esm_package_with_a_strict_tsconfig() -> None:
    package = load_json(PACKAGE / "package.json")
    assert package["type"] == "module"
    assert set(package["exports"]) == {f"./{module}" for module in MODULES.values()}
    assert "zod" in package["dependencies"] and "typescript" in package["devDependencies"]
    options = load_json(PACKAGE / "tsconfig.json")["compilerOptions"]
    assert options["strict"] is True and options["module"] == "NodeNext"
    for module in MODULES.values():
        assert {p.name for p in (PACKAGE / "src" / module).iterdir()} >= {
            "index.ts",
            "judge.ts",
            "types.ts",
            "errors.ts",
            "tools.ts",
        }


def test_the_built_ins_package_compiles_under_tsc_strict(built: Path) -> None:
    for module in MODULES.values():
        assert (built / "dist" / module / "index.js").is_file()
        assert (built / "dist" / module / "index.d.ts").is_file()


def test_a_server_written_against_the_generated_module_compiles_with_the_sdks_types(tmp_path: Path) -> None:
    """tests/ts/server_usage.ts: `registerTool` with a tool of TOOLS (its handler's arguments
    typed by the zod schema), builders whose envelopes are the SDK's `structuredContent`, the
    catalogue, the judge's type guard narrowing to a definition's type."""
    node_or_skip()
    folder = tmp_path / "package"
    shutil.copytree(PACKAGE, folder)
    shutil.copy(TS / "server_usage.ts", folder / "src" / "server_usage.ts")
    (folder / "node_modules").symlink_to(TS / "node_modules", target_is_directory=True)
    tsc = TS / "node_modules" / ".bin" / "tsc"
    compiled = subprocess.run(
        [str(tsc), "-p", str(folder), "--strict"], capture_output=True, text=True, timeout=300, check=False
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    assert (folder / "dist" / "server_usage.js").is_file()


def test_an_init_scaffold_with_typescript_generates_and_compiles(node: str, tmp_path: Path) -> None:
    created = run_cli("init", "billing-api", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text(encoding="utf-8").replace(
            'languages = ["python"]', 'languages = ["python", "typescript"]'  # the line init writes
        ),
        encoding="utf-8",
    )
    generated = run_cli("generate", cwd=tmp_path)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    compiled = compile_package(tmp_path / "generated" / "typescript" / "billing_api_contracts", tmp_path / "built")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    module = tmp_path / "built" / "dist" / "billing_api" / "index.js"
    outcomes = call(
        node,
        module,
        [{"fn": "successResponse", "args": [{"data": {"id": 7}}]}, {"fn": "errorResponse", "args": ["nope"]}],
        tmp_path,
    )
    assert outcomes[0]["value"]["data"] == {"id": 7}
    assert outcomes[1]["error"] == "RangeError"


def test_languages_must_be_known(tmp_path: Path) -> None:
    for value, said in (
        ("[]", "'languages' names no language"),
        ('["python", "rust"]', "unknown language 'rust'"),
        ('"python"', "must be a list of strings"),
    ):
        (tmp_path / "pyproject.toml").write_text(f"[tool.mcp-contracts]\nlanguages = {value}\n", encoding="utf-8")
        result = run_cli("generate", cwd=tmp_path)
        assert result.returncode == 2
        assert said in result.stdout + result.stderr
        assert "pyproject.toml:2" in result.stdout + result.stderr


@pytest.mark.parametrize("name", CONTRACTS)
def test_the_catalogue_is_the_python_one(name: str, node: str, built: Path, tmp_path: Path) -> None:
    python = __import__(f"mcp_contracts.{MODULES[name]}", fromlist=["ERRORS"])
    outcome = call(node, built / "dist" / MODULES[name] / "index.js", [{"get": "ERRORS"}], tmp_path)[0]
    expected = [
        {key: (list(value) if isinstance(value, tuple) else value) for key, value in _fields(info).items()}
        for info in python.ERRORS.values()
    ]
    assert outcome["value"] == expected
    codes = list(python.ErrorCode)
    if codes:
        found = call(
            node, built / "dist" / MODULES[name] / "index.js", [{"fn": "errorInfo", "args": [codes[0].value]}], tmp_path
        )
        assert found[0]["value"] == expected[0]
    unknown = call(
        node, built / "dist" / MODULES[name] / "index.js", [{"fn": "errorInfo", "args": ["no-such"]}], tmp_path
    )
    assert unknown[0]["error"] == "RangeError"


def _fields(info: Any) -> dict[str, Any]:
    from dataclasses import fields

    return {f.name: getattr(info, f.name) for f in fields(info)}


# The members each contract's shapes require that the builders cannot fill (as tests/test_builders.py).
SCALPEL_IDS = {"tool_id": "extract_code", "tool_version": "3.2.8", "request_id": "0a46", "capabilities": []}
LEAST: dict[str, dict[str, Any]] = {
    "code-scalpel": {"tier": "community", "upgrade_hints": [], **SCALPEL_IDS},
    "foundry": {},
    "mcp-envelope": {"result": None},
    "tuitbot": {},
}


@pytest.mark.parametrize("name", sorted(LEAST))
def test_the_builders_build_what_the_python_builders_build(name: str, node: str, built: Path, tmp_path: Path) -> None:
    python = __import__(f"mcp_contracts.{MODULES[name]}", fromlist=["builders"]).builders
    success_members = {**LEAST[name], **({"data": {}} if name == "foundry" else {})}
    calls: list[dict[str, Any]] = [{"fn": "successResponse", "args": [success_members]}]
    expected: list[Any] = [python.success_response(**success_members).model_dump(mode="json", exclude_unset=True)]
    for code in python.ErrorCode:
        calls.append({"fn": "errorResponse", "args": [code.value, "Something went wrong.", LEAST[name]]})
        expected.append(
            python.error_response(code, "Something went wrong.", **LEAST[name]).model_dump(
                mode="json", exclude_unset=True
            )
        )
    outcomes = call(node, built / "dist" / MODULES[name] / "index.js", calls, tmp_path)
    assert [o.get("value", o) for o in outcomes] == expected
    refused = call(
        node,
        built / "dist" / MODULES[name] / "index.js",
        [{"fn": "errorResponse", "args": ["no-such-code", "x", LEAST[name]]}],
        tmp_path,
    )
    assert refused[0]["error"] == "RangeError"


def test_a_value_that_contradicts_the_catalogue_is_refused_as_in_python(node: str, built: Path, tmp_path: Path) -> None:
    module = built / "dist" / "tuitbot" / "index.js"
    outcomes = call(
        node,
        module,
        [
            {"fn": "errorResponse", "args": ["db_error", "locked", {"error": {"retryable": False}}]},
            {"fn": "successResponse", "args": [{"meta": {"tool_version": 1}}]},
            {"fn": "errorResponse", "args": ["db_error", "locked", {"data": [1]}]},
        ],
        tmp_path,
    )
    assert outcomes[0]["error"] == "BuilderError" and "/error/retryable is true" in outcomes[0]["message"]
    assert outcomes[1]["error"] == "ContractViolation"
    assert any(v["pointer"] == "/meta/tool_version" for v in outcomes[1]["violations"])
    assert outcomes[2]["value"]["data"] == [1] and outcomes[2]["value"]["error"]["retryable"] is True


INSTANCES_PER_CONTRACT = 200


@pytest.mark.parametrize("name", CONTRACTS)
def test_the_typescript_and_python_judges_agree_on_drawn_instances(
    name: str, node: str, built: Path, tmp_path: Path
) -> None:
    python = __import__(f"mcp_contracts.{MODULES[name]}", fromlist=["JUDGE"])
    schema = load_json(SCHEMAS / "contracts" / name / "envelope.schema.json")
    examples = [load_json(p) for p in sorted((SCHEMAS / "contracts" / name / "examples").glob("*.json"))]
    instances = from_schema(schema)
    seeds = st.sampled_from(examples) | instances if examples else instances
    drawn: list[Any] = []

    @settings(
        max_examples=INSTANCES_PER_CONTRACT, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(st.one_of(instances, mutations(seeds)))
    def draw(instance: Any) -> None:
        drawn.append(json.loads(json.dumps(instance)))

    draw()
    drawn += examples
    calls = [{"fn": "validate", "args": [instance]} for instance in drawn]
    outcomes = call(node, built / "dist" / MODULES[name] / "index.js", calls, tmp_path)
    verdicts = {True: 0, False: 0}
    for instance, outcome in zip(drawn, outcomes, strict=True):
        by_python = python.JUDGE.is_valid(instance)
        by_typescript = outcome["value"] == []
        assert by_python == by_typescript, f"Python says {by_python}, TypeScript {outcome}: {json.dumps(instance)}"
        verdicts[by_python] += 1
    # Both verdicts, each often enough to mean something (one in twenty draws at least).
    assert min(verdicts.values()) >= INSTANCES_PER_CONTRACT // 20, verdicts


def test_check_covers_the_typescript_package(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    shutil.copytree(GENERATED, out)
    compared = options.Check(schemas=SCHEMAS, out=out, full=True)
    assert api.run(compared).facts.clean is True  # type: ignore[attr-defined]
    index = out / "typescript" / "mcp_contracts" / "src" / "tuitbot" / "index.ts"
    index.write_text(index.read_text(encoding="utf-8") + "// edited\n", encoding="utf-8")
    drift = api.run(compared).facts
    assert drift.changed == ["typescript/mcp_contracts/src/tuitbot/index.ts"]  # type: ignore[attr-defined]
