"""`conform` against real servers on the three official SDKs (issue 47, point 8): the bookshop of
tests/contracts/books, answered through its generated package, on the Python SDK's `MCPServer`
(tests/servers/books_mcpserver.py), its low-level `Server` (books_lowlevel.py) and the
TypeScript SDK's `McpServer` (tests/ts/books_server.mjs).

The honest server of each SDK conforms, fuzzed too (`--fuzz 5 --seed 1`): exit 0, no error and
no warning, at every revision it speaks (the TypeScript SDK 1.32.2 answers up to 2025-11-25).
MCPServer's input schemas are derived from its signatures: a note that one accepts more
(`input-schema-wider`, one per tool) is all it may add. Each planted fault (`--fault`, the same
six on each SDK's bookshop), checked at every revision the SDK speaks, fails the run with
exactly one finding, at the place that explains it (the example call of tools.yaml, or the
argument its listing drops), that names those revisions at once. The low-level and TypeScript
fault cases are `slow`.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli, run_process
from forkserver import python
from mcp_contracts_generator.protocol import VERSIONS
from typescript_toolchain import TS, compile_package, node_or_skip

BOOKS = ROOT / "tests" / "contracts" / "books"
SERVERS = ROOT / "tests" / "servers"
MCPSERVER = SERVERS / "books_mcpserver.py"
LOWLEVEL = SERVERS / "books_lowlevel.py"
PACKAGE = "books_contracts"  # what the servers import: `books_contracts.books`
# The revisions the pinned TypeScript SDK (1.32.2) answers as asked (tests/test_typescript_server.py).
TYPESCRIPT_REVISIONS = ("2025-03-26", "2025-06-18", "2025-11-25")
FUZZ = ("--fuzz", "5", "--seed", "1")
# What MCPServer may say beside a conforming run: its derived input schemas accept more.
WIDER = "input-schema-wider"


@dataclass(frozen=True)
class Books:
    """The books contract in a folder of its own, generated (Python and TypeScript)."""

    schemas: Path
    generated: Path

    @property
    def tools_yaml(self) -> Path:
        return self.schemas / "contracts" / "books" / "tools.yaml"

    def line_of(self, text: str) -> int:
        """The line of tools.yaml that holds `text` (once)."""
        lines = self.tools_yaml.read_text(encoding="utf-8").splitlines()
        found = [number for number, line in enumerate(lines, 1) if text in line]
        assert len(found) == 1, (text, found)
        return found[0]


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Books:
    folder = tmp_path_factory.mktemp("books")
    schemas, generated = folder / "schemas", folder / "generated"
    shutil.copytree(BOOKS, schemas / "contracts" / "books")
    made = run_cli("generate", "--schemas", str(schemas), "--out", str(generated), "--package", PACKAGE)
    assert made.returncode == 0, made.stdout + made.stderr
    return Books(schemas, generated)


@pytest.fixture
def served(books: Books, monkeypatch: pytest.MonkeyPatch) -> Iterator[Books]:
    """`books`, with its generated Python package on the PYTHONPATH the servers inherit."""
    paths = [str(books.generated / "python"), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    yield books


@pytest.fixture(scope="module")
def typescript_books(books: Books, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, ...]:
    """The command of the TypeScript bookshop (without its `--fault`), on `books`' generated
    TypeScript package compiled once; skips without node and the SDK."""
    node = node_or_skip("typescript", "zod", "@modelcontextprotocol/sdk")
    package = tmp_path_factory.mktemp("books_ts") / PACKAGE
    compiled = compile_package(books.generated / "typescript" / PACKAGE, package)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return (node, str(TS / "books_server.mjs"), str(package / "dist" / "books" / "index.js"))


def _protocols(revisions: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(flag for revision in revisions for flag in ("--protocol", revision))


def _conform(books: Books, *server: str, flags: tuple[str, ...] = ()) -> tuple[int, dict[str, Any]]:
    args = ("conform", "--schemas", str(books.schemas), "--contract", "books", "--format", "json", *flags)
    result = run_cli(*args, "--", *server)
    return result.returncode, conform_report(result.stdout)


def _said(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(rule, level, subject) of each finding."""
    return [(f["rule"], f["level"], f["subject"]) for f in report["findings"]]


def _notes_only_wider(report: dict[str, Any]) -> None:
    """Nothing but `input-schema-wider` notes, one per tool at most."""
    said = [f for f in report["findings"] if f["rule"] != WIDER or f["level"] != "note"]
    assert said == [], _said(report)
    wider = [f["subject"].split()[1].split(".")[0] for f in report["findings"]]
    assert len(wider) == len(set(wider)), _said(report)


def _conforms_fuzzed(code: int, report: dict[str, Any], revisions: tuple[str, ...]) -> None:
    assert report["problem"] is None, report["problem"]
    _notes_only_wider(report)
    assert (code, report["conforms"]) == (0, True), _said(report)
    assert report["revisions"] == list(revisions)
    assert report["calls_failed"] == 0  # each example call got the answer its example names
    fuzzed = report["fuzz"]
    assert sorted(fuzzed["tools"]) == ["get_book", "search_books"], fuzzed
    assert fuzzed["tools"]["get_book"]["domain_answers"] > 0, fuzzed  # `not_found` for an id it lacks: no finding
    assert sorted(fuzzed["surface"]) == ["prompt recommend"], fuzzed  # got without book_id too


@pytest.mark.quiet("fuzz-crash", "example-not-error", "example-error-unstructured", "input-argument-missing")
def test_the_honest_mcpserver_bookshop_conforms_fuzzed_at_every_revision(served: Books) -> None:
    """MCPServer refuses a prompt got without its required argument before the handler runs
    (-32603, or code 0 at 2025-11-25): a request the contract refuses, so no `fuzz-crash`."""
    code, report = _conform(served, *python(str(MCPSERVER)), flags=FUZZ)
    _conforms_fuzzed(code, report, VERSIONS)


def test_the_honest_low_level_bookshop_conforms_fuzzed_at_every_revision(served: Books) -> None:
    code, report = _conform(served, *python(str(LOWLEVEL)), flags=FUZZ)
    _conforms_fuzzed(code, report, VERSIONS)
    assert report["findings"] == []  # it lists the contract's own input schemas


def test_the_honest_typescript_bookshop_conforms_fuzzed_at_every_revision_it_speaks(
    served: Books, typescript_books: tuple[str, ...]
) -> None:
    code, report = _conform(served, *typescript_books, flags=(*_protocols(TYPESCRIPT_REVISIONS), *FUZZ))
    _conforms_fuzzed(code, report, TYPESCRIPT_REVISIONS)
    assert report["findings"] == []  # the generated zod schemas list the contract's own


# Each planted fault of the bookshops: the one rule it must give, and where (a text of tools.yaml
# on the line, the pointer into it).
ERROR_EXAMPLE = ("- arguments: {id: 404}", "/tools/0/examples/1", 'get_book({"id": 404})')
FAULTS = {
    "success-for-error": ("example-not-error", ERROR_EXAMPLE),
    "other-code": ("example-code-differs", ERROR_EXAMPLE),
    # MCPServer and the TypeScript McpServer answer a raised exception with an `isError` text result
    # (MCPServer's "Error executing tool ...", McpServer's the exception's message): unstructured.
    "crash-on-error": ("example-error-unstructured", ERROR_EXAMPLE),
    "retryable-contradicts": ("catalogue-contradicted", ERROR_EXAMPLE),
    "missing-code": ("invalid-result", ERROR_EXAMPLE),
    "drops-argument": (
        "input-argument-missing",
        ("label: {type: string", "/tools/1/inputSchema/properties/label", None),
    ),
}
# The low-level Server answers an exception its handler raises with no result at all but a
# JSON-RPC error (code 0, or -32603 "Internal server error" at 2026-07-28): the call failed.
SDK_RULES = {("lowlevel", "crash-on-error"): "call-failed"}
SDKS = ("mcpserver", "lowlevel", "typescript")
# Cases where conform does not yet say one fault once (strict: an XPASS fails, so the mark goes
# when conform is fixed). The low-level Server's crash is one fault at one call, but its
# JSON-RPC error is worded differently by revision, and conform merges only equal findings.


def _fault_cases() -> Iterator[Any]:
    """(sdk, fault) for each SDK and fault: MCPServer's in the default run, the others `slow`."""
    for sdk in SDKS:
        for fault in sorted(FAULTS):
            marks = [] if sdk == "mcpserver" else [pytest.mark.slow]
            yield pytest.param(sdk, fault, marks=marks, id=f"{sdk}-{fault}")


def _bookshop(sdk: str, fault: str, request: pytest.FixtureRequest) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The command of `sdk`'s bookshop with `fault` planted, and the revisions it speaks."""
    if sdk == "typescript":
        server: tuple[str, ...] = request.getfixturevalue("typescript_books")
        return (*server, "--fault", fault), TYPESCRIPT_REVISIONS
    script = MCPSERVER if sdk == "mcpserver" else LOWLEVEL
    return python(str(script), "--fault", fault), VERSIONS


@pytest.mark.fires(*sorted({rule for rule, _ in FAULTS.values()} | set(SDK_RULES.values())))
@pytest.mark.parametrize(("sdk", "fault"), _fault_cases())
def test_each_planted_fault_is_one_error_at_its_place_for_every_revision_its_sdk_speaks(
    served: Books, sdk: str, fault: str, request: pytest.FixtureRequest
) -> None:
    rule, (text, pointer, subject) = FAULTS[fault]
    rule = SDK_RULES.get((sdk, fault), rule)
    server, revisions = _bookshop(sdk, fault, request)
    flags = () if revisions == VERSIONS else _protocols(revisions)
    code, report = _conform(served, *server, flags=flags)
    assert report["problem"] is None, report["problem"]
    assert report["revisions"] == list(revisions)
    found = [f for f in report["findings"] if f["level"] != "note"]
    assert [(f["rule"], f["level"]) for f in found] == [(rule, "error")], _said(report)
    [finding] = found
    assert (finding["file"], finding["line"]) == (str(served.tools_yaml), served.line_of(text)), finding
    assert finding["pointer"] == pointer, finding
    assert subject is None or finding["subject"] == subject, finding
    assert finding["revisions"] == list(revisions), finding
    assert all(f["rule"] == WIDER for f in report["findings"] if f["level"] == "note"), _said(report)
    assert (code, report["conforms"]) == (1, False)


def test_a_missing_code_is_never_said_to_make_the_document_a_success(served: Books) -> None:
    """The failure envelope without `code` is still `"success": false`: the one finding is the
    schema's refusal, and no message says the document is a success."""
    code, report = _conform(served, *python(str(MCPSERVER), "--fault", "missing-code"))
    messages = [f["message"] for f in report["findings"]]
    assert not any("is a success" in message for message in messages), messages
    assert any('"code" is a required property' in message for message in messages), messages
    assert code == 1


def test_a_server_that_crashes_on_its_error_example_prints_one_line_and_the_summary(
    served: Books, tmp_path: Path
) -> None:
    """The SDK's tracebacks of the crash (548 lines before issue 47) stay in the server's log:
    the text report is the finding and the summary, and a note on stderr names the log."""
    log = tmp_path / "server.log"
    args = ("conform", "--schemas", str(served.schemas), "--contract", "books", "--server-log", str(log))
    done = run_process(*args, "--", *python(str(MCPSERVER), "--fault", "crash-on-error"), timeout=120)
    lines = done.stdout.splitlines()
    assert [line.split(" ")[1] for line in lines[:-1]] == ["example-error-unstructured"], done.stdout
    assert lines[-1].endswith("1 error(s), 0 other finding(s)."), done.stdout
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) <= 3, done.stderr
    assert "KeyError" in log.read_text(encoding="utf-8")
    assert done.returncode == 1
