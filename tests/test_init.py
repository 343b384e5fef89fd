"""`mcp-contracts init`: a new contract that generates, validates and documents at once."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from conftest import generated_package, run_cli
from forkserver import python


def test_init_then_generate_validate_and_build_docs(tmp_path: Path) -> None:
    created = run_cli("init", "billing-api", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    folder = tmp_path / "schemas" / "contracts" / "billing-api"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        "contract.yaml",
        "envelope.schema.json",
        "errors.yaml",
        "examples/success.json",
        "tools.yaml",
    ]
    assert "# The error codes of billing-api" in (folder / "errors.yaml").read_text(encoding="utf-8")
    config = tomllib.loads((tmp_path / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["mcp-contracts"] == {
        "schemas": "schemas",
        "output": "generated",
        "package": "contracts",
        "languages": ["python"],  # the default, spelled out
    }

    subfolder = tmp_path / "src" / "deep"
    subfolder.mkdir(parents=True)
    generated = run_cli("generate", cwd=subfolder)  # the settings are found from below
    assert generated.returncode == 0, generated.stderr
    assert "created  ../../generated/python/contracts/billing_api/models.py" in generated.stdout
    package = tmp_path / "generated" / "python" / "contracts" / "billing_api"
    assert {p.name for p in package.iterdir()} >= {"__init__.py", "models.py", "errors.py"}
    assert json.loads((tmp_path / "generated" / "manifests" / "billing-api.json").read_text(encoding="utf-8")) == {
        "tools": [
            {
                "name": "example_tool",
                "mutation": False,
                "possible_error_codes": ["example_error"],
                "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
                "examples": [{"arguments": {"text": "hello"}, "result": "success.json"}],
                "description": "Replace this entry with your first tool.",
                "title": "Example tool",
                "annotations": {"destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
            }
        ]
    }

    failure = tmp_path / "failure.json"
    failure.write_text(
        json.dumps({"success": False, "error": {"code": "example_error", "message": "no"}}), encoding="utf-8"
    )
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"success": False, "error": {"code": "other", "message": "no"}}), encoding="utf-8")
    judged = run_cli("validate", "--contract", "billing-api", str(failure), str(wrong), cwd=tmp_path)
    assert judged.returncode == 1
    assert judged.stdout.splitlines()[0] == f"{failure}: valid"
    assert "/error/code:" in judged.stdout

    site = run_cli("docs", cwd=subfolder)
    assert site.returncode == 0, site.stderr
    assert (tmp_path / "site" / "billing-api" / "index.html").is_file()
    assert run_cli("check", cwd=subfolder).returncode == 0
    mock = python("-m", "mcp_contracts_generator", "mock", "--contract", "billing-api")
    # One revision: a stdio session is a process (every revision of a scaffold: test_mcp_revisions.py).
    at = ("--protocol", "2026-07-28")
    conformed = run_cli("conform", "--contract", "billing-api", "--probe-errors", *at, "--", *mock, cwd=subfolder)
    assert conformed.returncode == 0, conformed.stdout + conformed.stderr
    assert "conforms to billing-api at 2026-07-28: 1 tool(s) listed, 2 call(s), 0 error(s)" in conformed.stdout
    second = run_cli("init", "orders", cwd=subfolder)  # into the same sources, not a new schemas/
    assert second.returncode == 0, second.stderr
    assert (tmp_path / "schemas" / "contracts" / "orders" / "contract.yaml").is_file()
    assert not (subfolder / "schemas").exists()
    assert (tmp_path / "pyproject.toml").read_text(encoding="utf-8").count("[tool.mcp-contracts]") == 1


def test_init_beside_a_built_in_contract(rpc_schemas: Path, tmp_path: Path) -> None:
    assert run_cli("init", "acme", "--schemas", str(rpc_schemas)).returncode == 0
    result = run_cli("generate", "--schemas", str(rpc_schemas), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    index = (tmp_path / "out" / "docs" / "index.md").read_text(encoding="utf-8")
    assert "acme.md" in index and "jsonrpc.md" in index


def test_init_refuses_a_bad_name_or_an_existing_folder(rpc_schemas: Path) -> None:
    bad = run_cli("init", "Bad_Name", "--schemas", str(rpc_schemas))
    assert bad.returncode == 2 and "kebab case" in bad.stderr
    existing = run_cli("init", "jsonrpc", "--schemas", str(rpc_schemas))
    assert existing.returncode == 2 and "already exists" in existing.stderr
    assert not (rpc_schemas / "contracts" / "Bad_Name").exists()


@pytest.mark.parametrize("name", ["index", "rules", "lint-rules", "class", "a--b", "9a", "ab\n", "Ab", "a\udcffb", "é"])
def test_init_refuses_every_name_generate_refuses(tmp_path: Path, name: str) -> None:
    """The loader judges contract.yaml's `name` with the meta-schema: init asks the same."""
    result = run_cli("init", name, cwd=tmp_path)
    assert result.returncode == 2, result.stdout
    assert result.stderr.startswith("error: schemas/contracts/") and "Traceback" not in result.stderr
    assert not (tmp_path / "schemas").exists() and not (tmp_path / "pyproject.toml").exists()


def test_the_longest_name_init_takes_generates_and_one_more_is_refused(tmp_path: Path) -> None:
    longest = "x" * 241  # `.NAME.new-XXXXXXXX` beside it is 255 bytes
    assert run_cli("init", longest, cwd=tmp_path).returncode == 0
    generated = run_cli("generate", cwd=tmp_path)
    assert generated.returncode == 0, generated.stderr
    refused = run_cli("init", longest + "x", cwd=tmp_path)
    assert refused.returncode == 2
    assert "a contract name of 242 bytes is longer than this file system takes: 241 at most" in refused.stderr
    assert sorted(p.name for p in (tmp_path / "schemas" / "contracts").iterdir()) == [longest]


def test_contracts_named_like_built_ins_get_builders_that_work(tmp_path: Path) -> None:
    for name in ("foundry", "mcp-envelope"):
        assert run_cli("init", name, cwd=tmp_path).returncode == 0
    generated = run_cli("generate", cwd=tmp_path)
    assert generated.returncode == 0, generated.stderr
    for module in ("foundry", "mcp_envelope"):
        with generated_package(tmp_path / "generated", module, package="contracts") as contract:
            ok = contract.builders.success_response(data=[1]).model_dump(mode="json")
            assert ok == {"success": True, "data": [1]}
            failed = contract.builders.error_response("example_error").model_dump(mode="json")
            assert failed == {
                "success": False,
                "error": {"code": "example_error", "message": "Example error"},  # the catalogue's message
            }
            with pytest.raises(KeyError):
                contract.builders.error_response("not_a_code")
