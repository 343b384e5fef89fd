"""The books server of sdk_mcpserver.py on the Python SDK's low-level `Server`, which checks no
argument: its handlers read what they are sent (`arguments["book_id"]`), and what they raise
the SDK answers (error code 0 before 2026-07-28, -32603 at it). `find_book` answers a book it
lacks with the error envelope of `not_found`, `summary` an empty `book_id` with -32602.
docs/mcp.md's "What each SDK answers" is
measured on it (tests/test_fuzz_verdicts.py).

    python sdk_lowlevel.py [--fault refuse|raise|argument-code]

The faults are sdk_mcpserver.py's: `refuse` (-32602), `raise` (a KeyError), `argument-code`
(the envelope of `bad_book_id`), each for a book it lacks.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS

BOOKS = {"b1": "Dune"}
FAULT = sys.argv[sys.argv.index("--fault") + 1] if "--fault" in sys.argv else None
FIND_BOOK = types.Tool(
    name="find_book",
    description="A book by its id.",
    input_schema={"type": "object", "properties": {"book_id": {"type": "string"}}, "required": ["book_id"]},
    annotations=types.ToolAnnotations(readOnlyHint=True, openWorldHint=False),
)
SUMMARY = types.Prompt(
    name="summary",
    description="A summary of a book.",
    arguments=[types.PromptArgument(name="book_id", required=True)],
)


def _text(text: str, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)


def _failure(code: str, message: str) -> types.CallToolResult:
    return _text(json.dumps({"success": False, "error": {"code": code, "message": message}}), is_error=True)


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[FIND_BOOK])


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    book_id = (params.arguments or {})["book_id"]
    if book_id not in BOOKS and FAULT == "refuse":
        raise MCPError(INVALID_PARAMS, f"no book {book_id}")
    if book_id not in BOOKS and FAULT == "argument-code":
        return _failure("bad_book_id", "not a book id")
    if book_id not in BOOKS and FAULT != "raise":
        return _failure("not_found", "no such book")
    return _text(BOOKS[book_id])


async def list_prompts(ctx: ServerRequestContext[Any], params: Any) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[SUMMARY])


async def get_prompt(ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> types.GetPromptResult:
    book_id = (params.arguments or {})["book_id"]
    if not book_id:
        raise MCPError(INVALID_PARAMS, "no book id")
    text = f"Summarise the book {book_id}."
    message = types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
    return types.GetPromptResult(description="A summary of a book.", messages=[message])


async def main() -> None:
    server = Server(
        "books",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
