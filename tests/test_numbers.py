"""Numbers no double holds as written: which ones the readers refuse, which they keep, and the
renderers' last guard. The refusals in every source are rows of the hostile corpus
(tests/hostile/cases.py); `import` of a server's 1e400 is in tests/test_import.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import SCHEMAS
from mcp_contracts_generator import api
from mcp_contracts_generator.config import Limits
from mcp_contracts_generator.diagnostics import Diagnostic
from mcp_contracts_generator.load.documents import Document, Reading, read_json, read_yaml
from mcp_contracts_generator.render.plan import RenderProblem, build_plan


def _read(tmp_path: Path, name: str, text: str) -> Document | Diagnostic:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    reading = Reading.within(tmp_path, Limits())
    return read_json(path, reading) if name.endswith(".json") else read_yaml(path, reading)


KEPT = ["0.1", "5e-324", "1.7976931348623157e308", "-0.0", "0e-999", "0.000e400", "1" + "0" * 400, "1.5e300"]


@pytest.mark.parametrize("text", KEPT)
@pytest.mark.parametrize("name", ["a.json", "a.yaml"])
def test_every_number_a_double_holds_is_kept_and_integers_at_any_size(tmp_path: Path, name: str, text: str) -> None:
    read = _read(tmp_path, name, f'{{"a": [{text}]}}' if name.endswith(".json") else f"a: [{text}]\n")
    assert isinstance(read, Document), read
    assert read.data == {"a": [int(text) if text.isdigit() else float(text)]}


REFUSED = [
    ("1e400", "1e400 is not a finite double: JSON parsers disagree on it"),
    ("-1E+400", "-1E+400 is not a finite double"),
    ("1e-400", "1e-400 is too small for a double: it reads as 0"),
    ("-0.0001e-330", "-0.0001e-330 is too small for a double"),
]


@pytest.mark.parametrize(("text", "message"), REFUSED)
@pytest.mark.parametrize("name", ["a.json", "a.yaml"])
def test_a_number_no_double_holds_is_refused_at_its_place(tmp_path: Path, name: str, text: str, message: str) -> None:
    json = name.endswith(".json")
    read = _read(tmp_path, name, f'{{"a": {{"b": [1, {text}]}}}}' if json else f"a:\n  b: [1, {text}]\n")
    assert isinstance(read, Diagnostic)
    assert read.message.startswith(message), read.message
    assert (read.pointer, read.line) == (("/a/b/1", None) if json else (None, 2))


def test_a_yaml_key_that_would_overflow_is_its_text(tmp_path: Path) -> None:
    """A YAML key read as a float is a string: `1e400` as written, not `inf`."""
    read = _read(tmp_path, "a.yaml", "a: {1e400: x}\n")
    assert isinstance(read, Document), read
    assert read.data == {"a": {"1e400": "x"}}


def test_a_value_no_json_holds_that_reaches_a_renderer_is_the_contracts_problem(tmp_path: Path) -> None:
    """The last guard: were a loaded contract to hold infinity, no output writes `Infinity`:
    the contract is not rendered, and says why (exit 2 in the commands)."""
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", schemas / "contracts" / "jsonrpc")
    loaded = api.load(schemas)
    assert loaded.project is not None, loaded.diagnostics
    bundle = loaded.project.contracts[0].bundle
    bundle.resources[bundle.root]["properties"]["jsonrpc"]["const"] = float("inf")
    plan = build_plan(loaded.project, "contracts", None, ("python", "typescript"))
    assert isinstance(plan, list) and len(plan) == 1
    assert isinstance(plan[0], RenderProblem)
    assert "Out of range float values are not JSON compliant" in plan[0].message
