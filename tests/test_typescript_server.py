"""A TypeScript SDK server built on the generated TypeScript package conforms (issue 21).

tests/ts/contract_server.mjs registers every tool of a contract's `TOOLS` with the npm SDK's
`McpServer.registerTool`, as the generated zod schemas give them, and answers each example
call of the contract with what the generated builders build (`successResponse` and
`errorResponse` with the example's members) or, without builders, with the example judged by
`parseEnvelope`. `mcp-contracts conform` then holds it to the contract over stdio: 0 findings,
at each revision the SDK speaks (1.32.2: up to 2025-11-25; it does not answer 2026-07-28).

tests/ts/handlers_server.mjs is a server on the generated `Handlers` and `server()` of tools.ts
(issue 48), held to the same; the bookshop of tests/contracts/books (a resource, a prompt)
fuzzed too. tests/ts/handlers_client.mjs drives the generated `Client`: against `mock`, and
against that server. tests/ts/handlers_usage.ts shows what `tsc --strict` accepts and refuses.
tests/ts/handlers_cases.mjs runs `server(handlers)` and the `Client` in memory, on the bookshop
made awkward (handlers_projects.awkward_books): tools named `constructor` and `valueOf`, a secret
argument, defaults, an outputSchema of the tool's own, a resource with no contents.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import CONTRACTS, ROOT, SCHEMAS, run_cli
from handlers_projects import (  # noqa: F401  (projects: a fixture)
    SDK_REVISIONS,
    Projects,
    _handlers_server,
    _served,
    awkward_books,
    handler_answers,
    projects,
)
from mcp_contracts_generator import api
from mcp_contracts_generator.naming import tool_method
from mcp_contracts_generator.schema.pointer import value_at
from mcp_contracts_generator.serving.served import ServedContract, served
from typescript_toolchain import TS, compile_package, node_or_skip, run_script

pytestmark = [pytest.mark.xdist_group("typescript-package"), pytest.mark.slow]  # tsc builds, node runs


@pytest.fixture(scope="module")
def built_ins() -> dict[str, ServedContract]:
    loaded = api.load(SCHEMAS).project
    assert loaded is not None
    return {c.name: served(c) for c in loaded.contracts}


def answers(contract: ServedContract) -> list[dict[str, Any]]:
    """How the server answers each example call: by the builders where the contract has them."""
    builders = contract.contract.builders
    found = []
    for tool in contract.tools:
        for call in tool.calls:
            answer: dict[str, Any] = {"tool": tool.name, "arguments": call.arguments}
            document = call.result
            code = contract.error_code(document) if document is not None else None
            if document is None:
                answer.update(build="success", args=[])
            elif not tool.structured and code is None:
                answer.update(build="text", text=json.dumps(document))
            elif builders is None:
                answer.update(build="judge", args=[document])
            elif code is None:
                answer.update(build="success", args=[document])
            else:
                message = [value_at(document, builders.message)] if builders.message else []
                answer.update(build="error", args=[code, *message, document])
            found.append(answer)
    return found


@pytest.mark.parametrize("name", CONTRACTS)
def test_a_typescript_sdk_server_on_the_generated_package_conforms(
    name: str, node: str, built: Path, built_ins: dict[str, ServedContract], tmp_path: Path
) -> None:
    contract = built_ins[name]
    spec = tmp_path / "answers.json"
    spec.write_text(json.dumps(answers(contract)), encoding="utf-8")
    module = built / "dist" / contract.contract.module / "index.js"
    protocols = [flag for revision in SDK_REVISIONS for flag in ("--protocol", revision)]
    if set(SDK_REVISIONS) - set(contract.contract.protocol):
        protocols = [f for r in contract.contract.protocol if r in SDK_REVISIONS for f in ("--protocol", r)]
    server = ["--", node, str(TS / "contract_server.mjs"), str(module), str(spec)]
    result = run_cli("conform", "--contract", name, "--format", "json", *protocols, *server)
    report = conform_report(result.stdout)
    assert report["findings"] == [], json.dumps(report["findings"], indent=1)
    assert result.returncode == 0, result.stdout + result.stderr
    assert report["calls"] == sum(len(t.calls) for t in contract.tools) * (len(protocols) // 2)


# --- a server on the generated `Handlers` and `server()`, a `Client` (tools.ts; issue 48) -------


@pytest.fixture(scope="module")
def generated_ts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built-ins generated afresh with this project's settings (`languages` names TypeScript)
    and their TypeScript package compiled (tsc --strict): the package's folder, with `dist/`."""
    node_or_skip("typescript", "zod", "@modelcontextprotocol/sdk")
    out = tmp_path_factory.mktemp("generated")
    made = run_cli("generate", "--out", str(out))
    assert made.returncode == 0, made.stdout + made.stderr
    package = tmp_path_factory.mktemp("handlers") / "mcp_contracts"
    compiled = compile_package(out / "typescript" / "mcp_contracts", package)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return package


def _protocols(contract: ServedContract) -> list[str]:
    return [f for r in SDK_REVISIONS if r in contract.contract.protocol for f in ("--protocol", r)]


@pytest.mark.parametrize("name", CONTRACTS)
def test_a_server_on_the_generated_handlers_conforms(
    name: str, generated_ts: Path, built_ins: dict[str, ServedContract], tmp_path: Path
) -> None:
    """`server(handlers)` of tools.ts: the contract's listing at each revision, each example
    call answered by its handler with the example's document, judged, `isError` by its marks."""
    contract = built_ins[name]
    module = generated_ts / "dist" / contract.contract.module / "index.js"
    server = _handlers_server(module, contract, tmp_path / "answers.json")
    protocols = _protocols(contract)
    result = run_cli("conform", "--contract", name, "--format", "json", *protocols, "--", *server)
    report = conform_report(result.stdout)
    assert report["findings"] == [], json.dumps(report["findings"], indent=1)
    assert result.returncode == 0, result.stdout + result.stderr
    assert report["calls"] == sum(len(t.calls) for t in contract.tools) * (len(protocols) // 2)


@pytest.mark.parametrize("name", ["books", "conformance-fixtures"])
def test_a_server_on_the_generated_handlers_conforms_fuzzed_with_resources_and_prompts(
    name: str, projects: Projects, tmp_path: Path  # noqa: F811  (the fixture imported above)
) -> None:
    """Arguments the inputSchema refuses answered as each revision says (-32602; from 2025-11-25
    an `isError` result, the bookshop's the envelope of `invalid_argument`), the resources,
    templates and prompts served from the contract where the handlers have no method for them,
    content blocks of a tool whose results are images or audio."""
    schemas, package = projects(name)
    contract = _served(schemas)
    module = package / "dist" / contract.contract.module / "index.js"
    server = _handlers_server(module, contract, tmp_path / "answers.json")
    flags = ("--fuzz", "5", "--seed", "1", *_protocols(contract))
    result = run_cli(
        "conform", "--schemas", str(schemas), "--contract", name, "--format", "json", *flags, "--", *server
    )
    report = conform_report(result.stdout)
    assert report["findings"] == [], json.dumps(report["findings"], indent=1)
    assert (result.returncode, report["calls_failed"]) == (0, 0), result.stdout + result.stderr
    assert sorted(report["fuzz"]["tools"]) == sorted(t.name for t in contract.tools)
    assert report["fuzz"]["surface"], report["fuzz"]  # its resources, templates or prompts fuzzed too


def test_tsc_strict_accepts_handlers_and_a_client_and_refuses_their_mistakes(
    generated_ts: Path, tmp_path: Path
) -> None:
    """tests/ts/handlers_usage.ts compiles with the package: a `Handlers` typed by each tool's
    arguments, `server()` and `Client`; each mistake it marks `@ts-expect-error` (a handler typed
    with another tool's arguments, a misspelt tool, an answer that is no envelope, arguments the
    input schema's type refuses) is one tsc refuses, else the directive fails the build."""
    folder = tmp_path / "package"
    shutil.copytree(generated_ts, folder, symlinks=True, ignore=shutil.ignore_patterns("dist"))
    shutil.copy(TS / "handlers_usage.ts", folder / "src" / "handlers_usage.ts")
    tsc = TS / "node_modules" / ".bin" / "tsc"
    compiled = subprocess.run(
        [str(tsc), "-p", str(folder), "--strict"], capture_output=True, text=True, timeout=300, check=False
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    assert (folder / "dist" / "handlers_usage.js").is_file()
    # Without its directives, each marked line is an error of tsc's.
    usage = (TS / "handlers_usage.ts").read_text(encoding="utf-8")
    marked = usage.count("// @ts-expect-error")
    (folder / "src" / "handlers_usage.ts").write_text(usage.replace("// @ts-expect-error", "//"), encoding="utf-8")
    refused = subprocess.run(
        [str(tsc), "-p", str(folder), "--strict"], capture_output=True, text=True, timeout=300, check=False
    )
    errors = [line for line in refused.stdout.splitlines() if "handlers_usage.ts(" in line and "error TS" in line]
    assert marked == 4 and len(errors) == marked, refused.stdout


def _client(module: Path, command: list[str], calls: list[dict[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    spec = {"command": command, "cwd": str(ROOT), "calls": calls}
    outcomes: list[dict[str, Any]] = run_script("handlers_client.mjs", module, spec=tmp_path / "spec.json", data=spec)[
        "outcomes"
    ]
    return outcomes


def test_the_generated_client_gets_the_mocks_examples_and_refuses_bad_arguments_before_sending(
    generated_ts: Path, built_ins: dict[str, ServedContract], tmp_path: Path
) -> None:
    contract = built_ins["tuitbot"]
    examples = [(t.name, c) for t in contract.tools for c in t.calls if c.result is not None]
    success_call = next((n, c) for n, c in examples if contract.error_code(c.result) is None)
    error_call = next((n, c) for n, c in examples if contract.error_code(c.result) is not None)
    calls = [
        {"method": tool_method(success_call[0]), "args": [success_call[1].arguments]},
        {"method": tool_method(error_call[0]), "args": [error_call[1].arguments]},
        {"method": "x_post_tweet", "args": [{}]},  # `text` is required
        {"method": "x_post_tweet", "args": [{"text": 280}]},  # not a string
    ]
    mock = [sys.executable, "-m", "mcp_contracts_generator", "mock", "--contract", "tuitbot"]
    outcomes = _client(generated_ts / "dist" / "tuitbot" / "index.js", mock, calls, tmp_path)
    assert outcomes[0] == {"value": success_call[1].result, "sent": ["tools/call"]}, outcomes[0]
    assert outcomes[1] == {"value": error_call[1].result, "sent": ["tools/call"]}, outcomes[1]  # returned, isError
    for refused, pointer in zip(outcomes[2:], ("/text", "/text"), strict=True):
        assert refused["error"] == "ContractViolation" and refused["sent"] == [], refused
        assert refused["violations"][0]["pointer"] == pointer


def test_the_generated_client_reads_gets_prompts_and_meets_a_left_out_handler(
    projects: Projects, tmp_path: Path  # noqa: F811  (the fixture imported above)
) -> None:
    """The generated Client against the generated server (both TypeScript): an example answered
    by its handler, the catalogue read and the prompt got from the contract's own contents, a
    tool whose handler is left out answered -32601, and a prompt's bad arguments refused first."""
    schemas, package = projects("books")
    contract = _served(schemas)
    module = package / "dist" / "books" / "index.js"
    server = _handlers_server(module, contract, tmp_path / "answers.json", omit=("search_books",))
    get_book = contract.tool("get_book")
    assert get_book is not None
    not_found = next(c for c in get_book.calls if c.result is not None and contract.error_code(c.result) is not None)
    calls = [
        {"method": "get_book", "args": [not_found.arguments]},
        {"method": "search_books", "args": [{"query": "Dune"}]},
        {"method": "read_catalogue", "args": []},
        {"method": "prompt_recommend", "args": [{"book_id": "1"}]},
        {"method": "prompt_recommend", "args": [{}]},
    ]
    outcomes = _client(module, server, calls, tmp_path)
    assert outcomes[0]["value"] == not_found.result  # thrown as a ToolFailure, returned as the envelope
    assert (outcomes[1]["error"], outcomes[1]["code"]) == ("McpError", -32601), outcomes[1]
    assert outcomes[2]["value"] == "1 Dune\n2 Emma\n"
    text = outcomes[3]["value"]["messages"][0]["content"]["text"]
    assert text == "Recommend a book like the book 1."
    assert outcomes[4]["error"] == "ContractViolation" and outcomes[4]["sent"] == []


# --- the awkward bookshop, in memory (tests/ts/handlers_cases.mjs) -------------------------------

BOOK = {"success": True, "data": {"id": 1}}
WRONG_RETRYABLE = {
    "success": False,
    "data": None,
    "error": {"code": "not_found", "message": "No such book.", "retryable": True},
}


@pytest.fixture(scope="module")
def awkward(projects: Projects) -> Path:  # noqa: F811  (the fixture imported above)
    """The awkward bookshop's compiled `dist/books/index.js` (its tools.ts compiles: `constructor`)."""
    _, package = projects("books", awkward_books, "awkward")
    return package / "dist" / "books" / "index.js"


def cases(module: Path, spec: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    found: dict[str, Any] = run_script("handlers_cases.mjs", module, spec=tmp_path / "cases.json", data=spec)
    return found


@pytest.mark.parametrize("on_a_class", [False, True])
def test_tools_named_constructor_and_like_object_members_are_served_and_called(
    awkward: Path, on_a_class: bool, tmp_path: Path
) -> None:
    """`constructor` is `constructor_` in Handlers and Client (Python's name stays); `valueOf` and
    `toString` left out answer -32601, not Object.prototype's (handlers an object, or a class's)."""
    spec = {
        "handlers": {"constructor_": {"answer": BOOK}},
        "class": on_a_class,
        "requests": [
            {"client": "constructor_", "args": [{"n": 1}]},
            {"call": "valueOf", "arguments": {}},
            {"call": "toString", "arguments": {}},
            {"client": "valueOf", "args": [{}]},
        ],
    }
    found = cases(awkward, spec, tmp_path)
    assert found["outcomes"][0] == {"result": BOOK}, found
    assert found["seen"] == {"constructor_": [{"n": 1}]}
    for outcome in found["outcomes"][1:]:
        assert (outcome.get("code"), outcome.get("error")) == (-32601, "McpError"), outcome
    assert found["log"] == []


def test_a_handler_sees_the_input_schemas_defaults(awkward: Path, tmp_path: Path) -> None:
    """As Python's handlers do (pydantic fills them): the top-level defaults the arguments leave out."""
    spec = {
        "handlers": {"search_books": {"answer": BOOK}},
        "requests": [
            {"call": "search_books", "arguments": {"query": "Dune"}},
            {"call": "search_books", "arguments": {"query": "Dune", "limit": 3}},
        ],
    }
    found = cases(awkward, spec, tmp_path)
    assert found["seen"]["search_books"] == [
        {"query": "Dune", "limit": 10, "mode": "fast"},
        {"query": "Dune", "limit": 3, "mode": "fast"},
    ]


def test_an_unknown_prompt_is_invalid_params_and_a_resource_with_nothing_to_read_is_method_not_found(
    awkward: Path, tmp_path: Path
) -> None:
    spec = {
        "revision": "2025-11-25",
        "requests": [{"prompt": "nope", "arguments": {}}, {"read": "books://shelf"}, {"read": "books://nowhere"}],
    }
    unknown, shelf, nowhere = cases(awkward, spec, tmp_path)["outcomes"]
    assert unknown["code"] == -32602 and "unknown prompt 'nope'" in unknown["message"], unknown
    assert shelf["code"] == -32601, shelf
    assert nowhere["code"] == -32002, nowhere  # 2025-11-25's resource not found


def test_a_refusal_as_a_result_takes_the_catalogues_message_or_is_text_for_an_own_output_schema(
    awkward: Path, tmp_path: Path
) -> None:
    """From 2025-11-25: get_book's refusal is too long for the envelope's message (70 characters at
    most): the envelope of `invalid_argument` with the catalogue's message; stats answers its own
    outputSchema, which no envelope meets: the refusal as text."""
    spec = {
        "revision": "2025-11-25",
        "requests": [{"call": "get_book", "arguments": {"id": 0}}, {"call": "stats", "arguments": {"n": 9}}],
    }
    get_book, stats = (o["result"] for o in cases(awkward, spec, tmp_path)["outcomes"])
    error = {"code": "invalid_argument", "message": "The arguments were refused.", "retryable": False}
    assert get_book["isError"] is True and get_book["structuredContent"]["error"] == error, get_book
    assert stats["isError"] is True and "structuredContent" not in stats, stats
    assert stats["content"][0]["text"].startswith("stats: the inputSchema refuses the arguments: /n: "), stats


@pytest.mark.parametrize("revision", ["2025-06-18", "2025-11-25"])
def test_a_refusal_under_a_secret_argument_names_its_pointer_and_keyword_only(
    awkward: Path, revision: str, tmp_path: Path
) -> None:
    """login's `password` is a secret argument: its value is in no refusal (the JSON-RPC message
    before 2025-11-25, the envelope's message and text after), nor in the refusal of another
    argument whose value holds it; another argument's refusal says its value."""
    spec = {
        "revision": revision,
        "requests": [
            {"call": "login", "arguments": {"user": "ann", "password": "hunter2hunter2"}},
            {"call": "login", "arguments": {"user": "ann", "password": 7}},
            {"call": "login", "arguments": {"user": "x" * 21, "password": "hunter2"}},
            {"call": "login", "arguments": {"user": "hunter2!" * 3, "password": "hunter2!"}},
        ],
    }
    long, typed, user, quoting = cases(awkward, spec, tmp_path)["outcomes"]
    expected = [
        "login: the inputSchema refuses the argument /password (maxLength)",
        "login: the inputSchema refuses the argument /password (type)",
    ]
    for outcome, message in zip((long, typed), expected, strict=True):
        if revision == "2025-06-18":
            assert (outcome["code"], outcome["message"]) == (-32602, f"MCP error -32602: {message}"), outcome
        else:
            assert outcome["result"]["structuredContent"]["error"]["message"] == message, outcome
            assert "hunter2" not in json.dumps(outcome["result"]), outcome
    if revision == "2025-06-18":  # (after, the envelope takes the catalogue's message: the refusal's is too long)
        assert user["message"].startswith(
            "MCP error -32602: login: the inputSchema refuses the arguments: /user: 'xxx"
        ), user
        assert quoting["message"] == "MCP error -32602: login: the inputSchema refuses the argument /user (maxLength)"
    assert "hunter2!" not in json.dumps(quoting), quoting


def test_an_error_contradicting_the_catalogue_is_refused_by_the_server_and_by_the_client(
    awkward: Path, tmp_path: Path
) -> None:
    """`retryable` is the catalogue's for each code (errors.derived): a handler's `not_found` that
    says true is logged and answered -32603; a server's is an AnswerRefused of the Client."""
    served = {
        "handlers": {"get_book": {"fail": WRONG_RETRYABLE}},
        "requests": [{"call": "get_book", "arguments": {"id": 4}}],
    }
    found = cases(awkward, served, tmp_path)
    assert found["outcomes"][0]["code"] == -32603, found
    assert any("/error/retryable" in line for line in found["log"]), found["log"]
    raw = {"content": [{"type": "text", "text": json.dumps(WRONG_RETRYABLE)}], "isError": True}
    called = {"raw": {"get_book": raw}, "requests": [{"client": "get_book", "args": [{"id": 4}]}]}
    refused = cases(awkward, called, tmp_path)["outcomes"][0]
    assert refused["error"] == "AnswerRefused", refused
    assert [v["pointer"] for v in refused["violations"]] == ["/error/retryable"], refused
