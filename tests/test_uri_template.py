"""generator/runtime/uri_template.py: RFC 6570 Levels 1 to 3, expanded as the RFC says, matched back.

The independent reference is the official MCP Python SDK's `mcp.shared.uri_template`: the same
expansion for every template both take, and where the SDK matches an expansion back, the same
values, or (when several values expand to that URI) values that expand to it as well.
"""

from __future__ import annotations

import ast
import re
import string
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from mcp.shared.uri_template import InvalidUriTemplate
from mcp.shared.uri_template import UriTemplate as SdkTemplate
from mcp_contracts_generator.runtime import TemplateError, UriTemplate, uri_template
from mcp_contracts_generator.runtime.uri_template import MAX_URI_LENGTH, _expand, _parse, _Tally
from uri_template_cases import (
    ASCII_LITERALS,
    HOSTILE_TEMPLATES,
    MATCHES,
    REFUSALS,
    RFC_EXAMPLES,
    RFC_UNMATCHABLE,
    RFC_VALUES,
    TAKEN,
    URI_EDITS,
    VALUE_TEXT,
    _query_names,
    templates,
    values_for,
)

DRAWS = settings(max_examples=200, deadline=None, derandomize=True)


@pytest.mark.parametrize(("template", "uri"), RFC_EXAMPLES)
def test_the_rfc_examples_expand_as_it_says(template: str, uri: str) -> None:
    assert UriTemplate.parse(template).expand(RFC_VALUES) == uri


@pytest.mark.parametrize(("template", "uri"), RFC_EXAMPLES)
def test_the_rfc_examples_match_back_to_values_that_expand_to_them(template: str, uri: str) -> None:
    parsed = UriTemplate.parse(template)
    values = parsed.match(uri)
    if values is None:
        # A variable outside the query part is required: `?{x,undef}` has no `,` for `undef`.
        assert any(name not in RFC_VALUES for name in set(parsed.variables) - _query_names(parsed))
        return
    assert parsed.expand(values) == uri


@pytest.mark.parametrize(("template", "uri", "reason"), RFC_UNMATCHABLE)
def test_the_rfc_examples_a_match_could_not_undo_are_refused_yet_expand(template: str, uri: str, reason: str) -> None:
    with pytest.raises(TemplateError, match=reason):
        UriTemplate.parse(template)
    assert _expand(_parse(template), RFC_VALUES) == uri


def test_the_variables_in_order_and_the_literal_text_as_a_uri_writes_it() -> None:
    template = UriTemplate.parse("test://t\u00ebmplate/{id}/data{?since,level}")
    assert template.variables == ("id", "since", "level")
    # RFC 6570 §3.1: a literal character outside ASCII (ucschar) is written percent-encoded.
    assert template.expand({"id": "a b"}) == "test://t%C3%ABmplate/a%20b/data"
    assert template.match("test://t%C3%ABmplate/a%20b/data") == {"id": "a b"}


@pytest.mark.parametrize(("template", "column", "reason"), REFUSALS)
def test_each_refusal_names_its_column(template: str, column: int, reason: str) -> None:
    with pytest.raises(TemplateError, match=re.escape(reason)) as raised:
        UriTemplate.parse(template)
    assert raised.value.column == column
    assert f"at column {column} of" in str(raised.value)
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("template", TAKEN)
def test_what_is_taken(template: str) -> None:
    UriTemplate.parse(template)


@pytest.mark.parametrize(("template", "uri", "values"), MATCHES)
def test_match(template: str, uri: str, values: dict[str, str] | None) -> None:
    assert UriTemplate.parse(template).match(uri) == values


def test_the_module_imports_the_standard_library_only() -> None:
    """It is copied into every generated package as `_runtime/uri_template.py`."""
    tree = ast.parse(Path(uri_template.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert {name.split(".")[0] for name in imported} <= sys.stdlib_module_names | {"__future__"}


def test_a_uri_longer_than_the_cap_is_read_no_further() -> None:
    template = UriTemplate.parse("{+path}")
    assert template.match("a" * MAX_URI_LENGTH) == {"path": "a" * MAX_URI_LENGTH}
    tally = _Tally()
    assert template._match("a" * (MAX_URI_LENGTH + 1), tally) is None
    assert tally.steps == 0


@pytest.mark.parametrize("template", HOSTILE_TEMPLATES)
@pytest.mark.parametrize(
    "uri",
    ["a" * MAX_URI_LENGTH, "&a=" * (MAX_URI_LENGTH // 3), ";a=" * (MAX_URI_LENGTH // 3)],
    ids=["a-64K", "&a=-64K", ";a=-64K"],
)
def test_a_hostile_uri_takes_steps_linear_in_its_length(template: str, uri: str) -> None:
    parsed = UriTemplate.parse(template)
    pieces = len(parsed._pieces)
    places = len(parsed.variables) + 1  # where a query part may begin, at most
    tally = _Tally()
    parsed._match(uri, tally)
    # Each pass visits each character a bounded number of times: two to find the
    # value characters, one a piece for its table, one a value to read it.
    assert 0 < tally.steps <= places * (4 * pieces + 4) * (len(uri) + 1)


def _reserved_names(text: str) -> set[str]:
    return {name for expression in re.findall(r"\{[+#]([^}]*)\}", text) for name in expression.split(",")}


@DRAWS
@given(st.data())
def test_expand_and_match_agree_with_the_sdk(data: st.DataObject) -> None:
    text = data.draw(templates(ASCII_LITERALS, sdk_shaped=True))
    ours = UriTemplate.parse(text)
    try:
        theirs = SdkTemplate.parse(text)
    except InvalidUriTemplate as refused:  # pragma: no cover - the strategy draws within what it takes
        pytest.fail(f"the SDK refuses {text!r}: {refused}")
    values = data.draw(values_for(ours, VALUE_TEXT, all_defined=False))
    uri = ours.expand(values)
    assert uri == theirs.expand(values)
    sdk_values = theirs.match(uri)
    if sdk_values is None:
        event("the SDK does not match the expansion")
        return  # The SDK's scan stops a value at characters ours reads (`{.x}` holding `.`, `{+x}` holding `?`).
    matched = ours.match(uri)
    if matched is None:
        # On purpose: the SDK decodes a percent-encoding that is no UTF-8 to U+FFFD (a `{+x}` value
        # holding `%C3` is written as it is); no string expands to it, so ours is no match.
        assert any("\ufffd" in str(value) for value in sdk_values.values()), (text, values, uri, sdk_values)
        event("the SDK decodes a percent-encoding that is no UTF-8")
        return
    event("both match, to the same values" if matched == sdk_values else "both match, to different values")
    if matched != sdk_values:
        # On purpose: several values expand to this URI, and each picks one by its rule (ours:
        # each variable the longest value that lets the rest match; the SDK's: the shortest
        # before a `{+x}`, and a `{+x}` value's percent-encodings decoded like ours).
        assert ours.expand(matched) == uri, (text, values, uri, matched, sdk_values)
        if _sdk_values_expand(theirs, sdk_values) != uri:
            # On purpose, one of three. The SDK decodes every percent-encoding in a `{+x}` value
            # (`%2F` to `/`, which expands to `/`); ours keeps one `{+x}` passes as it is. The SDK
            # splits a query off at the first `?` and stops a `{+x}` value at `?` and `#` (its
            # docstring says so); ours reads them in the value where the rest still matches. Or
            # the SDK finds a literal inside a percent-encoding (`0` in `%80`) and cuts a value
            # there, which then decodes to U+FFFD or keeps a `%`; ours reads whole characters.
            decoded_alike = {name: unquote(value) for name, value in matched.items()} == sdk_values
            stopped = any(char in matched.get(name, "") for name in _reserved_names(text) for char in "?#")
            cut = any("\ufffd" in str(value) or "%" in str(value) for value in sdk_values.values())
            assert decoded_alike or stopped or cut, (text, values, uri, matched, sdk_values)
            event("the SDK's values expand to another URI")


def test_a_literal_outside_ascii_is_written_percent_encoded_unlike_the_sdk() -> None:
    """On purpose: RFC 6570 §3.1 writes a literal character a URI may not hold percent-encoded; the
    SDK copies it as it is (an IRI, not a URI)."""
    assert UriTemplate.parse("t\u00e9/{x}").expand({"x": "1"}) == "t%C3%A9/1"
    assert SdkTemplate.parse("t\u00e9/{x}").expand({"x": "1"}) == "t\u00e9/1"


def _sdk_values_expand(theirs: SdkTemplate, values: dict[str, str | list[str]]) -> str:
    return theirs.expand(values)


@DRAWS
@given(st.data())
def test_every_expansion_matches(data: st.DataObject) -> None:
    """Every expansion of values that leave no variable outside the query undefined matches, to
    values that expand to it (`test_a_match_expands_to_the_uri`)."""
    text = data.draw(templates())
    template = UriTemplate.parse(text)
    values = data.draw(values_for(template, VALUE_TEXT, all_defined=True))
    uri = template.expand(values)
    matched = template.match(uri)
    assert matched is not None, (text, values, uri)
    _assert_expands_to(template, matched, uri)


@DRAWS
@given(st.data())
def test_a_match_expands_to_the_uri(data: st.DataObject) -> None:
    """Whatever URI matches, the values expand to it: an expansion edited, or text of the template's own characters."""
    text = data.draw(templates())
    template = UriTemplate.parse(text)
    if data.draw(st.booleans()):
        uri = template.expand(data.draw(values_for(template, VALUE_TEXT, all_defined=False)))
        position = data.draw(st.integers(0, len(uri)))
        uri = (
            uri[:position] + data.draw(st.text(URI_EDITS, max_size=3)) + uri[position + data.draw(st.integers(0, 3)) :]
        )
    else:
        uri = data.draw(st.text(st.sampled_from(sorted(set(text + URI_EDITS) - set("{}"))), max_size=16))
    matched = template.match(uri)
    event("matches" if matched is not None else "no match")
    if matched is not None:
        _assert_expands_to(template, matched, uri)


def _assert_expands_to(template: UriTemplate, values: dict[str, str], uri: str) -> None:
    """The values expand to the URI, but for the order of its query's members."""
    again = template.expand(values)
    if _query_names(template).isdisjoint(values):
        assert again == uri, (template, uri, values)
    else:
        assert sorted(again) == sorted(uri), (template, uri, values)
        assert template.match(again) == values


# Templates and values a URI carries back unambiguously: literals hold no letter, digit or `%`,
# and the values' characters written as they are are letters and digits only.
SEPARATING_LITERALS = st.text("!$&()*+,-./:;=?@[]_~", min_size=1, max_size=3)
ANY_BUT_UNRESERVED_PUNCTUATION = st.text(st.characters(codec="utf-8", exclude_characters="-._~%"), max_size=8)
NOTHING_RESERVED_PASSES = st.text(
    st.characters(
        codec="utf-8", exclude_characters=string.punctuation.replace('"', "").replace("<", "").replace(">", "")
    ),
    max_size=8,
)


@DRAWS
@given(st.data())
def test_match_undoes_expand(data: st.DataObject) -> None:
    text = data.draw(templates(literals=SEPARATING_LITERALS))
    template = UriTemplate.parse(text)
    reserved = _reserved_names(text)
    values = data.draw(values_for(template, ANY_BUT_UNRESERVED_PUNCTUATION, all_defined=True))
    for name in reserved & values.keys():
        values[name] = data.draw(NOTHING_RESERVED_PASSES, label=name)
    assert template.match(template.expand(values)) == values
