"""The generated client of one language against the generated server of the other (issue 48,
point 5), over stdio, on the bookshop of tests/contracts/books generated in both languages:

- the TypeScript `Client` (tools.ts, through tests/ts/handlers_client.mjs) against a Python server
  on the generated `Handlers` (tests/servers/handlers_omitting.py: handlers_builtin.py's, which
  answers the examples, its `search_books` left out);
- the Python `Client` (tools.py, in a session of test_contract_client.py's) against the
  TypeScript server on the generated `Handlers` (tests/ts/handlers_server.mjs, `search_books`
  left out).

Each gets the success and the error example back as the example documents, refuses bad arguments
(a tool's, a prompt's) before any request, reads the resource and gets the prompt from the
contract's own sources, and meets -32601 for the tool whose handler is left out; at each revision
both SDKs speak (the TypeScript SDK 1.32.2 tops at 2025-11-25; its client is made to offer the
older ones by tests/ts/offer_revision.mjs).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
from conftest import ROOT, generated_package
from handlers_projects import SDK_REVISIONS, _handlers_server, _served, package_of, projects  # noqa: F401  (a fixture)
from mcp.shared.exceptions import MCPError
from mcp_contracts_generator.serving.served import ServedContract
from mcp_sessions import session_at as _session
from pydantic import ValidationError
from typescript_toolchain import TS, run_script

pytestmark = [pytest.mark.xdist_group("typescript-package"), pytest.mark.slow]  # tsc builds, node runs

SERVERS = ROOT / "tests" / "servers"
OMITTED = "search_books"  # the tool whose handler each server leaves out
LEFT_OUT = f"the tool '{OMITTED}' is not implemented by this server"


@dataclass(frozen=True)
class Books:
    """The books contract generated in Python and TypeScript, the TypeScript package compiled."""

    contract_folder: Path  # its sources: tools.yaml, examples/
    python: Path  # generated/python, holding the package `books_contracts`
    module: Path  # the compiled dist/books/index.js
    contract: ServedContract
    tools: ModuleType  # books_contracts.books.tools

    def example(self, name: str) -> Any:
        return json.loads((self.contract_folder / "examples" / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def books(projects: Any) -> Iterator[Books]:  # noqa: F811  (the fixture imported above)
    schemas, package = projects("books")
    generated = schemas.parent / "generated"
    with generated_package(generated, "books", package_of("books")):
        import books_contracts.books.tools as tools

        yield Books(
            schemas / "contracts" / "books",
            generated / "python",
            package / "dist" / "books" / "index.js",
            _served(schemas),
            tools,
        )


@pytest.mark.parametrize("revision", SDK_REVISIONS)
def test_the_typescript_client_against_a_python_server_on_the_handlers(
    books: Books, revision: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NODE_OPTIONS", f"--import={(TS / 'offer_revision.mjs').as_uri()}")
    monkeypatch.setenv("MCP_CONTRACTS_OFFER", revision)
    server = [
        sys.executable,
        str(SERVERS / "handlers_omitting.py"),
        str(books.python),
        "books_contracts.books",
        str(books.contract_folder),
        "--omit",
        OMITTED,
    ]
    calls = [
        {"method": "get_book", "args": [{"id": 1}]},
        {"method": "get_book", "args": [{"id": 404}]},
        {"method": "get_book", "args": [{"id": 0}]},  # below the minimum
        {"method": "get_book", "args": [{"id": "1"}]},  # not an integer
        {"method": "search_books", "args": [{"query": ""}]},  # shorter than minLength
        {"method": "prompt_recommend", "args": [{}]},  # book_id is required
        {"method": "read_catalogue", "args": []},
        {"method": "prompt_recommend", "args": [{"book_id": "1"}]},
        {"method": "search_books", "args": [{"query": "Dune"}]},
    ]
    spec = {"command": server, "cwd": str(ROOT), "calls": calls}
    printed = run_script("handlers_client.mjs", books.module, spec=tmp_path / "spec.json", data=spec)
    assert printed["protocolVersion"] == revision
    found, missing, *outcomes = printed["outcomes"]
    assert found == {"value": books.example("book.json"), "sent": ["tools/call"]}, found
    assert missing == {"value": books.example("not_found.json"), "sent": ["tools/call"]}, missing  # isError
    refused, (catalogue, prompt, left_out) = outcomes[:4], outcomes[4:]
    for outcome, pointer in zip(refused, ("/id", "/id", "/query", ""), strict=True):
        assert outcome["error"] == "ContractViolation" and outcome["sent"] == [], outcome
        assert outcome["violations"][0]["pointer"] == pointer, outcome
    assert catalogue == {"value": "1 Dune\n2 Emma\n", "sent": ["resources/read"]}, catalogue
    assert prompt["sent"] == ["prompts/get"]
    assert [(m["role"], m["content"]["text"]) for m in prompt["value"]["messages"]] == [
        ("user", "Recommend a book like the book 1.")
    ]
    assert (left_out["error"], left_out["code"], left_out["sent"]) == ("McpError", -32601, ["tools/call"]), left_out
    assert left_out["message"].endswith(LEFT_OUT), left_out  # the TypeScript SDK's client prefixes its McpError


@pytest.mark.parametrize("revision", SDK_REVISIONS)
def test_the_python_client_against_the_typescript_server_on_the_handlers(
    books: Books, revision: str, tmp_path: Path
) -> None:
    server = _handlers_server(books.module, books.contract, tmp_path / "answers.json", omit=(OMITTED,))

    async def main() -> dict[str, Any]:
        got: dict[str, Any] = {}
        async with _session(server, books.python, revision) as (session, counted):
            client = books.tools.Client(session)
            got["found"], got["missing"] = await client.get_book(id=1), await client.get_book(id=404)
            sent = len(counted.requests)
            for refused in (
                lambda: client.get_book(id=0),
                lambda: client._call("get_book", {"id": "1"}),
                lambda: client.search_books(query=""),
                lambda: client._prompt("recommend", {}),
            ):
                with pytest.raises(ValidationError):
                    await refused()
            got["sent by refusals"] = counted.requests[sent:]
            got["catalogue"] = await client.read_catalogue()
            got["prompt"] = await client.prompt_recommend(book_id="1")
            with pytest.raises(MCPError) as left_out:
                await client.search_books(query="Dune")
            got["left out"] = (left_out.value.code, left_out.value.message)
        return got

    got = anyio.run(main)
    envelope = books.tools.BINDING.envelope
    found, missing = got["found"], got["missing"]
    assert isinstance(found, envelope) and found.model_dump(mode="json") == books.example("book.json")
    assert isinstance(missing, envelope) and missing.model_dump(mode="json") == books.example("not_found.json")
    assert got["sent by refusals"] == []
    assert got["catalogue"] == "1 Dune\n2 Emma\n"
    assert [(m.role, m.content.text) for m in got["prompt"].messages] == [("user", "Recommend a book like the book 1.")]
    code, message = got["left out"]
    assert (code, message) == (-32601, LEFT_OUT)  # the bare message on the wire, as the Python server's
