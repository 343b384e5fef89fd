"""`tools.py` of a contract package: per tool a model of its arguments, `<Name>Arguments`,
that accepts exactly what the tool's `inputSchema` accepts (jsonschema is the oracle), names
that never collide, and code that mypy --strict takes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import GENERATED, ROOT, generated_package, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema.validators import validator_for
from mcp_contracts_generator import api
from mcp_contracts_generator.render.typescript import tool_literals
from pydantic import ValidationError

BOOKS = ROOT / "tests" / "contracts" / "books"
BUILTINS = ("code-scalpel", "foundry", "jsonrpc", "mcp-envelope", "tuitbot")

# Tools of our own whose inputs say what a Python type cannot: each keyword the brief names.
CONSTRAINED_TOOLS = """
  - name: constrained
    description: Every constraint at once.
    possible_error_codes: [invalid_argument]
    inputSchema:
      type: object
      additionalProperties: false
      required: [count, code]
      properties:
        count: {type: integer, minimum: 1, maximum: 10}
        code: {type: string, pattern: "^[A-Z]{3}$"}
        colour: {enum: [red, green, 3]}
        kind: {type: string}
        size: {type: number}
        item: {$ref: "#/$defs/Item"}
      if: {properties: {kind: {const: big}}, required: [kind]}
      then: {required: [size], properties: {size: {minimum: 100}}}
      $defs:
        Item:
          type: object
          required: [sku]
          additionalProperties: false
          properties:
            sku: {type: string, minLength: 2}
  - name: no.input-given
    description: A tool without an inputSchema.
    possible_error_codes: [invalid_argument]
"""


def _accepts(model: Any, document: Any) -> bool:
    try:
        model.model_validate(document)
    except ValidationError:
        return False
    return True


def _oracle(schema: Any) -> Any:
    return validator_for(schema)(schema)


def _listing(out: Path, contract: str) -> dict[str, Any]:
    tools = json.loads((out / "mcp" / f"{contract}.tools.json").read_text(encoding="utf-8"))["tools"]
    return {tool["name"]: tool["inputSchema"] for tool in tools}


# Documents every tool is tried with, beside those drawn from its schema.
HAND_WRITTEN: tuple[Any, ...] = (
    {},
    [],
    None,
    "text",
    {"fuzz_extra": "fuzz"},
    {"count": 1, "code": "ABC"},
    {"count": 0, "code": "ABC"},
    {"count": 11, "code": "ABC"},
    {"count": 1.5, "code": "ABC"},
    {"count": True, "code": "ABC"},
    {"count": 1, "code": "abc"},
    {"count": 1, "code": "ABCD"},
    {"count": 1, "code": "ABC", "extra": 1},
    {"count": 1, "code": "ABC", "colour": "red"},
    {"count": 1, "code": "ABC", "colour": 3},
    {"count": 1, "code": "ABC", "colour": "blue"},
    {"count": 1, "code": "ABC", "kind": "big"},
    {"count": 1, "code": "ABC", "kind": "big", "size": 50},
    {"count": 1, "code": "ABC", "kind": "big", "size": 100},
    {"count": 1, "code": "ABC", "kind": "small"},
    {"count": 1, "code": "ABC", "item": {"sku": "ab"}},
    {"count": 1, "code": "ABC", "item": {"sku": "a"}},
    {"count": 1, "code": "ABC", "item": {"sku": "ab", "more": 1}},
    {"count": 1, "code": "ABC", "item": []},
    {"id": 1},
    {"id": 0},
    {"id": "1"},
    {"query": "Dune"},
    {"query": ""},
    {"action": "x"},
    {"action": 1},
)


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output folder of the books contract with the constrained tools added."""
    project = tmp_path_factory.mktemp("own")
    folder = project / "schemas" / "contracts" / "books"
    shutil.copytree(BOOKS, folder)
    with (folder / "tools.yaml").open("a", encoding="utf-8") as tools:
        tools.write(CONSTRAINED_TOOLS)
    out = project / "out"
    result = run_cli("generate", "--schemas", str(project / "schemas"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def test_every_tool_of_our_own_contract_has_its_model_and_name(own: Path) -> None:
    with generated_package(own, "books.tools") as tools:
        assert tools.TOOL_NAMES == ("get_book", "search_books", "constrained", "no.input-given")
        assert {
            "get_book": tools.GetBookArguments,
            "search_books": tools.SearchBooksArguments,
            "constrained": tools.ConstrainedArguments,
            "no.input-given": tools.NoInputGivenArguments,  # dots and dashes: still a class name
        } == tools.ARGUMENTS


def test_the_models_of_our_own_contract_accept_exactly_what_the_input_schemas_accept(own: Path) -> None:
    listing = _listing(own, "books")
    with generated_package(own, "books.tools") as tools:
        for name, model in tools.ARGUMENTS.items():
            oracle = _oracle(listing[name])
            for document in HAND_WRITTEN:
                assert _accepts(model, document) == oracle.is_valid(document), (name, document)


def test_a_tool_without_an_input_schema_takes_an_object_as_its_listing_says(own: Path) -> None:
    assert _listing(own, "books")["no.input-given"] == {"type": "object"}
    with generated_package(own, "books.tools") as tools:
        model = tools.NoInputGivenArguments
        assert model.model_validate({}).model_dump() == {}
        assert not _accepts(model, [])


def test_the_constrained_model_carries_its_values_typed(own: Path) -> None:
    with generated_package(own, "books.tools") as tools:
        found = tools.ConstrainedArguments.model_validate({"count": 2, "code": "ABC", "item": {"sku": "ab"}})
        assert (found.count, found.code, found.item.sku) == (2, "ABC", "ab")
        assert found.model_dump(mode="json", exclude_unset=True) == {"count": 2, "code": "ABC", "item": {"sku": "ab"}}


def _agree_on(documents: st.SearchStrategy[Any], model: Any, schema: Any, name: str, examples: int) -> None:
    """The model and jsonschema agree on every document drawn from `documents`."""
    oracle = _oracle(schema)

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(document=documents)
    def agrees(document: Any) -> None:
        assert _accepts(model, document) == oracle.is_valid(document), (name, document)

    agrees()


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_KEYS = st.sampled_from(["count", "code", "colour", "kind", "size", "item", "sku", "id", "query", "label", "x"])
_OBJECTS = st.dictionaries(_KEYS, _JSON | st.sampled_from(["ABC", "big", "red", 3, 100, {"sku": "ab"}]), max_size=5)


def test_drawn_documents_are_judged_as_jsonschema_judges_them(own: Path) -> None:
    listing = _listing(own, "books")
    with generated_package(own, "books.tools") as tools:
        for name, model in tools.ARGUMENTS.items():
            _agree_on(from_schema(listing[name]) | _OBJECTS, model, listing[name], name, 60)


@pytest.mark.slow  # mypy --strict, or hypothesis over every tool of the built-ins: `pytest -m slow`
@pytest.mark.parametrize("contract", BUILTINS)
def test_the_builtins_models_accept_exactly_what_their_input_schemas_accept(contract: str) -> None:
    listing = _listing(GENERATED, contract)
    module = contract.replace("-", "_")
    with generated_package(GENERATED, f"{module}.tools") as tools:
        assert tuple(listing) == tools.TOOL_NAMES
        assert set(tools.ARGUMENTS) == set(listing)
        for name, model in tools.ARGUMENTS.items():
            schema = listing[name]
            oracle = _oracle(schema)
            for document in HAND_WRITTEN:
                assert _accepts(model, document) == oracle.is_valid(document), (name, document)
            _agree_on(from_schema(schema), model, schema, name, 15)


USES = """
from mcp_contracts.books.tools import ARGUMENTS, TOOL_NAMES, ConstrainedArguments, GetBookArguments

book = GetBookArguments.model_validate({"id": 1})
number: int = book.id
found = ConstrainedArguments.model_validate({"count": 1, "code": "ABC"})
count: int = found.count
code: str = found.code
names: tuple[str, ...] = TOOL_NAMES
model = ARGUMENTS["get_book"].model_validate({"id": 2})
"""


@pytest.mark.slow  # mypy --strict, or hypothesis over every tool of the built-ins: `pytest -m slow`
def test_mypy_strict_takes_code_using_the_models(own: Path, tmp_path: Path) -> None:
    user = tmp_path / "user.py"
    user.write_text(USES, encoding="utf-8")
    bad = tmp_path / "bad.py"
    bad.write_text(USES + "wrong: str = book.id\n", encoding="utf-8")
    env_path = str(own / "python")
    command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache")]

    env = {**os.environ, "MYPYPATH": env_path}
    good = subprocess.run([*command, str(user)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert good.returncode == 0, good.stdout + good.stderr
    refused = subprocess.run([*command, str(bad)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert refused.returncode == 1 and "bad.py:11" in refused.stdout, refused.stdout


@pytest.mark.parametrize(
    ("first", "second", "what"),
    [
        ("get_book", "getBook", "class GetBookArguments"),
        ("a.b", "a-b", "class ABArguments"),
    ],
)
def test_two_tools_whose_names_collide_are_refused_at_the_second(
    tmp_path: Path, first: str, second: str, what: str
) -> None:
    folder = tmp_path / "schemas" / "contracts" / "books"
    shutil.copytree(BOOKS, folder)
    tools = folder / "tools.yaml"
    text = tools.read_text(encoding="utf-8").replace("name: get_book", f"name: {first}", 1)
    text = text.replace("name: search_books", f"name: {second}", 1)
    text = text.replace("name: get_book", f"name: {first}")  # any other mention
    tools.write_text(text, encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if f"name: {second}" in row)
    result = api.load(tmp_path / "schemas")
    assert result.project is None
    messages = [str(d) for d in result.diagnostics]
    assert any(
        f"tools.yaml:{line}:" in m and repr(first) in m and repr(second) in m and what in m for m in messages
    ), messages


# A tool whose zod parts only its view can say: a union with null, string literals, a `$ref`
# in its own outputSchema; `constructor` is the judge's alone (see render/ts_zod.py).
VIEWED_TOOL = """
  - name: viewed
    description: Its zod parts are said from its views.
    possible_error_codes: [invalid_argument]
    inputSchema:
      type: object
      required: [note]
      properties:
        note: {anyOf: [{type: string}, {type: "null"}]}
        mode: {enum: [fast, slow]}
        count: {enum: [1, 2]}
        constructor: {type: string}
    outputSchema:
      type: object
      required: [found]
      properties:
        found: {type: boolean}
        items: {type: array, items: {$ref: "#/$defs/Item"}}
      $defs:
        Item: {type: object, properties: {sku: {type: string}}}
"""


def test_the_zod_parts_are_said_from_the_views_of_the_input_and_the_own_output_schema(tmp_path: Path) -> None:
    folder = tmp_path / "schemas" / "contracts" / "books"
    shutil.copytree(BOOKS, folder)
    with (folder / "tools.yaml").open("a", encoding="utf-8") as tools:
        tools.write(VIEWED_TOOL)
    result = api.load(tmp_path / "schemas")
    assert result.project is not None, [str(d) for d in result.diagnostics]
    [contract] = result.project.contracts
    arguments = {a.tool: a for a in contract.arguments}
    output = arguments["viewed"].output
    assert output is not None and arguments["get_book"].output is None
    assert {c.name: [f.name for f in c.fields] for c in output.classes} == {
        "Output": ["found", "items"],
        "Item": ["sku"],
    }
    [viewed] = [t for t in tool_literals(contract)["tools"] if t.name == '"viewed"']
    assert viewed.input_zod == (
        'z.looseObject({"note": z.union([z.string(), z.null()]), '
        '"mode": z.union([z.literal("fast"), z.literal("slow")]).optional(), "count": z.number().optional()})'
    )
    assert viewed.output_zod == (
        'z.looseObject({"found": z.boolean(), '
        '"items": z.array(z.looseObject({"sku": z.string().optional()})).optional()})'
    )
