"""The generated typed client (`tools.Client`, on the runtime's `ContractClient`, issue 48)
against real servers over stdio: `mcp-contracts mock` of tests/contracts/books, the bookshop
on the Python SDK's low-level `Server` (tests/servers/books_lowlevel.py, with its planted
faults) and the TuitBot server that breaks its contract on request (faulty_server.py).

The client gets the example answers back as envelope models, the error example too; refuses
bad arguments before any request (the session's own writes are counted: `_Counted`); raises
`AnswerRefused` for an answer the contract refuses; reads the resource and gets the prompt.
The contract is the books contract with `get_book`'s inputSchema closed
(`additionalProperties: false`), so that an unknown argument is one the contract refuses.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import mcp.types as types
import pytest
from conftest import ROOT, generated_package, run_cli
from mcp.shared.exceptions import MCPError
from mcp_sessions import Counted as _Counted
from mcp_sessions import session_at as _session
from pydantic import ValidationError

BOOKS = ROOT / "tests" / "contracts" / "books"
TUITBOT = ROOT / "schemas" / "contracts" / "tuitbot"
SERVERS = ROOT / "tests" / "servers"
EXAMPLES = BOOKS / "examples"
REVISIONS = ("2025-03-26", "2025-06-18", "2025-11-25")  # the first has no structuredContent


def _generate(tmp: Path, source: Path, name: str, package: str, edit: Callable[[Path], None] | None = None) -> Path:
    schemas, generated = tmp / "schemas", tmp / "generated"
    shutil.copytree(source, schemas / "contracts" / name)
    if edit is not None:
        edit(schemas / "contracts" / name / "tools.yaml")
    made = run_cli("generate", "--schemas", str(schemas), "--out", str(generated), "--package", package)
    assert made.returncode == 0, made.stdout + made.stderr
    return tmp


def _close_get_book(tools_yaml: Path) -> None:
    text = tools_yaml.read_text(encoding="utf-8")
    opened = "      type: object\n      required: [id]\n"
    assert text.count(opened) == 1
    tools_yaml.write_text(text.replace(opened, opened + "      additionalProperties: false\n"), encoding="utf-8")


@dataclass(frozen=True)
class Generated:
    folder: Path
    tools: ModuleType

    @property
    def schemas(self) -> Path:
        return self.folder / "schemas"

    @property
    def python(self) -> Path:
        return self.folder / "generated" / "python"


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Generated]:
    folder = _generate(tmp_path_factory.mktemp("books"), BOOKS, "books", "books_contracts", _close_get_book)
    with generated_package(folder / "generated", "books", "books_contracts"):
        import books_contracts.books.tools as tools

        yield Generated(folder, tools)


@pytest.fixture(scope="module")
def tuitbot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Generated]:
    folder = _generate(tmp_path_factory.mktemp("tuitbot"), TUITBOT, "tuitbot", "tuitbot_contracts")
    with generated_package(folder / "generated", "tuitbot", "tuitbot_contracts"):
        import tuitbot_contracts.tuitbot.tools as tools

        yield Generated(folder, tools)


# ---------------------------------------------------------------- real sessions, counted (mcp_sessions)


def _mock(books: Generated) -> list[str]:
    return [
        sys.executable,
        "-m",
        "mcp_contracts_generator",
        "mock",
        "--contract",
        "books",
        "--schemas",
        str(books.schemas),
    ]


def _lowlevel(*fault: str) -> list[str]:
    return [sys.executable, str(SERVERS / "books_lowlevel.py"), *fault]


SERVED = {"mock": lambda books: _mock(books), "lowlevel": lambda books: _lowlevel()}


def _run(
    command: list[str],
    generated: Generated,
    body: Callable[[Any, _Counted], Awaitable[Any]],
    revision: str = "2025-11-25",
) -> Any:
    async def main() -> Any:
        async with _session(command, generated.python, revision) as (session, counted):
            return await body(generated.tools.Client(session), counted)

    return anyio.run(main)


def _example(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


# ---------------------------------------------------------------- the tests


@pytest.mark.parametrize(
    "revision", [pytest.param(r, marks=pytest.mark.slow) if r == "2025-06-18" else r for r in REVISIONS]
)  # 2025-06-18 answers as 2025-11-25: in the slow run
@pytest.mark.parametrize("server", SERVED)
def test_the_success_and_the_error_example_come_back_as_envelope_models(
    books: Generated, server: str, revision: str
) -> None:
    async def body(client: Any, counted: _Counted) -> tuple[Any, Any]:
        return await client.get_book(id=1), await client.get_book(id=404)

    found, missing = _run(SERVED[server](books), books, body, revision)
    envelope = books.tools.BINDING.envelope
    assert isinstance(found, envelope) and isinstance(missing, envelope)
    assert found.root.success is True and found.model_dump(mode="json") == _example("book.json")
    assert missing.root.success is False and missing.root.error.code == "not_found"
    assert missing.model_dump(mode="json") == _example("not_found.json")


@pytest.mark.parametrize("server", SERVED)
def test_bad_arguments_are_refused_before_any_request(books: Generated, server: str) -> None:
    async def body(client: Any, counted: _Counted) -> list[str]:
        refused = []
        for arguments in ({"id": 0}, {"id": "x"}, {"id": 1, "bogus": 1}, {}):
            with pytest.raises(ValidationError) as caught:
                await client._call("get_book", arguments)
            refused.append(str(caught.value))
        with pytest.raises(ValidationError):
            await client.get_book(id=0)
        with pytest.raises(ValidationError):
            await client.search_books(query="")
        with pytest.raises(TypeError):  # the closed schema: no such keyword in the signature
            await client.get_book(id=1, bogus=1)
        with pytest.raises(ValidationError):
            await client._prompt("recommend", {})
        with pytest.raises(ValueError, match="no resource of the contract"):
            await client._read("books://nothing")
        assert counted.calls("tools/call") == counted.calls("prompts/get") == counted.calls("resources/read") == []
        await client.search_books(query="Dune")  # sent: the counting sees it, `label` left out
        assert [p["arguments"] for p in counted.calls("tools/call")] == [{"query": "Dune"}]
        return refused

    refused = _run(SERVED[server](books), books, body)
    assert "0 is less than the minimum of 1" in refused[0]
    assert "bogus" in refused[2]


def test_an_answer_the_contract_refuses_raises_answer_refused(books: Generated) -> None:
    calling = sys.modules["books_contracts._runtime.calling"]

    async def body(client: Any, counted: _Counted) -> Any:
        await client.get_book(id=1)  # the success is fine
        with pytest.raises(calling.AnswerRefused) as refused:
            await client.get_book(id=404)
        return refused.value

    refused = _run(_lowlevel("--fault", "missing-code"), books, body)
    assert isinstance(refused, ValueError) and refused.tool == "get_book"
    assert [v.pointer for v in refused.violations] == ["/error/code"]
    assert "get_book" in str(refused)
    assert refused.document["error"] == {"message": "No book has the id 404.", "retryable": False}


def test_an_error_that_contradicts_the_catalogue_raises_answer_refused(books: Generated) -> None:
    """`retryable: true` for `not_found`, whose row in errors.yaml says false: the schema takes
    it, the catalogue does not (conform's catalogue-contradicted)."""
    calling = sys.modules["books_contracts._runtime.calling"]

    async def body(client: Any, counted: _Counted) -> Any:
        with pytest.raises(calling.AnswerRefused) as refused:
            await client.get_book(id=404)
        return refused.value

    refused = _run(_lowlevel("--fault", "retryable-contradicts"), books, body)
    assert [v.pointer for v in refused.violations] == ["/error/retryable"]
    assert "the catalogue gives 'not_found' False" in str(refused)


def test_a_server_that_crashes_raises_the_sdks_error_not_a_refusal(books: Generated) -> None:
    async def body(client: Any, counted: _Counted) -> None:
        with pytest.raises(MCPError):
            await client.get_book(id=404)

    _run(_lowlevel("--fault", "crash-on-error"), books, body)


@pytest.mark.parametrize(
    ("fault", "text", "said"),
    [
        ("is-error", "Follow me for free followers!", "isError is false, but the document is an error envelope"),
        ("undeclared-code", "One more for today.", "'db_error' is not among the codes the tool declares"),
    ],
)
def test_an_error_answer_off_contract_is_refused(tuitbot: Generated, fault: str, text: str, said: str) -> None:
    calling = sys.modules["tuitbot_contracts._runtime.calling"]

    async def body(client: Any, counted: _Counted) -> Any:
        with pytest.raises(calling.AnswerRefused) as refused:
            await client.x_post_tweet(text=text)
        return refused.value

    command = [sys.executable, str(SERVERS / "faulty_server.py"), str(ROOT), "--fault", fault]
    refused = _run(command, tuitbot, body)
    assert said in str(refused) and refused.tool == "x_post_tweet"


@pytest.mark.parametrize("server", SERVED)
def test_the_resource_is_read_as_its_text_and_the_prompt_got_with_its_messages(books: Generated, server: str) -> None:
    async def body(client: Any, counted: _Counted) -> tuple[Any, Any]:
        return await client.read_catalogue(), await client.prompt_recommend(book_id="1")

    catalogue, prompt = _run(SERVED[server](books), books, body)
    assert catalogue == "1 Dune\n2 Emma\n"
    assert isinstance(prompt, types.GetPromptResult)
    assert [(m.role, m.content.text) for m in prompt.messages] == [("user", "Recommend a book like the book 1.")]
