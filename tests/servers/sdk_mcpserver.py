"""A books server on the Python SDK's `MCPServer`, as a user writes one: `find_book(book_id)`
answers a book it has with its title and any other with the error envelope of `not_found`
(an `isError` result: a right answer, a domain error), and the prompt `summary` requires
`book_id` (and refuses an empty one, -32602: a domain error too). The SDK refuses what the
input schema refuses, and a prompt got without its required argument, itself. docs/mcp.md's
"What each SDK answers" is measured on it (tests/test_fuzz_verdicts.py).

    python sdk_mcpserver.py [--fault refuse|raise|argument-code|signature]

With a fault, a book it lacks is answered otherwise: `refuse`, JSON-RPC -32602 (arguments the
contract accepts refused); `raise`, `BOOKS[book_id]` raises KeyError (a crash: the SDK answers
`Error executing tool find_book`); `argument-code`, the envelope of `bad_book_id`, a code the
contract marks as an argument error; `signature`, `book_id` is checked by a validator its
listed schema does not show (longer than 3 characters refused: MCPServer's "validation error").
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from mcp_types.jsonrpc import INVALID_PARAMS
from pydantic import AfterValidator

BOOKS = {"b1": "Dune"}
FAULT = sys.argv[sys.argv.index("--fault") + 1] if "--fault" in sys.argv else None
READ_ONLY = ToolAnnotations(readOnlyHint=True, openWorldHint=False)

app = MCPServer("books")


def _short(value: str) -> str:
    if len(value) > 3:
        raise ValueError("longer than 3 characters")
    return value


BookId = Annotated[str, AfterValidator(_short)] if FAULT == "signature" else str


def _failure(code: str, message: str) -> CallToolResult:
    envelope = {"success": False, "error": {"code": code, "message": message}}
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(envelope))], is_error=True)


@app.tool(description="A book by its id.", annotations=READ_ONLY, structured_output=False)
def find_book(book_id: BookId) -> CallToolResult:
    if book_id not in BOOKS and FAULT == "refuse":
        raise MCPError(code=INVALID_PARAMS, message=f"no book {book_id}")
    if book_id not in BOOKS and FAULT == "argument-code":
        return _failure("bad_book_id", "not a book id")
    if book_id not in BOOKS and FAULT != "raise":
        return _failure("not_found", "no such book")
    return CallToolResult(content=[TextContent(type="text", text=BOOKS[book_id])])


@app.prompt(description="A summary of a book.")
def summary(book_id: str) -> str:
    if not book_id:  # a value it refuses on purpose: an MCPError (anything else is code 0)
        raise MCPError(code=INVALID_PARAMS, message="no book id")
    return f"Summarise the book {book_id}."


if __name__ == "__main__":
    app.run()
