"""Every "value or why not" answers its why-not as a `diagnostics.Refused`, never a bare `str`:
a `str` value (a path, a header) and a refusal cannot be told apart by type. The words are
the ones the CLI says after `error: ` (tests/test_cli*.py hold them to the byte)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from mcp_contracts_generator import cli_server
from mcp_contracts_generator.diagnostics import Refused
from mcp_contracts_generator.drift import read_regular
from mcp_contracts_generator.findings.printer import report_targets
from mcp_contracts_generator.serving.mock import bind
from mcp_contracts_generator.validate import read_document


def _conform(**given: object) -> object:
    flags: dict[str, object] = {
        "timeout": 1.0,
        "probe_errors": False,
        "headers": {},
        "handshake": "auto",
        "protocol": None,
        "tool": None,
        "fuzz": 0,
        "seed": None,
        "call_tool": None,
        "fuzz_budget": None,
        "client_capabilities": "roots",
    }
    return cli_server.conform_options(**{**flags, **given})


def test_the_server_flags_refuse_with_a_refused() -> None:
    assert cli_server.target(None, None, None) == Refused("give either --url URL or -- COMMAND ARGS... (one of them)")
    assert cli_server.target(None, "http://h/mcp", ["bad"]) == Refused("--header 'bad' is not 'Name: value'")
    assert cli_server.target(["srv"], None, ["A: b"]) == Refused(
        "--header goes with --url (a command started over stdio has no headers)"
    )
    refused = cli_server.capabilities("telepathy")
    assert isinstance(refused, Refused) and str(refused).startswith("--client-capabilities 'telepathy' is not")
    assert _conform(protocol=["1999-01-01"]) == Refused(
        f"--protocol '1999-01-01' is not a revision of MCP ({', '.join(cli_server.VERSIONS)})"
    )
    assert isinstance(_conform(client_capabilities="telepathy"), Refused)
    imported = cli_server.import_options(timeout=1.0, headers={}, call=False, call_tool=None, client_capabilities="x")
    assert isinstance(imported, Refused)
    assert cli_server.fuzzing_problem(0, 7, None, None) == Refused(
        "--seed, --call-tool and --fuzz-budget go with --fuzz N"
    )
    assert cli_server.server_log_problem(Path("log"), "http://h/mcp") == Refused(
        "--server-log goes with -- COMMAND ARGS...: a server at a URL keeps its standard error"
    )


def test_the_server_flags_that_hold_give_their_values() -> None:
    assert cli_server.target(None, "http://h/mcp", ["A: b"]) == ("http://h/mcp", {"A": "b"})
    assert cli_server.capabilities("none") == frozenset()
    assert not isinstance(_conform(), Refused)
    assert cli_server.sdk_problem("conform") is None  # the test environment has the mcp extra
    assert cli_server.fuzzing_problem(0, None, None, None) is None
    assert cli_server.server_log_problem(None, None) is None


def test_a_report_target_refuses_with_a_refused(tmp_path: Path) -> None:
    assert report_targets(["nothing"]) == Refused(
        "--report 'nothing' is not FORMAT:PATH with FORMAT one of " + ", ".join(_formats())
    )
    refused = report_targets([f"json:{tmp_path}"])
    assert isinstance(refused, Refused) and str(refused).startswith(f"{tmp_path}: cannot write the json report: ")
    assert report_targets([f"json:{tmp_path / 'r.json'}", "text:-"]) == [
        ("json", tmp_path / "r.json"),
        ("text", Path("-")),
    ]


def _formats() -> list[str]:
    from mcp_contracts_generator.findings.formats import FORMATS

    return list(FORMATS)


def test_a_port_that_is_none_or_a_host_that_does_not_resolve_is_refused() -> None:
    assert bind("127.0.0.1", 70000) == Refused("--port 70000 is not a port (0 to 65535; 0 picks a free one)")
    host = "a" * 64  # a label IDNA refuses: no lookup on the network
    refused = bind(host, 0)
    assert isinstance(refused, Refused) and str(refused).startswith(f"--host '{host}' does not resolve: ")
    bound = bind("127.0.0.1", 0)
    assert isinstance(bound, socket.socket)
    bound.close()


def test_a_document_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    document = tmp_path / "d.json"
    document.write_bytes(b"[1, 2]")
    assert read_document(str(document)) == b"[1, 2]"
    assert read_document(str(document), limit=3) == Refused("cannot read: over limits.document_bytes (3 bytes)")
    refused = read_document(str(tmp_path))  # a folder
    assert isinstance(refused, Refused) and str(refused).startswith("cannot read: ")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_an_output_file_too_large_is_refused_in_words_and_a_fifo_is_none(tmp_path: Path) -> None:
    large = tmp_path / "large"
    large.write_bytes(b"12345")
    assert read_regular(large, 5) == b"12345"
    assert read_regular(large, 4) == Refused("a file of 5 bytes, more than any the sources produce")
    os.mkfifo(tmp_path / "fifo")
    assert read_regular(tmp_path / "fifo", 4) is None
