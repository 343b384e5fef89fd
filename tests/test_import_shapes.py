"""`import` of a server whose tools list several output shapes in one dialect other than
2020-12 (draft-07, as zod-to-json-schema writes them for the npm filesystem and memory
servers): the envelope is the union of the shapes, each a model class of its own; tools that
do not agree on a dialect keep an envelope that accepts any result, and a note says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_cli
from forkserver import python
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator
from mcp_contracts_generator.importing.envelope import envelope_of as joined
from ruamel.yaml import YAML

SERVER = ROOT / "tests" / "servers" / "draft07_server.py"
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def server(*options: str) -> tuple[str, ...]:
    return ("--", *python(str(SERVER), *options))


def folder(project: Path) -> Path:
    return project / "schemas" / "contracts" / "files"


def envelope_of(project: Path) -> dict[str, Any]:
    return dict(json.loads((folder(project) / "envelope.schema.json").read_text(encoding="utf-8")))


def tools_of(project: Path) -> dict[str, Any]:
    tools = YAML(typ="safe").load((folder(project) / "tools.yaml").read_text(encoding="utf-8"))["tools"]
    return {tool["name"]: tool for tool in tools}


# draft-07 shapes with what only draft-07 reads: `items` as a tuple, `dependencies`, a `$ref`
# whose siblings are ignored, `definitions` (two named alike, listed differently), `#` itself
TUPLE = {
    "$schema": DRAFT_07,
    "type": "object",
    "properties": {
        "pair": {"type": "array", "items": [{"type": "string"}, {"$ref": "#/definitions/Size"}], "maxItems": 2},
        "next": {"$ref": "#", "type": "string"},
    },
    "dependencies": {"pair": ["name"], "name": {"required": ["pair"]}},
    "definitions": {"Size": {"type": "integer", "minimum": 10}},
}
OTHER = {
    "$schema": DRAFT_07,
    "type": "object",
    "properties": {"name": {"$ref": "#/definitions/Size"}, "items": {"$ref": "#/properties/name"}},
    "required": ["name"],
    "definitions": {"Size": {"type": "string", "maxLength": 3}},
}
UNION = joined("x", [("names", OTHER), ("pairs", TUPLE)])
DOCUMENTS = st.recursive(
    st.one_of(st.none(), st.booleans(), st.sampled_from([0, 9, 10, 1.5, "", "pen", "long"])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["pair", "next", "name", "items"]), inner, max_size=3),
    ),
    max_leaves=10,
)


@pytest.mark.parametrize(("shape", "name"), [(TUPLE, "PairsResult"), (OTHER, "NamesResult")], ids=["tuple", "other"])
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_draft_07_branch_judges_as_the_shape_it_came_from(shape: dict[str, Any], name: str, data: Any) -> None:
    assert UNION.schema["$schema"] == DRAFT_07 and "$defs" not in UNION.schema
    assert sorted(UNION.schema["definitions"]) == ["NamesResult", "PairsResult", "Size", "Size2"]
    branch = {key: value for key, value in UNION.schema.items() if key != "anyOf"}
    branch["allOf"] = [{"$ref": f"#/definitions/{name}"}]
    instance = data.draw(DOCUMENTS)
    assert Draft7Validator(branch).is_valid(instance) == Draft7Validator(shape).is_valid(instance)


def test_draft_07_references_reach_where_their_targets_moved() -> None:
    pairs = UNION.schema["definitions"]["PairsResult"]
    assert pairs["properties"]["pair"]["items"][1] == {"$ref": "#/definitions/Size2"}  # a tuple's item
    assert pairs["properties"]["next"] == {"$ref": "#/definitions/PairsResult", "type": "string"}
    branch = Draft7Validator({**UNION.schema, "anyOf": [UNION.schema["anyOf"][1]]})
    assert branch.is_valid({"pair": ["a", 10], "name": 1}) and not branch.is_valid({"pair": ["a", "pen"], "name": 1})


def test_draft_07_shapes_make_a_draft_07_envelope_with_a_model_per_shape(tmp_path: Path) -> None:
    imported = run_cli("import", "files", "--call", *server(), cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert "accepts any result" not in imported.stderr
    envelope = envelope_of(tmp_path)
    assert envelope["$schema"] == DRAFT_07
    assert [branch["$ref"] for branch in envelope["anyOf"]] == [
        "#/definitions/ReadTextResult",
        "#/definitions/ListFolderResult",
        "#/definitions/ReadGraphResult",
    ]
    definitions = envelope["definitions"]
    # references into a shape's root and into its own definitions, rewritten for the new place
    assert definitions["ListFolderResult"]["properties"]["hidden"] == {
        "$ref": "#/definitions/ListFolderResult/properties/entries"
    }
    assert definitions["ReadGraphResult"]["properties"]["kinds"]["items"] == {"$ref": "#/definitions/Kind"}
    assert definitions["Kind"] == {"type": "string", "enum": ["person", "place"]}

    generated = run_cli("generate", cwd=tmp_path)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    package = tmp_path / "generated" / "python" / "files_contracts"  # named after the one contract there is
    models = (package / "files" / "models.py").read_text(encoding="utf-8")
    for shape in ("ReadTextResult", "ListFolderResult", "ReadGraphResult"):
        assert f"class {shape}(" in models, models
    assert "    root: ReadTextResult | ListFolderResult | ReadGraphResult\n" in models, models  # the envelope's
    assert ": Any" not in models and "| Any" not in models, models

    lint = run_cli("lint", "--format", "json", cwd=tmp_path)
    assert json.loads(lint.stdout)["counts"]["error"] == 0, lint.stdout
    conform = run_cli("conform", "--contract", "files", "--format", "json", *server(), cwd=tmp_path)
    report = json.loads(conform.stdout)
    assert (conform.returncode, report["findings"]) == (0, []), report
    assert report["facts"]["calls"] > 0


def test_tools_that_do_not_agree_on_a_dialect_keep_an_envelope_of_any_result_and_say_so(tmp_path: Path) -> None:
    imported = run_cli("import", "files", *server("mixed"), cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert (
        "envelope.schema.json accepts any result: the tools' outputSchemas declare different dialects"
        " (draft-07: read_text, list_folder; draft 2020-12: read_graph)"
    ) in imported.stderr
    envelope = envelope_of(tmp_path)
    assert set(envelope) == {"$schema", "title", "description"}
    tools = tools_of(tmp_path)
    assert tools["read_graph"]["outputSchema"]["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert tools["read_text"]["outputSchema"]["$schema"] == DRAFT_07


@pytest.mark.fires("shape-copy-differs")
def test_lint_errs_when_a_tool_and_the_envelope_hold_different_copies_of_a_shape(tmp_path: Path) -> None:
    """import keeps each shape twice (tools.yaml's outputSchema, published as listed, and the
    envelope's definitions): an edit of one copy only is an error at the tool."""
    assert run_cli("import", "files", *server(), cwd=tmp_path).returncode == 0
    tools = folder(tmp_path) / "tools.yaml"
    text = tools.read_text(encoding="utf-8")
    assert text.count("minimum: 0") == 1
    tools.write_text(text.replace("minimum: 0", "minimum: 1"), encoding="utf-8")
    lint = run_cli("lint", "--format", "json", cwd=tmp_path)
    findings = [f for f in json.loads(lint.stdout)["findings"] if f["rule"] == "shape-copy-differs"]
    assert lint.returncode == 1, lint.stdout
    assert [(f["pointer"], f["level"]) for f in findings] == [("/tools/0/outputSchema", "error")]
    assert findings[0]["message"] == (
        "'read_text': its outputSchema means what no shape of the envelope means (the copy under"
        " envelope.schema.json#/definitions/ReadTextResult: minimum: 1 -> 0 at /properties/lines)"
    )


@pytest.mark.quiet("shape-copy-differs")
def test_lint_is_quiet_on_the_copies_import_writes(tmp_path: Path) -> None:
    assert run_cli("import", "files", *server(), cwd=tmp_path).returncode == 0
    lint = run_cli("lint", "--format", "json", cwd=tmp_path)
    assert not [f for f in json.loads(lint.stdout)["findings"] if f["rule"] == "shape-copy-differs"], lint.stdout
