"""The YAML pre-scan (`load/flow_depth.py`) never overstates how deep a text nests: whatever
it finds, the value the parser reads nests at least that deep, so a source it refuses as too
deep is one the depth limit refuses anyway, only sooner."""

from __future__ import annotations

import io
from pathlib import Path

from conftest import ROOT
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from mcp_contracts_generator.load.documents import depth_of
from mcp_contracts_generator.load.flow_depth import flow_depth
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

# Strings made of what YAML treats specially: brackets, quotes, comments, indicators, lines.
TRICKY = st.text(alphabet=st.sampled_from(list("[]{},:#'\"-?|> \n\tab&*!%@`")), max_size=12)
KEYS = st.one_of(TRICKY, st.sampled_from(["a", "b c", "[x", "k: v", "- d", "#e"]))
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), TRICKY),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=25,
)


def _dumped(value: object, flow: bool | None) -> str:
    yaml = YAML(typ="rt", pure=True)
    yaml.default_flow_style = flow
    out = io.StringIO()
    yaml.dump(value, out)
    return out.getvalue()


@settings(max_examples=200, deadline=None)
@given(VALUES, st.sampled_from([False, True, None]))
def test_the_scan_never_overstates_the_depth(value: object, flow: bool | None) -> None:
    text = _dumped({"root": value}, flow)
    try:
        parsed = YAML(typ="safe", pure=True).load(text)
    except YAMLError:  # ruamel writes a few keys in flow style that it cannot read back
        assume(False)
    assert flow_depth(text) <= depth_of(parsed), text


def test_an_explicit_key_in_a_flow_mapping_is_a_node_whose_quotes_are_skipped() -> None:
    # Found by the property above: the `:{` inside the quoted key is no flow mapping.
    assert flow_depth("{root: [{'': null, ? \"\\n:{\" : null}]}\n") == 3
    assert flow_depth("{? [a, [b]] : 1}\n") == 3


def test_the_scan_finds_deep_flow_collections() -> None:
    assert flow_depth("tools: " + "[" * 500 + "]" * 500 + "\n") == 500
    deep = "tools:\n  - name: t\n    examples:\n      - arguments: {a: " + "[" * 300 + "]" * 300 + "}\n"
    assert flow_depth(deep) == 301


def test_brackets_in_scalars_and_comments_are_not_counted() -> None:
    text = (
        'a: "[[[[" # [[[\n'
        "b: '[[''['\n"
        "c: see [x\n  [[[[[ continued\n"
        "d: |\n  [[[[[\n  {{{{\n"
        "e: [1, [2, ['[', \"]\"]]]\n"
        "f: >-\n    [[[[\n"
    )
    assert flow_depth(text) == 3


def test_every_yaml_source_of_the_repository_is_not_overstated() -> None:
    for path in sorted(ROOT.glob("schemas/**/*.yaml")) + sorted(ROOT.glob("tests/**/*.yaml")):
        text = path.read_text(encoding="utf-8")
        parsed = YAML(typ="safe", pure=True).load(text)
        assert flow_depth(text) <= depth_of(parsed), Path(path).relative_to(ROOT)
