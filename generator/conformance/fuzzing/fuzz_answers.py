"""What an answer to a fuzzed call says beyond its result, as each SDK words it: a crash
(`crash_of`), a refusal of the arguments (`refusal`), the code in an isError result.
"""

from __future__ import annotations

import re

import mcp.types as types
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS

from ...serving.served import ServedContract
from ..link import UNHANDLED, Answer
from ..results import answered_code, texts_of
from .fuzz_draw import shown_line


def _text(result: types.CallToolResult) -> str:
    return " ".join(texts_of(result))


# How the TypeScript SDK's McpServer answers a call whose handler (or its own check of the
# arguments) threw an `McpError`: an isError result whose text starts with its code.
_TYPESCRIPT_CODE = re.compile(r"MCP error (-?[0-9]{1,9}): ")


def _code_of(answer: Answer) -> int | None:
    """The JSON-RPC error code an answer carries: a JSON-RPC error's, or the one the
    TypeScript SDK writes into the isError result it makes of an `McpError`."""
    if answer.kind == "rpc-error":
        return answer.code
    result = answer.result
    found = _TYPESCRIPT_CODE.match(_text(result)) if result is not None and result.is_error else None
    return int(found.group(1)) if found is not None else None


def _said(result: types.CallToolResult) -> str:
    return f"an isError result `{shown_line(_text(result), 120)}`"


def crash_of(answer: Answer, tool: str, accepted: bool) -> str | None:
    """What says the server failed on a call of `tool`: the connection lost, whatever was
    asked; on arguments the contract `accepted`, also an answer that stands for an exception the
    handler did not handle (JSON-RPC -32603, as the TypeScript SDK writes it too, the Python
    SDK's code 0, or `MCPServer`'s isError result that names the tool and nothing of the
    exception: mcp 2.x's `UnexpectedToolError`). None for any other answer: on arguments the
    contract refuses, any error is a refusal (an SDK may refuse them before the handler runs)."""
    if answer.kind == "lost":
        return answer.text
    if not accepted:
        return None
    crash, result = answer.crash(), answer.result
    if crash is None and result is not None and _code_of(answer) == INTERNAL_ERROR:
        crash = f"{_said(result)}, the TypeScript SDK's {UNHANDLED[INTERNAL_ERROR]}"
    if crash is None and result is not None and result.is_error and _unexpected(tool, _text(result)):
        said = f"{_said(result)}, the Python MCP SDK MCPServer's answer to an exception its handler raised"
        crash = said + answer.words()
    return crash


def _unexpected(tool: str, text: str) -> bool:
    """Whether `text` is what `MCPServer` says of a handler's exception: `Error executing tool
    NAME`, and the same for each nested tool that crashed (a `ToolError` says its message)."""
    return re.fullmatch(rf"Error executing tool {re.escape(tool)}(?:: Error executing tool \S+)*", text) is not None


def _validation_refused(tool: str, text: str) -> bool:
    """Whether `text` is `MCPServer`'s refusal of arguments its function's signature refuses
    (pydantic's `N validation error(s) for NAMEArguments`), before the handler runs."""
    pattern = rf"Error executing tool {re.escape(tool)}: \d+ validation errors? for {re.escape(tool)}Arguments\b"
    return re.match(pattern, text) is not None


def refusal(answer: Answer, tool: str, contract: ServedContract) -> str | None:
    """What says an answer refused the arguments (to arguments the input schema accepts):
    JSON-RPC -32602, `MCPServer`'s refusal of arguments its function's signature refuses, or
    an error code the catalogue marks as an argument error."""
    result = answer.result
    if _code_of(answer) == INVALID_PARAMS:
        if result is None:
            return f"JSON-RPC error {INVALID_PARAMS} ({answer.text})"
        return f"{_said(result)}, the TypeScript SDK's JSON-RPC error {INVALID_PARAMS},"
    if result is not None and result.is_error and _validation_refused(tool, _text(result)):
        return f"{_said(result)}, the Python MCP SDK MCPServer's refusal of arguments its signature refuses,"
    code = answered_code(contract, result) if result is not None and result.is_error else None
    column = contract.argument_error(code) if code is not None else None
    if column is None:
        return None
    return f"the error code {code!r}, which the catalogue marks as an argument error ({column}: true),"
