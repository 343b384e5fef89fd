"""The generated docs: a real `mkdocs build --strict`, anchors for every code and tool,
valid examples, an index with counts, and templates a user can override."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import CONTRACTS, GENERATED, SCHEMAS, load_json, run_cli
from mcp_contracts_generator import api
from mcp_contracts_generator.naming import error_anchor, slug
from test_contract_rules import _verdicts

# One worker runs the module (one site built for the module),
# not each worker again (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("docs")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("docs") / "site"
    result = run_cli("docs", "--site", str(target))
    assert result.returncode == 0, result.stdout + result.stderr
    return target


def test_strict_build_makes_a_page_per_contract_with_navigation_and_search(site: Path) -> None:
    home = (site / "index.html").read_text(encoding="utf-8")
    for contract in CONTRACTS:
        assert (site / contract / "index.html").is_file()
        assert f'href="{contract}/"' in home
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert len(index["docs"]) > 50


@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_code_tool_and_definition_can_be_found(site: Path, contract: str) -> None:
    page = (site / contract / "index.html").read_text(encoding="utf-8")
    for tool in load_json(GENERATED / "manifests" / f"{contract}.json")["tools"]:
        assert f'id="tool-{slug(tool["name"])}"' in page, tool["name"]
    errors = load_json(SCHEMAS / "contracts" / contract / "envelope.schema.json")
    for name in [errors["title"], *(d.get("title", k) for k, d in errors.get("$defs", {}).items())]:
        assert f'id="def-{name.lower()}"' in page, name
    for definition in [errors, *errors.get("$defs", {}).values()]:
        for field in definition.get("properties", {}):
            assert f"<td>{field}</td>" in page, field
    module = __import__(f"mcp_contracts.{contract.replace('-', '_')}", fromlist=["ErrorCode"])
    for code in module.ErrorCode:
        assert f'id="{error_anchor(code.value)}"' in page, code


def test_tool_error_codes_link_to_the_catalogue() -> None:
    manifest = load_json(GENERATED / "manifests" / "tuitbot.json")
    tool = next(t for t in manifest["tools"] if "x_rate_limited" in t["possible_error_codes"])
    page = (GENERATED / "docs" / "tuitbot.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if f'id="tool-{tool["name"]}"' in line)
    assert "[x\\_rate\\_limited](#error-x_rate_limited)" in row


def test_conditional_requirements_are_stated_in_words() -> None:
    scalpel = (GENERATED / "docs" / "code-scalpel.md").read_text(encoding="utf-8")
    assert 'required when tier is "pro" or "enterprise"; optional when tier is "community"' in scalpel
    tuitbot = (GENERATED / "docs" / "tuitbot.md").read_text(encoding="utf-8")
    assert "required when success is false; absent when success is true" in tuitbot
    assert "required in WorkflowToolMeta; absent in ApiToolMeta" in tuitbot


def test_index_lists_every_contract_with_counts() -> None:
    index = (GENERATED / "docs" / "index.md").read_text(encoding="utf-8")
    assert "| [TuitBot tool envelope](tuitbot.md) | 1.0 | 23 | 27 | 65 |" in index
    for contract in CONTRACTS:
        assert f"]({contract}.md)" in index


@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_example_shown_in_the_docs_is_valid(contract: str) -> None:
    page = (GENERATED / "docs" / f"{contract}.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^(`{3,})json\n(.*?)\n\1$", page, re.M | re.S)
    assert len(blocks) == len(list((SCHEMAS / "contracts" / contract / "examples").glob("*.json")))
    for _, block in blocks:
        assert _verdicts(contract, json.loads(block)) == (True, True)


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    shutil.copytree(GENERATED, out, ignore=shutil.ignore_patterns("__pycache__"))
    page = out / "docs" / "jsonrpc.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [nowhere](#no-such-anchor).\n", encoding="utf-8")
    result = run_cli("docs", "--out", str(out), "--site", str(tmp_path / "site"))
    assert result.returncode == 2
    assert "no-such-anchor" in result.stderr


def test_a_custom_template_overrides_the_built_in_one_by_path(rpc_schemas: Path, tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    (templates / "docs").mkdir(parents=True)
    (templates / "docs" / "index.md.jinja").write_text(
        "# Our contracts\n{% for entry in entries %}\n"
        "- [{{ entry.title|md }}]({{ entry.page }}): {{ entry.tools }} tools\n{% endfor %}\n",
        encoding="utf-8",
    )
    out = tmp_path / "generated"
    outcome = api.generate(rpc_schemas, out, templates)
    assert outcome.diagnostics == []
    index = (out / "docs" / "index.md").read_text(encoding="utf-8")
    assert index.startswith("# Our contracts\n")
    assert "- [JSON-RPC request envelope](jsonrpc.md): 1 tools" in index
    assert (out / "docs" / "jsonrpc.md").read_bytes() == (GENERATED / "docs" / "jsonrpc.md").read_bytes()
    checked = run_cli("check", "--schemas", str(rpc_schemas), "--out", str(out), "--templates", str(templates))
    assert checked.returncode == 0, checked.stdout
    assert run_cli("check", "--schemas", str(rpc_schemas), "--out", str(out)).returncode == 1
