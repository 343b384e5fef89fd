"""The quick YAML reading (`load/fast_yaml.py`) gives exactly ruamel's values, or leaves the
text to ruamel: on every YAML file of the repository, on scalars YAML 1.1 and 1.2 read apart,
and on generated trees of what YAML treats specially."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp_contracts_generator.config import Limits
from mcp_contracts_generator.load import fast_yaml
from mcp_contracts_generator.load.documents import (
    Document,
    _deepest_position,
    _expanded_size,
    _plain,
    depth_of,
    read_yaml,
)
from mcp_contracts_generator.load.reading import Reading
from ruamel.yaml import YAML


def _ruamel(text: str) -> tuple[str, Any]:
    try:
        return "read", _plain(YAML(typ="rt", pure=True).load(text))
    except Exception as exc:
        return "refused", type(exc).__name__


def _same(left: Any, right: Any) -> bool:
    """Equal, NaN equal to NaN, and of the same types (1 is not True, 1.0 not 1)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(_same(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(_same(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, float) and math.isnan(left):
        return math.isnan(right)
    return bool(left == right)


def _agrees(text: str) -> fast_yaml.Read | None:
    quick = fast_yaml.load(text)
    if quick is not None:
        verdict, value = _ruamel(text)
        assert verdict == "read", (text, value)
        assert _same(quick.data, value), (text, quick.data, value)
        assert quick.depth == depth_of(value)
        assert quick.nodes == _expanded_size(value, 10**9)
        _places_agree(text, quick.data)
    return quick


def _paths(data: Any, prefix: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """Every path of `data`, and one past each container's end."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
        yield (*prefix, "no such key")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, (*prefix, index))
        yield (*prefix, len(data))


def _places_agree(text: str, data: Any) -> None:
    """The line and column of every path, by libyaml's marks, are those ruamel's tree gives."""
    tree = YAML(typ="rt", pure=True).load(text)
    places = fast_yaml.places(text)
    for path in _paths(data):
        assert _deepest_position(places, path) == _deepest_position(tree, path), (text, path)


SOURCES = sorted(
    path
    for pattern in ("*.yaml", "*.yml")
    for path in ROOT.rglob(pattern)
    if not {".venv", "node_modules", ".git"} & set(path.parts)
)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_yaml_file_of_the_repository_reads_as_ruamel_reads_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if "\t" not in text:  # the few with a tab are ruamel's
        assert _agrees(text) is not None


JSON_SOURCES = sorted((*(ROOT / "schemas").rglob("*.json"), *(ROOT / "tests" / "contracts").rglob("*.json")))


@pytest.mark.parametrize("path", JSON_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_places_in_every_json_source_are_ruamels(path: Path) -> None:
    """JSON is YAML: the lines and columns a finding names in a schema or an example come from
    libyaml's marks, and they are those ruamel's tree gives."""
    text = path.read_text(encoding="utf-8")
    assert fast_yaml.places(text) is not None
    _places_agree(text, json.loads(text))


SCALARS = (
    "a: 0777\nb: 0o17\nc: 0x1F\nd: 1_000\ne: 1:20\nf: 1e308\ng: -5e-324\nh: 1e3\ni: +12\nj: -0\nk: 00\n"
    "l: 1.\nm: .5\nn: yes\no: on\np: ~\nq:\nr: Null\ns: TRUE\nt: 12345678901234567890\nu: 0e-999\n"
    "v: nULL\nw: tRue\nx: 0b101\ny: -0x1\nz: 685.230_15e+03\n"
)
READ = [
    SCALARS,
    "",
    "# only a comment\n",
    "- a\n- b: c\n  d: [1, 2, {e: f}]\n",
    "a: \"\\/x\\u00e9\\U0001F600\"\nb: 'it''s'\nc: café\n",
    "a: |\n  x\n   y\nb: >-\n  folded\n  text\nc: multi\n  line plain\n",
    "\ufeffa: 1\r\nb: 2\r\n",
    "{a:b}\n",
    "a: [b, c,]\n",
    "'1': a\nb: \"#x\" # comment\n",
]
LEFT_TO_RUAMEL = [
    "a: 2001-12-14\n",  # a timestamp
    "<<: {a: 1}\n",  # a merge key
    "a: &x 1\nb: *x\n",  # an anchor and an alias
    "a: !!str 12\n",  # an explicit tag
    "%YAML 1.1\n---\na: yes\n",  # a directive: 1.1 reads `yes` as true
    "a: 1\na: 2\n",  # a repeated key
    "1: a\ntrue: b\n",  # keys that are not strings (ruamel finds these two equal)
    "? [a]\n: 1\n",  # a key that is not a scalar
    "---\na: 1\n---\nb: 2\n",  # two documents
    'a: "\\ud800"\n',  # a lone surrogate escape
    "a: b\tc\n",  # a tab, which ruamel refuses here and libyaml takes
    "a: x\x85y\n",  # NEL: a line break in YAML 1.1 only
    "a: =\n",  # the value key
    "[1, 2",  # not YAML at all
    "a: .inf\n",  # numbers no double holds as written: ruamel's reading names their line
    "a: -.Inf\n",
    "a: .NaN\n",
    "a: 1e400\n",
    "a: [1e-400]\n",
]


@pytest.mark.parametrize("text", READ)
def test_plain_sources_are_read_quickly_with_ruamels_values(text: str) -> None:
    assert _agrees(text) is not None


@pytest.mark.parametrize("text", LEFT_TO_RUAMEL)
def test_what_1_1_and_1_2_read_apart_is_left_to_ruamel(text: str) -> None:
    assert fast_yaml.load(text) is None


SPECIAL = st.text(alphabet=st.sampled_from(list("[]{},:#'\"-?|> \nab0.1eE+_xoTtNn~&*!%@`\\")), max_size=10)
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), SPECIAL),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(SPECIAL, inner, max_size=4)),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from([False, True, None]), st.sampled_from([None, '"', "'"]))
def test_dumped_trees_read_as_ruamel_reads_them(value: object, flow: bool | None, quotes: str | None) -> None:
    yaml = YAML(typ="rt", pure=True)
    yaml.default_flow_style = flow
    yaml.default_style = quotes  # type: ignore[assignment]
    out = io.StringIO()
    yaml.dump({"root": value}, out)
    _agrees(out.getvalue())


def test_a_source_read_quickly_still_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "errors.yaml"
    path.write_text("errors:\n  - code: A\n    message: m\n  - code: B\n    message: n\n", encoding="utf-8")
    document = read_yaml(path, Reading.within(tmp_path, Limits()))
    assert isinstance(document, Document)
    assert document.line_of(["errors", 1, "message"]) == 5
    assert document.position(["errors", 1, "code"]) == (4, 5)
    assert document.diagnostic(["errors", 1], "bad").line == 4


@pytest.mark.parametrize("text", ["a: |\n \n  text\n", "- >\n \n  x\n", "['a':b]", '["a":b]'])
def test_what_ruamel_refuses_is_left_to_ruamel(text: str) -> None:
    """libyaml takes these; ruamel refuses them, and its error (with the line) is the answer."""
    assert fast_yaml.load(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\nc: d\n",
        "? [x]\n: 1\nc: d\n",
        "a: !!str 1\nc: d\n",
        "a: 1\n---\nc: d\n",
        "%YAML 1.2\n---\na: 1\n",
    ],
)
def test_places_leave_to_ruamel_what_load_leaves_to_it(text: str) -> None:
    """An alias, a key that is not a scalar, a tag, a second document, a directive: libyaml's
    marks might not be ruamel's lines there."""
    assert fast_yaml.places(text) is None
