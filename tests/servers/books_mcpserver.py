"""The bookshop of tests/contracts/books on the Python SDK's `MCPServer`, written as docs/python.md
shows: each tool is annotated `-> Annotated[CallToolResult, Envelope]` (MCPServer publishes the
contract's envelope as its output schema) and answers with the generated package's
`success_document` and `error_document`; an error is that envelope in an `isError` result.
The input schemas are MCPServer's own, derived from the signatures (strict types, so that
`true` is no id). It serves the prompt `recommend` (a required argument) and the resource
`books://catalogue` of the contract too.

    python books_mcpserver.py [--fault NAME]

The generated package is imported as `books_contracts.books` (the tests and
benchmarks/conform_trial.py generate it with `--package books_contracts` and put its
`python/` folder on PYTHONPATH). With `--fault`, one planted fault (FAULTS), each about the
example call `get_book({"id": 404})`, whose result is the error envelope of `not_found`,
except `drops-argument`, about the listing of `search_books`.
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Annotated, Any

from books_contracts.books import Envelope, error_document, success_document
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

FAULTS = {
    "success-for-error": "the error example answered with a success",
    "other-code": "the error example answered with `rate_limited`, declared and valid",
    "crash-on-error": "`BOOKS[id]` raises KeyError: MCPServer's unstructured 'Error executing tool'",
    "retryable-contradicts": "the error's `retryable` is true, where the catalogue gives false",
    "missing-code": "the error envelope without `code`",
    "drops-argument": "search_books takes no `label`: its listing never names it",
}
FAULT = sys.argv[sys.argv.index("--fault") + 1] if "--fault" in sys.argv else None
if FAULT is not None and FAULT not in FAULTS:
    sys.exit(f"books_mcpserver.py: no fault {FAULT!r} (one of {', '.join(FAULTS)})")

BOOKS: dict[int, dict[str, Any]] = {
    1: {"id": 1, "title": "Dune", "label": "classic"},
    2: {"id": 2, "title": "Emma", "label": "classic"},
}
META = {"tool_version": "1.0"}
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

app = MCPServer("books")


def _answer(document: dict[str, Any], *, is_error: bool = False) -> CallToolResult:
    text = TextContent(type="text", text=json.dumps(document))
    return CallToolResult(content=[text], structured_content=document, is_error=is_error)


def _not_found(book_id: int) -> CallToolResult:
    """The answer for an id the shop lacks: the envelope of `not_found`, or a planted fault."""
    message = f"No book has the id {book_id}."
    if FAULT == "success-for-error":
        return _answer(success_document(data=None, meta=META))
    if FAULT == "other-code":
        return _answer(error_document("rate_limited", meta=META), is_error=True)
    document = error_document("not_found", message, meta=META)
    if FAULT == "retryable-contradicts":
        document = copy.deepcopy(document)
        document["error"]["retryable"] = True
    if FAULT == "missing-code":
        document = copy.deepcopy(document)
        del document["error"]["code"]
    return _answer(document, is_error=True)


BookId = Annotated[int, Field(strict=True, ge=1, le=1000000, description="The book's id.")]


@app.tool(title="Get a book", description="The book with an id.", annotations=READ_ONLY)
def get_book(id: BookId) -> Annotated[CallToolResult, Envelope]:
    if FAULT == "crash-on-error":
        return _answer(success_document(data=BOOKS[id], meta=META))  # KeyError for a book it lacks
    if id not in BOOKS:
        return _not_found(id)
    return _answer(success_document(data=BOOKS[id], meta=META))


Query = Annotated[str, Field(strict=True, min_length=1, max_length=200, description="Words of the title.")]
Label = Annotated[str, Field(strict=True, max_length=50, description="Only the books of this label.")]


def _found(query: str, label: str) -> CallToolResult:
    books = [b for b in BOOKS.values() if query.lower() in b["title"].lower() and label in ("", b["label"])]
    return _answer(success_document(data={"books": books}, meta=META))


_SEARCH = "The books whose title holds the query, of one label if given."

if FAULT == "drops-argument":

    @app.tool(title="Search books", description=_SEARCH, annotations=READ_ONLY)
    def search_books(query: Query) -> Annotated[CallToolResult, Envelope]:
        return _found(query, "")

else:

    @app.tool(title="Search books", description=_SEARCH, annotations=READ_ONLY)
    def search_books(query: Query, label: Label = "") -> Annotated[CallToolResult, Envelope]:
        return _found(query, label)


@app.prompt(name="recommend", title="Recommend a book", description="Asks for a book like one the reader liked.")
def recommend(book_id: Annotated[str, Field(description="The id of a book the reader liked.")]) -> str:
    return f"Recommend a book like the book {book_id}."


@app.resource(
    "books://catalogue",
    name="catalogue",
    title="The catalogue",
    description="Every book's id and title, one a line.",
    mime_type="text/plain",
)
def catalogue() -> str:
    return "".join(f"{book['id']} {book['title']}\n" for book in BOOKS.values())


if __name__ == "__main__":
    app.run()
