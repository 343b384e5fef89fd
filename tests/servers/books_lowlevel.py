"""The bookshop of tests/contracts/books on the Python SDK's low-level `Server`: honest, it lists
the contract's input schemas as written in tools.yaml and the generated `Envelope`'s schema as
each output schema, refuses arguments its input schema refuses with JSON-RPC -32602 (the
low-level `Server` checks none itself), and answers with the generated package's
`success_document` and `error_document` (an error in an `isError` result). The prompt
`recommend` refuses to be got without its required argument (-32602), as MCPServer does not.

    python books_lowlevel.py [--fault NAME]

The generated package is imported as `books_contracts.books` (see books_mcpserver.py). With
`--fault`, one of the planted faults of books_mcpserver.py, meant the same (FAULTS): each about
the example call `get_book({"id": 404})`, except `drops-argument`, about the listing of
`search_books`.
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

import anyio
import mcp.types as types
from books_contracts.books import Envelope, error_document, success_document
from jsonschema import Draft202012Validator
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS

FAULTS = {
    "success-for-error": "the error example answered with a success",
    "other-code": "the error example answered with `rate_limited`, declared and valid",
    "crash-on-error": "`BOOKS[id]` raises KeyError: the low-level Server answers a JSON-RPC error",
    "retryable-contradicts": "the error's `retryable` is true, where the catalogue gives false",
    "missing-code": "the error envelope without `code`",
    "drops-argument": "search_books takes no `label`: its listing never names it",
}
FAULT = sys.argv[sys.argv.index("--fault") + 1] if "--fault" in sys.argv else None
if FAULT is not None and FAULT not in FAULTS:
    sys.exit(f"books_lowlevel.py: no fault {FAULT!r} (one of {', '.join(FAULTS)})")

BOOKS: dict[int, dict[str, Any]] = {
    1: {"id": 1, "title": "Dune", "label": "classic"},
    2: {"id": 2, "title": "Emma", "label": "classic"},
}
META = {"tool_version": "1.0"}
HINTS = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
INPUTS = {
    "get_book": {
        "type": "object",
        "required": ["id"],
        "properties": {"id": {"type": "integer", "minimum": 1, "maximum": 1000000, "description": "The book's id."}},
    },
    "search_books": {
        "type": "object",
        "required": ["query"],
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Words of the title."},
            "label": {"type": "string", "maxLength": 50, "description": "Only the books of this label."},
        },
    },
}
if FAULT == "drops-argument":
    del INPUTS["search_books"]["properties"]["label"]
TITLES = {"get_book": "Get a book", "search_books": "Search books"}
DESCRIPTIONS = {
    "get_book": "The book with an id.",
    "search_books": "The books whose title holds the query, of one label if given.",
}
RECOMMEND = types.Prompt(
    name="recommend",
    title="Recommend a book",
    description="Asks for a book like one the reader liked.",
    arguments=[types.PromptArgument(name="book_id", description="The id of a book the reader liked.", required=True)],
)
CATALOGUE = types.Resource(
    uri="books://catalogue",
    name="catalogue",
    title="The catalogue",
    description="Every book's id and title, one a line.",
    mime_type="text/plain",
)


def _tool(name: str) -> types.Tool:
    return types.Tool(
        name=name,
        title=TITLES[name],
        description=DESCRIPTIONS[name],
        input_schema=INPUTS[name],
        output_schema=Envelope.model_json_schema(),
        annotations=HINTS.model_copy(update={"title": TITLES[name]}),
    )


def _answer(document: dict[str, Any], *, is_error: bool = False) -> types.CallToolResult:
    text = types.TextContent(type="text", text=json.dumps(document))
    return types.CallToolResult(content=[text], structured_content=document, is_error=is_error)


def _refused(name: str, arguments: dict[str, Any]) -> None:
    """-32602 for arguments the tool's input schema refuses (or a tool it does not have)."""
    if name not in INPUTS:
        raise MCPError(INVALID_PARAMS, f"no tool {name!r}")
    error = next(iter(Draft202012Validator(INPUTS[name]).iter_errors(arguments)), None)
    if error is not None:
        raise MCPError(INVALID_PARAMS, f"{name}: {error.message}")


def _not_found(book_id: int) -> types.CallToolResult:
    """The answer for an id the shop lacks: the envelope of `not_found`, or a planted fault."""
    if FAULT == "success-for-error":
        return _answer(success_document(data=None, meta=META))
    if FAULT == "other-code":
        return _answer(error_document("rate_limited", meta=META), is_error=True)
    document = error_document("not_found", f"No book has the id {book_id}.", meta=META)
    if FAULT == "retryable-contradicts":
        document = copy.deepcopy(document)
        document["error"]["retryable"] = True
    if FAULT == "missing-code":
        document = copy.deepcopy(document)
        del document["error"]["code"]
    return _answer(document, is_error=True)


def _called(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
    if name == "get_book":
        if FAULT == "crash-on-error":
            return _answer(success_document(data=BOOKS[arguments["id"]], meta=META))  # KeyError for 404
        book = BOOKS.get(arguments["id"])
        if book is None:
            return _not_found(arguments["id"])
        return _answer(success_document(data=book, meta=META))
    query = arguments["query"].lower()
    label = "" if FAULT == "drops-argument" else arguments.get("label", "")
    books = [b for b in BOOKS.values() if query in b["title"].lower() and label in ("", b["label"])]
    return _answer(success_document(data={"books": books}, meta=META))


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[_tool(name) for name in INPUTS])


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    _refused(params.name, arguments)
    return _called(params.name, arguments)


async def list_prompts(ctx: ServerRequestContext[Any], params: Any) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[RECOMMEND])


async def get_prompt(ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> types.GetPromptResult:
    arguments = params.arguments or {}
    if params.name != "recommend" or "book_id" not in arguments:
        raise MCPError(INVALID_PARAMS, f"prompt {params.name!r} needs its argument book_id")
    text = f"Recommend a book like the book {arguments['book_id']}."
    message = types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
    return types.GetPromptResult(description=RECOMMEND.description, messages=[message])


async def list_resources(ctx: ServerRequestContext[Any], params: Any) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=[CATALOGUE])


async def read_resource(
    ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
) -> types.ReadResourceResult:
    if str(params.uri) != CATALOGUE.uri:
        raise MCPError(-32002, f"no resource {params.uri}")
    text = "".join(f"{book['id']} {book['title']}\n" for book in BOOKS.values())
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=CATALOGUE.uri, mime_type="text/plain", text=text)]
    )


async def main() -> None:
    server = Server(
        "books",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
