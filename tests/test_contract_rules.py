"""Every MUST of the five documents, judged by the JSON Schema and by the generated models alike.

Each case is a valid envelope and a change that breaks one rule: both judges must accept
the first and refuse the second.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from builtin_models import verdicts
from conftest import REFERENCE, load_json, require_shared

SCALPEL = {
    "tier": "pro",
    "tool_version": "3.2.8",
    "tool_id": "security_scan",
    "request_id": "8b3e",
    "capabilities": ["envelope-v1"],
    "duration_ms": 27,
    "error": None,
    "upgrade_hints": [],
    "data": {"findings": []},
}
SCALPEL_ERROR = {**SCALPEL, "error": {"error": "File not found.", "error_code": "not_found", "error_details": None}}
SCALPEL_HINT = {
    **SCALPEL,
    "upgrade_hints": [{"feature": "cross_file", "tier": "enterprise", "reason": "Enterprise only."}],
}
FOUNDRY_OK = {"success": True, "data": {}, "error": None, "meta": {"version": "response-v2"}}
FOUNDRY_FAIL = {
    "success": False,
    "data": {"error_code": "NOT_FOUND"},
    "error": "Spec not found",
    "meta": {"version": "response-v2"},
}
FOUNDRY_META = {
    **FOUNDRY_OK,
    "meta": {
        "version": "response-v2",
        "content_fidelity": "partial",
        "warning_details": [{"code": "STALE_CACHE", "severity": "warning", "message": "Cache is old"}],
    },
}
ENVELOPE = {"schema_version": "mcp.envelope.v0.1", "result": {"ok": True}}
require_shared()
PROVENANCE = load_json(REFERENCE / "prov-spec" / "examples" / "mcp.envelope.example.json")
REQUEST = {"id": "123e4567", "jsonrpc": "2.0", "method": "mcp.tool.invoke", "params": {"tool": "x"}}
TUIT_OK = {"success": True, "data": None, "meta": {"tool_version": "1.0", "elapsed_ms": 12}}
TUIT_FAIL = {
    "success": False,
    "data": None,
    "error": {"code": "x_rate_limited", "message": "slow down", "retryable": True},
}
TUIT_WORKFLOW = {
    **TUIT_OK,
    "meta": {"tool_version": "1.0", "elapsed_ms": 12, "mode": "autopilot", "approval_mode": True},
}

# (contract, rule, valid envelope, path to change, new value or DELETE)
DELETE = object()
CASES: list[tuple[str, str, dict[str, Any], tuple[Any, ...], Any]] = [
    ("code-scalpel", "tier is one of three", SCALPEL, ("tier",), "gold"),
    ("code-scalpel", "duration_ms required for pro", SCALPEL, ("duration_ms",), DELETE),
    (
        "code-scalpel",
        "duration_ms required for enterprise",
        {**SCALPEL, "tier": "enterprise"},
        ("duration_ms",),
        DELETE,
    ),
    ("code-scalpel", "duration_ms never negative", SCALPEL, ("duration_ms",), -1),
    ("code-scalpel", "error_code is a registry code", SCALPEL_ERROR, ("error", "error_code"), "oops"),
    ("code-scalpel", "error carries a message", SCALPEL_ERROR, ("error", "error"), DELETE),
    ("code-scalpel", "error carries error_details", SCALPEL_ERROR, ("error", "error_details"), DELETE),
    ("code-scalpel", "error_details is an object or null", SCALPEL_ERROR, ("error", "error_details"), "file.py"),
    ("code-scalpel", "upgrade hint carries feature", SCALPEL_HINT, ("upgrade_hints", 0, "feature"), DELETE),
    ("code-scalpel", "upgrade hint carries tier", SCALPEL_HINT, ("upgrade_hints", 0, "tier"), DELETE),
    ("code-scalpel", "upgrade hint carries reason", SCALPEL_HINT, ("upgrade_hints", 0, "reason"), DELETE),
    ("code-scalpel", "request_id is required", SCALPEL, ("request_id",), DELETE),
    ("foundry", "success true means error null", FOUNDRY_OK, ("error",), "boom"),
    ("foundry", "failure carries an error string", FOUNDRY_FAIL, ("error",), None),
    ("foundry", "failure error is never empty", FOUNDRY_FAIL, ("error",), ""),
    ("foundry", "meta.version is response-v2", FOUNDRY_OK, ("meta", "version"), "response-v1"),
    ("foundry", "meta.version is required", FOUNDRY_OK, ("meta", "version"), DELETE),
    ("foundry", "content fidelity levels", FOUNDRY_META, ("meta", "content_fidelity"), "most"),
    ("foundry", "warning severities", FOUNDRY_META, ("meta", "warning_details", 0, "severity"), "fatal"),
    ("foundry", "warning detail has a message", FOUNDRY_META, ("meta", "warning_details", 0, "message"), DELETE),
    ("foundry", "no other top-level keys", FOUNDRY_OK, ("fixture_version",), "1.0.0"),
    ("mcp-envelope", "schema_version is mcp.envelope.v0.1", ENVELOPE, ("schema_version",), "mcp.envelope.v0.2"),
    ("mcp-envelope", "no unknown top-level fields", ENVELOPE, ("extra",), 1),
    (
        "mcp-envelope",
        "never double-wrapped",
        ENVELOPE,
        ("result",),
        {"schema_version": "mcp.envelope.v0.1", "result": 1},
    ),
    (
        "mcp-envelope",
        "errors carry a message",
        {**ENVELOPE, "errors": [{"code": "A.B", "message": "m"}]},
        ("errors", 0, "message"),
        DELETE,
    ),
    ("mcp-envelope", "provenance record version", PROVENANCE, ("provenance", "schema_version"), "prov.record.v0.2"),
    ("mcp-envelope", "provenance lists parents", PROVENANCE, ("provenance", "parents"), DELETE),
    (
        "mcp-envelope",
        "artifact digests are hex",
        PROVENANCE,
        ("provenance", "inputs", 0, "digest", "value"),
        "not-hex-not-hex!",
    ),
    ("mcp-envelope", "method ids are dotted lower case", PROVENANCE, ("provenance", "methods", 0), "Engine Normalize"),
    ("jsonrpc", "id is a string", REQUEST, ("id",), 7),
    ("jsonrpc", "jsonrpc is exactly 2.0", REQUEST, ("jsonrpc",), "2"),
    ("jsonrpc", "jsonrpc 2.0 is a string", REQUEST, ("jsonrpc",), 2.0),
    ("jsonrpc", "method is non-empty", REQUEST, ("method",), ""),
    ("jsonrpc", "method is required", REQUEST, ("method",), DELETE),
    ("jsonrpc", "params is an object", REQUEST, ("params",), "not-a-object"),
    ("tuitbot", "error absent on success", TUIT_OK, ("error",), TUIT_FAIL["error"]),
    ("tuitbot", "error present on failure", TUIT_FAIL, ("error",), DELETE),
    ("tuitbot", "error code is one of 27", TUIT_FAIL, ("error", "code"), "x_teapot"),
    ("tuitbot", "retryable equals the code's flag", TUIT_FAIL, ("error", "retryable"), False),
    ("tuitbot", "retryable is a boolean", TUIT_FAIL, ("error", "retryable"), 1),
    ("tuitbot", "success is a boolean", TUIT_OK, ("success",), 1),
    ("tuitbot", "mode needs approval_mode", TUIT_WORKFLOW, ("meta", "approval_mode"), DELETE),
    ("tuitbot", "approval_mode needs mode", TUIT_WORKFLOW, ("meta", "mode"), DELETE),
    ("tuitbot", "elapsed_ms never negative", TUIT_OK, ("meta", "elapsed_ms"), -5),
    ("tuitbot", "elapsed_ms is an integer", TUIT_OK, ("meta", "elapsed_ms"), 1.5),
]


def _changed(envelope: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(envelope)
    target: Any = changed
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return changed


@pytest.mark.parametrize(("contract", "rule", "valid", "path", "value"), CASES, ids=[f"{c[0]}: {c[1]}" for c in CASES])
def test_rule_holds_in_schema_and_models(
    contract: str, rule: str, valid: dict[str, Any], path: tuple[Any, ...], value: Any
) -> None:
    assert verdicts(contract, valid) == (True, True), "the starting envelope must be valid"
    assert verdicts(contract, _changed(valid, path, value)) == (False, False), rule


def test_community_tier_may_omit_duration() -> None:
    assert verdicts("code-scalpel", _changed({**SCALPEL, "tier": "community"}, ("duration_ms",), DELETE)) == (
        True,
        True,
    )


def test_tuitbot_api_profile_has_neither_workflow_field() -> None:
    assert verdicts("tuitbot", TUIT_OK) == (True, True)
    assert verdicts("tuitbot", TUIT_WORKFLOW) == (True, True)


@pytest.mark.parametrize(
    "payload", [{"ok": True}, "text", [1, 2], 3, 2.5, True, None, {"schema_version": "assist.response.v0.1"}]
)
def test_mcp_envelope_accepts_any_legacy_result(payload: Any) -> None:
    assert verdicts("mcp-envelope", {**ENVELOPE, "result": payload}) == (True, True)
