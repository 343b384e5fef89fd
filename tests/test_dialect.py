"""What `tools.json` publishes as an `outputSchema`: one self-contained document, in the
author's dialect where draft-07 can hold it, else in draft 2020-12. The JSON Schema Test
Suite is the judge.

Each group of the suite's required draft-07 and draft 2020-12 files becomes a compound
document (its remote references embedded, as an envelope's other files are), draft-07 said
in 2020-12 (`published.json`) or kept (`tools.json`), and a validator of the document's
dialect with no registry and no network gives the suite's verdict on every instance.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema_rs
import pytest
from conftest import require_shared
from jsonschema import Draft202012Validator, validators
from mcp_contracts_generator.schema.compound import compound
from mcp_contracts_generator.schema.dialect import resource_dialects
from mcp_contracts_generator.schema.translate import to_2020_12
from referencing import Registry
from suite_groups import DRAFT_2020_12, FILES, ROOT_URI, names_a_meta_schema, no_fetch, suite_resources

require_shared()


@pytest.mark.parametrize(("draft", "path"), FILES, ids=[f"{d}-{p.stem}" for d, p in FILES])
def test_every_instance_keeps_its_verdict_in_the_published_document(draft: str, path: Path) -> None:
    wrong = []
    for group in json.loads(path.read_text(encoding="utf-8")):
        resources = suite_resources(group["schema"], draft)
        if names_a_meta_schema(resources):
            continue
        published = compound(ROOT_URI, resources, resource_dialects(resources, ROOT_URI))
        if isinstance(published, dict):
            assert published["$schema"] == DRAFT_2020_12
        try:
            validator = jsonschema_rs.validator_for(published, retriever=no_fetch)
        except (ValueError, jsonschema_rs.ValidationError) as exc:
            wrong.append(f"{group['description']}: {str(exc).splitlines()[0]}")
            continue
        # The MCP SDK's client judges with python-jsonschema and an empty registry: so here.
        python = Draft202012Validator(published, registry=Registry())
        for case in group["tests"]:
            if validator.is_valid(case["data"]) != case["valid"]:
                wrong.append(f"{group['description']} / {case['description']}")
            try:
                if python.is_valid(case["data"]) != case["valid"]:
                    wrong.append(f"python-jsonschema: {group['description']} / {case['description']}")
            except re.error:  # Python's `re` has no `\p{...}`: a limit of that validator, not ours
                continue
    assert wrong == []


DRAFT_07_FILES = [p for d, p in FILES if d == "draft7"]


@pytest.mark.parametrize("path", DRAFT_07_FILES, ids=[p.stem for p in DRAFT_07_FILES])
def test_a_draft_07_document_published_as_written_keeps_every_verdict(path: Path) -> None:
    """As `tools.json` publishes it: draft-07 stays draft-07 (its `definitions` embedding the
    other files), unless draft-07 cannot hold them (a `$ref` beside the `$id` a file needs)."""
    wrong = []
    for group in json.loads(path.read_text(encoding="utf-8")):
        resources = suite_resources(group["schema"], "draft7")
        if names_a_meta_schema(resources):
            continue
        published = compound(ROOT_URI, resources, resource_dialects(resources, ROOT_URI), keep_draft_07=True)
        validator = jsonschema_rs.validator_for(published, retriever=no_fetch)
        python = validators.validator_for(published)(published, registry=Registry())
        for case in group["tests"]:
            for name, judge in (("jsonschema-rs", validator), ("python-jsonschema", python)):
                try:
                    if judge.is_valid(case["data"]) != case["valid"]:
                        wrong.append(f"{name}: {group['description']} / {case['description']}")
                except re.error:  # Python's `re` has no `\p{...}`
                    continue
    assert wrong == []


def test_only_the_groups_that_name_a_meta_schema_are_left_out() -> None:
    left_out = sorted(
        f"{draft}/{path.stem}: {group['description']}"
        for draft, path in FILES
        for group in json.loads(path.read_text(encoding="utf-8"))
        if names_a_meta_schema(suite_resources(group["schema"], draft))
    )
    assert left_out == [
        "draft2020-12/defs: validate definition against metaschema",
        "draft2020-12/ref: remote ref, containing refs itself",
        "draft2020-12/vocabulary: ignore unrecognized optional vocabulary",
        "draft2020-12/vocabulary: schema that uses custom metaschema with with no validation vocabulary",
        "draft7/definitions: validate definition against metaschema",
        "draft7/ref: remote ref, containing refs itself",
    ]


def test_keywords_are_renamed_and_references_follow_them() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "pair": {"items": [{"type": "string"}, {"$ref": "#/definitions/n"}], "additionalItems": False},
            "n": {"type": "number"},
        },
        "properties": {
            "p": {"$ref": "#/definitions/pair", "description": "ignored beside $ref"},
            "q": {"$ref": "#/definitions/pair/items/1"},
            "d": {"dependencies": {"a": ["b"], "c": {"required": ["e"]}}, "prefixItems": [False]},
            "i": {"$id": "#named", "type": "integer"},
            "pct": {"$ref": "#/definitions/n%25"},
        },
    }
    schema["definitions"]["n%"] = {"type": "null"}
    translated = to_2020_12(schema)
    assert translated["$defs"]["pair"] == {"prefixItems": [{"type": "string"}, {"$ref": "#/$defs/n"}], "items": False}
    assert translated["properties"]["p"] == {"$ref": "#/$defs/pair"}
    assert translated["properties"]["q"] == {"$ref": "#/$defs/pair/prefixItems/1"}
    assert translated["properties"]["d"] == {
        "dependentRequired": {"a": ["b"]},
        "dependentSchemas": {"c": {"required": ["e"]}},
    }
    assert translated["properties"]["i"] == {"$anchor": "named", "type": "integer"}
    assert translated["properties"]["pct"] == {"$ref": "#/$defs/n%25"}


def test_what_draft_07_ignores_but_a_pointer_reaches_stays_reachable() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$defs": {"kept": {"type": "integer"}},  # unknown to draft-07, but a pointer reaches it
        "items": {"type": "string"},
        "additionalItems": {"type": "integer"},  # ignored beside a one-schema `items`
        "properties": {"a": {"$ref": "#/additionalItems"}, "b": {"$ref": "#/$defs/kept"}},
    }
    published = compound(ROOT_URI, {ROOT_URI: schema}, resource_dialects({ROOT_URI: schema}, ROOT_URI))
    validator = jsonschema_rs.validator_for(published, retriever=no_fetch)
    assert validator.is_valid({"a": 1, "b": 2}) and not validator.is_valid({"a": "x"})
    assert validator.is_valid(["x", "y"]) and not validator.is_valid(["x", 1])


def test_a_schema_a_pointer_reaches_under_an_unknown_keyword_is_translated() -> None:
    """`group` holds schemas under keywords neither draft knows; pointers reach them, so they
    are schemas: translated (an array `items`, a `$ref` into `definitions`), and the pointers
    through them renamed. Data under an unknown keyword stays as written."""
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "group": {
                "list": {"type": "array", "items": [{"type": "string"}], "additionalItems": False},
                "pair": {"properties": {"left": {"$ref": "#/definitions/group/list/items/0"}}},
                "data": {"items": [1], "$ref": "#/definitions/nowhere"},
            },
        },
        "properties": {"list": {"$ref": "#/definitions/group/list"}, "pair": {"$ref": "#/definitions/group/pair"}},
    }
    translated = to_2020_12(schema)
    group = translated["$defs"]["group"]
    assert group["list"] == {"type": "array", "prefixItems": [{"type": "string"}], "items": False}
    assert group["pair"]["properties"]["left"] == {"$ref": "#/$defs/group/list/prefixItems/0"}
    assert group["data"] == {"items": [1], "$ref": "#/definitions/nowhere"}  # reached by no pointer
    validator = jsonschema_rs.validator_for(translated, retriever=no_fetch)
    assert validator.is_valid({"list": ["a"], "pair": {"left": "b"}})
    assert not validator.is_valid({"list": ["a", 1]}) and not validator.is_valid({"pair": {"left": 1}})


def test_each_file_is_read_in_its_own_dialect() -> None:
    """A draft-07 file topped by a `$ref` (zod-to-json-schema's shape) and a 2020-12 file,
    both under a draft-07 envelope."""
    draft_07 = "http://json-schema.org/draft-07/schema#"
    resources = {
        "https://e.test/root.json": {
            "$schema": draft_07,
            "properties": {"t": {"$ref": "t.json"}, "p": {"$ref": "p.json"}},
        },
        "https://e.test/t.json": {"$ref": "#/definitions/T", "definitions": {"T": {"type": "integer"}}},
        "https://e.test/p.json": {"$schema": DRAFT_2020_12, "prefixItems": [{"type": "string"}]},
    }
    published = compound(
        "https://e.test/root.json", resources, resource_dialects(resources, "https://e.test/root.json")
    )
    for validator in (jsonschema_rs.validator_for(published, retriever=no_fetch), Draft202012Validator(published)):
        assert validator.is_valid({"t": 1, "p": ["s"]})
        assert not validator.is_valid({"t": "x"})
        assert not validator.is_valid({"p": [1]})  # 2020-12's prefixItems still applies there
