"""The generated response builders derive what the contract derives and refuse unknown codes."""

from __future__ import annotations

import importlib
import inspect
import itertools
import json
import shutil
from functools import partial
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, Final

import pytest
from builtin_models import verdicts
from conftest import GENERATED, generated_package, load_json, run_cli
from mcp_contracts import tuitbot as tuitbot_package
from mcp_contracts.code_scalpel import builders as scalpel
from mcp_contracts.foundry import builders as foundry
from mcp_contracts.jsonrpc import canonical as jsonrpc
from mcp_contracts.mcp_envelope import adapters as envelope
from mcp_contracts.mcp_envelope import builders as envelope_builders
from mcp_contracts.tuitbot import builders as tuitbot
from mcp_contracts_generator.runtime import ABSENT, Filling
from pydantic import ValidationError


def dumped(model: Any) -> dict[str, Any]:
    return model.model_dump(mode="json")  # type: ignore[no-any-return]


class TestTuitbot:
    def test_retryable_is_derived_from_the_code(self) -> None:
        assert dumped(tuitbot.error_response("db_error", "locked"))["error"]["retryable"] is True
        assert dumped(tuitbot.error_response("not_found", "gone"))["error"]["retryable"] is False

    def test_the_message_is_required_where_the_schema_requires_it(self) -> None:
        with pytest.raises(TypeError, match="message"):
            tuitbot.error_response("db_error")  # type: ignore[call-arg]
        message = inspect.signature(tuitbot.error_response).parameters["message"]
        assert message.default is inspect.Parameter.empty and message.annotation == "str"

    def test_a_required_member_that_accepts_null_is_null_unless_given(self) -> None:
        assert dumped(tuitbot.error_response("db_error", "locked"))["data"] is None
        assert dumped(tuitbot.success_response())["data"] is None
        assert dumped(tuitbot.success_response(data=[1]))["data"] == [1]

    def test_members_are_keyword_parameters_of_the_shape(self) -> None:
        parameters = inspect.signature(tuitbot.error_response).parameters
        assert list(parameters) == ["code", "message", "data", "error", "meta"]
        assert parameters["meta"].kind is inspect.Parameter.KEYWORD_ONLY and parameters["meta"].default is ABSENT
        with pytest.raises(TypeError, match="unexpected keyword argument 'extra_member'"):
            tuitbot.success_response(extra_member=1)  # type: ignore[call-arg]  # the shape is closed

    def test_a_retryable_flag_that_contradicts_the_code_is_refused(self) -> None:
        with pytest.raises(ValueError, match="/error/retryable is True"):
            tuitbot.error_response("db_error", "locked", error={"retryable": False})

    def test_unknown_code_is_refused_at_the_call(self) -> None:
        with pytest.raises(KeyError):
            tuitbot.error_response("x_teapot", "short and stout")

    def test_envelopes_are_valid_and_omit_what_is_absent(self) -> None:
        ok = dumped(tuitbot.success_response(data={"n": 1}, meta={"tool_version": "1.0", "elapsed_ms": 5}))
        assert ok == {"success": True, "data": {"n": 1}, "meta": {"tool_version": "1.0", "elapsed_ms": 5}}
        meta = {"tool_version": "1.0", "elapsed_ms": 7, "mode": "composer", "approval_mode": False}
        failed = dumped(
            tuitbot.error_response("policy_denied_blocked", "no", error={"policy_decision": "denied"}, meta=meta)
        )
        assert failed["error"] == {
            "code": "policy_denied_blocked",
            "message": "no",
            "retryable": False,
            "policy_decision": "denied",
        }
        for instance in (ok, failed):
            assert verdicts("tuitbot", instance) == (True, True)

    def test_negative_elapsed_time_is_refused(self) -> None:
        with pytest.raises(ValidationError):
            tuitbot.success_response(data=None, meta={"tool_version": "1.0", "elapsed_ms": -1})


class TestFoundry:
    def test_success_constants_come_from_the_schema(self) -> None:
        assert dumped(foundry.success_response(data={})) == {
            "success": True,
            "data": {},
            "error": None,
            "meta": {"version": "response-v2"},
        }

    def test_meta_cannot_contradict_the_version(self) -> None:
        with pytest.raises(ValueError, match="/meta/version is 'response-v2'"):
            foundry.success_response(data={}, meta={"version": "response-v1"})

    def test_error_type_is_derived_from_the_code(self) -> None:
        envelope = dumped(
            foundry.error_response("SPEC_NOT_FOUND", "Spec 'x' not found", data={"remediation": "List specs."})
        )
        assert envelope["success"] is False and envelope["error"] == "Spec 'x' not found"
        assert envelope["data"] == {
            "error_code": "SPEC_NOT_FOUND",
            "error_type": "not_found",
            "remediation": "List specs.",
        }
        assert verdicts("foundry", envelope) == (True, True)

    def test_unknown_code_and_wrong_type_are_refused(self) -> None:
        with pytest.raises(KeyError):
            foundry.error_response("TEAPOT", "boom", data={})
        with pytest.raises(ValueError, match="not_found"):
            foundry.error_response("SPEC_NOT_FOUND", "boom", data={"error_type": "validation"})

    def test_a_failure_needs_a_message(self) -> None:
        with pytest.raises(ValidationError):
            foundry.error_response("INTERNAL_ERROR", "", data={})
        with pytest.raises(TypeError, match="message"):
            foundry.error_response("INTERNAL_ERROR")  # type: ignore[call-arg]

    def test_the_data_a_success_requires_is_a_required_parameter(self) -> None:
        with pytest.raises(TypeError, match="data"):
            foundry.success_response()  # type: ignore[call-arg]


SCALPEL_IDS: Final = MappingProxyType(
    {"tool_id": "extract_code", "tool_version": "3.2.8", "request_id": "0a46", "capabilities": []}
)


class TestCodeScalpel:
    IDS = SCALPEL_IDS

    def test_error_envelope_with_registry_code(self) -> None:
        envelope = dumped(
            scalpel.error_response(
                "not_found",
                "File not found.",
                tier="community",
                error={"error_details": None},
                upgrade_hints=[],
                data=None,
                **self.IDS,
            )
        )
        assert envelope["error"] == {"error": "File not found.", "error_code": "not_found", "error_details": None}
        assert verdicts("code-scalpel", envelope) == (True, True)

    def test_a_required_member_of_the_error_that_accepts_null_is_null_unless_given(self) -> None:
        least = {"tier": "community", "upgrade_hints": [], **self.IDS}
        assert dumped(scalpel.error_response("not_found", "x", **least))["error"]["error_details"] is None
        details = {"path": "a.py"}
        given = scalpel.error_response("not_found", "x", error={"error_details": details}, **least)
        assert dumped(given)["error"]["error_details"] == details

    def test_unknown_code_is_refused(self) -> None:
        with pytest.raises(KeyError):
            scalpel.error_response("nope", "x", tier="community", upgrade_hints=[], **self.IDS)

    def test_paid_tiers_need_a_duration(self) -> None:
        fields = {"error": None, "upgrade_hints": [], "data": {}, **self.IDS}
        with pytest.raises(ValidationError):
            scalpel.success_response(tier="pro", **fields)
        envelope = dumped(scalpel.success_response(tier="pro", duration_ms=3, **fields))
        assert envelope["duration_ms"] == 3


class TestMcpEnvelope:
    def test_the_catalogue_message_is_the_default(self) -> None:
        envelope = dumped(envelope_builders.error_response("ADAPTER.EXECUTION.FAILED", result=None))
        assert envelope["errors"][0]["message"] == envelope_builders.error_info("ADAPTER.EXECUTION.FAILED").message

    def test_the_code_and_message_go_into_the_first_error(self) -> None:
        envelope = dumped(envelope_builders.error_response("ADAPTER.EXECUTION.FAILED", "boom", result=None))
        assert envelope["schema_version"] == "mcp.envelope.v0.1"
        assert envelope["errors"][0]["code"] == "ADAPTER.EXECUTION.FAILED"
        assert envelope["errors"][0]["message"] == "boom"
        assert verdicts("mcp-envelope", envelope) == (True, True)


# The members each contract's shapes require that the builders cannot fill: the least a caller gives.
LEAST: Final[dict[str, dict[str, Any]]] = {
    "code-scalpel": {"tier": "community", "upgrade_hints": [], **SCALPEL_IDS},
    "foundry": {},
    "mcp-envelope": {"result": None},
    "tuitbot": {},
}
BUILDERS: Final = {"code-scalpel": scalpel, "foundry": foundry, "mcp-envelope": envelope_builders, "tuitbot": tuitbot}


@pytest.mark.parametrize("contract", sorted(BUILDERS))
def test_every_code_builds_an_envelope_the_schema_accepts(contract: str) -> None:
    module: ModuleType = BUILDERS[contract]
    success = dumped(module.success_response(**LEAST[contract], **({"data": {}} if contract == "foundry" else {})))
    assert verdicts(contract, success) == (True, True)
    for code in module.ErrorCode:
        failure = dumped(module.error_response(code, "Something went wrong.", **LEAST[contract]))
        assert verdicts(contract, failure) == (True, True), code


class TestJsonRpc:
    def test_canonical_error_table(self) -> None:
        table = {code.value: (i.http_status, i.jsonrpc_code, i.message) for code, i in jsonrpc.CANONICAL_ERRORS.items()}
        assert table == {
            "INVALID_ENVELOPE": (400, -32600, "Invalid MCP envelope"),
            "INVALID_TOOL_INPUT": (422, -32602, "Invalid tool input"),
            "TOOL_NOT_FOUND": (404, -32001, "Unknown tool"),
            "INTERNAL_ERROR": (500, -32603, "Internal error"),
        }

    def test_jsonrpc_error_object(self) -> None:
        assert jsonrpc.jsonrpc_error("TOOL_NOT_FOUND", request_id="r1") == {
            "jsonrpc": "2.0",
            "id": "r1",
            "error": {"code": -32001, "message": "Unknown tool"},
        }
        assert jsonrpc.http_status("INVALID_TOOL_INPUT") == 422

    def test_unknown_code_raises_key_error(self) -> None:
        for call in (jsonrpc.canonical_error, jsonrpc.http_status, jsonrpc.jsonrpc_error):
            with pytest.raises(KeyError):
                call("NOT_A_CODE")


class TestWrap:
    def test_upstream_wrap_vector(self, reference: Path) -> None:
        vector = reference / "prov-spec" / "vectors" / "adapter.wrap.envelope_v0_1"
        assert envelope.wrap(load_json(vector / "input.json")) == load_json(vector / "expected.json")

    @pytest.mark.parametrize("payload", ["done", [1, "two"], 3, 2.5, True, False, None, {"ok": True, "count": 3}])
    def test_legacy_payloads_are_wrapped_unchanged(self, payload: Any) -> None:
        wrapped = envelope.wrap(payload)
        assert wrapped == {"schema_version": "mcp.envelope.v0.1", "result": payload}
        assert verdicts("mcp-envelope", wrapped) == (True, True)

    def test_payload_with_its_own_schema_version_is_kept_intact(self) -> None:
        payload = {"schema_version": "assist.response.v0.1", "plan": ["a"]}
        assert envelope.wrap(payload)["result"] is payload

    def test_an_envelope_passes_through_without_nesting(self, reference: Path) -> None:
        example = load_json(reference / "prov-spec" / "examples" / "mcp.envelope.example.json")
        assert envelope.wrap(example) is example
        assert envelope.wrap(envelope.wrap({"ok": True})) == envelope.wrap({"ok": True})

    def test_adapter_failure(self) -> None:
        failure = envelope.adapter_failure("Tool execution failed with exit code 2.", details={"exit_code": 2})
        assert failure["result"] is None
        assert failure["errors"] == [
            {
                "code": "ADAPTER.EXECUTION.FAILED",
                "message": "Tool execution failed with exit code 2.",
                "details": {"exit_code": 2},
            }
        ]
        assert verdicts("mcp-envelope", failure) == (True, True)
        with pytest.raises(ValidationError):
            envelope.adapter_failure("")


class TestWhatTheCallerGaveIsKept:
    """Only the containers on the builders' paths are copied: the caller's values are never
    changed, and values off the paths are not copied."""

    def test_the_members_given_are_not_changed(self) -> None:
        error = {"policy_decision": "denied"}
        meta = {"tool_version": "1.0", "elapsed_ms": 7}
        envelope = tuitbot.error_response("policy_denied_blocked", "no", error=error, meta=meta)
        assert error == {"policy_decision": "denied"} and meta == {"tool_version": "1.0", "elapsed_ms": 7}
        assert dumped(envelope)["error"]["code"] == "policy_denied_blocked"

    def test_an_array_on_the_way_is_copied_not_changed(self) -> None:
        errors = [{"code": "ADAPTER.EXECUTION.FAILED", "details": {"exit_code": 2}}]
        envelope = dumped(
            envelope_builders.error_response("ADAPTER.EXECUTION.FAILED", "boom", result=None, errors=errors)
        )
        assert errors == [{"code": "ADAPTER.EXECUTION.FAILED", "details": {"exit_code": 2}}]
        assert envelope["errors"][0]["message"] == "boom" and envelope["errors"][0]["details"] == {"exit_code": 2}
        empty: list[dict[str, Any]] = []
        assert dumped(envelope_builders.error_response("ADAPTER.EXECUTION.FAILED", result=None, errors=empty))["errors"]
        assert empty == []

    def test_a_code_given_inside_the_array_must_agree(self) -> None:
        with pytest.raises(ValueError, match=r"/errors/0/code is 'ADAPTER\.EXECUTION\.FAILED'"):
            envelope_builders.error_response("ADAPTER.EXECUTION.FAILED", result=None, errors=[{"code": "OTHER"}])

    def test_the_message_cannot_contradict_one_given(self) -> None:
        with pytest.raises(ValueError, match="/error/message is 'locked'"):
            tuitbot.error_response("db_error", "locked", error={"message": "other"})

    def test_an_enum_member_finds_its_code(self) -> None:
        envelope = dumped(tuitbot.error_response(tuitbot.ErrorCode.DB_ERROR, "locked"))
        assert envelope["error"]["code"] == "db_error" and envelope["error"]["retryable"] is True

    def test_a_default_goes_into_an_object_given_without_changing_it(self) -> None:
        error: dict[str, Any] = {}
        built = scalpel.error_response("not_found", "x", error=error, **LEAST["code-scalpel"])
        assert dumped(built)["error"]["error_details"] is None and error == {}


BODIES_AND_LOCALS: Final = (
    "values",
    "filled",
    "given",
    "document",
    "_success_response",
    "_error_response",
    "_success_document",
    "_error_document",
    "SUCCESS_FILLING",
    "ERROR_FILLING",
    "ERROR_VALUES",
    "ABSENT",
    "error_info",
)
HOSTILE_KEY: Final = "we\"ird/~key\n'''\\"
HOSTILE_VALUE: Final = '"""x\\y\n{z}'


def test_members_named_like_the_bodies_or_their_locals_do_not_hide_them(schemas_copy: Path, tmp_path: Path) -> None:
    """A keyword parameter may take any name a member has, but the builders' bodies are
    called by names no parameter takes: those members are given through `**extra`. A
    constant's path and value go through the escaping filter whatever they hold."""
    for other in (schemas_copy / "contracts").iterdir():
        if other.name != "tuitbot":
            shutil.rmtree(other)
    source = schemas_copy / "contracts" / "tuitbot" / "envelope.schema.json"
    schema = load_json(source)
    for shape in ("SuccessEnvelope", "FailureEnvelope"):
        for name in BODIES_AND_LOCALS:
            schema["$defs"][shape]["properties"][name] = {"type": "integer"}
    schema["$defs"]["SuccessEnvelope"]["properties"][HOSTILE_KEY] = {
        "properties": {HOSTILE_KEY: {"const": HOSTILE_VALUE}}
    }
    schema["$defs"]["SuccessEnvelope"]["properties"][HOSTILE_KEY]["required"] = [HOSTILE_KEY]
    schema["$defs"]["SuccessEnvelope"]["required"].append(HOSTILE_KEY)
    source.write_text(json.dumps(schema), encoding="utf-8")
    for example in (source.parent / "examples").glob("*.json"):
        document = load_json(example)
        if document["success"]:
            example.write_text(json.dumps({**document, HOSTILE_KEY: {HOSTILE_KEY: HOSTILE_VALUE}}), encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("generate", "--schemas", str(schemas_copy), "--out", str(out)).returncode == 0
    with generated_package(out, "tuitbot") as contract:
        hidden = {"_success_response": 5, "_error_response": 6, "_success_document": 7, "_error_document": 8}
        hidden |= {"SUCCESS_FILLING": 9, "ERROR_FILLING": 10, "ERROR_VALUES": 11, "ABSENT": 12, "error_info": 13}
        ok = contract.builders.success_response(values=1, filled=2, given=3, document=4, **hidden)
        assert contract.builders.success_document(values=1, filled=2, given=3, document=4, **hidden) == {
            "values": 1,
            "filled": 2,
            "given": 3,
            "document": 4,
            **hidden,
            "data": None,
            "success": True,
            HOSTILE_KEY: {HOSTILE_KEY: HOSTILE_VALUE},
        }
        assert ok.model_dump(mode="json", by_alias=True) == {
            "success": True,
            "data": None,
            "values": 1,
            "filled": 2,
            "given": 3,
            "document": 4,
            **hidden,
            HOSTILE_KEY: {HOSTILE_KEY: HOSTILE_VALUE},
        }
        assert contract.builders.SUCCESS_CONSTANTS[-1] == ((HOSTILE_KEY, HOSTILE_KEY), HOSTILE_VALUE)
        failed = contract.builders.error_response("db_error", "locked", values=1, filled=2, **hidden)
        assert (
            failed.model_dump(mode="json", by_alias=True)["error"]["retryable"] is True
            and failed.model_dump(mode="json", by_alias=True)["filled"] == 2
        )
        assert "_error_response" not in inspect.signature(contract.builders.error_response).parameters
        assert contract.builders.error_document("db_error", "locked", values=1, **hidden)["error"]["retryable"] is True


class TestFilling:
    """The runtime's compiled placements, which every generated builder uses."""

    def test_values_slots_and_defaults_go_to_their_paths(self) -> None:
        filling = Filling(
            ((("kind",), "error"), (("meta", "version"), 2)),
            (("error", "code"), ("error", "message")),
            ((("error", "details"), None), (("extra", "note"), None)),
        )
        assert filling.fill({"data": 1}, "E1", "boom") == {
            "data": 1,
            "kind": "error",
            "meta": {"version": 2},
            "error": {"code": "E1", "message": "boom", "details": None},
        }  # no object is made for a default alone

    def test_a_slot_left_out_makes_no_object(self) -> None:
        filling = Filling((), (("error", "message"),))
        assert filling.fill({}, ABSENT) == {}
        assert filling.fill({"error": {"code": 1}}, ABSENT) == {"error": {"code": 1}}

    def test_arrays_are_made_on_the_way_and_indexes_are_checked(self) -> None:
        filling = Filling((), (("errors", "0", "code"),))
        assert filling.fill({}, "E") == {"errors": [{"code": "E"}]}
        assert filling.fill({"errors": ()}, "E") == {"errors": [{"code": "E"}]}
        with pytest.raises(ValueError, match="/errors/5 cannot be filled: /errors is an array of 0"):
            Filling((), (("errors", "5", "code"),)).fill({"errors": []}, "E")
        with pytest.raises(ValueError, match="/errors/1 cannot be filled"):
            Filling((), (("errors", "1"),)).fill({"errors": []}, "E")

    def test_defaults_go_only_into_objects_that_are_there(self) -> None:
        filling = Filling((), (("errors", "0", "code"),), ((("errors", "0", "details"), None),))
        assert filling.fill({"errors": []}, "E") == {"errors": [{"code": "E", "details": None}]}
        assert filling.fill({"errors": [{"details": 1}]}, "E") == {"errors": [{"details": 1, "code": "E"}]}
        only = Filling(defaults=((("a", "3", "x"), None), (("a", "0", "x"), None), (("b", "x"), None)))
        assert only.fill({"a": [{}]}) == {"a": [{"x": None}]}

    def test_a_value_in_the_way_is_refused_by_pointer(self) -> None:
        with pytest.raises(ValueError, match=r"/error is 'oops': the builder puts values inside it"):
            Filling((), (("error", "code"),)).fill({"error": "oops"}, "E")

    def test_a_contradiction_names_the_pointer_and_a_type_counts(self) -> None:
        filling = Filling(((("a~b", "c/d"), True),))
        with pytest.raises(ValueError, match="/a~0b/c~1d is True in this contract, not 1"):
            filling.fill({"a~b": {"c/d": 1}})
        assert filling.fill({"a~b": {"c/d": True}}) == {"a~b": {"c/d": True}}

    def test_nothing_is_shared_with_the_caller_or_the_constants(self) -> None:
        given_meta = MappingProxyType({"n": 1})
        filling = Filling(((("meta", "tags"), ["a"]),))
        first, second = filling.fill({"meta": given_meta}), filling.fill({})
        assert first == {"meta": {"n": 1, "tags": ["a"]}} and type(first["meta"]) is dict
        first["meta"]["tags"].append("b")
        assert second["meta"]["tags"] == ["a"] and filling.fill({})["meta"]["tags"] == ["a"]
        payload = {"big": [1, 2, 3]}
        assert filling.fill({"data": payload})["data"] is payload  # off the paths: not copied

    def test_a_later_placement_at_the_same_path_wins(self) -> None:
        assert Filling(((("code",), "example"),), (("code",),)).fill({}, "other") == {"code": "other"}

    def test_members_left_at_missing_are_left_out_and_extra_ones_kept(self) -> None:
        members = {"a": 1, "b": ABSENT}
        assert Filling().fill(members, extra={"c": 2}) == {"c": 2, "a": 1} and members == {"a": 1, "b": ABSENT}


def test_a_constant_behind_an_anchor_is_filled_by_the_builder(schemas_copy: Path, tmp_path: Path) -> None:
    """A shape's members are read through the schema core's resolver: a `$ref` to an
    `$anchor` leads to the constant as a `$ref` to a pointer does."""
    for other in (schemas_copy / "contracts").iterdir():
        if other.name != "tuitbot":
            shutil.rmtree(other)
    source = schemas_copy / "contracts" / "tuitbot" / "envelope.schema.json"
    schema = load_json(source)
    schema["$defs"]["AlwaysTrue"] = {"$anchor": "always-true", "const": True}
    schema["$defs"]["SuccessEnvelope"]["properties"]["success"] = {"$ref": "#always-true"}
    source.write_text(json.dumps(schema), encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("generate", "--schemas", str(schemas_copy), "--out", str(out)).returncode == 0
    with generated_package(out, "tuitbot") as contract:
        assert ((("success",), True)) in contract.builders.SUCCESS_CONSTANTS
        assert contract.builders.success_response().model_dump(mode="json")["success"] is True


def test_a_union_of_literals_is_one_literal_each_value_once() -> None:
    """`Literal["community"] | Literal["pro", "enterprise"]` was what a reader of code-scalpel's
    builders met; a value of another type (True beside "true", 1 beside True) keeps its place."""
    from mcp_contracts_generator.model.schemas import View, ViewType
    from mcp_contracts_generator.render.builder_signatures import HintNeeds as _Needs
    from mcp_contracts_generator.render.builder_signatures import _hint

    union = ViewType(
        "union",
        items=(
            ViewType("literal", ("community",)),
            ViewType("string"),
            ViewType("literal", ("pro", "community", True)),
            ViewType("literal", ("true",)),
        ),
    )
    needs = _Needs()
    assert _hint(View("Envelope", ()), union, needs) == 'Literal["community", "pro", True, "true"] | str'
    assert "Literal" in needs.typing
    text = (GENERATED / "python" / "mcp_contracts" / "code_scalpel" / "builders.py").read_text(encoding="utf-8")
    assert 'tier: Literal["community", "pro", "enterprise"],' in text
    assert "] | Literal[" not in text


@pytest.mark.parametrize(
    "title",
    [
        "Filling",
        "Path",
        pytest.param("Sequence", marks=pytest.mark.slow),
        pytest.param("ABSENT", marks=pytest.mark.slow),
    ],
)
def test_a_root_titled_like_a_name_the_builders_import_keeps_them_working(
    title: str, schemas_copy: Path, tmp_path: Path
) -> None:
    """The builders module imports the root class by its name beside the runtime's and
    `collections.abc`'s: a root of one of those titles takes `Model` after it."""
    for other in (schemas_copy / "contracts").iterdir():
        if other.name != "tuitbot":
            shutil.rmtree(other)
    source = schemas_copy / "contracts" / "tuitbot" / "envelope.schema.json"
    source.write_text(json.dumps({**load_json(source), "title": title}), encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("generate", "--schemas", str(schemas_copy), "--out", str(out)).returncode == 0
    with generated_package(out, "tuitbot") as contract:
        assert type(contract.builders.success_response()).__name__ == f"{title}Model"
        assert contract.builders.error_response("db_error", "locked").model_dump(mode="json")["success"] is False


# (builders module, builder's name without `_response`, positional arguments, keyword arguments):
# calls of every shape, the usual one (no member the paths begin with, plain values) and those
# that merge into what the caller gave, with models, with `extra`.
TUITBOT_META: Final = {"tool_version": "1.0", "elapsed_ms": 5}
CALLS: Final[list[tuple[ModuleType, str, tuple[Any, ...], dict[str, Any]]]] = [
    (tuitbot, "success", (), {}),
    (tuitbot, "success", (), {"data": {"n": [1]}, "meta": TUITBOT_META}),
    (tuitbot, "error", ("db_error", "locked"), {}),
    (tuitbot, "error", ("not_found", "gone"), {"error": {"policy_decision": "denied"}, "meta": TUITBOT_META}),
    (foundry, "success", (), {"data": {}}),
    (foundry, "success", (), {"data": {"x": 1}, "meta": {"request_id": "r1"}}),
    (foundry, "error", ("SPEC_NOT_FOUND", "Spec 'x' not found"), {}),
    (foundry, "error", ("SPEC_NOT_FOUND", "Spec 'x' not found"), {"data": {"remediation": "List specs."}}),
    (envelope_builders, "success", (), {"result": {"ok": True}}),
    (envelope_builders, "error", ("ADAPTER.EXECUTION.FAILED",), {"result": None}),
    (envelope_builders, "error", ("ADAPTER.EXECUTION.FAILED", "exit 2"), {"result": None, "errors": []}),
    (
        envelope_builders,
        "error",
        ("ADAPTER.EXECUTION.FAILED", "exit 2"),
        {"result": None, "warnings": [{"code": "W", "message": "w"}]},
    ),
]
SCALPEL: Final = {
    "tier": "community",
    "tool_version": "1.0",
    "tool_id": "t",
    "request_id": "r",
    "capabilities": ["envelope-v1"],
    "upgrade_hints": [],
}
CALLS += [
    (scalpel, "success", (), SCALPEL),
    (scalpel, "error", ("invalid_argument", "bad"), SCALPEL),
    (scalpel, "error", ("invalid_argument", "bad"), {**SCALPEL, "error": {"error_details": {"k": 1}}}),
]
# Wrong calls, each refused by both builders alike: unknown code, a contradiction, a document
# the schema refuses, a value that is not JSON.
WRONG: Final[list[tuple[ModuleType, str, tuple[Any, ...], dict[str, Any]]]] = [
    (tuitbot, "error", ("x_teapot", "short and stout"), {}),
    (tuitbot, "error", ("db_error", "locked"), {"error": {"retryable": False}}),
    (tuitbot, "success", (), {"meta": {"tool_version": "1.0", "elapsed_ms": -1}}),
    (tuitbot, "success", (), {"meta": {"tool_version": {1, 2}, "elapsed_ms": 1}}),
    (foundry, "success", (), {"data": {}, "meta": {"version": "response-v1"}}),
    (foundry, "error", ("INTERNAL_ERROR", ""), {}),
    (envelope_builders, "error", ("ADAPTER.EXECUTION.FAILED", ""), {"result": None}),
    (scalpel, "success", (), {**SCALPEL, "tier": "pro"}),
]


def _builders(module: ModuleType, kind: str) -> tuple[Any, Any]:
    return getattr(module, f"{kind}_response"), getattr(module, f"{kind}_document")


def _outcome(call: Any) -> tuple[str, Any]:
    try:
        return "returned", call()
    except ValidationError as error:
        return "ValidationError", (error.title, error.errors())
    except (KeyError, ValueError, TypeError) as error:
        return type(error).__name__, str(error)


class TestDocuments:
    """`success_document` and `error_document`: the envelope `*_response` judges, returned as
    that dict once judged alike, refused alike, without the model; `dump_json` writes it."""

    @pytest.mark.parametrize("call", CALLS, ids=lambda call: f"{call[0].__name__.split('.')[-2]}-{call[1]}")
    def test_the_document_is_the_one_the_model_path_judges(
        self, call: tuple[ModuleType, str, tuple[Any, ...], dict[str, Any]], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        module, kind, arguments, keywords = call
        response, document_builder = _builders(module, kind)
        root = type(response(*arguments, **keywords))
        judged: list[Any] = []
        validate = root.model_validate
        monkeypatch.setattr(root, "model_validate", lambda obj, **options: judged.append(obj) or validate(obj))
        model = response(*arguments, **keywords)
        document = document_builder(*arguments, **keywords)
        assert judged == [document] and list(judged[0].items()) == list(document.items())  # the same, in order
        package = importlib.import_module(module.__package__)
        assert package.JUDGE.is_valid(document) and root.model_validate(document) == model
        assert json.loads(package.dump_json(document)) == document

    @pytest.mark.parametrize("call", WRONG, ids=lambda call: f"{call[0].__name__.split('.')[-2]}-{call[1]}")
    def test_a_wrong_call_is_refused_with_the_same_error(
        self, call: tuple[ModuleType, str, tuple[Any, ...], dict[str, Any]]
    ) -> None:
        module, kind, arguments, keywords = call
        response, document_builder = _builders(module, kind)
        by_model = _outcome(lambda: response(*arguments, **keywords))
        assert by_model[0] != "returned"
        assert _outcome(lambda: document_builder(*arguments, **keywords)) == by_model

    def test_what_the_caller_gave_and_the_constants_are_not_shared(self) -> None:
        data = {"x": [1]}
        first, second = foundry.success_document(data=data), foundry.success_document(data={})
        assert first["data"] is data and data == {"x": [1]}  # off the paths: the caller's own
        first["meta"]["version"] = "changed"
        assert second["meta"] == {"version": "response-v2"} == foundry.success_document(data={})["meta"]
        hints = [{"feature": "f", "tier": "pro", "reason": "r"}]
        made = scalpel.error_document("invalid_argument", "bad", **{**SCALPEL, "upgrade_hints": hints})
        assert made["upgrade_hints"] is hints and made["error"]["error_details"] is None

    def test_a_model_given_is_written_by_the_schemas_names(self) -> None:
        meta = tuitbot.models.ApiToolMeta(tool_version="1.0", elapsed_ms=5)
        document = tuitbot.success_document(meta=meta, data={"inside": meta})
        assert document["meta"] == {"tool_version": "1.0", "elapsed_ms": 5}  # a member that may hold models
        assert json.loads(tuitbot_package.dump_json(document)) == {
            "data": {"inside": {"tool_version": "1.0", "elapsed_ms": 5}},  # anywhere else: written so
            "meta": {"tool_version": "1.0", "elapsed_ms": 5},
            "success": True,
        }
        with pytest.raises(TypeError):
            tuitbot_package.dump_json({"when": object()})


# Fillings of every shape the builders' paths take: constants (some containers), slots, defaults,
# arrays made or filled, members that may hold models; with the members `put` takes, and its
# count of values.
def _filling(*arguments: Any, members: tuple[str, ...], **options: Any) -> tuple[Filling, tuple[str, ...]]:
    return Filling(*arguments, members=members, **options), members


FILLINGS: Final = [
    (
        *_filling(
            ((("success",), False),),
            (("error", "code"), ("error", "message")),
            models=("data",),
            members=("data", "error"),
        ),
        2,
    ),
    (
        *_filling(
            ((("kind",), "k"), (("meta", "tags"), ["a", {"b": None}])),
            (("errors", "0", "code"), ("errors", "0", "message")),
            ((("errors", "0", "details"), None), (("extra", "x"), 1)),
            models=("errors", "meta"),
            members=("result", "errors", "meta", "extra"),
        ),
        2,
    ),
    (*_filling((), (("errors", "1", "code"),), members=("errors",)), 1),  # an array it cannot make
    (*_filling(members=("a", "b")), 0),
]
MEMBER_VALUES: Final = [ABSENT, None, "s", {"code": "E"}, [{"details": 2}], ("t",)]
SLOT_VALUES: Final = ["E", ABSENT, ["c"], {"c": 1}]


def test_put_makes_what_fill_makes_or_refuses_alike() -> None:
    """`Filling.put` (a function written from the tree, for the usual call) against `fill`,
    on members and values of every kind: the same document, in the same order, or the same
    error; what the caller gave is not changed."""
    for filling, members, count in FILLINGS:
        for given in itertools.product(MEMBER_VALUES, repeat=len(members)):
            for values in itertools.product(SLOT_VALUES, repeat=count):
                for extra in (None, {"other": 1}):
                    before = json.dumps(given, default=repr)
                    by_put = _outcome(partial(filling.put, values, given, extra))
                    by_fill = _outcome(
                        partial(filling.fill, dict(zip(members, given, strict=True)), *values, extra=extra)
                    )
                    assert by_put == by_fill, (members, given, values, extra)
                    if by_put[0] == "returned":
                        assert list(by_put[1].items()) == list(by_fill[1].items())
                    assert json.dumps(given, default=repr) == before


def test_the_usual_call_is_made_without_merging(monkeypatch: pytest.MonkeyPatch) -> None:
    """No member the paths begin with, plain values: `put` makes the document itself; a
    member given there, or `extra`, takes `fill`'s way (counted, not timed)."""
    calls: list[Any] = []
    fill = Filling.fill
    monkeypatch.setattr(Filling, "fill", lambda self, *a, **k: calls.append(a) or fill(self, *a, **k))
    tuitbot_filling = FILLINGS[0][0]  # members: data, error
    made = tuitbot_filling.put(("E", "m"), (1, ABSENT), None)
    assert made == {"data": 1, "success": False, "error": {"code": "E", "message": "m"}}
    assert calls == []
    tuitbot_filling.put(("E", "m"), (1, {"code": "E"}), None)
    tuitbot_filling.put(("E", "m"), (1, ABSENT), {"other": 2})
    assert len(calls) == 2


def test_document_is_put_then_judged_or_refuses_alike() -> None:
    """`Filling.document` (put and judge in one function, the `*_document` builders' call)
    against `judged(model, put(...))`, on members and values of every kind: the same
    document, in the same order, or the same error."""
    filling = tuitbot.ERROR_FILLING  # members: data, error, meta; slots: code, retryable, message
    filling.document(("db_error", True, "locked"), (None, ABSENT, ABSENT), None)  # written on its first call
    judged = filling.document.__globals__["judged"]
    model = tuitbot.TuitbotEnvelope
    members = [ABSENT, None, {"code": "db_error"}, {"tool_version": "1.0", "elapsed_ms": 5}, {1, 2}]
    values = [
        ("db_error", True, "locked"),
        ("db_error", False, "locked"),
        ("db_error", True, ABSENT),
        ("db_error", True, 7),
    ]
    for given in itertools.product(members, repeat=3):
        for slots in values:
            for extra in (None, {"other": 1}):
                by_document = _outcome(partial(filling.document, slots, given, extra))
                by_put = _outcome(lambda: judged(model, filling.put(slots, given, extra)))  # noqa: B023
                assert by_document == by_put, (given, slots, extra)
                if by_document[0] == "returned":
                    assert list(by_document[1].items()) == list(by_put[1].items())
    assert _outcome(partial(filling.document, values[0], (None, ABSENT, ABSENT), None))[0] == "returned"


def test_the_usual_document_is_judged_without_another_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """`error_document` and `success_document` put and judge the usual call in one function:
    neither `fill` nor `judged` is called (counted, not timed); a document the schema refuses
    takes `judged`'s way, which refuses it."""
    calls: list[str] = []
    tuitbot.error_document("db_error", "locked")  # `document` is written on its first call
    namespace = tuitbot.ERROR_FILLING.document.__globals__
    judged = namespace["judged"]
    fill = type(tuitbot.ERROR_FILLING).fill
    monkeypatch.setitem(namespace, "judged", lambda *a: calls.append("judged") or judged(*a))
    monkeypatch.setattr(
        type(tuitbot.ERROR_FILLING), "fill", lambda self, *a, **k: calls.append("fill") or fill(self, *a, **k)
    )
    assert tuitbot.error_document("db_error", "locked") == {
        "data": None,
        "success": False,
        "error": {"code": "db_error", "retryable": True, "message": "locked"},
    }
    assert tuitbot.success_document(data=[1]) == {"data": [1], "success": True}
    assert calls == []
    with pytest.raises(ValidationError):
        tuitbot.error_document("db_error", 7)  # type: ignore[arg-type]
    assert calls == ["judged"]


def test_a_filling_without_a_model_has_no_document() -> None:
    """Nothing would judge it: `document` refuses to make one."""
    with pytest.raises(TypeError, match="no model"):
        Filling(((("a",), 1),)).document((), (), None)
