"""Source checks: what is refused is named by file and pointer; what JSON Schema defines is accepted."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import GENERATED, run_cli, tree_bytes

Schema = dict[str, Any]


def _edit_schema(schemas: Path, contract: str, change: Callable[[Schema], None]) -> None:
    path = schemas / "contracts" / contract / "envelope.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    change(schema)
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")


def _refused(schemas: Path, tmp_path: Path) -> str:
    out = tmp_path / "generated"
    if not out.exists():
        shutil.copytree(GENERATED, out, ignore=shutil.ignore_patterns("__pycache__"))
    before = tree_bytes(out)
    result = run_cli("generate", "--schemas", str(schemas), "--out", str(out))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert tree_bytes(out) == before
    return result.stderr


# Constructs the first design refused, each with an instance the schema rejects because of it.
ONCE_REFUSED: dict[str, tuple[Callable[[Schema], None], dict[str, Any]]] = {
    "allOf": (
        lambda s: s["properties"].update(extra={"allOf": [{"type": "string"}, {"minLength": 2}]}),
        {"extra": "x"},
    ),
    "false schema": (lambda s: s["properties"].update(never=False), {"never": 1}),
    "object const": (lambda s: s["properties"].update(pinned={"const": {"a": 1}}), {"pinned": {"a": 2}}),
    "unicode class": (lambda s: s["properties"]["id"].update(pattern="^[\\w-]+$"), {"id": "é"}),
    "nested const": (
        lambda s: s["properties"].update(
            box={"type": "object", "properties": {"inner": {"type": "object", "properties": {"ok": {"const": True}}}}}
        ),
        {"box": {"inner": {"ok": 1}}},
    ),
    "keyword field": (lambda s: s["properties"].update({"class": {"const": True}}), {"class": 1}),
    "if then else": (
        lambda s: s["properties"].update(tier={"if": {"const": "pro"}, "then": {"minLength": 9}}),
        {"tier": "pro"},
    ),
}
VALID_REQUEST = {"id": "1", "jsonrpc": "2.0", "method": "tool.run", "params": {"tool": "x"}}


@pytest.mark.parametrize("case", sorted(ONCE_REFUSED))
def test_constructs_once_refused_generate_and_are_judged_exactly(case: str, rpc_schemas: Path, tmp_path: Path) -> None:
    change, breaking = ONCE_REFUSED[case]
    _edit_schema(rpc_schemas, "jsonrpc", change)
    out = tmp_path / "out"
    result = run_cli("generate", "--schemas", str(rpc_schemas), "--out", str(out))
    assert result.returncode == 0, result.stderr
    documents = {"valid": VALID_REQUEST, "invalid": {**VALID_REQUEST, **breaking}}
    for name, document in documents.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")
    judged = [str(tmp_path / f"{n}.json") for n in documents]
    verdicts = run_cli("validate", "--contract", "jsonrpc", "--schemas", str(rpc_schemas), *judged)
    assert verdicts.returncode == 1, verdicts.stdout + verdicts.stderr
    lines = verdicts.stdout.splitlines()
    assert lines[0].endswith("valid.json: valid") and lines[1].endswith("invalid.json: invalid"), lines


def test_integer_consts_refuse_booleans_in_the_models(rpc_schemas: Path, tmp_path: Path) -> None:
    _edit_schema(rpc_schemas, "jsonrpc", lambda s: s["$defs"]["Params"].update(properties={"level": {"enum": [0, 2]}}))
    out = tmp_path / "out"
    assert run_cli("generate", "--schemas", str(rpc_schemas), "--out", str(out)).returncode == 0
    document = tmp_path / "doc.json"
    for level, verdict in ((2, "valid"), (True, "invalid"), (1, "invalid")):
        envelope = {"id": "1", "jsonrpc": "2.0", "method": "m", "params": {"level": level}}
        document.write_text(json.dumps(envelope), encoding="utf-8")
        result = run_cli("validate", "--contract", "jsonrpc", "--schemas", str(rpc_schemas), str(document))
        assert result.stdout.startswith(f"{document}: {verdict}"), (level, result.stdout)


def test_duplicate_json_keys_are_refused(rpc_schemas: Path, tmp_path: Path) -> None:
    path = rpc_schemas / "contracts" / "jsonrpc" / "envelope.schema.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace('"title": "JsonRpcEnvelope",', '"title": "JsonRpcEnvelope", "title": "Other",', 1),
        encoding="utf-8",
    )
    assert "the key title appears twice in one object" in _refused(rpc_schemas, tmp_path)


def test_problems_with_and_without_lines_are_reported_together(rpc_schemas: Path, tmp_path: Path) -> None:
    (rpc_schemas / "contracts" / "jsonrpc" / "errors.yaml").write_text("error_types:\n  - name: 1\n", encoding="utf-8")
    stderr = _refused(rpc_schemas, tmp_path)
    assert "errors.yaml:2:" in stderr and '"errors" is a required property' in stderr


def test_module_names_are_checked_as_ecma_patterns_and_keywords(rpc_schemas: Path, tmp_path: Path) -> None:
    contract = rpc_schemas / "contracts" / "jsonrpc" / "contract.yaml"
    contract.write_text(
        contract.read_text(encoding="utf-8").replace("module: jsonrpc", 'module: "demo\\n"'), encoding="utf-8"
    )
    assert "does not match" in _refused(rpc_schemas, tmp_path)
    contract.write_text(
        contract.read_text(encoding="utf-8").replace('module: "demo\\n"', "module: class"), encoding="utf-8"
    )
    assert "a Python keyword cannot name a module" in _refused(rpc_schemas, tmp_path)


def test_builders_and_modules_are_checked_together(schemas_copy: Path, tmp_path: Path) -> None:
    folder = schemas_copy / "contracts" / "tuitbot"
    contract = folder / "contract.yaml"
    text = contract.read_text(encoding="utf-8")
    text = text.replace("  error: /$defs/FailureEnvelope", "  error: /$defs/Nowhere")
    text = text.replace("/error/retryable: retryable", "/error/retryable: retryabel")
    contract.write_text(text + "modules:\n  - models.py\n  - broken.py\n", encoding="utf-8")
    (folder / "broken.py").write_text("def f(:\n", encoding="utf-8")
    stderr = _refused(schemas_copy, tmp_path)
    lines = contract.read_text(encoding="utf-8").splitlines()

    def line(text: str) -> int:  # each problem is reported at its own line
        return lines.index(text) + 1

    assert f"contract.yaml:{line('  error: /$defs/Nowhere')}: '/$defs/Nowhere' is not in envelope.schema.json" in stderr
    assert (
        f"contract.yaml:{line('    /error/retryable: retryabel')}: 'retryabel' is not a column of errors.yaml" in stderr
    )
    assert f"contract.yaml:{line('  - models.py')}: models.py is a module `generate` writes" in stderr
    assert "broken.py:1: not Python" in stderr


def test_problems_of_every_file_are_reported_together(rpc_schemas: Path, tmp_path: Path) -> None:
    folder = rpc_schemas / "contracts" / "jsonrpc"
    (folder / "tools.yaml").write_text("tools:\n  - name: run\n    descripton: typo\n", encoding="utf-8")
    errors = folder / "errors.yaml"
    errors.write_text(errors.read_text(encoding="utf-8") + "  - code: INTERNAL_ERROR\n", encoding="utf-8")
    _edit_schema(rpc_schemas, "jsonrpc", lambda s: s["properties"].update(extra={"$ref": "#/$defs/Nowhere"}))
    stderr = _refused(rpc_schemas, tmp_path)
    assert "tools.yaml:3: 'descripton' is not allowed here" in stderr
    assert "duplicate code 'INTERNAL_ERROR'" in stderr
    assert "envelope.schema.json" in stderr and "Nowhere" in stderr


def test_tools_whose_docs_anchors_would_collide_are_refused(schemas_copy: Path, tmp_path: Path) -> None:
    tools = schemas_copy / "contracts" / "foundry" / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8") + "  - name: Health\n", encoding="utf-8")
    assert "'Health' and 'health' map to one name 'health' in code and docs" in _refused(schemas_copy, tmp_path)


def test_output_folder_that_is_not_ours_is_never_replaced(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("keep me\n", encoding="utf-8")
    result = run_cli("generate", "--out", str(project))
    assert result.returncode == 2 and "not replacing a folder it did not write" in result.stderr
    assert [p.name for p in project.iterdir()] == ["notes.txt"]


def test_output_folder_overlapping_the_sources_is_refused(schemas_copy: Path) -> None:
    for out in (schemas_copy, schemas_copy / "generated", schemas_copy.parent):
        result = run_cli("generate", "--schemas", str(schemas_copy), "--out", str(out))
        assert result.returncode == 2 and "overlaps the sources folder" in result.stderr
    assert (schemas_copy / "contracts" / "tuitbot" / "errors.yaml").is_file()


def test_broken_custom_template_is_a_diagnostic(tmp_path: Path) -> None:
    templates = tmp_path / "templates" / "docs"
    templates.mkdir(parents=True)
    (templates / "index.md.jinja").write_text("# x\n{% for entry in %}\n", encoding="utf-8")
    result = run_cli("check", "--templates", str(tmp_path / "templates"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "index.md.jinja:2: template:" in result.stderr
    missing = run_cli("check", "--templates", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "no such templates folder" in missing.stderr


def test_validate_refuses_sources_that_are_not_there(tmp_path: Path) -> None:
    document = tmp_path / "doc.json"
    document.write_text("{}", encoding="utf-8")
    result = run_cli("validate", "--contract", "tuitbot", "--schemas", str(tmp_path / "nothing"), str(document))
    assert result.returncode == 2 and "contracts: no such folder" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    # The output folder says nothing: a script that still names it is told so.
    refused = run_cli("validate", "--contract", "tuitbot", "--out", "generated", str(document))
    assert refused.returncode == 2 and "drop --out (--schemas DIR)" in refused.stderr, refused.stderr


def test_validate_keeps_keys_that_look_like_type_names_in_pointers(tmp_path: Path) -> None:
    document = tmp_path / "doc.json"
    document.write_text(
        json.dumps({"id": "1", "jsonrpc": "2.0", "method": "", "params": {"list": 1}}), encoding="utf-8"
    )
    result = run_cli("validate", "--contract", "jsonrpc", str(document))
    assert result.returncode == 1
    assert '  /method: "" is shorter than 1 character' in result.stdout
