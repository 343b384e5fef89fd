"""`tools/list` against the contract: the tools, their schemas and their annotations.

An output schema that says anything else than the contract's is an error: clients judge
results by it. An input schema is what clients and models read to call the tool: one that
does not name an argument of the contract's, or does not require one the contract requires,
is an error per argument (`argument_gaps`); one that accepts less is an error (named by the
input rules of `breaking`, or by an example call it refuses); one shown to accept only more,
one note; one that differs otherwise, a warning (it may accept less in a way no rule reads).
A schema a client cannot compile is `schema-unreadable`.
A tool whose results are content publishes no output schema: one the server lists anyway is
a warning. Each hint and the title the contract gives are compared with the server's, and
so are `execution`, `_meta` and any other field of the listing, as the server wrote them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import mcp.types as types

from ..breaking import input_narrowings
from ..client.report import Report, shown
from ..protocol import VERSIONED_TOOL_FIELDS, Revision
from ..rules import BY_ID
from ..rules import conform as rules
from ..schema.accepts import accepts_more
from ..schema.compare import Difference, TooLarge, first_difference, normal_form
from ..schema.engine import first_refusal, standalone_validator
from ..schema.pointer import PointerError, decode, encode
from ..serving.served import ServedContract, ServedTool, same_json
from .argument_gaps import argument_gaps, without_gaps


def compare_listing(
    contract: ServedContract,
    listed: dict[str, types.Tool],
    report: Report,
    wire: Mapping[str, Mapping[str, Any]] | None = None,
    at: Revision | None = None,
) -> None:
    """`listed` (with each tool's JSON as the server wrote it, `wire`, at revision `at`)
    against the contract's tools."""
    names = [t.name for t in contract.tools]
    for name in names:
        if name not in listed:
            report.add(rules.MISSING_TOOL, "tools/list", f"the server does not list {name!r}", tool=name, at=["name"])
    for name in listed:  # its level: contract.yaml `extra_tools` (see `api_sources.policy`)
        if name not in names:
            text = f"the server lists {name!r}, which the contract lacks"
            report.add(rules.EXTRA_TOOL, "tools/list", text, tool=name, at=["tools"])
    for tool in contract.tools:
        if tool.name in listed:
            _compare_tool(tool, listed[tool.name], report)
            if wire is not None and at is not None:
                _compare_fields(tool, wire.get(tool.name, {}), at, report)


INPUT = "inputSchema"

# What a client takes a hint the server leaves out to be (the MCP `ToolAnnotations` defaults).
HINT_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}
_HINT_FIELDS = {
    "readOnlyHint": "read_only_hint",
    "destructiveHint": "destructive_hint",
    "idempotentHint": "idempotent_hint",
    "openWorldHint": "open_world_hint",
}


def published_hints(published: types.Tool) -> dict[str, bool]:
    """The hints the server gives a tool (those it leaves out are absent, not defaulted)."""
    given = published.annotations
    found = {hint: getattr(given, attribute, None) for hint, attribute in _HINT_FIELDS.items()} if given else {}
    return {hint: value for hint, value in found.items() if isinstance(value, bool)}


def _compare_tool(tool: ServedTool, published: types.Tool, report: Report) -> None:
    name, expected = tool.name, tool.listing
    _compare_schema(report, tool, "inputSchema", published.input_schema)
    where = f"tools/list {name}.outputSchema"
    if "outputSchema" not in expected:  # results are content, or a revision without output schemas
        if published.output_schema is not None and not tool.structured:  # one more field old clients skip
            text = "the server publishes an output schema, though the contract's tool publishes none"
            report.add(rules.OUTPUT_SCHEMA_UNEXPECTED, where, text, tool=name, at=["outputSchema"])
    elif published.output_schema is None:
        text = "the server publishes no output schema"
        report.add(rules.OUTPUT_SCHEMA_MISSING, where, text, tool=name, at=["outputSchema"])
    else:
        _compare_schema(report, tool, "outputSchema", published.output_schema)
    _compare_annotations(tool, published, report)


# The fields of a listed tool compared elsewhere (`_compare_tool`); every other one, as written.
_COMPARED_APART = frozenset({"name", "title", "description", "inputSchema", "outputSchema", "annotations"})


def _compare_fields(tool: ServedTool, theirs: Mapping[str, Any], at: Revision, report: Report) -> None:
    """`execution`, `_meta` and every other field of the tool's listing, as the server wrote
    it, against the contract's: one the revision does not define is not compared there."""
    ours, name = tool.listing, tool.name
    undefined = VERSIONED_TOOL_FIELDS - set(at.tool_fields)
    for key in sorted((set(ours) | set(theirs)) - _COMPARED_APART - undefined):
        mine, listed = _meant(key, ours.get(key)), _meant(key, theirs.get(key))
        if mine is not None and listed is not None and same_json(mine, listed):
            continue
        if mine is None and listed is None:
            continue
        if listed is None:
            text = f"the server lists no {key}; the contract gives {shown(mine, 120)}"
        elif mine is None:
            text = f"the server lists {key} {shown(listed, 120)}, which the contract lacks"
        else:
            text = f"{key} is {shown(listed, 120)}; the contract gives {shown(mine, 120)}"
        place = [key] if key in ("execution", "_meta") else ["other_fields", key]
        report.add(rules.TOOL_FIELD_DIFFERS, f"tools/list {name}.{key}", text, tool=name, at=place)


def _meant(key: str, value: Any) -> Any:
    """A field as it means: `execution.taskSupport` "forbidden" is what its absence says (the
    spec's default, which the TypeScript SDK lists on every tool), so it is left out."""
    if key == "execution" and isinstance(value, dict) and value.get("taskSupport") == "forbidden":
        return {name: item for name, item in value.items() if name != "taskSupport"} or None
    return value


def _compare_annotations(tool: ServedTool, published: types.Tool, report: Report) -> None:
    """The title and each hint the contract gives against the server's: a hint given
    otherwise is an error; one left out whose default says otherwise, a warning."""
    name, given = tool.name, published_hints(published)
    for hint, ours in tool.hints.items():
        where = f"tools/list {name}.annotations.{hint}"
        theirs = given.get(hint)
        if theirs is not None and theirs != ours:
            text = f"{hint} is {shown(theirs)}; the contract gives {shown(ours)}"
            report.add(rules.ANNOTATION_DIFFERS, where, text, tool=name, at=["annotations", hint])
        elif theirs is None and HINT_DEFAULTS.get(hint) != ours:
            default = shown(HINT_DEFAULTS.get(hint))
            text = f"no {hint} ({default}, when absent); the contract gives {shown(ours)}"
            report.add(rules.ANNOTATION_MISSING, where, text, tool=name, at=["annotations", hint])
    if tool.title is None:
        return
    theirs_title = published.title or (published.annotations.title if published.annotations else None)
    where = f"tools/list {name}.title"
    if theirs_title is None:
        text = f"no title; the contract gives {shown(tool.title)}"
        report.add(rules.TITLE_MISSING, where, text, tool=name, at=["title"])
    elif theirs_title != tool.title:
        text = f"the title is {shown(theirs_title)}; the contract gives {shown(tool.title)}"
        report.add(rules.TITLE_DIFFERS, where, text, tool=name, at=["title"])


def _compare_schema(report: Report, tool: ServedTool, key: str, theirs: Any) -> None:
    """One published schema against the contract's. An output schema that says anything else
    is an error: clients judge results by it. An input schema is judged by `_compare_input`."""
    name, ours = tool.name, tool.listing[key]
    where = f"tools/list {name}.{key}"
    try:
        validator = standalone_validator(theirs)  # what a client compiles (the MCP SDK's does)
    except ValueError as exc:
        text = f"the server's schema does not compile on its own: {exc}"
        report.add(rules.SCHEMA_UNREADABLE, where, text, tool=name, at=[key])
        return
    compared = _compared(report, tool, key, ours, theirs)
    if compared is None:
        return
    if key == INPUT:
        _compare_input(report, tool, validator, theirs, compared)
        return
    difference = compared.difference
    subject, at = f"{where}{_at(difference.pointer)}", [key, *_tokens(difference.pointer)]
    report.add(rules.OUTPUT_SCHEMA_DIFFERS, subject, _differs(difference), tool=name, at=at)


@dataclass(frozen=True)
class _Compared:
    """Two schemas that differ, in normal form, and where they first do."""

    ours: Any
    theirs: Any
    difference: Difference


def _compared(
    report: Report, tool: ServedTool, key: str, ours: Any, theirs: Any, theirs_form: Any = None
) -> _Compared | None:
    """The two schemas compared (the server's normal form given when it is known); None when
    they say the same, or when they cannot be compared (said: `schema-not-compared`,
    `schema-unreadable`)."""
    where, name = f"tools/list {tool.name}.{key}", tool.name
    try:
        ours_form = normal_form(ours)
        theirs_form = normal_form(theirs) if theirs_form is None else theirs_form
        difference = first_difference(ours_form, theirs_form)
    except TooLarge as exc:
        report.add(rules.SCHEMA_NOT_COMPARED, where, str(exc), tool=name, at=[key])
        return None
    except (ValueError, TypeError, KeyError, RecursionError) as exc:  # what a server may publish
        report.add(rules.SCHEMA_UNREADABLE, where, f"the server's schema cannot be read: {exc}", tool=name, at=[key])
        return None
    return None if difference is None else _Compared(ours_form, theirs_form, difference)


def _compare_input(report: Report, tool: ServedTool, validator: Any, theirs: Any, compared: _Compared) -> None:
    """A published input schema that differs from the contract's. Clients and models send
    what the listing says: an argument it does not name, or does not require where the
    contract does, is `input-argument-missing` (then the rest is compared without it). One
    that accepts less is an error (the input rules of `breaking`, or an example call it
    refuses); one shown to accept only more, one note (`input-schema-wider`); any other
    difference, a warning (it may accept less in a way no rule reads)."""
    name, where = tool.name, f"tools/list {tool.name}.{INPUT}"
    rest, gaps = tool.listing[INPUT], argument_gaps(tool.listing[INPUT], theirs)
    for gap in gaps:
        report.add(
            rules.INPUT_ARGUMENT_MISSING, f"{where}{encode(gap.path)}", gap.said(), tool=name, at=[INPUT, *gap.path]
        )
    if gaps:  # the rest compared as if the contract's schema did not have them
        rest = without_gaps(rest, gaps)
        found = _compared(report, tool, INPUT, rest, theirs, compared.theirs)
        if found is None:
            return
        compared = found
    narrowed = input_narrowings(rest, theirs)
    for rule, pointer, text in narrowed:  # the input rules `breaking` shares
        report.add(BY_ID[rule], f"{where}{pointer}", text, tool=name, at=[INPUT, *_tokens(pointer)])
    unnamed = {gap.path[-1] for gap in gaps if not gap.named and len(gap.path) == 2}  # top-level arguments
    refused = [(call, first_refusal(validator, _but(call.arguments, unnamed))) for call in tool.calls]
    for index, (call, refusal) in enumerate(refused):
        if refusal is not None and not narrowed:
            text = f"it refuses the example call {name}({shown(call.arguments, 120)}): {refusal}"
            report.add(rules.INPUT_EXAMPLE_REFUSED, where, text, tool=name, at=["examples", index])
    if narrowed or any(refusal for _, refusal in refused):
        return
    difference = compared.difference
    subject, at = f"{where}{_at(difference.pointer)}", [INPUT, *_tokens(difference.pointer)]
    if not accepts_more(compared.ours, compared.theirs):
        report.add(rules.INPUT_SCHEMA_DIFFERS, subject, _differs(difference), tool=name, at=at)
    elif not gaps:  # a tool with an argument missing has its errors: no note beside them
        text = f"it accepts more than the contract's: {_differs(difference)}"
        report.add(rules.INPUT_SCHEMA_WIDER, subject, text, tool=name, at=at)


def _but(arguments: dict[str, Any], names: set[Any]) -> dict[str, Any]:
    """An example call's arguments without those the server's listing does not name."""
    return {key: value for key, value in arguments.items() if key not in names}


def _tokens(pointer: str) -> tuple[str, ...]:
    """The tokens of a pointer into a schema (none for one that is not a pointer)."""
    try:
        return decode(pointer)
    except PointerError:
        return ()


def _at(pointer: str) -> str:
    return pointer if len(pointer) <= 200 else pointer[:199] + "…"


def _differs(difference: Difference) -> str:
    """The change from the contract's schema to the server's: `type: array -> string at /properties/tags`."""
    return f"{difference.said()} (the contract's -> the server's)"
