"""`conform --fuzz` against a books server on each SDK (Python `MCPServer`, the low-level
`Server`, TypeScript `McpServer`): what the contract refuses, refused with any error, passes;
a domain error to arguments it accepts is counted, not a finding; -32602 or a code the
catalogue marks `role: argument_error` to them is `fuzz-valid-refused`; a handler that raises
on them is `fuzz-crash`. And what each SDK answers, as docs/mcp.md's table says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli
from forkserver import python
from mcp import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_contracts_generator.client.connect import connected
from mcp_contracts_generator.conformance.fuzzing.fuzz_answers import crash_of
from mcp_contracts_generator.conformance.link import Answer
from mcp_contracts_generator.protocol import BY_VERSION
from typescript_toolchain import TS, node_or_skip

pytestmark = pytest.mark.first
SERVERS = ROOT / "tests" / "servers"
SDKS = ("MCPServer", "Server", "McpServer")
FUZZ_FINDINGS = ("fuzz-crash", "fuzz-hang", "fuzz-valid-refused", "fuzz-invalid-accepted", "fuzz-skipped")

CONTRACT = """\
name: books
title: Books
version: "0.1.0"
summary: Books by id.
module: books
columns:
  errors:
    argument_error:
      type: boolean
      role: argument_error
      description: Whether the code says the arguments were refused.
  tools:
    mutation:
      type: boolean
      role: mutation
      description: Whether the tool changes state.
catalogue_bindings:
  - pointer: /$defs/ToolError/properties/code
builders:
  success: /$defs/SuccessEnvelope
  error: /$defs/FailureEnvelope
  code: /error/code
  message: /error/message
"""

ERRORS = """\
errors:
  - code: not_found
    argument_error: false
    message: No such book
    description: No book has the id.
  - code: bad_book_id
    argument_error: true
    message: Not a book id
    description: The id is not one a book could have.
"""

PROMPTS = """\
prompts:
  - name: summary
    description: A summary of a book.
    arguments:
      - {name: book_id, required: true}
    messages:
      - role: user
        content: {type: text, text: "Summarise the book {book_id}."}
"""


TOOLS = """\
tools:
  - name: find_book
    description: A book by its id.
    mutation: false
    annotations: {openWorldHint: false}
    possible_error_codes: [not_found, bad_book_id]
    result: {structured: false}
    inputSchema:
      type: object
      required: [book_id]
      properties:
        book_id: {type: string}
    examples:
      - arguments: {book_id: b1}
"""


def _command(sdk: str) -> tuple[str, ...]:
    if sdk == "McpServer":
        return (node_or_skip("@modelcontextprotocol/sdk", "zod"), str(TS / "sdk_refusals.mjs"))
    return python(str(SERVERS / ("sdk_mcpserver.py" if sdk == "MCPServer" else "sdk_lowlevel.py")))


def _revisions(sdk: str) -> tuple[str, ...]:
    """The revisions each SDK speaks (the TypeScript SDK 1.32 not 2026-07-28)."""
    newest = () if sdk == "McpServer" else ("2026-07-28",)
    return ("2025-06-18", "2025-11-25", *newest)


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with the contract `books`: what each SDK lists for the books server."""
    project = tmp_path_factory.mktemp("books")
    assert run_cli("init", "books", cwd=project).returncode == 0
    folder = project / "schemas" / "contracts" / "books"
    envelope = folder / "envelope.schema.json"
    text = envelope.read_text(encoding="utf-8")
    envelope.write_text(text.replace('["example_error"]', '["not_found", "bad_book_id"]'), encoding="utf-8")
    (folder / "contract.yaml").write_text(CONTRACT, encoding="utf-8")
    (folder / "errors.yaml").write_text(ERRORS, encoding="utf-8")
    (folder / "tools.yaml").write_text(TOOLS, encoding="utf-8")
    (folder / "prompts.yaml").write_text(PROMPTS, encoding="utf-8")
    (folder / "examples" / "success.json").unlink()
    return project


def _conform(project: Path, sdk: str, revision: str, *fault: str) -> tuple[int, dict[str, Any]]:
    asked = ("--contract", "books", "--protocol", revision, "--fuzz", "10", "--seed", "1")
    result = run_cli("conform", *asked, "--format", "json", "--", *_command(sdk), *fault, cwd=project)
    return result.returncode, conform_report(result.stdout)


def _fuzz_found(report: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["rule"], f["subject"]) for f in report["findings"] if f["rule"] in FUZZ_FINDINGS)


def _newest_first(sdk: str) -> list[Any]:
    """Each revision `sdk` speaks: the newest in the default run, the others in the slow one."""
    spoken = _revisions(sdk)
    return [pytest.param(sdk, r, marks=() if r == spoken[-1] else pytest.mark.slow) for r in spoken]


@pytest.mark.quiet(*FUZZ_FINDINGS)
@pytest.mark.parametrize(("sdk", "revision"), [case for sdk in SDKS for case in _newest_first(sdk)])
def test_an_honest_server_on_each_sdk_conforms_and_its_domain_errors_are_counted(
    books: Path, sdk: str, revision: str
) -> None:
    """Its SDK refuses a prompt got without its required argument (code 0, -32603, -32602) and
    arguments the input schema refuses (an isError result, or code 0 from the low-level
    handler): refusals. A book it lacks is `not_found`, and the prompt refuses an empty
    `book_id` with -32602: domain answers."""
    code, report = _conform(books, sdk, revision)
    assert (code, _fuzz_found(report), report["problem"]) == (0, [], None), report["findings"]
    tools, surface = report["fuzz"]["tools"], report["fuzz"]["surface"]
    assert tools["find_book"]["domain_answers"] > 0 and tools["find_book"]["invalid"] > 0
    assert surface["prompt summary"]["invalid"] > 0 and surface["prompt summary"]["domain_answers"] == 1  # ""
    if revision == "2025-11-25":  # the summary says how many, once per SDK
        asked = ("--contract", "books", "--protocol", revision, "--fuzz", "10", "--seed", "1")
        text = run_cli("conform", *asked, "--", *_command(sdk), cwd=books)
        answers = tools["find_book"]["domain_answers"] + 1  # the prompt's too
        said = f"Fuzzed 1 tool(s), {answers} domain answer(s): reproduce with --seed 1."
        assert text.returncode == 0 and said in text.stdout, text.stdout


@pytest.mark.fires("fuzz-valid-refused")
@pytest.mark.parametrize("sdk", SDKS)
def test_32602_to_arguments_the_contract_accepts_is_valid_refused(books: Path, sdk: str) -> None:
    """The TypeScript SDK turns the McpError a handler throws into an isError result whose text
    says `MCP error -32602`: read as the code it names."""
    code, report = _conform(books, sdk, "2025-11-25", "--fault", "refuse")
    assert code == 1 and _fuzz_found(report) == [("fuzz-valid-refused", 'find_book({"book_id": ""})')]
    [refused] = [f for f in report["findings"] if f["rule"] == "fuzz-valid-refused"]
    assert "-32602" in refused["message"] and "no book" in refused["message"]
    assert refused["message"].endswith('on arguments the input schema accepts: {"book_id": ""} (--fuzz 10 --seed 1)')
    assert report["fuzz"]["tools"]["find_book"]["domain_answers"] == 0


@pytest.mark.fires("fuzz-valid-refused")
def test_mcpserver_refusing_what_its_listing_accepts_is_valid_refused(books: Path) -> None:
    """A validator the listed schema does not show: `MCPServer` answers `Error executing tool
    find_book: 1 validation error for find_bookArguments`, its refusal of the arguments, not a
    domain answer (it was counted as one)."""
    code, report = _conform(books, "MCPServer", "2025-11-25", "--fault", "signature")
    found = _fuzz_found(report)
    assert code == 1 and [rule for rule, _ in found] == ["fuzz-valid-refused"], report["findings"]
    [refused] = [f for f in report["findings"] if f["rule"] == "fuzz-valid-refused"]
    assert "validation error for find_bookArguments" in refused["message"]
    assert "MCPServer's refusal of arguments its signature refuses" in refused["message"]


@pytest.mark.fires("fuzz-valid-refused")
@pytest.mark.parametrize("sdk", SDKS)
def test_a_code_the_catalogue_marks_as_an_argument_error_is_valid_refused(books: Path, sdk: str) -> None:
    code, report = _conform(books, sdk, "2025-11-25", "--fault", "argument-code")
    assert code == 1 and _fuzz_found(report) == [("fuzz-valid-refused", 'find_book({"book_id": ""})')]
    [refused] = [f for f in report["findings"] if f["rule"] == "fuzz-valid-refused"]
    assert refused["message"].startswith(
        "the error code 'bad_book_id', which the catalogue marks as an argument error (argument_error: true),"
        " on arguments the input schema accepts"
    )


@pytest.mark.fires("fuzz-crash")
@pytest.mark.parametrize(
    ("sdk", "revision"), [("MCPServer", "2025-11-25"), ("Server", "2025-11-25"), ("Server", "2026-07-28")]
)
def test_a_handler_that_raises_on_arguments_the_contract_accepts_is_a_crash(
    books: Path, sdk: str, revision: str
) -> None:
    """MCPServer answers `Error executing tool find_book` (nothing of the exception), the
    low-level Server error code 0 (-32603 at 2026-07-28)."""
    code, report = _conform(books, sdk, revision, "--fault", "raise")
    assert code == 1 and _fuzz_found(report) == [("fuzz-crash", 'find_book({"book_id": ""})')]
    [crash] = [f["message"] for f in report["findings"] if f["rule"] == "fuzz-crash"]
    said = {
        "MCPServer": "an isError result `Error executing tool find_book`, the Python MCP SDK MCPServer's answer",
        "Server": "error code 0" if revision != "2026-07-28" else "JSON-RPC internal error -32603",
    }[sdk]
    assert crash.startswith(said), crash


def test_a_typescript_handler_that_raises_is_a_domain_answer(books: Path) -> None:
    """McpServer answers the exception's message as an isError result, which nothing tells
    from an error the handler meant (docs/mcp.md says so)."""
    code, report = _conform(books, "McpServer", "2025-11-25", "--fault", "raise")
    assert (code, _fuzz_found(report)) == (0, [])
    assert report["fuzz"]["tools"]["find_book"]["domain_answers"] > 0


def test_the_connection_lost_is_a_crash_whatever_the_arguments_and_an_error_only_on_accepted_ones() -> None:
    """On arguments the contract refuses, any error answer is a refusal (code 0, -32603,
    MCPServer's text of an exception); only the connection lost is a crash there."""
    lost = Answer("lost", text="the server went away")
    assert crash_of(lost, "find_book", accepted=False) == crash_of(lost, "find_book", accepted=True) == lost.text
    unexpected = types.TextContent(type="text", text="Error executing tool find_book")
    for answer in (
        Answer("rpc-error", code=0, text="'book_id'"),
        Answer("rpc-error", code=-32603, text="Internal server error"),
        Answer("result", types.CallToolResult(content=[unexpected], is_error=True)),
        Answer("result", types.CallToolResult(content=[_text("MCP error -32603: it broke")], is_error=True)),
    ):
        assert crash_of(answer, "find_book", accepted=False) is None
        assert crash_of(answer, "find_book", accepted=True) is not None
    refused = Answer("rpc-error", code=-32602, text="no")
    meant = Answer("result", types.CallToolResult(content=[_text("Error executing tool find_book: no")], is_error=True))
    assert crash_of(refused, "find_book", accepted=True) is crash_of(meant, "find_book", accepted=True) is None
    another = Answer("result", types.CallToolResult(content=[unexpected], is_error=True))
    assert crash_of(another, "get_book", accepted=True) is None  # the text of another tool's crash


def _text(text: str) -> types.TextContent:
    return types.TextContent(type="text", text=text)


# What each SDK answers, measured (docs/mcp.md, "What each SDK answers"): (a) a required
# argument left out, (b) a wrong type, (c) a handler that raises, (d) a prompt's required
# argument left out. An error answer as "JSON-RPC <code>", an isError result as "isError: <text>".
ASKED = {"a": ("tool", {}), "b": ("tool", {"book_id": 5}), "c": ("tool", {"book_id": "zz"}), "d": ("prompt", {})}
MCPSERVER_REFUSES = "isError: Error executing tool find_book: 1 validation error for find_bookArguments"
TS_REFUSES = "isError: MCP error -32602: Input validation error: Invalid arguments for tool find_book"
ANSWERS: dict[str, dict[str, str]] = {
    "MCPServer": {
        "a": MCPSERVER_REFUSES,
        "b": MCPSERVER_REFUSES,
        "c": "isError: Error executing tool find_book",
        "d": "JSON-RPC 0",
    },
    "Server": {
        "a": "JSON-RPC 0",
        "b": 'isError: {"success": false, "error": {"code": "not_found"',  # the handler got 5
        "c": "JSON-RPC 0",
        "d": "JSON-RPC 0",
    },
    "McpServer": {
        "a": TS_REFUSES,
        "b": TS_REFUSES,
        "c": "isError: Cannot read properties of undefined",
        "d": "JSON-RPC -32602",
    },
}


async def _answer(command: tuple[str, ...], revision: str, asked: tuple[str, dict[str, Any]]) -> str:
    what, arguments = asked
    target = StdioServerParameters(command=command[0], args=list(command[1:]))
    async with connected(target, BY_VERSION[revision], 30, {}) as (session, answered):
        assert answered == revision
        try:
            if what == "prompt":
                params = types.GetPromptRequestParams(name="summary", arguments=arguments)
                await session.send_request(types.GetPromptRequest(params=params), types.GetPromptResult)
                return "a result"
            call = types.CallToolRequest(params=types.CallToolRequestParams(name="find_book", arguments=arguments))
            result = await session.send_request(call, types.CallToolResult)
        except MCPError as exc:
            return f"JSON-RPC {exc.error.code}"
        return f"isError: {' '.join(b.text for b in result.content if isinstance(b, types.TextContent))}"


@pytest.mark.parametrize(("sdk", "revision"), [case for sdk in SDKS for case in _newest_first(sdk)])
def test_what_each_sdk_answers_is_what_the_docs_say(sdk: str, revision: str) -> None:
    command = _command(sdk)
    found = {}
    for key, asked in ASKED.items():
        fault = ("--fault", "raise") if key == "c" else ()
        found[key] = anyio.run(_answer, (*command, *fault), revision, asked)
    expected = dict(ANSWERS[sdk])
    if revision == "2026-07-28":  # the Python SDK answers what a handler raised with -32603 there
        expected = {k: "JSON-RPC -32603" if v == "JSON-RPC 0" else v for k, v in expected.items()}
    assert {k: v[: len(expected[k])] for k, v in found.items()} == expected
    docs = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8").partition("### What each SDK answers")[2]
    for said in (MCPSERVER_REFUSES, TS_REFUSES, "isError: Error executing tool find_book"):
        assert f"isError `{said.removeprefix('isError: ')}" in docs


def test_a_column_with_role_argument_error_is_boolean(tmp_path: Path) -> None:
    """Its values say whether a code means "the arguments were refused": another type is an
    error at the line of the column's type."""
    assert run_cli("init", "books", cwd=tmp_path).returncode == 0
    identity = tmp_path / "schemas" / "contracts" / "books" / "contract.yaml"
    lines = identity.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() == "errors:" and i > 0) + 1
    column = "    argument_error:\n      type: string\n      role: argument_error\n      description: Refused.\n"
    identity.write_text("".join([*lines[:at], column, *lines[at:]]), encoding="utf-8")
    result = run_cli("generate", cwd=tmp_path)
    assert result.returncode == 2
    assert f'schemas/contracts/books/contract.yaml:{at + 2}: "boolean" was expected' in result.stderr, result.stderr
    identity.write_text(
        identity.read_text(encoding="utf-8").replace("type: string\n      role", "type: boolean\n      role")
    )
    assert run_cli("generate", cwd=tmp_path).returncode == 0
