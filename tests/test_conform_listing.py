"""The listing is what clients read: an argument the contract declares that a server's published
input schema does not name (or does not require where the contract does) is an error at the
contract's argument; a published input schema that only accepts more is one note per tool;
any other difference stays a warning. A template or a prompt argument the contract declares
and the server's listing lacks is an error too.

Real servers: tests/servers/raw_server.py publishes the tool it is given (`--tool`), the SDK's
MCPServer publishes the schemas it derives from Python types, and `mock` serves an edited copy
of the conformance fixtures' resources and prompts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli
from forkserver import python
from mcp_contracts_generator.protocol import VERSIONS
from mcp_servers import GOOD_ITEM, MOCK, RAW, RAW_TOOLS, SHOP_TOOLS

SPOKEN = ("--protocol", "2025-06-18")  # the one revision the bare server speaks
# The input schema raw_server.py lists by default: the contract's own (RAW_TOOLS).
LISTED: dict[str, Any] = {
    "type": "object",
    "required": ["item_id"],
    "properties": {"item_id": {"type": "integer"}, "verbose": {"type": "boolean"}, "kind": {"enum": ["book", "pen"]}},
}


def _project(tmp_path: Path, tools: str) -> Path:
    assert run_cli("init", "shop", cwd=tmp_path).returncode == 0
    (tmp_path / "schemas" / "contracts" / "shop" / "tools.yaml").write_text(tools, encoding="utf-8")
    return tmp_path


def _edited(*edits: tuple[str, str]) -> str:
    tools = RAW_TOOLS
    for old, new in edits:
        assert old in tools, old
        tools = tools.replace(old, new, 1)
    return tools


def _conform(project: Path, input_schema: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """conform of the contract `shop` against the raw server listing `input_schema` for get_item."""
    listed = json.dumps({"inputSchema": input_schema})
    command = ("conform", "--contract", "shop", "--format", "json", "--timeout", "5", *SPOKEN)
    result = run_cli(*command, "--", *RAW, GOOD_ITEM, "--tool", listed, cwd=project)
    assert "Traceback" not in result.stderr, result.stderr
    report = conform_report(result.stdout)
    assert report["problem"] is None, report
    return result.returncode, report["findings"]


def _said(findings: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(f["rule"], f["level"], f["pointer"]) for f in findings]


def _line(tools: str, needle: str) -> int:
    return next(n for n, line in enumerate(tools.splitlines(), start=1) if needle in line)


MISSING_LABEL = ("input-argument-missing", "error", "/tools/0/inputSchema/properties/label")
LABEL = ("        kind: {enum: [book, pen]}\n", "        kind: {enum: [book, pen]}\n        label: {type: string}\n")


@pytest.mark.fires("input-argument-missing")
@pytest.mark.quiet("input-schema-differs", "input-schema-wider")
def test_an_argument_the_server_does_not_name_is_an_error_at_the_contract_s_argument(tmp_path: Path) -> None:
    """The contract gains `label`, the server's listing never names it: clients and models read
    the listing, so they never send it (it was `input-schema-differs [warning]`, exit 0)."""
    tools = _edited(LABEL)
    code, findings = _conform(_project(tmp_path, tools), LISTED)
    assert (code, _said(findings)) == (1, [MISSING_LABEL])
    [finding] = findings
    assert finding["line"] == _line(tools, "label: {type: string}")
    assert finding["subject"] == "tools/list get_item.inputSchema/properties/label"
    assert finding["message"] == (
        "the server's input schema does not name the argument 'label': clients that read the listing never send it"
    )


def test_a_required_argument_the_server_does_not_require_is_an_error(tmp_path: Path) -> None:
    tools = _edited(("required: [item_id]", "required: [item_id, kind]"))
    code, findings = _conform(_project(tmp_path, tools), LISTED)
    assert (code, _said(findings)) == (1, [("input-argument-missing", "error", "/tools/0/inputSchema/properties/kind")])
    assert findings[0]["message"] == (
        "the server's input schema does not require the argument 'kind', which the contract requires:"
        " clients that read the listing may leave it out"
    )


def test_a_required_argument_the_server_does_not_name_is_one_error(tmp_path: Path) -> None:
    required = ("required: [item_id]", "required: [item_id, label]")
    tools = _edited(LABEL, required, ("{item_id: 1,", "{label: a, item_id: 1,"))
    code, findings = _conform(_project(tmp_path, tools), LISTED)
    assert (code, _said(findings)) == (1, [MISSING_LABEL])


def test_a_server_closed_to_the_argument_it_does_not_name_says_it_once(tmp_path: Path) -> None:
    """A closed listing without `label` refuses the example call that gives it, and accepts
    less (`input-property-removed`, `input-closed`): all of it is the one missing argument."""
    tools = _edited(
        LABEL, ("      required: [item_id]\n", "      required: [item_id]\n      additionalProperties: false\n")
    )
    tools = tools.replace("{item_id: 1, kind: book}", "{item_id: 1, kind: book, label: a}")
    code, findings = _conform(_project(tmp_path, tools), {**LISTED, "additionalProperties": False})
    assert (code, _said(findings)) == (1, [MISSING_LABEL])


NESTED = (
    "        kind: {enum: [book, pen]}\n",
    "        kind: {enum: [book, pen]}\n"
    "        filter:\n"
    "          type: object\n"
    "          properties:\n"
    "            colour: {type: string}\n"
    "            size: {type: integer}\n",
)


def test_an_argument_of_a_nested_object_is_named_by_its_path(tmp_path: Path) -> None:
    """The server names `filter` but only its `colour` (through a `$ref`, as SDKs write it)."""
    tools = _edited(NESTED)
    listed = {
        **LISTED,
        "properties": {**LISTED["properties"], "filter": {"$ref": "#/$defs/Filter"}},
        "$defs": {"Filter": {"type": "object", "properties": {"colour": {"type": "string"}}}},
    }
    code, findings = _conform(_project(tmp_path, tools), listed)
    pointer = "/tools/0/inputSchema/properties/filter/properties/size"
    assert (code, _said(findings)) == (1, [("input-argument-missing", "error", pointer)])
    assert "'filter.size'" in findings[0]["message"]
    assert findings[0]["line"] == _line(tools, "size: {type: integer}")


@pytest.mark.fires("input-schema-wider")
@pytest.mark.quiet("input-argument-missing")
def test_a_listing_that_only_accepts_more_is_one_note(tmp_path: Path) -> None:
    """Open to other properties, its own titles, a looser bound, `null` beside an optional
    argument: one note, naming the first difference, and exit 0."""
    tools = _edited(
        ("      required: [item_id]\n", "      required: [item_id]\n      additionalProperties: false\n"),
        ("item_id: {type: integer}", "item_id: {type: integer, minimum: 1, maximum: 100}"),
    )
    listed = {
        "type": "object",
        "title": "get_itemArguments",
        "required": ["item_id"],
        "properties": {
            "item_id": {"type": "integer", "minimum": 0, "title": "Item Id"},
            "verbose": {"anyOf": [{"type": "boolean"}, {"type": "null"}], "default": None},
            "kind": {"type": "string", "enum": ["book", "pen"], "default": "pen"},
        },
    }
    code, findings = _conform(_project(tmp_path, tools), listed)
    assert (code, _said(findings)) == (0, [("input-schema-wider", "note", "/tools/0/inputSchema/additionalProperties")])
    assert findings[0]["message"] == (
        "it accepts more than the contract's: additionalProperties: false -> (nothing) at /"
        " (the contract's -> the server's)"
    )


@pytest.mark.fires("input-schema-differs")
@pytest.mark.quiet("input-schema-wider")
def test_a_listing_not_shown_to_accept_more_stays_a_warning(tmp_path: Path) -> None:
    """`not` is read by neither the input rules of `breaking` nor the example call (which gives
    1): the listing may accept less, so it is no note."""
    tools = _edited()
    listed = {**LISTED, "properties": {**LISTED["properties"], "item_id": {"type": "integer", "not": {"const": 7}}}}
    code, findings = _conform(_project(tmp_path, tools), listed)
    pointer = "/tools/0/inputSchema/properties/item_id"
    assert (code, _said(findings)) == (0, [("input-schema-differs", "warning", pointer)])


# The contract's arguments in alternatives: an item by its id, or by its SKU.
BRANCHES = (
    "      type: object\n      required: [item_id]\n      properties:\n"
    "        item_id: {type: integer}\n        verbose: {type: boolean}\n        kind: {enum: [book, pen]}\n",
    "      type: object\n"
    "      anyOf:\n"
    "        - {type: object, properties: {item_id: {type: integer}}, required: [item_id]}\n"
    "        - {type: object, properties: {sku: {type: string}}, required: [sku]}\n",
)
BY_ID: dict[str, Any] = {
    "type": "object",
    "properties": {"item_id": {"type": ["integer", "null"]}},
    "required": ["item_id"],
}
BY_SKU: dict[str, Any] = {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}


@pytest.mark.parametrize(
    ("by_sku", "expected"),
    [
        (BY_SKU, (0, [("input-schema-wider", "note", "/tools/0/inputSchema/anyOf/0/properties/item_id/type")])),
        (
            {"type": "object", "properties": {}},
            (1, [("input-argument-missing", "error", "/tools/0/inputSchema/anyOf/1/properties/sku")]),
        ),
        (
            {**BY_SKU, "required": []},
            (1, [("input-argument-missing", "error", "/tools/0/inputSchema/anyOf/1/properties/sku")]),
        ),
        (
            {**BY_SKU, "properties": {"sku": {"type": "string"}, "verbose": {"type": "boolean"}}},
            (0, [("input-schema-differs", "warning", "/tools/0/inputSchema/anyOf/0/properties/item_id/type")]),
        ),
    ],
    ids=["only-wider", "sku-not-named", "sku-not-required", "branch-names-more"],
)
def test_the_arguments_of_alternatives_are_compared_branch_to_branch(
    tmp_path: Path, by_sku: dict[str, Any], expected: tuple[int, list[tuple[str, str, str]]]
) -> None:
    """The contract takes an item by its id or by its SKU; the server lists the same two
    branches, its `item_id` also null. A branch is required what the server's branch that
    names the same arguments requires (not what every branch requires: none), and the rest
    is compared without a gap's argument only where the server's schema lacks it too. A
    branch of the server's that names more is not the contract's: its arguments are then
    checked by name only (and its own `verbose` may refuse what the contract's accepts)."""
    tools = _edited(BRANCHES, ("{item_id: 1, kind: book}", "{item_id: 1}"))
    code, findings = _conform(_project(tmp_path, tools), {"type": "object", "anyOf": [BY_ID, by_sku]})
    assert (code, _said(findings)) == expected, findings
    if code:
        named = "name" if "sku" not in by_sku["properties"] else "require"
        assert findings[0]["message"].startswith(f"the server's input schema does not {named} the argument 'sku'")


def test_an_argument_one_branch_of_the_server_s_leaves_optional_is_one_error(tmp_path: Path) -> None:
    """The server lists the contract's arguments twice: as they are, and (titled apart) with
    none required. Clients may leave `item_id` out: one error. The rest is compared with
    `item_id` still required in the contract's copy, since the server's first branch
    requires it: dropped there, it read as the server's requiring it anew (`input-required`)."""
    listed = {"type": "object", "anyOf": [LISTED, {**LISTED, "title": "Loose", "required": []}]}
    code, findings = _conform(_project(tmp_path, _edited()), listed)
    pointer = "/tools/0/inputSchema/properties/item_id"
    assert (code, _said(findings)) == (1, [("input-argument-missing", "error", pointer)]), findings
    assert "does not require the argument 'item_id'" in findings[0]["message"]


STRICT = SHOP_TOOLS.replace(
    "      required: [item_id]\n", "      required: [item_id]\n      additionalProperties: false\n"
).replace("      properties:\n        text:", "      additionalProperties: false\n      properties:\n        text:")


def test_the_sdk_s_mcpserver_against_a_strict_contract_is_one_note_per_tool(tmp_path: Path) -> None:
    """MCPServer publishes open objects with titles, defaults and `anyOf` with null: it accepts
    more than a contract written by hand, closed. One note per tool, whatever the revisions."""
    assert STRICT.count("additionalProperties: false") == 2
    project = _project(tmp_path, STRICT)
    server = ("--", *python(str(ROOT / "tests" / "servers" / "mcpserver_shop.py")))
    result = run_cli("conform", "--contract", "shop", "--format", "json", *server, cwd=project)
    report = conform_report(result.stdout)
    assert result.returncode == 0, report
    found = sorted((f["rule"], f["level"], f["subject"], tuple(f["revisions"])) for f in report["findings"])
    assert found == [
        ("input-schema-wider", "note", "tools/list get_item.inputSchema/additionalProperties", tuple(VERSIONS)),
        ("input-schema-wider", "note", "tools/list search.inputSchema/additionalProperties", tuple(VERSIONS)),
    ], report["findings"]


# --- resources and prompts, against the mock of an edited copy of the conformance fixtures

FIXTURES = ROOT / "tests" / "contracts" / "conformance-fixtures"
NAME = "conformance-fixtures"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if needle in line)


@pytest.mark.fires("missing-resource", "prompt-differs")
def test_a_template_or_a_prompt_argument_the_server_lacks_is_an_error_at_its_entry(tmp_path: Path) -> None:
    ours = tmp_path / "schemas" / "contracts" / NAME
    theirs = tmp_path / "server" / "contracts" / NAME
    shutil.copytree(FIXTURES, ours)
    shutil.copytree(FIXTURES, theirs)
    _edit(theirs / "resources.yaml", "    name: template-data\n", "    name: template-other\n")
    _edit(
        theirs / "prompts.yaml",
        "      - {name: arg2, description: Second test argument, required: true}",
        "      - {name: arg3, description: Third test argument}",
    )
    _edit(theirs / "prompts.yaml", "arg2='{arg2}'", "arg2='{arg3}'")
    _edit(
        theirs / "prompts.yaml",
        "{name: resourceUri, description: URI of the resource to embed, required: true}",
        "{name: resourceUri, description: URI of the resource to embed}",
    )
    mock = ("--", *MOCK, "--contract", NAME, "--schemas", str(tmp_path / "server"))
    command = ("conform", "--contract", NAME, "--schemas", str(tmp_path / "schemas"), "--format", "json")
    result = run_cli(*command, "--protocol", "2025-11-25", *mock)
    report = conform_report(result.stdout)
    assert result.returncode == 1 and report["problem"] is None, report
    found = [(f["rule"], f["level"], f["file"].rsplit("/", 1)[-1], f["line"], f["message"]) for f in report["findings"]]
    resources, prompts = ours / "resources.yaml", ours / "prompts.yaml"
    assert sorted(found) == sorted(
        [
            (
                "missing-resource",
                "error",
                "resources.yaml",
                _line_of(resources, "name: template-data"),
                "the server does not list the template 'template-data'",
            ),
            (
                "prompt-differs",
                "error",
                "prompts.yaml",
                _line_of(prompts, "{name: arg2,"),
                "'test_prompt_with_arguments': the server's prompt takes no argument 'arg2'",
            ),
            (
                "prompt-differs",
                "error",
                "prompts.yaml",
                _line_of(prompts, "{name: resourceUri,"),
                "'test_prompt_with_embedded_resource': the server does not require the argument 'resourceUri',"
                " the contract does",
            ),
        ]
    ), report["findings"]


# --- the two judgements on their own: which arguments a listing lacks, and whether it accepts more

TREE = {"$ref": "#/$defs/n", "$defs": {"n": {"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}}}}
OPTIONAL_FILTER = {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}], "default": None}


@pytest.mark.parametrize(
    ("theirs", "expected"),
    [
        ({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "object"}}}}, ["tags[].name"]),
        ({"type": "object", "properties": {"tags": {"type": "array"}}}, []),  # its items said nothing: not compared
        (
            {
                "type": "object",
                "properties": {"filter": OPTIONAL_FILTER},
                "$defs": {"Filter": {"type": "object", "properties": {"colour": {}}, "required": []}},
            },
            ["filter.colour (not required)", "filter.size", "tags"],
        ),
    ],
    ids=["array-items", "items-unsaid", "optional-object"],
)
def test_the_arguments_a_listing_lacks_down_objects_and_items(theirs: dict[str, Any], expected: list[str]) -> None:
    from mcp_contracts_generator.conformance.argument_gaps import argument_gaps

    ours = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
            "filter": {
                "type": "object",
                "required": ["colour"],
                "properties": {"colour": {"type": "string"}, "size": {"type": "integer"}},
            },
        },
    }
    if "filter" not in theirs["properties"]:
        del ours["properties"]["filter"]
    gaps = argument_gaps(ours, theirs)
    assert sorted(g.label + ("" if not g.named else " (not required)") for g in gaps) == expected


def _either(*branches: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "anyOf": list(branches)}


def _branch(*required: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"a": {}, "b": {}}, "required": list(required)}


@pytest.mark.parametrize(
    ("theirs", "expected"),
    [
        (_either(_branch("a"), _branch("b")), []),
        (_either(_branch("b"), _branch("a")), []),  # reordered: paired by what they require
        (_either(_branch("a"), _branch()), ["b (not required)"]),  # the one left names the same
        (_either(_branch(), _branch()), []),  # two alike: not one to one, names only
        (_either({"type": "object", "properties": {"a": {}}}), ["b", "b"]),  # in neither branch
        ({"type": "object", "properties": {"a": {}, "b": {}}}, []),  # no branch names only what one does
    ],
    ids=["same", "reordered", "one-optional", "alike", "one-unnamed", "flat"],
)
def test_the_alternatives_of_the_contract_s_are_paired_one_to_one(theirs: Any, expected: list[str]) -> None:
    from mcp_contracts_generator.conformance.argument_gaps import argument_gaps

    gaps = argument_gaps(_either(_branch("a"), _branch("b")), theirs)
    assert [g.label + ("" if not g.named else " (not required)") for g in gaps] == expected


@pytest.mark.parametrize(
    ("ours", "theirs", "wider"),
    [
        ({"type": "string", "maxLength": 5}, {"type": ["string", "null"], "maxLength": 9}, True),
        ({"type": "integer", "minimum": 1}, {"type": "number", "exclusiveMinimum": 0}, True),
        ({"type": "number"}, {"type": "integer"}, False),
        ({"enum": ["a", "b"]}, {"type": "string", "enum": ["a", "b", "c"]}, True),
        ({"enum": ["a", "b"]}, {"enum": ["a"]}, False),
        ({"type": "string"}, {"type": "string", "pattern": "^a"}, False),  # a keyword of its own: unsure
        ({"type": "string", "pattern": "^a"}, {"type": "string"}, True),
        (
            {"type": "object", "additionalProperties": False, "properties": {"a": {"type": "string"}}},
            {"type": "object", "additionalProperties": {"type": "string"}},
            True,
        ),
        (
            {"type": "object", "properties": {"a": {"type": "string"}}},
            {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}},
            False,  # the contract's takes any other property
        ),
        ({"type": "object", "required": ["a", "b"]}, {"type": "object", "required": ["a"]}, True),
        ({"type": "object", "required": ["a"]}, {"type": "object", "required": ["a", "b"]}, False),
        ({"type": "array", "items": {"type": "integer"}}, {"type": "array", "items": {"type": "number"}}, True),
        (
            {"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string"}},
            {"type": "array", "items": {"type": "string"}},
            False,  # the contract's first item meets `prefixItems`, not `items`
        ),
        (
            {"type": "object", "properties": {"x": {"type": "string"}}, "unevaluatedProperties": False},
            {"type": "object", "unevaluatedProperties": False},
            False,  # the same keyword, beside other properties: it refuses `x`
        ),
        ({"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 1}, False),
        ({"type": "string"}, {"type": "string", "maxLength": 3}, False),
        (TREE, True, True),
        (TREE, {"type": "object"}, True),  # the contract's cycle is never compared into
        (TREE, {**TREE, "$defs": {"n": {**TREE["$defs"]["n"], "title": "Node"}}}, False),  # the server's: not shown
        ({"type": "object", "properties": {"n": {"type": "string"}}}, {"properties": {"n": {"$ref": "#/x"}}}, False),
    ],
)
def test_a_schema_is_shown_to_accept_more_only_keyword_by_keyword(ours: Any, theirs: Any, wider: bool) -> None:
    from mcp_contracts_generator.schema.accepts import accepts_more
    from mcp_contracts_generator.schema.compare import normal_form

    assert accepts_more(normal_form(ours), normal_form(theirs)) is wider
