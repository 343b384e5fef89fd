"""What `mock` answers, through the official SDK's client, and what it makes from a schema.

The server is the one `mcp-contracts mock` runs, connected in process (the transports are
exercised by test_mcp_conform.py); every answer meets the MCP specification's own schema.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from conftest import CONTRACTS, REFERENCE, ROOT, SCHEMAS, load_json, require_shared, run_cli
from forkserver import python
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_contracts_generator import api
from mcp_contracts_generator.schema.compare import Difference, TooLarge, schema_difference
from mcp_contracts_generator.schema.pointer import value_at
from mcp_contracts_generator.schema.synthesize import synthesize
from mcp_contracts_generator.serving import answers
from mcp_contracts_generator.serving.mock import ERROR_REQUEST, Mock, build_server
from mcp_contracts_generator.serving.served import ServedContract, ServedTool, same_json, served

require_shared()
SPEC = load_json(REFERENCE / "mcp-spec" / "schema-2026-07-28.json")
PROJECT = api.load(SCHEMAS).project
assert PROJECT is not None
SERVED = {c.name: served(c) for c in PROJECT.contracts}


def _spec(definition: str) -> Draft202012Validator:
    return Draft202012Validator({**SPEC, "$ref": f"#/$defs/{definition}"})


def _with_client(contract: ServedContract, body: Callable[[Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with Client(build_server(Mock(contract))) as client:
            return await body(client)

    return anyio.run(main)


async def _call(client: Client, tool: str, arguments: dict[str, Any], code: str | None = None) -> types.CallToolResult:
    meta: Any = {ERROR_REQUEST: code} if code else None
    params = types.CallToolRequestParams(name=tool, arguments=arguments, _meta=meta)
    return await client.session.send_request(types.CallToolRequest(params=params), types.CallToolResult)


def _wire(result: Any) -> Any:
    return result.model_dump(by_alias=True, mode="json", exclude_none=True)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_mock_lists_the_published_tools_as_the_specification_says(contract: str) -> None:
    listed = _with_client(SERVED[contract], lambda client: client.list_tools())
    wire = _wire(listed)
    assert list(_spec("ListToolsResult").iter_errors(wire)) == []
    published = load_json(ROOT / "generated" / "mcp" / f"{contract}.tools.json")["tools"]
    assert [t["name"] for t in wire["tools"]] == [t["name"] for t in published]
    for ours, theirs in zip(published, wire["tools"], strict=True):
        assert theirs["inputSchema"] == ours["inputSchema"] and theirs.get("outputSchema") == ours.get("outputSchema")
        assert theirs.get("annotations", {}).get("readOnlyHint") == ours.get("annotations", {}).get("readOnlyHint")


_PLAIN = {"string": "x", "integer": 1, "number": 1, "boolean": False, "array": [], "object": {}}


def _required_arguments(contract: str, name: str) -> dict[str, Any]:
    """Arguments the tool's published inputSchema accepts: a plain value for each required property."""
    tools = load_json(ROOT / "generated" / "mcp" / f"{contract}.tools.json")["tools"]
    schema = next(t["inputSchema"] for t in tools if t["name"] == name)
    return {key: _PLAIN[schema["properties"][key].get("type", "string")] for key in schema.get("required", [])}


# Of the tools whose results are structured (foundry's answer in text, as foundry-mcp 0.16.0's do).
@pytest.mark.parametrize(
    "contract", [c for c in CONTRACTS if SERVED[c].knows_errors() and any(t.structured for t in SERVED[c].tools)]
)
def test_every_declared_error_code_of_every_tool_gets_its_envelope(contract: str) -> None:
    """The code where the builders put it, the flags the catalogue derives, isError set,
    and a document the contract's judge accepts: for each tool and each code it may return."""
    served_contract = SERVED[contract]
    catalogue = served_contract.contract.catalogue

    async def every_code(client: Client) -> list[tuple[str, str, types.CallToolResult]]:
        answers = []
        for tool in (t for t in served_contract.tools if t.structured):
            codes = tool.declared_codes if tool.declared_codes is not None else catalogue.codes()
            arguments = tool.calls[0].arguments if tool.calls else _required_arguments(contract, tool.name)
            for code in sorted(codes):
                answers.append((tool.name, code, await _call(client, tool.name, arguments, code)))
        return answers

    answers = _with_client(served_contract, every_code)
    assert answers
    call_result = _spec("CallToolResult")
    for tool_name, code, result in answers:
        tool = served_contract.tool(tool_name)
        assert tool is not None
        document = result.structured_content
        assert result.is_error is True
        assert served_contract.error_code(document) == code
        assert tool.check(document) == []
        assert served_contract.mismatches(document, code) == []
        assert list(call_result.iter_errors(_wire(result))) == []
    derived = served_contract.contract.builders.derived if served_contract.contract.builders else ()
    for pointer, column in derived:  # the derived values really vary with the code
        values = {repr(value_at(r.structured_content, pointer)) for _, _, r in answers}
        assert len(values) > 1 or len({repr(e.get(column)) for e in catalogue.errors.entries}) == 1


def test_an_example_call_is_answered_with_its_example_and_others_with_a_success() -> None:
    tuitbot = SERVED["tuitbot"]

    async def calls(client: Client) -> list[types.CallToolResult]:
        return [
            await _call(client, "x_post_tweet", {"text": "Follow me for free followers!"}),
            await _call(client, "x_post_tweet", {"text": "Something else"}),
            await _call(client, "get_stats", {}),
        ]

    denied, other, stats = _with_client(tuitbot, calls)
    assert denied.is_error and denied.structured_content == load_json(
        SCHEMAS / "contracts" / "tuitbot" / "examples" / "policy-denied.json"
    )
    assert not other.is_error and other.structured_content["success"] is True
    assert not stats.is_error and stats.structured_content["success"] is True
    text = other.content[0]
    assert isinstance(text, types.TextContent) and json.loads(text.text) == other.structured_content


@pytest.mark.parametrize(
    ("contract", "tool", "arguments", "code", "message"),
    [
        ("tuitbot", "x_post_tweet", {"text": "hi"}, "db_error", "tool 'x_post_tweet' does not declare error code"),
        ("tuitbot", "x_post_tweet", {"text": "hi"}, "no_such_code", "'no_such_code' is not an error code of"),
        ("tuitbot", "x_post_tweet", {}, None, 'x_post_tweet: the inputSchema refuses the arguments: "text" is a'),
        ("tuitbot", "x_post", {}, None, "unknown tool 'x_post'"),
        ("jsonrpc", "mcp.tool:docs.load.fetch", {"path": "a"}, "TOOL_NOT_FOUND", "declares no builders"),
    ],
    ids=["undeclared", "unknown-code", "bad-arguments", "unknown-tool", "no-builders"],
)
def test_what_the_mock_cannot_answer_is_a_json_rpc_error_that_says_why(
    contract: str, tool: str, arguments: dict[str, Any], code: str | None, message: str
) -> None:
    async def call(client: Client) -> str:
        with pytest.raises(MCPError) as raised:
            await _call(client, tool, arguments, code)
        assert raised.value.code == -32602
        return raised.value.message

    assert message in _with_client(SERVED[contract], call)


def test_a_tool_without_examples_is_answered_with_a_document_made_from_its_schema(tmp_path: Path) -> None:
    """every-keyword's only tool has its own output schema and no example result."""
    sources = tmp_path / "schemas" / "contracts" / "every-keyword"
    shutil.copytree(ROOT / "tests" / "contracts" / "every-keyword", sources)
    tools = sources / "tools.yaml"
    text = tools.read_text("utf-8").replace(
        "      type: object\n      properties:\n        hits:",
        "      type: object\n      required: [hits]\n      properties:\n        hits:",
    )
    tools.write_text(text + "    examples:\n      - arguments: {query: shoes, limit: 5}\n", encoding="utf-8")
    loaded = api.load(tmp_path / "schemas").project
    assert loaded is not None
    contract = served(loaded.contracts[0])
    result = _with_client(contract, lambda client: _call(client, "search", {"query": "shoes", "limit": 5}))
    assert result.is_error is False and result.structured_content == {"hits": []}
    report = run_cli(
        "conform", "--schemas", str(tmp_path / "schemas"), "--contract", "every-keyword", "--protocol", "2026-07-28",
        "--", *python("-m", "mcp_contracts_generator", "mock", "--schemas", str(tmp_path / "schemas")),
        *("--contract", "every-keyword"),
    )  # fmt: skip
    assert report.returncode == 0, report.stdout
    assert "1 tool(s) listed, 1 call(s), 0 error(s)" in report.stdout  # one revision: a stdio session is a process


@pytest.mark.parametrize("contract", [*CONTRACTS, "every-keyword"])
def test_a_success_and_each_error_are_made_from_the_envelope_alone(contract: str, tmp_path: Path) -> None:
    """With no example at all, what `mock` makes from the envelope's schema is a success,
    and an error for every code, that the contract's judge accepts."""
    if contract == "every-keyword":
        shutil.copytree(ROOT / "tests" / "contracts" / contract, tmp_path / "contracts" / contract)
        loaded = api.load(tmp_path).project
        assert loaded is not None
        chosen = loaded.contracts[0]
    else:
        chosen = SERVED[contract].contract
    judge = chosen.judge
    tool = ServedTool("any", {"outputSchema": chosen.bundle.as_written}, None, (), lambda d: judge.violations(d))
    bare = replace(served(chosen), tools=(tool,), examples=())
    made = answers.success(bare, tool)
    assert made.problem is None and judge.is_valid(made.document) and bare.error_code(made.document) is None
    codes = chosen.catalogue.codes() if bare.knows_errors() else ()
    for code in codes:
        failed = answers.error(bare, tool, code)
        assert failed.problem is None, failed.problem
        assert judge.is_valid(failed.document) and bare.error_code(failed.document) == code
        assert bare.mismatches(failed.document, code) == []


def test_schemas_that_say_the_same_are_the_same_whatever_their_spelling() -> None:
    bundled = {
        "$defs": {"Code": {"enum": ["b", "a"], "description": "A code."}},
        "type": "object",
        "required": ["y", "x"],
        "properties": {"code": {"$ref": "#/$defs/Code"}, "x": {"type": ["string", "null"]}, "y": {}},
        "title": "Envelope",
    }
    inlined = {
        "type": "object",
        "required": ["x", "y"],
        "properties": {"code": {"enum": ["a", "b"]}, "x": {"type": ["null", "string"]}, "y": {}},
    }
    assert schema_difference(bundled, inlined) is None
    narrowed = {**inlined, "properties": {**inlined["properties"], "code": {"enum": ["a"]}}}
    assert schema_difference(bundled, narrowed) == Difference("/properties/code", "const", None, "a")  # one-value enum
    recursive = {"$defs": {"N": {"type": "array", "items": {"$ref": "#/$defs/N"}}}, "$ref": "#/$defs/N"}
    assert schema_difference(recursive, recursive) is None
    assert schema_difference(recursive, {"type": "array"}) == Difference("", "items", {"$ref": "(back 1)"}, None)


@pytest.mark.parametrize(
    ("ours", "theirs", "said"),
    [
        ({"type": "array", "items": {"type": "string"}}, {"type": "string"}, "type: array -> string at /properties/p"),
        ({"type": "string"}, {"type": ["string", "null"]}, "type: string -> null | string at /properties/p"),
        ({"type": "string", "maxLength": 3}, {"type": "string", "maxLength": 5}, "maxLength: 3 -> 5 at /properties/p"),
        ({"type": "string"}, {"type": "string", "pattern": "^a"}, 'pattern: (nothing) -> "^a" at /properties/p'),
        ({"enum": ["a", "b"]}, {"enum": ["a", "c"]}, 'enum: ["a", "b"] -> ["a", "c"] at /properties/p'),
        ({"type": "object"}, {"type": "object", "required": ["q"]}, 'required: (nothing) -> ["q"] at /properties/p'),
        (
            {"type": "object", "properties": {"q": {"type": "integer"}}},
            {"type": "object"},
            'properties: {"q": {"type": "integer"}} -> (nothing) at /properties/p',
        ),
        (
            {"type": "object", "properties": {"q": {"type": "integer"}, "r": {}}},
            {"type": "object", "properties": {"q": {"type": "integer"}}},
            "true -> (nothing) at /properties/p/properties/r",
        ),
        ({"anyOf": [{"type": "string"}, {"minimum": 1}]}, False, "false at /properties/p"),
    ],
    ids=["type", "nullable", "bound", "keyword-added", "enum", "required", "properties-gone", "property-gone", "false"],
)
def test_a_difference_says_the_keyword_and_its_two_values_at_the_schema(ours: Any, theirs: Any, said: str) -> None:
    """The type first (an array that became a string is that, not the `items` only one side
    has), then the first keyword whose values differ, from the contract's to the server's."""
    difference = schema_difference({"properties": {"p": ours}}, {"properties": {"p": theirs}})
    assert difference is not None and difference.said().endswith(said)


def test_a_reference_resolves_in_the_resource_it_is_written_in() -> None:
    """In a compound document, `#/...` inside an embedded resource means that resource."""
    other = "https://a.test/other.json"
    compound_document = {
        "$id": "https://a.test/root.json",
        "properties": {"s": {"$ref": "other.json#/$defs/S"}, "t": {"$ref": f"{other}#/$defs/T"}},
        "$defs": {
            "S": {"type": "null"},  # not this one: the reference names other.json's
            other: {"$id": other, "$defs": {"S": {"type": "string"}, "T": {"$ref": "#/$defs/S"}}},
        },
    }
    inlined = {"properties": {"s": {"type": "string"}, "t": {"type": "string"}}}
    assert schema_difference(compound_document, inlined) is None
    made, document = synthesize(
        {**compound_document, "required": ["s", "t"]}, lambda d: isinstance(d, dict) and d.get("t") == "x"
    )
    assert made and document == {"s": "x", "t": "x"}


@pytest.mark.parametrize("contract", CONTRACTS)
def test_mock_and_conform_judge_with_the_schema_the_generated_package_holds(contract: str) -> None:
    chosen = SERVED[contract].contract
    generated = ROOT / "generated" / "python" / "mcp_contracts" / chosen.module / "schema.json"
    judge = SERVED[contract].contract.judge  # what mock and conform judge with
    assert {"root": judge.root, "formats": judge.formats, "resources": judge.resources} == load_json(generated)


def test_hostile_schemas_end_in_an_answer() -> None:
    """A server may publish anything: schemas that inline to 2^30 nodes, nest 5,000 deep, or
    have no finite instance all get an answer, quickly."""
    defs: dict[str, Any] = {
        f"D{i}": {"properties": {"a": {"$ref": f"#/$defs/D{i + 1}"}, "b": {"$ref": f"#/$defs/D{i + 1}"}}}
        for i in range(30)
    }
    dag = {"$defs": {**defs, "D30": {"type": "string"}}, "$ref": "#/$defs/D0"}
    with pytest.raises(TooLarge):  # 2^30 nodes once inlined: conform notes it as not compared
        schema_difference(dag, dag)
    deep: dict[str, Any] = {"type": "object"}
    for _ in range(5000):
        deep = {"properties": {"x": deep}}
    with pytest.raises(TooLarge):  # conform notes it as not compared
        schema_difference(deep, deep)
    endless = {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#"}}}
    assert synthesize(endless, lambda d: True) == (False, None)
    branching = {"oneOf": [{"oneOf": [{"oneOf": [{"type": "integer"}] * 8}] * 8}] * 8}
    assert synthesize(branching, lambda d: False) == (False, None)


def test_the_normal_form_leaves_its_schema_alone_and_keeps_what_sets_schemas_apart() -> None:
    recursive = {"type": "object", "properties": {"next": {"$ref": "#"}}}
    before = json.dumps(recursive)
    assert schema_difference(recursive, json.loads(before)) is None
    assert json.dumps(recursive) == before and schema_difference(recursive, recursive) is None
    # Keywords beside a `$ref` apply too (2020-12).
    beside = {"$defs": {"A": {"minimum": 0}}, "minimum": 5, "$ref": "#/$defs/A"}
    assert schema_difference(beside, {"minimum": 0}) is not None
    # Two cycles that close at different places accept different documents.
    x = {
        "$defs": {"A": {"properties": {"p": {"$ref": "#/$defs/B"}}}, "B": {"properties": {"q": {"$ref": "#/$defs/A"}}}}
    }
    y = json.loads(json.dumps(x))
    y["$defs"]["B"]["properties"]["q"]["$ref"] = "#/$defs/B"
    assert schema_difference({**x, "$ref": "#/$defs/A"}, {**y, "$ref": "#/$defs/A"}) is not None
    # Spellings that say the same: what a no-argument FastMCP tool publishes, among others.
    assert schema_difference({"type": "object"}, {"properties": {}, "title": "t", "type": ["object"]}) is None
    assert schema_difference({"minLength": 1}, {"minLength": 1.0, "additionalProperties": True}) is None


def test_arguments_and_catalogue_values_compare_as_json_does() -> None:
    assert not same_json({"flag": True}, {"flag": 1}) and same_json(404, 404.0) and not same_json([1], (1, 2))


def test_made_strings_and_searches_stay_small() -> None:
    assert synthesize({"anyOf": [{"$ref": "#"}] * 4}, lambda d: True) == (False, None)
    made, text = synthesize({"type": "string", "minLength": 10**9}, lambda d: True)
    assert made and len(text) == 4096
    made, text = synthesize({"type": "string", "pattern": "(((a{256}){256}){256}){256}"}, lambda d: True)
    assert made and len(text) <= 4096
    urn = {
        "$id": "urn:x:root",
        "required": ["y"],
        "properties": {"y": {"$ref": "urn:x:other#/$defs/Y"}},
        "$defs": {
            "Y": {"const": "root-Y"},
            "urn:x:other": {"$id": "urn:x:other", "$defs": {"Y": {"$ref": "#/$defs/Z"}, "Z": {"const": "other-Y"}}},
        },
    }
    assert synthesize(urn, lambda d: True) == (True, {"y": "other-Y"})


def test_a_tool_default_success_is_made_once_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A success can cost a synthesis from the output schema: the mock makes one per tool."""
    from mcp_contracts_generator.serving import mock

    made: list[str] = []

    def counted(contract: ServedContract, tool: ServedTool) -> answers.Answer:
        made.append(tool.name)
        return answers.success(contract, tool)

    monkeypatch.setattr(mock, "success", counted)
    server = Mock(SERVED["tuitbot"])
    first = server.answer("x_post_tweet", {"text": "Something else"}, None)
    second = server.answer("x_post_tweet", {"text": "And another"}, None)
    assert made == ["x_post_tweet"]
    assert first.structured_content == second.structured_content and first.structured_content["success"] is True


def test_a_draft_07_tool_without_examples_is_answered_from_its_envelope_in_2020_12(tmp_path: Path) -> None:
    """The envelope is listed as its author wrote it (a pair as `items: [...]`); the synthesiser
    reads 2020-12 (`prefixItems`), so it makes its document from the envelope said so."""
    assert run_cli("init", "pairs", cwd=tmp_path).returncode == 0
    folder = tmp_path / "schemas" / "contracts" / "pairs"
    draft_07 = "http://json-schema.org/draft-07/schema#"
    text = (folder / "envelope.schema.json").read_text(encoding="utf-8").replace("$defs", "definitions")
    schema = json.loads(text.replace("https://json-schema.org/draft/2020-12/schema", draft_07))
    pair = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "minItems": 2}
    pair["additionalItems"] = False
    schema["definitions"]["SuccessEnvelope"]["properties"]["data"] = pair
    (folder / "envelope.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    for name, old, new in (
        ("contract.yaml", "/$defs/", "/definitions/"),
        ("tools.yaml", "    examples:\n      - arguments: {text: hello}\n        result: success.json\n", ""),
    ):
        (folder / name).write_text((folder / name).read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    (folder / "examples" / "success.json").unlink()
    loaded = api.load(tmp_path / "schemas").project
    assert loaded is not None
    contract = served(loaded.contracts[0])
    (tool,) = contract.tools
    assert tool.listing["outputSchema"]["$schema"] == draft_07
    assert answers.success(contract, tool).document == {"success": True, "data": ["x", 0]}
