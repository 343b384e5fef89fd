"""The generated response builders derive what the contract derives and refuse unknown codes."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import pytest
from conftest import load_json
from mcp_contracts.code_scalpel import builders as scalpel
from mcp_contracts.foundry import builders as foundry
from mcp_contracts.jsonrpc import canonical as jsonrpc
from mcp_contracts.mcp_envelope import adapters as envelope
from mcp_contracts.mcp_envelope import builders as envelope_builders
from mcp_contracts.tuitbot import builders as tuitbot
from pydantic import ValidationError
from test_contract_rules import _verdicts


def dumped(model: Any) -> dict[str, Any]:
    return model.model_dump(mode="json")  # type: ignore[no-any-return]


class TestTuitbot:
    def test_retryable_is_derived_from_the_code(self) -> None:
        assert dumped(tuitbot.error_response("db_error", "locked", data=None))["error"]["retryable"] is True
        assert dumped(tuitbot.error_response("not_found", "gone", data=None))["error"]["retryable"] is False

    def test_a_retryable_flag_that_contradicts_the_code_is_refused(self) -> None:
        with pytest.raises(ValueError, match="/error/retryable is True"):
            tuitbot.error_response("db_error", "locked", data=None, error={"retryable": False})

    def test_unknown_code_is_refused_at_the_call(self) -> None:
        with pytest.raises(KeyError):
            tuitbot.error_response("x_teapot", "short and stout", data=None)

    def test_envelopes_are_valid_and_omit_what_is_absent(self) -> None:
        ok = dumped(tuitbot.success_response(data={"n": 1}, meta={"tool_version": "1.0", "elapsed_ms": 5}))
        assert ok == {"success": True, "data": {"n": 1}, "meta": {"tool_version": "1.0", "elapsed_ms": 5}}
        meta = {"tool_version": "1.0", "elapsed_ms": 7, "mode": "composer", "approval_mode": False}
        failed = dumped(
            tuitbot.error_response(
                "policy_denied_blocked", "no", data=None, error={"policy_decision": "denied"}, meta=meta
            )
        )
        assert failed["error"] == {
            "code": "policy_denied_blocked",
            "message": "no",
            "retryable": False,
            "policy_decision": "denied",
        }
        for instance in (ok, failed):
            assert _verdicts("tuitbot", instance) == (True, True)

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
        assert _verdicts("foundry", envelope) == (True, True)

    def test_unknown_code_and_wrong_type_are_refused(self) -> None:
        with pytest.raises(KeyError):
            foundry.error_response("TEAPOT", "boom", data={})
        with pytest.raises(ValueError, match="not_found"):
            foundry.error_response("SPEC_NOT_FOUND", "boom", data={"error_type": "validation"})

    def test_a_failure_needs_a_message(self) -> None:
        with pytest.raises(ValidationError):
            foundry.error_response("INTERNAL_ERROR", "", data={})


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
        assert _verdicts("code-scalpel", envelope) == (True, True)

    def test_unknown_code_is_refused(self) -> None:
        with pytest.raises(KeyError):
            scalpel.error_response("nope", "x", tier="community", **self.IDS)

    def test_paid_tiers_need_a_duration(self) -> None:
        fields = {"error": None, "upgrade_hints": [], "data": {}, **self.IDS}
        with pytest.raises(ValidationError):
            scalpel.success_response(tier="pro", **fields)
        envelope = dumped(scalpel.success_response(tier="pro", duration_ms=3, **fields))
        assert envelope["duration_ms"] == 3


class TestMcpEnvelope:
    def test_the_code_and_message_go_into_the_first_error(self) -> None:
        envelope = dumped(envelope_builders.error_response("ADAPTER.EXECUTION.FAILED", "boom", result=None))
        assert envelope["schema_version"] == "mcp.envelope.v0.1"
        assert envelope["errors"][0]["code"] == "ADAPTER.EXECUTION.FAILED"
        assert envelope["errors"][0]["message"] == "boom"
        assert _verdicts("mcp-envelope", envelope) == (True, True)


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
        assert _verdicts("mcp-envelope", wrapped) == (True, True)

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
        assert _verdicts("mcp-envelope", failure) == (True, True)
        with pytest.raises(ValidationError):
            envelope.adapter_failure("")
