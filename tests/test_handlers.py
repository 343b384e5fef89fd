"""The server half of a contract package's `tools.py`: `serving.json` as each revision serves
the contract, method names that never clash, `Handlers` that mypy --strict holds to the
contract, and a server of a dozen lines on them that `conform --fuzz` finds nothing wrong
with at every revision (our own contract: constrained inputs, a resource, a template and a
prompt)."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from conform_json import conform_report
from conftest import ROOT, generated_package, run_cli
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_contracts_generator import api
from mcp_contracts_generator.protocol import VERSIONS

BOOKS = ROOT / "tests" / "contracts" / "books"

# Our own contract: the bookshop, a tool whose inputs say what a Python type cannot, and a
# resource template.
OWN_TOOLS = """
  - name: reserve
    title: Reserve a book
    description: Holds copies of a book for a reader, by a code of three capitals.
    possible_error_codes: [not_found, invalid_argument]
    secret_arguments: [code]
    inputSchema:
      type: object
      additionalProperties: false
      required: [id, copies, code]
      properties:
        id: {type: integer, minimum: 1, maximum: 1000000}
        copies: {type: integer, minimum: 1, maximum: 3}
        code: {type: string, pattern: "^[A-Z]{3}$"}
        rush: {type: boolean}
        pages: {type: integer, minimum: 1}
        note: {type: string, maxLength: 40}
      if: {properties: {rush: {const: true}}, required: [rush]}
      then: {required: [note]}
    examples:
      - arguments: {id: 1, copies: 2, code: ABC}
        result: reserved.json
"""
OWN_TEMPLATE = """
templates:
  - uriTemplate: books://book/{id}
    name: book
    title: A book
    description: One book's title, by its id.
    mimeType: text/plain
    contents: book.txt
"""
RESERVED = {"success": True, "data": {"id": 1, "copies": 2}, "meta": {"tool_version": "1.0"}}

# The dozen-line server of our own contract, as docs/python.md shows one.
SERVER = """\
from typing import Any

from own_contracts.books import error_document, success_document
from own_contracts.books.tools import GetBookArguments, Handlers, ReserveArguments, SearchBooksArguments, server

BOOKS: dict[int, dict[str, Any]] = {1: {"id": 1, "title": "Dune", "label": "classic"}}
META = {"tool_version": "1.0"}


class Shop(Handlers):
    async def get_book(self, arguments: GetBookArguments) -> dict[str, Any]:
        book = BOOKS.get(arguments.id)
        if book is None:
            return error_document("not_found", f"No book has the id {arguments.id}.", meta=META)
        return success_document(data=book, meta=META)

    async def search_books(self, arguments: SearchBooksArguments) -> dict[str, Any]:
        found = [b for b in BOOKS.values() if arguments.query.lower() in b["title"].lower()]
        return success_document(data={"books": found}, meta=META)

    async def reserve(self, arguments: ReserveArguments) -> dict[str, Any]:
        return success_document(data={"id": arguments.id, "copies": arguments.copies}, meta=META)


if __name__ == "__main__":
    server(Shop(), name="books").run()
"""


def _own_project(root: Path) -> Path:
    folder = root / "schemas" / "contracts" / "books"
    shutil.copytree(BOOKS, folder)
    with (folder / "tools.yaml").open("a", encoding="utf-8") as tools:
        tools.write(OWN_TOOLS)
    with (folder / "resources.yaml").open("a", encoding="utf-8") as resources:
        resources.write(OWN_TEMPLATE)
    (folder / "examples" / "reserved.json").write_text(json.dumps(RESERVED), encoding="utf-8")
    (folder / "examples" / "resources" / "book.txt").write_text("The book {id}\n", encoding="utf-8")
    return root / "schemas"


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output folder of our own contract, as the package `own_contracts`."""
    project = tmp_path_factory.mktemp("own")
    out = project / "out"
    result = run_cli(
        "generate", "--schemas", str(_own_project(project)), "--out", str(out), "--package", "own_contracts"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def _serving(out: Path) -> dict[str, Any]:
    return json.loads((out / "python" / "own_contracts" / "books" / "serving.json").read_text(encoding="utf-8"))


def test_serving_json_lists_the_tools_as_mcp_tools_json_publishes_them(own: Path) -> None:
    published = json.loads((own / "mcp" / "books.tools.json").read_text(encoding="utf-8"))["tools"]
    serving = _serving(own)
    (envelope,) = serving["outputs"]  # every tool's output, written once
    assert [tool.pop("outputSchema") for tool in serving["tools"]] == [0, 0, 0]
    assert serving["tools"] == [{k: v for k, v in tool.items() if k != "outputSchema"} for tool in published]
    assert all(tool["outputSchema"] == envelope for tool in published)
    assert serving["revisions"] == list(VERSIONS)
    assert [t["listing"]["uriTemplate"] for t in serving["templates"]] == ["books://book/{id}"]
    assert serving["prompts"][0]["messages"][0]["content"]["text"] == "Recommend a book like the book {book_id}."


def test_each_revision_hides_what_it_cannot_carry_and_refuses_arguments_its_way(own: Path) -> None:
    at = _serving(own)["at"]
    assert at["2025-03-26"]["hidden"]["get_book"] == ["outputSchema", "title"]
    assert at["2025-03-26"]["structured"] == []
    assert at["2025-06-18"]["hidden"] == {} and "reserve" in at["2025-06-18"]["structured"]
    assert [at[v]["refusal"] for v in VERSIONS] == ["rpc", "rpc", "result", "result"]
    assert at["2026-07-28"]["resource_not_found"] == -32602 and at["2025-11-25"]["resource_not_found"] == -32002


def test_a_refusal_is_answered_with_the_argument_error_code_the_tool_declares(own: Path) -> None:
    results = _serving(own)["results"]
    assert results["reserve"]["argument_error"] == "invalid_argument"
    errors = _serving(own)["errors"]
    assert (errors["code_at"], errors["constants"], errors["structured"]) == (
        "/error/code",
        [["/success", False]],
        True,
    )
    retryable = {code: values for code, values in errors["derived"].items()}  # errors.yaml's, at builders.derived
    assert retryable == {
        "not_found": [["/error/retryable", False]],
        "rate_limited": [["/error/retryable", True]],
        "invalid_argument": [["/error/retryable", False]],
    }
    assert results["reserve"]["secrets"] == ["code"] and results["get_book"]["secrets"] == []


def test_a_tool_whose_method_is_a_resources_is_refused_at_its_name(tmp_path: Path) -> None:
    schemas = _own_project(tmp_path)
    tools = schemas / "contracts" / "books" / "tools.yaml"
    text = tools.read_text(encoding="utf-8") + "  - name: read_catalogue\n    description: Clashes.\n"
    tools.write_text(text, encoding="utf-8")
    line = text.splitlines().index("  - name: read_catalogue") + 1
    result = api.load(schemas)
    assert result.project is None
    messages = [str(d) for d in result.diagnostics]
    expected = "the tool 'read_catalogue' and the resource 'catalogue' both have the method read_catalogue"
    assert any(f"tools.yaml:{line}:" in m and expected in m for m in messages), messages


def _mypy(out: Path, tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache")]
    env = {**os.environ, "MYPYPATH": str(out / "python")}
    return subprocess.run([*command, str(path)], capture_output=True, text=True, env=env, cwd=tmp_path)


@pytest.mark.slow  # mypy --strict, or hypothesis over every tool of the built-ins: `pytest -m slow`
def test_mypy_strict_takes_the_server_and_refuses_another_tools_arguments(own: Path, tmp_path: Path) -> None:
    good = _mypy(own, tmp_path, "server.py", SERVER)
    assert good.returncode == 0, good.stdout + good.stderr
    swapped = SERVER.replace(
        "async def reserve(self, arguments: ReserveArguments)", "async def reserve(self, arguments: GetBookArguments)"
    )
    refused = _mypy(own, tmp_path, "swapped.py", swapped)
    assert refused.returncode == 1 and 'Argument 1 of "reserve" is incompatible' in refused.stdout, refused.stdout


@pytest.mark.slow  # mypy --strict, or hypothesis over every tool of the built-ins: `pytest -m slow`
def test_mypy_strict_refuses_a_misspelt_handler_marked_override(own: Path, tmp_path: Path) -> None:
    misspelt = SERVER.replace(
        "from typing import Any", "from typing import Any\n\nfrom typing_extensions import override"
    )
    misspelt = misspelt.replace("    async def reserve(", "    @override\n    async def reserv(")
    refused = _mypy(own, tmp_path, "misspelt.py", misspelt)
    assert refused.returncode == 1 and '"reserv" is marked as an override' in refused.stdout, refused.stdout


@pytest.mark.slow
def test_the_dozen_line_server_conforms_with_fuzz_at_every_revision(
    own: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = tmp_path / "server.py"
    server.write_text(SERVER, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(own / "python"))
    result = run_cli(
        "conform",
        "--schemas", str(own.parent / "schemas"),
        "--contract", "books",
        "--fuzz", "25",
        "--format", "json",
        "--seed", "1",
        "--call-tool", "reserve",
        "--server-log", str(tmp_path / "server.log"),
        "--",
        sys.executable, str(server),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    report = conform_report(result.stdout)
    assert report["findings"] == [], report["findings"]
    assert sorted(report["fuzz"]["tools"]) == ["get_book", "reserve", "search_books"], report["fuzz"]
    assert sorted(report["fuzz"]["surface"]) == ["prompt recommend", "template book"], report["fuzz"]


@pytest.mark.slow
def test_a_server_whose_tools_answer_images_audio_and_resources_conforms_with_fuzz(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """conformance-fixtures: tools whose results are images, audio, an embedded resource (the
    handlers return content blocks), text, and templates, a JSON resource and prompts."""
    schemas = tmp_path / "schemas" / "contracts"
    shutil.copytree(ROOT / "tests" / "contracts" / "conformance-fixtures", schemas / "conformance-fixtures")
    out = tmp_path / "out"
    made = run_cli("generate", "--schemas", str(schemas.parent), "--out", str(out), "--package", "fixtures")
    assert made.returncode == 0, made.stdout + made.stderr
    tools = json.loads((out / "mcp" / "conformance-fixtures.tools.json").read_text(encoding="utf-8"))["tools"]
    package = next(p.name for p in (out / "python" / "fixtures").iterdir() if (p / "tools.py").is_file())
    monkeypatch.setenv("PYTHONPATH", str(out / "python"))
    server = ROOT / "tests" / "servers" / "handlers_content.py"
    result = run_cli(
        "conform", "--schemas", str(schemas.parent), "--contract", "conformance-fixtures", "--format", "json",
        "--fuzz", "5", "--seed", "1", "--server-log", str(tmp_path / "server.log"),
        *[flag for tool in tools for flag in ("--call-tool", tool["name"])],
        "--", sys.executable, str(server), f"fixtures.{package}", str(schemas / "conformance-fixtures"),
    )  # fmt: skip
    report = conform_report(result.stdout)
    assert report["findings"] == [], json.dumps(report["findings"], indent=1)
    assert result.returncode == 0, result.stdout + result.stderr


def _raw_session(
    server: Path | list[str], env: dict[str, str], lines: list[str], version: str = "2025-11-25"
) -> list[dict[str, Any]]:
    """The answers of `server` (a script, or a command) over stdio to `lines`, written as they
    are (after initialize)."""
    hello = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
    opening = [
        json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]
    command = server if isinstance(server, list) else [sys.executable, str(server)]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    assert process.stdin is not None and process.stdout is not None
    try:  # standard input stays open until every answer is read: the SDK drops those on the way at its end
        process.stdin.write("\n".join([*opening, *lines]) + "\n")
        process.stdin.flush()
        return [json.loads(process.stdout.readline()) for _ in range(1 + len(lines))][1:]
    finally:
        process.kill()
        process.communicate()  # closes the pipes


def test_an_integer_of_more_than_4300_digits_reaches_the_handler(own: Path, tmp_path: Path) -> None:
    """The SDK's transport drops such a request unanswered; the schema (`minimum: 1`, no
    maximum) accepts the integer, and so does the server: the handler answers it."""
    server = tmp_path / "server.py"
    server.write_text(SERVER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(own / "python")}
    huge = "1" * 4400
    arguments = '{"id": 1, "copies": 1, "code": "ABC", "pages": ' + huge + "}"
    answers = _raw_session(
        server,
        env,
        [
            '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"reserve","arguments":' + arguments + "}}",
            '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"reserve","arguments":'
            + arguments.replace(huge, "-" + huge)
            + "}}",
        ],
    )
    accepted, refused = answers
    assert accepted["id"] == 1 and accepted["result"]["isError"] is False, accepted
    assert accepted["result"]["structuredContent"]["data"] == {"id": 1, "copies": 2 - 1}
    assert refused["id"] == 2 and refused["result"]["isError"] is True, refused  # below its minimum
    assert "/pages" in refused["result"]["structuredContent"]["error"]["message"]


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
def test_a_refusal_never_repeats_a_secret_argument(own: Path, tmp_path: Path, version: str) -> None:
    """`code` is a secret argument of `reserve`: its refusal names where, never the value."""
    server = tmp_path / "server.py"
    server.write_text(SERVER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(own / "python")}
    wrong = {"id": 1, "copies": 1, "code": "hunter2-secret"}
    params = {"name": "reserve", "arguments": wrong}
    (answer,) = _raw_session(
        server, env, [json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})], version
    )
    said = json.dumps(answer)
    assert "/code" in said and "hunter2" not in said, said
    assert ("error" in answer) == (version == "2025-06-18"), answer  # -32602, or the isError envelope


def test_an_error_that_contradicts_the_catalogue_is_never_sent(own: Path, tmp_path: Path) -> None:
    """A handler's `retryable: true` for `not_found` (errors.yaml: false) passes the schema; the
    server logs it and answers -32603 (conform's catalogue-contradicted, kept off the wire)."""
    server = tmp_path / "server.py"
    contradicting = (
        '{"success": False, "data": None, "error": {"code": "not_found", "message": "No.", "retryable": True}}'
    )
    server.write_text(
        SERVER.replace(
            "            return error_document(",
            f"            return {contradicting}\n            return error_document(",
        ),
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(own / "python")}
    params = {"name": "get_book", "arguments": {"id": 404}}
    (answer,) = _raw_session(
        server, env, [json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})]
    )
    assert answer["error"]["code"] == -32603, answer


HOSTILE_TOOLS = """
  - name: models
    description: Named as a module of the contract package.
    inputSchema:
      type: object
      properties:
        extra: {type: string}
        self: {type: string}
  - name: session
    description: Named as the client's session.
  - name: revision
    description: Named as the revision a client speaks.
"""


def test_tools_named_as_the_generated_codes_own_names_serve_and_call(tmp_path: Path) -> None:
    """A tool `models` (a module of the package), `session` and `revision` (what a client
    holds), a property `extra` of an open schema (beside its other members) and `self`."""
    folder = tmp_path / "schemas" / "contracts" / "books"
    shutil.copytree(BOOKS, folder)
    with (folder / "tools.yaml").open("a", encoding="utf-8") as tools:
        tools.write(HOSTILE_TOOLS)
    out = tmp_path / "out"
    made = run_cli("generate", "--schemas", str(tmp_path / "schemas"), "--out", str(out), "--package", "hostile")
    assert made.returncode == 0, made.stdout + made.stderr
    with generated_package(out, "books", "hostile"):
        tools = importlib.import_module("hostile.books.tools")
        builders = importlib.import_module("hostile.books")

        class Echo(tools.Handlers):  # type: ignore[misc, name-defined]
            async def models(self, arguments: Any) -> Any:
                given = arguments.model_dump(mode="json", by_alias=True, exclude_unset=True)
                return builders.success_document(data=given)

            async def session(self, arguments: Any) -> Any:
                return builders.success_document(data="session")

            async def revision(self, arguments: Any) -> Any:
                return builders.success_document(data="revision")

        async def main() -> list[Any]:
            async with Client(tools.server(Echo()).lowlevel) as connected:
                client = tools.Client(connected.session)
                said = [await client.models(extra="e", self_="s", more=1), await client.session()]
                with pytest.raises(MCPError) as left_out:  # its handler is left out here
                    await client.get_book(id=1)
                return [*said, await client.revision(), left_out.value.error.code]

        answers = anyio.run(main)
    assert [a.root.data for a in answers[:3]] == [{"extra": "e", "self": "s", "more": 1}, "session", "revision"]
    assert answers[3] == -32601


def test_the_mock_never_repeats_a_secret_argument_either(own: Path) -> None:
    """`mock` refuses arguments with -32602 at every revision: where, never a secret's value."""
    mock = [sys.executable, "-m", "mcp_contracts_generator", "mock", "--schemas", str(own.parent / "schemas")]
    params = {"name": "reserve", "arguments": {"id": 1, "copies": 1, "code": "hunter2-secret"}}
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    (answer,) = _raw_session([*mock, "--contract", "books"], dict(os.environ), [line])
    said = json.dumps(answer)
    assert answer["error"]["code"] == -32602 and "/code" in said and "hunter2" not in said, said
