"""The runtime's server (`_runtime/serving.py`, issue 48) on the bookshop of tests/contracts/books,
driven by the official SDK's client in memory at each revision: the listing is serving.json's,
arguments are judged before a handler runs (-32602, or the `invalid_argument` envelope where the
revision makes a refusal a result), every answer is judged before it is sent (an off-contract
document or a crash is a logged -32603), a method left out is -32601, and the resource and the
prompt are served from the contract's sources unless overridden. Last, `conform --fuzz` against
the honest bookshop over stdio finds nothing.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import logging
import os
import shutil
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import mcp.types as types
import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli
from forkserver import python
from mcp import Client, ClientSession
from mcp.client._memory import InMemoryTransport
from mcp.shared.exceptions import MCPError
from mcp_sessions import offer
from pydantic import TypeAdapter

BOOKS = ROOT / "tests" / "contracts" / "books"
EXAMPLES = BOOKS / "examples"
PACKAGE = "books_contracts"
VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
MODULES = ("books", "books.tools", "_runtime.serving")  # what the tests use of the package
RAW = TypeAdapter(dict[str, Any])  # a result as it came, after the SDK's own check of it

# The honest bookshop on the generated `Handlers`: what the conform run serves over stdio and
# what the tests below subclass. Its resource and prompt are the contract's own.
SHOP = '''"""The bookshop of tests/contracts/books on the generated `Handlers` (test_contract_server.py)."""

from books_contracts.books import ABSENT, success_document, success_response
from books_contracts.books.tools import GetBookArguments, Handlers, SearchBooksArguments, ToolError, server

BOOKS = {1: {"id": 1, "title": "Dune", "label": "classic"}, 2: {"id": 2, "title": "Emma", "label": "classic"}}
META = {"tool_version": "1.0"}


class Bookshop(Handlers):
    async def get_book(self, arguments: GetBookArguments):
        book = BOOKS.get(arguments.id)
        if book is None:
            raise ToolError("not_found", f"No book has the id {arguments.id}.", meta=META)
        return success_response(data=book, meta=META)

    async def search_books(self, arguments: SearchBooksArguments):
        query, label = arguments.query.lower(), arguments.label
        found = [b for b in BOOKS.values() if query in b["title"].lower() and label in (ABSENT, b["label"])]
        return success_document(data={"books": found}, meta=META)


if __name__ == "__main__":
    server(Bookshop()).run()
'''


@dataclass(frozen=True)
class Books:
    """The books contract generated into a folder of its own, imported from there."""

    schemas: Path
    generated: Path
    shop_script: Path
    package: ModuleType  # books_contracts.books
    tools: ModuleType
    serving: ModuleType  # books_contracts._runtime.serving
    shop: ModuleType


def _forget_package() -> None:
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Books]:
    folder = tmp_path_factory.mktemp("served_books")
    schemas, generated = folder / "schemas", folder / "generated"
    shutil.copytree(BOOKS, schemas / "contracts" / "books")
    made = run_cli("generate", "--schemas", str(schemas), "--out", str(generated), "--package", PACKAGE)
    assert made.returncode == 0, made.stdout + made.stderr
    script = folder / "bookshop.py"
    script.write_text(SHOP, encoding="utf-8")
    _forget_package()
    sys.path.insert(0, str(generated / "python"))
    try:
        spec = importlib.util.spec_from_file_location("served_bookshop", script)
        assert spec is not None and spec.loader is not None
        shop = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(shop)
        package, tools, serving = (importlib.import_module(f"{PACKAGE}.{m}") for m in MODULES)
        yield Books(schemas, generated, script, package, tools, serving, shop)
    finally:
        sys.path.remove(str(generated / "python"))
        _forget_package()


def _example(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@asynccontextmanager
async def _session(server: Any, version: str) -> AsyncIterator[ClientSession]:
    """An SDK client session in memory with the low-level `server`, at `version`."""
    if version in ("2025-11-25", "2026-07-28"):
        async with Client(server, mode="legacy" if version == "2025-11-25" else version) as client:
            assert client.protocol_version == version
            yield client.session
        return
    async with InMemoryTransport(server) as (read, write), ClientSession(read, write) as session:
        await offer(session, version)
        yield session


def _served(books: Books, handlers: Any = None) -> Any:
    return books.tools.server(handlers if handlers is not None else books.shop.Bookshop()).lowlevel


async def _call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = types.CallToolRequestParams(name=tool, arguments=arguments)
    result: dict[str, Any] = await session.send_request(types.CallToolRequest(params=params), RAW)
    return result


async def _refused_code(session: ClientSession, tool: str, arguments: dict[str, Any]) -> tuple[int, str]:
    with pytest.raises(MCPError) as refused:
        await _call(session, tool, arguments)
    return refused.value.code, refused.value.message


# ---------------------------------------------------------------- tools/list


@pytest.mark.parametrize("version", VERSIONS)
def test_the_listing_is_serving_json_s_tools_less_what_the_revision_hides(books: Books, version: str) -> None:
    data = json.loads((books.generated / "python" / PACKAGE / "books" / "serving.json").read_text(encoding="utf-8"))
    published = json.loads((books.generated / "mcp" / "books.tools.json").read_text(encoding="utf-8"))["tools"]
    hidden = data["at"][version]["hidden"]
    expected = [{k: v for k, v in tool.items() if k not in hidden.get(tool["name"], ())} for tool in published]

    async def main() -> None:
        async with _session(_served(books), version) as session:
            listed = await session.send_request(types.ListToolsRequest(), RAW)
        assert listed["tools"] == expected

    anyio.run(main)
    if version == "2025-03-26":  # the oldest hides output schemas and titles
        assert all("outputSchema" not in tool and "title" not in tool for tool in expected)


# ---------------------------------------------------------------- tools/call


@pytest.mark.parametrize("version", VERSIONS)
def test_a_valid_call_is_answered_with_the_document_as_text_and_structured_where_carried(
    books: Books, version: str
) -> None:
    async def main() -> None:
        async with _session(_served(books), version) as session:
            found = await _call(session, "get_book", {"id": 1})
            missing = await _call(session, "get_book", {"id": 404})
            searched = await _call(session, "search_books", {"query": "dune"})
        for result, example, is_error in ((found, "book.json", False), (missing, "not_found.json", True)):
            assert json.loads(result["content"][0]["text"]) == _example(example)
            assert result.get("isError", False) is is_error
            assert result.get("structuredContent") == (None if version == "2025-03-26" else _example(example))
        assert json.loads(searched["content"][0]["text"]) == {
            "success": True,
            "data": {"books": [{"id": 1, "title": "Dune", "label": "classic"}]},
            "meta": {"tool_version": "1.0"},
        }

    anyio.run(main)


def test_refused_arguments_are_32602_before_2025_11_25_and_the_argument_error_envelope_after(books: Books) -> None:
    called: list[Any] = []

    class Counting(books.shop.Bookshop):
        async def get_book(self, arguments: Any) -> Any:
            called.append(arguments)
            return await super().get_book(arguments)

    async def main() -> None:
        server = _served(books, Counting())
        for version in ("2025-03-26", "2025-06-18"):
            async with _session(server, version) as session:
                code, message = await _refused_code(session, "get_book", {"id": 0})
            assert code == -32602
            assert message == "get_book: the inputSchema refuses the arguments: /id: 0 is less than the minimum of 1"
        for version in ("2025-11-25", "2026-07-28"):
            async with _session(server, version) as session:
                result = await _call(session, "get_book", {"id": 1000001})
            assert result["isError"] is True
            document = result["structuredContent"]
            assert json.loads(result["content"][0]["text"]) == document
            assert document["success"] is False
            assert document["error"]["code"] == "invalid_argument"
            assert document["error"]["retryable"] is False
            assert document["error"]["message"] == (
                "get_book: the inputSchema refuses the arguments: /id: 1000001 is greater than the maximum of 1000000"
            )
        async with _session(server, "2026-07-28") as session:
            code, _ = await _refused_code(session, "no_such_tool", {})
        assert code == -32602

    anyio.run(main)
    assert called == []  # no handler ran for refused arguments


def test_a_tool_failure_is_its_document_with_is_error(books: Books) -> None:
    class Limited(books.shop.Bookshop):
        async def search_books(self, arguments: Any) -> Any:
            raise books.tools.ToolError("rate_limited", meta={"tool_version": "1.0"})

    async def main() -> None:
        async with _session(_served(books, Limited()), "2025-11-25") as session:
            result = await _call(session, "search_books", {"query": "x"})
        assert result["isError"] is True
        assert result["structuredContent"]["error"] == {
            "code": "rate_limited",
            "message": "Too many requests; try again later.",
            "retryable": True,
        }

    anyio.run(main)


# Answers of search_books the contract refuses, and what the log says of each.
CARELESS = {
    "schema": (
        lambda package: {"success": True, "data": None, "error": "beside success"},
        "/error: 'error' is not allowed here",
    ),
    "undeclared-code": (
        lambda package: package.error_document("not_found"),
        "the error code 'not_found' is not among the codes the tool declares (rate_limited, invalid_argument)",
    ),
    "raised-success": (
        lambda package: package.success_document(data=None),
        "it was raised as a ToolFailure, but the document is no error envelope",
    ),
}


@pytest.mark.parametrize("case", sorted(CARELESS))
def test_an_answer_off_the_contract_is_never_sent_but_logged_and_answered_32603(
    books: Books, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    make, said = CARELESS[case]

    class Careless(books.shop.Bookshop):
        async def search_books(self, arguments: Any) -> Any:
            document = make(books.package)
            if case == "raised-success":
                raise books.serving.ToolFailure(document)
            return document

    async def main() -> None:
        async with _session(_served(books, Careless()), "2026-07-28") as session:
            code, message = await _refused_code(session, "search_books", {"query": "dune"})
        assert (code, message) == (-32603, "search_books: the server failed to answer; its log says why")

    with caplog.at_level(logging.ERROR, logger="mcp_contracts.server"):
        anyio.run(main)
    [record] = [r for r in caplog.records if r.name == "mcp_contracts.server"]
    logged = record.getMessage()
    assert logged.startswith("search_books: the handler's answer breaks the contract, so it is not sent"), logged
    assert said in logged


def test_a_handler_that_raises_is_logged_with_its_traceback_and_answered_32603(
    books: Books, caplog: pytest.LogCaptureFixture
) -> None:
    class Crashing(books.shop.Bookshop):
        async def get_book(self, arguments: Any) -> Any:
            raise KeyError("the shelf fell")

    async def main() -> None:
        async with _session(_served(books, Crashing()), "2025-06-18") as session:
            code, message = await _refused_code(session, "get_book", {"id": 1})
        assert (code, message) == (-32603, "get_book: the server failed to answer; its log says why")

    with caplog.at_level(logging.ERROR, logger="mcp_contracts.server"):
        anyio.run(main)
    [record] = [r for r in caplog.records if r.name == "mcp_contracts.server"]
    assert record.exc_info is not None and "the shelf fell" in str(record.exc_info[1])


def test_a_method_left_out_is_32601(books: Books) -> None:
    async def main() -> None:
        async with _session(_served(books, books.tools.Handlers()), "2025-11-25") as session:
            code, message = await _refused_code(session, "get_book", {"id": 1})
        assert (code, message) == (-32601, "the tool 'get_book' is not implemented by this server")

    anyio.run(main)


# ---------------------------------------------------------------- resources and prompts


def test_the_resource_is_read_from_the_sources_unless_overridden_and_an_unknown_uri_is_not_found(
    books: Books,
) -> None:
    class Stocked(books.shop.Bookshop):
        async def read_catalogue(self) -> str:
            return "1 Dune\n2 Emma\n3 Kim\n"

    async def read(handlers: Any, version: str, uri: str) -> dict[str, Any] | MCPError:
        async with _session(_served(books, handlers), version) as session:
            params = types.ReadResourceRequestParams(uri=uri)
            try:
                result: dict[str, Any] = await session.send_request(types.ReadResourceRequest(params=params), RAW)
            except MCPError as error:
                return error
        return result

    async def main() -> None:
        sourced = await read(books.shop.Bookshop(), "2025-11-25", "books://catalogue")
        assert not isinstance(sourced, MCPError)
        assert sourced["contents"] == [
            {"uri": "books://catalogue", "mimeType": "text/plain", "text": "1 Dune\n2 Emma\n"}
        ]
        overridden = await read(Stocked(), "2025-11-25", "books://catalogue")
        assert not isinstance(overridden, MCPError)
        assert overridden["contents"][0]["text"] == "1 Dune\n2 Emma\n3 Kim\n"
        for version, code in (("2025-06-18", -32002), ("2026-07-28", -32602)):
            missing = await read(books.shop.Bookshop(), version, "books://shelf")
            assert isinstance(missing, MCPError)
            assert missing.code == code

    anyio.run(main)


def test_the_prompt_is_got_from_the_sources_with_its_argument_filled_and_refused_without_it(books: Books) -> None:
    async def main() -> None:
        async with _session(_served(books), "2025-11-25") as session:
            got = await session.get_prompt("recommend", {"book_id": "42"})
            with pytest.raises(MCPError) as refused:
                await session.get_prompt("recommend", {})
        assert got.description == "Asks for a book like one the reader liked."
        [message] = got.messages
        assert message.role == "user"
        assert isinstance(message.content, types.TextContent)
        assert message.content.text == "Recommend a book like the book 42."
        assert refused.value.code == -32602
        assert "book_id" in refused.value.message

    anyio.run(main)


# ---------------------------------------------------------------- conform


@pytest.mark.slow
def test_conform_fuzzed_finds_nothing_in_the_bookshop_on_the_runtime(
    books: Books, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [str(books.generated / "python"), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    args = ("conform", "--schemas", str(books.schemas), "--contract", "books", "--format", "json")
    result = run_cli(*args, "--fuzz", "10", "--seed", "1", "--", *python(str(books.shop_script)))
    report = conform_report(result.stdout)
    assert report["problem"] is None, report["problem"]
    assert report["findings"] == [], report["findings"]
    assert (result.returncode, report["conforms"]) == (0, True)
    assert report["revisions"] == list(VERSIONS)
    assert report["calls_failed"] == 0
    assert sorted(report["fuzz"]["tools"]) == ["get_book", "search_books"]
