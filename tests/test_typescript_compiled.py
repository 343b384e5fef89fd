"""The envelope's schema compiled to TypeScript (generator/render/ts_compiled.py): `isEnvelope`
gives the Judge's verdict without interpreting, and a bundle the compiler cannot prove exact
is left to the Judge.

The compiled code of each case is compiled with tsc beside the runtime's judge.ts, and node
judges the case's instances (and values JSON cannot write) both ways (tests/ts/compiled_cases.mjs).
The JSON Schema Test Suite judges the compiled `isEnvelope` too (tests/test_json_schema_suite.py).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from mcp_contracts_generator.model.schemas import Bundle
from mcp_contracts_generator.render.escape import ts
from mcp_contracts_generator.render.ts_compiled import Compiled
from mcp_contracts_generator.render.ts_compiled import compiled as compile_bundle
from mcp_contracts_generator.resources import TYPESCRIPT_RUNTIME
from mcp_contracts_generator.schema.vocabulary import DRAFT_2020_12
from typescript_toolchain import PACKAGE, compile_package, node_or_skip, run_script

DRAFT = "https://json-schema.org/draft/2020-12/schema"
URI = "file:///case.schema.json"


def bundle(schema: dict[str, Any], *, formats: bool = False, **more: Any) -> dict[str, Any]:
    return {"root": URI, "formats": formats, "resources": {URI: {"$schema": DRAFT, **schema}, **more}}


def compiled(case: dict[str, Any]) -> Compiled | None:
    """`ts_compiled.compiled` of a case's bundle, as the model holds one."""
    resources = case["resources"]
    return compile_bundle(Bundle(case["root"], resources, case["formats"], dict.fromkeys(resources, DRAFT_2020_12)))


SHAPES = {
    "type": "object",
    "required": ["kind", "__proto__"],
    "properties": {
        "kind": {"enum": ["leaf", 1, None, {"a": [1]}]},
        "__proto__": {"type": ["integer", "null"], "minimum": 0, "exclusiveMaximum": 10},
        "name": {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^\\p{L}+$"},
        "tags": {"type": "array", "items": {"$ref": "#/$defs/a~1b"}, "minItems": 1, "maxItems": 2},
        "const": {"const": {"x": [1, 2.0]}},
        "child": {"$ref": "#"},
        "any": {"title": "anything"},
    },
    "additionalProperties": {"not": {"type": "string"}},
    "minProperties": 2,
    "maxProperties": 6,
    "$defs": {"a/b": {"anyOf": [{"type": "boolean"}, {"type": "number", "maximum": 5}]}},
}
SHAPES_INSTANCES = [
    {"kind": "leaf", "__proto__": 1},
    {"kind": {"a": [1.0]}, "__proto__": None, "name": "éé"},
    {"kind": 1.0, "__proto__": 9.0, "name": "\U0001d400\U0001d400"},
    {"kind": None, "__proto__": 10},
    {"kind": "leaf", "__proto__": -1},
    {"kind": "leaf", "__proto__": 1.5},
    {"kind": "other", "__proto__": 1},
    {"kind": "leaf"},
    {"__proto__": 1},
    {"kind": "leaf", "__proto__": 1, "name": "a"},
    {"kind": "leaf", "__proto__": 1, "name": "\U0001d400"},
    {"kind": "leaf", "__proto__": 1, "name": "abcd"},
    {"kind": "leaf", "__proto__": 1, "name": "a1"},
    {"kind": "leaf", "__proto__": 1, "tags": [True, 5]},
    {"kind": "leaf", "__proto__": 1, "tags": [6]},
    {"kind": "leaf", "__proto__": 1, "tags": []},
    {"kind": "leaf", "__proto__": 1, "tags": [1, 2, 3]},
    {"kind": "leaf", "__proto__": 1, "const": {"x": [1, 2]}},
    {"kind": "leaf", "__proto__": 1, "const": {"x": [2, 1]}},
    {"kind": "leaf", "__proto__": 1, "child": {"kind": "leaf", "__proto__": 2}},
    {"kind": "leaf", "__proto__": 1, "child": {"kind": "leaf"}},
    {"kind": "leaf", "__proto__": 1, "extra": 1},
    {"kind": "leaf", "__proto__": 1, "extra": "no"},
    {"kind": "leaf", "__proto__": 1, "a": 1, "b": 2, "c": 3, "d": 4},
    {"kind": "leaf", "__proto__": 1, "any": [{}]},
    [],
    "leaf",
    None,
]
TAGGED = {
    "oneOf": [
        {
            "type": "object",
            "required": ["t", "n"],
            "properties": {"t": {"const": "x"}, "n": {"type": "integer"}},
            "additionalProperties": False,
        },
        {
            "type": "object",
            "required": ["t"],
            "properties": {"t": {"enum": ["y", True, None]}, "m": {"type": "string"}},
        },
    ]
}
CLOSED = {
    "oneOf": [
        {"type": "object", "required": ["v"], "properties": {"v": {}}, "additionalProperties": False},
        {"type": "object", "required": ["v", "mode"], "properties": {"v": {}, "mode": {"type": "string"}}},
    ]
}
OVERLAP = {"oneOf": [{"type": "object", "required": ["a"]}, {"type": "object", "required": ["b"]}, {"minLength": 1}]}
UNIONS = [{"t": "x", "n": 1}, {"t": "y"}, {"t": True, "m": "s"}, {"t": "x"}, {"t": "z"}, {"t": None}, {"t": 1}]
UNIONS += [{"v": 1}, {"v": 1, "mode": "a"}, {"v": 1, "mode": 2}, {"mode": "a"}, {"a": 1}, {"a": 1, "b": 2}, {}]
UNIONS += ["s", "", 1, []]
CASES = {
    "shapes": (bundle(SHAPES), SHAPES_INSTANCES),
    "tagged": (bundle(TAGGED), UNIONS),
    "closed": (bundle(CLOSED), UNIONS),
    "overlap": (bundle(OVERLAP), UNIONS),
}


def module(case: dict[str, Any]) -> str:
    """A TypeScript module of the case's compiled `accepts` and its `JUDGE`."""
    found = compiled(case)
    assert found is not None
    imports = ", ".join(("Judge", "type Bundle", *found.imports))
    return (
        f'import {{ {imports} }} from "./_runtime/judge.js";\n\n'
        f"export const JUDGE = new Judge(JSON.parse({ts(json.dumps(case))}) as Bundle);\n\n"
        f"{found.code}"
    )


@pytest.mark.slow
def test_the_compiled_verdict_is_the_judges(tmp_path: Path) -> None:
    node_or_skip()
    package = tmp_path / "package"
    (package / "src" / "_runtime").mkdir(parents=True)
    shutil.copy(PACKAGE / "tsconfig.json", package)
    (package / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    shutil.copy(TYPESCRIPT_RUNTIME / "judge.ts", package / "src" / "_runtime")
    for name, (case, _) in CASES.items():
        (package / "src" / f"{name}.ts").write_text(module(case), encoding="utf-8")
    built = compile_package(package, tmp_path / "built")
    assert built.returncode == 0, built.stdout[-4000:]
    data = [{"module": name, "instances": instances} for name, (_, instances) in CASES.items()]
    report = run_script("compiled_cases.mjs", tmp_path / "built" / "dist", spec=tmp_path / "cases.json", data=data)
    assert report["apart"] == []
    assert report["judged"] == sum(len(instances) + 6 for _, instances in CASES.values())


def test_a_oneof_stops_at_its_first_match_only_where_no_instance_matches_two() -> None:
    """A tagged union (a required property's disjoint `const`/`enum`, or a property one branch
    requires and the other closes out) is read as `anyOf`; any other `oneOf` counts matches."""
    for exclusive in (TAGGED, CLOSED):
        found = compiled(bundle(exclusive))
        assert found is not None
        assert "matched" not in found.code
    found = compiled(bundle(OVERLAP))
    assert found is not None
    assert "++matched > 1" in found.code
    shared = {"oneOf": [{**branch, "properties": {"t": {"enum": ["x", "y"]}}} for branch in TAGGED["oneOf"]]}
    found = compiled(bundle(shared))
    assert found is not None
    assert "++matched > 1" in found.code


LEFT_TO_THE_JUDGE = {
    "an embedded $id": {"properties": {"a": {"$id": "other.json"}}},
    "an anchor": {"$defs": {"a": {"$anchor": "here"}}, "$ref": "#here"},
    "a $dynamicRef": {"$dynamicAnchor": "node", "items": {"$dynamicRef": "#node"}},
    "prefixItems": {"prefixItems": [{"type": "string"}]},
    "multipleOf": {"multipleOf": 0.1},
    "unevaluatedProperties": {"unevaluatedProperties": False},
    "an unknown keyword": {"x-kind": 1},
    "a cycle that consumes nothing": {"anyOf": [{"$ref": "#"}, {"type": "string"}]},
    "a cycle of references alone": {"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}},
    "a $ref to another resource": {"$ref": "other.json"},
    "a percent-encoded pointer": {"$ref": "#/$defs/a%20b", "$defs": {"a b": {}}},
    "a $ref to nothing": {"$ref": "#/$defs/none"},
}


@pytest.mark.parametrize("why", sorted(LEFT_TO_THE_JUDGE))
def test_what_the_compiler_cannot_prove_exact_is_left_to_the_judge(why: str) -> None:
    assert compiled(bundle(LEFT_TO_THE_JUDGE[why])) is None


def test_formats_asserted_other_drafts_and_remotes_are_left_to_the_judge() -> None:
    assert compiled(bundle({"format": "email"})) is not None
    assert compiled(bundle({"format": "email"}, formats=True)) is None
    draft7 = bundle({"type": "object"})
    draft7["resources"][URI]["$schema"] = "http://json-schema.org/draft-07/schema#"
    assert compiled(draft7) is None
    assert compiled(bundle({"type": "object"}, **{"file:///other.json": {"type": "string"}})) is None


def test_every_built_in_contract_judges_its_envelope_by_compiled_code() -> None:
    for judge in sorted((PACKAGE / "src").glob("*/judge.ts")):
        if judge.parent.name != "_runtime":
            assert 'import { accepts } from "./compiled.js";' in judge.read_text(encoding="utf-8"), judge.parent.name
            assert "return s0(value);" in (judge.parent / "compiled.ts").read_text(encoding="utf-8")
