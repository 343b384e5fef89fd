"""Adapters' side of mcp.envelope.v0.1: wrap legacy output, report adapter failures.

Hand-written for this contract (see `modules:` in contract.yaml) and copied beside its
generated code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .errors import ErrorCode
from .models import McpEnvelope

SCHEMA_VERSION: Final = "mcp.envelope.v0.1"


def is_envelope(payload: Any) -> bool:
    """Whether `payload` already is an mcp.envelope.v0.1."""
    return isinstance(payload, dict) and payload.get("schema_version") == SCHEMA_VERSION


def wrap(payload: Any) -> Any:
    """Wrap legacy tool output as the envelope's `result`, unchanged.

    JSON objects (with or without a `schema_version` of their own), arrays, strings,
    numbers, booleans and null are wrapped; an envelope is returned as it is, never
    nested in another.
    """
    if is_envelope(payload):
        return payload
    return {"schema_version": SCHEMA_VERSION, "result": payload}


def adapter_failure(
    message: str,
    *,
    code: ErrorCode | str = ErrorCode.ADAPTER_EXECUTION_FAILED,
    details: Mapping[str, str | int | float | bool | None] | None = None,
    partial_result: Any = None,
) -> dict[str, Any]:
    """The envelope of a tool the adapter saw fail: `result` null (or the partial output)."""
    error: dict[str, Any] = {"code": str(code), "message": message}
    if details is not None:
        error["details"] = dict(details)
    envelope = {
        "schema_version": SCHEMA_VERSION,
        "result": partial_result,
        "errors": [error],
        "provenance": None,
    }
    McpEnvelope.model_validate(envelope)
    return envelope
