"""models.py from a view: every class under its view name, any description safe, ruff-clean."""

from __future__ import annotations

import ast
import importlib
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT, SCHEMAS
from hostile.texts import HOSTILE
from mcp_contracts_generator import api
from mcp_contracts_generator.model import Contract
from mcp_contracts_generator.model.schemas import NO_DEFAULT, View, ViewClass, ViewField, ViewType
from mcp_contracts_generator.render.escape import docstring
from mcp_contracts_generator.render.models_code import models_code, view_schema
from mcp_contracts_generator.resources import RUNTIME_PACKAGE

ANY = ViewType("any")


@pytest.fixture(scope="module")
def contract(tmp_path_factory: pytest.TempPathFactory) -> Contract:
    schemas = tmp_path_factory.mktemp("sources") / "schemas"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", schemas / "contracts" / "jsonrpc")
    loaded = api.load(schemas)
    assert loaded.project is not None, loaded.diagnostics
    return loaded.project.contracts[0]


def _field(name: str, kind: ViewType, description: str = "", required: bool = True) -> ViewField:
    return ViewField(name, kind, required, NO_DEFAULT, description, None)


def test_a_default_is_a_parsed_value_written_into_the_view_schema() -> None:
    """A falsy default (`false`, `0`, `""`, null) is a default all the same; NO_DEFAULT is none."""
    values: list[object] = [False, 0, "", None, "é", 1.5]
    fields = [replace(_field(f"f{i}", ViewType("any"), required=False), default=v) for i, v in enumerate(values)]
    fields.append(_field("none", ViewType("any"), required=False))
    schema = view_schema(View("Root", (ViewClass("Root", "", "", tuple(fields), False, None),)))
    assert [schema["properties"][f"f{i}"]["default"] for i in range(len(values))] == values
    assert "default" not in schema["properties"]["none"]


def _view(description: str) -> View:
    """An array root (a root model) of objects that name each other, all described by `description`."""
    item = ViewClass(
        "Item",
        "urn:x#/$defs/Item",
        description,
        (
            _field("count", ViewType("integer"), description),
            _field("next", ViewType("union", items=(ViewType("class", name="Item"), ViewType("null"))), description),
            _field("note", ViewType("string"), description, required=False),
        ),
        True,
        None,
    )
    root = ViewClass("Things", "", description, (), False, ViewType("list", items=(ViewType("class", name="Item"),)))
    return View("Things", (root, item))


@contextmanager
def _imported(tmp_path: Path, code: str) -> Iterator[ModuleType]:
    package = tmp_path / "pkg_models"
    (package / "c").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "c" / "__init__.py").write_text("", encoding="utf-8")
    shutil.copytree(RUNTIME_PACKAGE, package / "_runtime", ignore=shutil.ignore_patterns("__pycache__"))
    (package / "c" / "models.py").write_text(code, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("pkg_models.c.models")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.partition(".")[0] == "pkg_models"]:
            del sys.modules[name]


@pytest.mark.parametrize("text", HOSTILE)
def test_docstring_literal_round_trips(text: str) -> None:
    assert ast.literal_eval(docstring(text)) == f"\n{text}\n"


def test_any_description_is_safe_in_classes_fields_and_root_models(contract: Contract, tmp_path: Path) -> None:
    hostile = " ".join(HOSTILE) + ' and a last quote"'
    code = models_code(replace(contract, view=_view(hostile)))
    tree = ast.parse(code)
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    assert list(classes) == ["Things", "Item"]  # the view's names and order, no other class
    for node in classes.values():
        written = ast.get_docstring(node, clean=False)
        assert written is not None and textwrap.dedent(written).strip("\n") == hostile  # black indents its lines
    with _imported(tmp_path, code) as module:
        assert module.Item.model_fields["count"].description == hostile
        assert module.Things.model_fields["root"].annotation is not None


def test_a_described_array_root_of_anything_renders(contract: Contract) -> None:
    root = ViewClass("Anything", "", "Anything.", (), False, ViewType("list", items=(ANY,)))
    code = models_code(replace(contract, view=View("Anything", (root,))))
    assert 'class Anything(JudgedRootModel):\n    """\n    Anything.\n    """\n\n    root: list[Any]\n' in code


def test_models_need_no_arbitrary_types_and_pass_ruff_with_import_order(contract: Contract, tmp_path: Path) -> None:
    code = models_code(replace(contract, view=_view("Described.")))
    assert "arbitrary_types_allowed" not in code
    assert "from .._runtime import ABSENT, Integer, JudgedModel, JudgedRootModel\n" in code
    path = tmp_path / "models.py"
    path.write_text(code, encoding="utf-8")
    ruff = ROOT / ".venv" / "bin" / "ruff"
    if not ruff.exists():
        pytest.skip("ruff is not installed beside the tests")
    checked = subprocess.run(
        [str(ruff), "check", "--isolated", "--select", "F,E,W,B,UP,I", "--ignore", "E501", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout
