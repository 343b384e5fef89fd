"""The canonical error mapping of the JSON-RPC envelope, and JSON-RPC error objects.

An unknown code raises KeyError: there is no silent fallback. Hand-written for this
contract (see `modules:` in contract.yaml) and copied beside its generated code.
"""

from __future__ import annotations

from typing import Any, Final

from .errors import ERRORS, ErrorCode, ErrorInfo, error_info

JSONRPC_VERSION: Final = "2.0"
# The canonical error table: code -> HTTP status, JSON-RPC code and message.
CANONICAL_ERRORS: Final = ERRORS


def canonical_error(code: ErrorCode | str) -> ErrorInfo:
    """HTTP status, JSON-RPC code and message of a canonical error code."""
    return error_info(code)


def http_status(code: ErrorCode | str) -> int:
    """The HTTP status a transport answers with for `code`."""
    return error_info(code).http_status


def jsonrpc_error(
    code: ErrorCode | str, *, request_id: str | None = None, data: Any = None
) -> dict[str, Any]:
    """A JSON-RPC 2.0 error response for a canonical code."""
    info = error_info(code)
    error: dict[str, Any] = {"code": info.jsonrpc_code, "message": info.message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": JSONRPC_VERSION, "id": request_id, "error": error}
