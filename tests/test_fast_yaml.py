"""The YAML sources read through libyaml (`load.fast_yaml`) give ruamel's tree exactly: the
same values of the same types, the same line and column of every key and item, the same
error when a text does not read."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from mcp_contracts_generator.load import fast_yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar

ROOT = Path(__file__).resolve().parent.parent


def _ruamel(text: str) -> tuple[str, Any]:
    try:
        return "tree", YAML(typ="rt", pure=True).load(text)
    except Exception as exc:
        return "error", f"{type(exc).__name__}: {exc}"


def _fast(text: str) -> tuple[str, Any]:
    try:
        return "tree", fast_yaml.load(text)
    except Exception as exc:
        return "error", f"{type(exc).__name__}: {exc}"


def _difference(a: Any, b: Any, path: str = "$") -> str | None:
    """Where two ruamel trees differ: a type, a value, a key's order or a position."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} against {type(b).__name__}"
    if isinstance(a, CommentedMap):
        if list(a) != list(b) or (a.lc.line, a.lc.col) != (b.lc.line, b.lc.col):
            return f"{path}: keys or position"
        for key in a:
            if _where(a, key) != _where(b, key):
                return f"{path}.{key}: position"
            found = _difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, CommentedSeq):
        if len(a) != len(b) or (a.lc.line, a.lc.col) != (b.lc.line, b.lc.col):
            return f"{path}: items or position"
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if a.lc.item(index) != b.lc.item(index):
                return f"{path}[{index}]: position"
            found = _difference(x, y, f"{path}[{index}]")
            if found:
                return found
        return None
    if isinstance(a, TaggedScalar):
        a, b = (a.value, str(a.tag), a.style), (b.value, str(b.tag), b.style)
    both_nan = isinstance(a, float) and math.isnan(a) and math.isnan(b)
    return None if a == b or both_nan else f"{path}: {a!r} against {b!r}"


def _where(tree: CommentedMap, key: Any) -> Any:
    """The line and column of a key and of its value (none for a key a merge brought)."""
    try:
        return tree.lc.key(key), tree.lc.value(key)
    except KeyError:
        return None


def _assert_same(text: str) -> None:
    want, got = _ruamel(text), _fast(text)
    assert want[0] == got[0], (want, got)
    if want[0] == "error":
        assert want[1] == got[1]
    else:
        assert _difference(want[1], got[1]) is None


SOURCES = sorted(
    path
    for pattern in ("*.yaml", "*.yml")
    for path in ROOT.rglob(pattern)
    if not {".venv", "node_modules", ".git"} & set(path.parts)
)


def test_the_repository_has_yaml_to_compare() -> None:
    assert len(SOURCES) > 20


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_yaml_of_the_repository_reads_the_same(path: Path) -> None:
    _assert_same(path.read_text(encoding="utf-8", errors="replace"))


TEXTS = [
    "",
    "# only a comment\n",
    "a: 1\n",
    "i: ~\nj:\n",
    "a:\n  j:\n  k: 1\n",
    "- a:\n-\n- \n- x\n",
    "{a: , b: }\n",
    "[a, , b]\n",
    "a: yes\nb: no\nc: on\nd: off\ne: y\nf: true\ng: False\nh: NULL\ni: ~\nj:\n",
    "a: 0o17\nb: 017\nc: 0x1F\nd: 1_000\ne: 1e3\nf: .inf\ng: -.Inf\nh: .nan\ni: 1.5\nj: +12\nk: 0b101\n",
    "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 12:30:45\nd: 1:20\n",
    "a: 'it''s'\nb: \"tab\\there \\u00e9 \\x41 \\/ \\N \\_ \\L \\P \\e \\0\"\nc: \"\\ud800\"\n",
    "text: |\n  line one\n    indented\n  line three\n\nnext: >\n  folded\n  lines\n\n  paragraph\n",
    "keep: |+\n  kept\n\n\nstrip: |-\n  stripped\n\nind: |2\n    two more\n",
    "plain: a\n  multi line\n  plain scalar\nother: x # comment\n",
    "flow: {a: 1, b: [x, y, {c: d}], 'e': \"f\"}\nseq: [1, 2.5, null, true]\n",
    "url: http://example.com:8080/a?b=c#d\nflow: [http://x.y/z, a:b]\nkey with spaces: v\n",
    "- a\n- - b\n  - c\n- d: e\n  f: g\n-\n- 'x'\n",
    "top:\n- indentless\n- sequence\nnext:\n  - indented\n",
    "a: &x 1\nb: *x\n",
    "base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n",
    "a: !!str 1\nb: !custom x\n",
    "%YAML 1.1\n---\na: yes\n",
    "%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n",
    "a: 1\na: 2\n",
    "a: 1\n---\nb: 2\n",
    "--- \na: 1\n...\n",
    "a:\tb\n",
    "a: b\r\nc: d\r\n",
    "a: caf\u00e9 \u2603 \U0001f600\n\u00e9t\u00e9: \u6f22\u5b57\n",
    "a: line\u2028sep\n",
    "\ufeffa: 1\n",
    "a: [1, 2\n",
    "a: {b: 1\n",
    "a: 'unterminated\n",
    "a:\n  - b\n c: d\n",
    "? complex key\n: value\n? [a, b]\n: seq key\n",
    "a: b: c\n",
    "- [a, b]: c\n",
    "{a: 1}: b\n",
    "a: \"multi\n  line\n\n  quoted\"\nb: 'single\n  folded'\n",
    "a: -\nb: - x\n",
    "a: @x\n",
    "a: `x`\n",
    "a: x #not: comment\nb: x#y\n",
    "a: \x07bell\n",
    "[1, [2, [3, [4]]]]\n",
    "just a scalar\n",
    "'quoted scalar document'\n",
    "a: " + "x" * 2000 + "\n",
    ("k" * 1100) + ": v\n",
    "1: one\n2.5: two\ntrue: three\nnull: four\n",
    "a: !!binary aGVsbG8=\n",
    "a: [a, b, ]\nb: {a: 1, }\n",
    "description: >-\n  A tool's text: with colons, #hashes, 'quotes' and \"doubles\".\n",
]


@pytest.mark.parametrize("text", TEXTS)
def test_texts_that_tell_the_scanners_apart_read_the_same(text: str) -> None:
    _assert_same(text)
