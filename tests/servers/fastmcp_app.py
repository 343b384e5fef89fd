"""A library server written with FastMCP (the `fastmcp` package, 4.1.x) as its users write one,
for `import` to meet what such a server lists (tests/test_import_reference.py). It runs in the
reference servers' own virtual environment (tests/reference_servers.py), never in ours.

- `get_book` and `find_book` return the same pydantic model (structured output, one shape:
  import makes it the envelope);
- `shelf_stats` returns a TypedDict of its own shape;
- `count_books` returns an int, which FastMCP wraps: an object with `result`, marked
  `x-fastmcp-wrap-result`;
- `describe_shelf` answers in plain text (no outputSchema);
- `borrow_book` is the one tool not annotated read-only: each call adds one to the counter kept
  in the file named on the command line, so a test can tell whether it was called;
- defaults, an optional parameter and an enum parameter throughout.

With `--next` it is the library's next release, for importing into a contract that exists:
version 1.5.0, `describe_shelf` takes a limit up to 20 (not 10), and a new tool `return_book`.

With `--http URL-FILE` it serves streamable HTTP on a free loopback port instead of stdio,
and writes its URL to URL-FILE once it listens.

Every answer follows from the arguments alone: no clock, no randomness.

    python fastmcp_app.py COUNTER-FILE [--next] [--http URL-FILE]
"""

from __future__ import annotations

import sys
import zlib
from enum import StrEnum
from pathlib import Path
from typing import Annotated

from fastmcp import FastMCP
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

_READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)


class Genre(StrEnum):
    FICTION = "fiction"
    HISTORY = "history"
    SCIENCE = "science"


class Book(BaseModel):
    """A book of the library."""

    book_id: str
    title: str
    genre: Genre
    pages: int = Field(ge=1)
    subtitle: str | None = None


class ShelfStats(TypedDict):
    genre: str
    books: int
    pages: int


class Loan(BaseModel):
    book_id: str
    loans: int


_SHELF = (
    Book(book_id="b1", title="The Long Voyage", genre=Genre.FICTION, pages=320),
    Book(book_id="b2", title="Rivers of Empire", genre=Genre.HISTORY, pages=410, subtitle="A history"),
    Book(book_id="b3", title="Small Numbers", genre=Genre.SCIENCE, pages=180),
)

NEXT = "--next" in sys.argv[2:]
app = FastMCP("fastmcp-library", version="1.5.0" if NEXT else "1.4.0")


def _made_up(seed: str, genre: Genre) -> Book:
    """The book the library answers for an id or title it does not hold: derived from the text."""
    pages = 1 + zlib.crc32(seed.encode("utf-8")) % 500
    return Book(book_id=f"x{pages}", title=seed or "Untitled", genre=genre, pages=pages)


@app.tool(title="Get a book", annotations=_READ_ONLY)
def get_book(book_id: Annotated[str, Field(description="The book's id, e.g. b1.")]) -> Book:
    """One book by its id."""
    for book in _SHELF:
        if book.book_id == book_id:
            return book
    return _made_up(book_id, Genre.FICTION)


@app.tool(title="Find a book", annotations=_READ_ONLY)
def find_book(title: str, genre: Genre = Genre.FICTION, exact: bool = False) -> Book:
    """The first book whose title matches."""
    for book in _SHELF:
        matches = book.title == title if exact else title.lower() in book.title.lower()
        if matches and book.genre == genre:
            return book
    return _made_up(title, genre)


@app.tool(title="Shelf statistics", annotations=_READ_ONLY)
def shelf_stats(genre: Genre | None = None, min_pages: Annotated[int, Field(ge=0)] = 0) -> ShelfStats:
    """How many books (and pages) a genre has, or the whole shelf."""
    books = [b for b in _SHELF if (genre is None or b.genre == genre) and b.pages >= min_pages]
    return ShelfStats(genre=genre.value if genre else "all", books=len(books), pages=sum(b.pages for b in books))


@app.tool(title="Count the books", annotations=_READ_ONLY)
def count_books(genre: Genre | None = None) -> int:
    """How many books the shelf holds (of a genre): FastMCP wraps the number as {"result": n}."""
    return sum(1 for b in _SHELF if genre is None or b.genre == genre)


@app.tool(title="Describe the shelf", annotations=_READ_ONLY, output_schema=None)
def describe_shelf(limit: Annotated[int, Field(ge=1, le=20 if NEXT else 10)] = 3) -> str:
    """The shelf in words."""
    return "\n".join(f"{b.title} ({b.genre.value}, {b.pages} pages)" for b in _SHELF[:limit])


@app.tool(
    title="Borrow a book",
    annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False),
)
def borrow_book(book_id: str) -> Loan:
    """Borrows a book: counts one more loan."""
    return Loan(book_id=book_id, loans=_count(+1))


def _count(step: int) -> int:
    counter = Path(sys.argv[1])
    loans = (int(counter.read_text(encoding="utf-8")) if counter.is_file() else 0) + step
    counter.write_text(str(loans), encoding="utf-8")
    return loans


def return_book(book_id: str) -> Loan:
    """Returns a borrowed book: counts one loan less."""
    return Loan(book_id=book_id, loans=_count(-1))


if NEXT:
    app.tool(
        return_book,
        title="Return a book",
        annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False),
    )


def _serve_http(url_file: Path) -> None:
    """Streamable HTTP on a socket bound here (port 0: the system picks a free one), its URL
    written to `url_file` when uvicorn has started."""
    import socket

    import anyio
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app.http_app(path="/mcp"), log_level="warning", lifespan="on"))

    async def serve() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(server.serve, [sock])
            while not server.started:
                await anyio.sleep(0.02)
            partial = url_file.with_suffix(".partial")  # whole or absent: the test polls for it
            partial.write_text(f"http://127.0.0.1:{sock.getsockname()[1]}/mcp", encoding="utf-8")
            partial.rename(url_file)

    anyio.run(serve)


if __name__ == "__main__":
    if "--http" in sys.argv:
        _serve_http(Path(sys.argv[sys.argv.index("--http") + 1]))
    else:
        app.run(show_banner=False, log_level="WARNING")  # no INFO lines on the client's stderr
