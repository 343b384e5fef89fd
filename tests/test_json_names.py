"""Generated models give and take the schema's property names, never their fields' names.

A property that is no Python name (`from`, `retry-after`, `a b`, `1x`, `model_dump`,
`__proto__`) becomes a field of another name with the property as its alias. Every dump
(`model_dump()`, `model_dump(mode="json")`, `model_dump_json()`) writes the property's own
name, so that what a model writes is what the judge accepted; and validation reads the
property's name only, so that a member `from_` of an open object stays a member `from_`.

Shown on tests/contracts/billing-api (the docs' contract, with such names), where the
recipes of docs/python.md run as written, and on every valid document of tests/corpus/.
"""

from __future__ import annotations

import builtins
import importlib
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
from conftest import ROOT, generated_package
from corpus_project import NAMES as CORPUS
from corpus_project import PACKAGE as CORPUS_PACKAGE
from corpus_project import hand_written, module_name
from mcp import Client
from mcp_contracts_generator import api
from mcp_contracts_generator.options import Generate
from pydantic import BaseModel, ValidationError

pytestmark = pytest.mark.xdist_group("corpus")  # one generate of the corpus, as in test_corpus

PAGE = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")  # Generated Python
CONTRACT = ROOT / "tests" / "contracts" / "billing-api"
# The property names of `Names` (closed) and `Open` (open to other members).
NAMES = ("from", "class", "import", "retry-after", "a b", "1x", "ü", "model_dump", "schema", "json", "copy", "dict")
NAMES += ("__proto__", "constructor", "__class__")
VERSION = {"api-version": "2026-11"}


@pytest.fixture(scope="module")
def billing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """`billing_api_contracts.billing_api`, generated from tests/contracts/billing-api as the docs'
    project does (its one contract names the package)."""
    project = tmp_path_factory.mktemp("names")
    shutil.copytree(CONTRACT, project / "schemas" / "contracts" / "billing-api")
    made = Generate(schemas=project / "schemas", out=project / "generated", package="billing_api_contracts")
    outcome = api.run(made)
    assert outcome.exit_code == 0, "\n".join(map(str, outcome.findings))
    with generated_package(project / "generated", "billing_api", package="billing_api_contracts") as package:
        yield package


def _dumps(model: BaseModel) -> list[Any]:
    return [model.model_dump(), model.model_dump(mode="json"), json.loads(model.model_dump_json())]


def _judged(package: ModuleType, model: BaseModel) -> Any:
    """The document every dump of `model` gives, which the judge accepts at the model's class."""
    first, *others = _dumps(model)
    assert all(other == first for other in others), _dumps(model)
    assert package.JUDGE.violations(first, type(model).__location__) == []  # type: ignore[attr-defined]
    return first


def _python_name(model: type[BaseModel], name: str) -> str:
    return next(field for field, info in model.model_fields.items() if (info.alias or field) == name)


@pytest.mark.parametrize("name", NAMES)
def test_a_property_is_dumped_and_read_under_its_own_name(billing: ModuleType, name: str) -> None:
    models = billing.models
    for model in (models.Names, models.Open):
        document = {name: "value"}
        read = (model.model_validate(document), model.model_validate_json(json.dumps(document)))
        for made in (*read, model(**document)):
            assert _judged(billing, made) == document
            assert model.model_validate(made.model_dump()) == made
            assert model.model_validate_json(made.model_dump_json()) == made
    envelope = billing.success_response(data=None, names={name: "n"}, open={name: "o"})
    expected = {"success": True, **VERSION, "data": None, "names": {name: "n"}, "open": {name: "o"}}
    assert _judged(billing, envelope) == expected
    assert billing.Envelope.model_validate_json(envelope.model_dump_json()) == envelope


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("ü", "constructor")])  # their fields' own names
def test_a_field_name_is_not_read_as_the_property(billing: ModuleType, name: str) -> None:
    models = billing.models
    field = _python_name(models.Names, name)
    assert field != name
    with pytest.raises(ValidationError, match="not allowed here"):  # the judge: a closed object
        models.Names.model_validate({field: "value"})
    with pytest.raises(ValidationError):  # construction, which reads what validation reads
        models.Names(**{field: "value"})
    kept = models.Open.model_validate({field: "value"})  # an open object: another member, kept as it came
    assert _judged(billing, kept) == {field: "value"}
    assert name not in kept.model_fields_set
    both = models.Open.model_validate({name: "property", field: "member"})
    assert _judged(billing, both) == {name: "property", field: "member"}
    for options in ({"by_name": True}, {"by_alias": False, "by_name": True}):
        with pytest.raises(TypeError, match="by the schema's property names"):
            models.Open.model_validate({field: "value"}, **options)
        with pytest.raises(TypeError, match="by the schema's property names"):
            models.Open.model_validate_json(json.dumps({field: "value"}), **options)


def test_names_that_clash_with_pydantic_members_leave_them_working(billing: ModuleType) -> None:
    document = {"model_dump": "a", "schema": "b", "json": "c", "copy": "d", "dict": "e"}
    made = billing.models.Names.model_validate(document)
    assert made.model_dump_ == "a" and made.schema_ == "b" and callable(made.model_dump) and callable(made.copy)
    assert made.model_copy().model_dump() == document


def _block(opening: str) -> str:
    """The page's Python code block that starts with `opening`."""
    found = re.search(rf"```python\n({re.escape(opening)}.*?)```", PAGE, re.DOTALL)
    assert found, f"no block of docs/python.md starts with {opening!r}"
    return found.group(1)


def test_the_docs_builders_recipe_as_written(billing: ModuleType) -> None:
    block = _block("from billing_api_contracts.billing_api import error_response, success_response")
    namespace: dict[str, Any] = {}
    exec(block.splitlines()[0], namespace)
    built = []
    for line in block.splitlines()[1:]:
        code, _, comment = line.partition("  # ")
        refused = re.match(r"(\w+Error):", comment)
        if refused:
            with pytest.raises(getattr(builtins, refused.group(1))):
                eval(code, namespace)
        elif code.strip():
            built.append(eval(code, namespace))
    assert [_judged(billing, envelope) for envelope in built] == [
        {"success": True, **VERSION, "data": {"id": 7}},
        {"success": False, **VERSION, "error": _error("card_declined", "The card was declined")},
        {"success": False, **VERSION, "data": {"card": "4242"}, "error": _error("card_declined", "Try another card.")},
    ]


def _error(code: str, message: str, **members: Any) -> dict[str, Any]:
    retryable = code == "rate_limited"
    return {"code": code, "message": message, "retryable": retryable, **members, "class": "client"}


def test_the_docs_server_recipes_as_written(billing: ModuleType) -> None:
    """The page's server, and its tool that answers an error with `isError` as the page
    says (`error_response(...)` given its arguments, `content=[...]` none)."""
    namespace: dict[str, Any] = {}
    exec(_block("from mcp.server.mcpserver import MCPServer"), namespace)
    found = re.search(r"return `(CallToolResult\(.*?\))`", PAGE, re.DOTALL)
    assert found, "the isError recipe of docs/python.md"
    recipe = " ".join(found.group(1).split())
    answer = recipe.replace("error_response(...)", 'error_response("rate_limited", error={"retry-after": 30})')
    answer = answer.replace("content=[...]", "content=[]")
    exec(
        "from typing import Annotated\n"
        "from mcp.types import CallToolResult\n"
        "from billing_api_contracts.billing_api import error_response\n"
        '@app.tool(description="Refuses to charge.")\n'
        f"def refuse() -> Annotated[CallToolResult, Envelope]:\n    return {answer}\n",
        namespace,
    )

    async def calls() -> list[Any]:
        async with Client(namespace["app"]) as client:
            charged = await client.call_tool("charge", {"card_id": "4242", "cents": 100})
            refused = await client.call_tool("refuse", {})
        return [charged.structured_content, refused.structured_content, refused.is_error]

    charged, refused, is_error = anyio.run(calls)
    assert charged == {"success": True, **VERSION, "data": {"id": 7}}
    assert is_error is True
    error = _error("rate_limited", "Too many charges", **{"retry-after": 30})
    assert refused == {"success": False, **VERSION, "error": error}
    assert billing.JUDGE.is_valid(refused)


@pytest.mark.parametrize("name", CORPUS)
def test_every_valid_corpus_document_is_dumped_as_it_was_read(generated_corpus: Path, name: str) -> None:
    """Under any property names: keywords, sigils, unicode, pydantic's own, CamelCase collisions."""
    package = importlib.import_module(f"{CORPUS_PACKAGE}.{module_name(name)}")
    for document in hand_written(name)["valid"]:
        model = package.Envelope.model_validate(document)
        dumps = [model.model_dump(exclude_unset=True), model.model_dump(mode="json", exclude_unset=True)]
        assert dumps == [document, document], json.dumps(document, ensure_ascii=False)
        assert json.loads(model.model_dump_json(exclude_unset=True)) == document
        assert package.JUDGE.is_valid(model.model_dump(mode="json"))  # defaults too
