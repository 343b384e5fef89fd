"""A string from a source can never break or inject into generated code or a Markdown table."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import SCHEMAS, generated_package, run_cli
from hostile.texts import HOSTILE
from mcp_contracts_generator import api
from mcp_contracts_generator.render.escape import md, py
from ruamel.yaml import YAML


@pytest.mark.parametrize("text", HOSTILE)
def test_py_literal_round_trips(text: str) -> None:
    literal = py(text)
    assert ast.literal_eval(literal) == text
    assert "\n" not in literal and "\r" not in literal


@pytest.mark.parametrize("text", HOSTILE)
def test_md_stays_one_inert_cell(text: str) -> None:
    cell = md(text)
    assert "\n" not in cell and "\r" not in cell
    assert "|" not in cell.replace("&#124;", "")
    assert "<" not in cell and ">" not in cell
    for char in "`*_[]":
        assert cell.count(char) == cell.count("\\" + char), char


@pytest.mark.parametrize(
    ("text", "expected"), [("- item", "\\- item"), ("1. item", "1\\. item"), ("= x", "\\= x"), ("1.0", "1.0")]
)
def test_md_never_starts_a_block(text: str, expected: str) -> None:
    assert md(text) == expected


def test_hostile_strings_from_sources_cannot_break_outputs(tmp_path: Path) -> None:
    schemas = tmp_path / "schemas"
    folder = schemas / "contracts" / "jsonrpc"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", folder)
    hostile = " ".join(HOSTILE[:-1]) + " emoji 😀 accent é"  # YAML forbids NUL and BEL, folds U+2028
    errors = _read_yaml(folder / "errors.yaml")
    for entry in errors["errors"]:
        entry["message"] = hostile
        entry["description"] = hostile
    _write_yaml(folder / "errors.yaml", errors)
    tools = _read_yaml(folder / "tools.yaml")
    tools["tools"][0]["description"] = hostile
    _write_yaml(folder / "tools.yaml", tools)
    identity = _read_yaml(folder / "contract.yaml")
    # A version is a semantic version, refused otherwise (tests/hostile/cases.py): the most a
    # source may put there is a pre-release and build metadata.
    identity.update(title=hostile, summary=hostile, version="1.0.0-rc.1+build-7")
    _write_yaml(folder / "contract.yaml", identity)
    schema = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    schema["description"] = hostile
    schema["properties"]["method"]["description"] = hostile
    (folder / "envelope.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    example = {"id": "1", "jsonrpc": "2.0", "method": "m", "params": {"note": hostile, "fence": "````"}}
    (folder / "examples" / "hostile.json").write_text(json.dumps(example), encoding="utf-8")

    out = tmp_path / "generated"
    outcome = api.generate(schemas, out, package="hostile")
    assert outcome.diagnostics == []

    package = out / "python" / "hostile" / "jsonrpc"
    for name in ("errors.py", "models.py", "__init__.py"):
        ast.parse((package / name).read_text(encoding="utf-8"))
    with generated_package(out, "jsonrpc", package="hostile") as module:
        assert all(info.message == hostile and info.description == hostile for info in module.ERRORS.values())
        assert module.models.JsonRpcEnvelope.model_fields["method"].description == hostile

    manifest = json.loads((out / "manifests" / "jsonrpc.json").read_text(encoding="utf-8"))
    assert manifest["tools"][0]["description"] == hostile

    page = (out / "docs" / "jsonrpc.md").read_text(encoding="utf-8")
    prose = page.split("## Examples", 1)[0]  # inside a fenced block, a tag is shown, not run
    assert "<script>" not in prose and "<b>" not in prose
    header_pipes = None
    for line in page.splitlines():
        if not line.startswith("|"):
            header_pipes = None
            continue
        header_pipes = header_pipes or line.count("|")
        assert line.count("|") == header_pipes, f"a cell was split: {line}"
    assert "`````json\n" in page, "the example's fence is longer than any backtick run inside"

    site = tmp_path / "site"
    built = run_cli("docs", "--out", str(out), "--site", str(site))
    assert built.returncode == 0, built.stderr
    html = (site / "jsonrpc" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<b>bold</b>" not in html


def _read_yaml(path: Path) -> dict[str, Any]:
    return json.loads(json.dumps(YAML(typ="safe").load(path)))  # type: ignore[no-any-return]


def _write_yaml(path: Path, data: dict[str, Any]) -> None:
    """JSON is YAML: this writes any string without depending on a YAML emitter's quoting."""
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
