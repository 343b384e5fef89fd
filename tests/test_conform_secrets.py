"""tools.yaml `secret_arguments`: arguments whose values no error answer may carry (seed 000's
"Error responses MUST NOT include code contents"), held by `conform` on the example calls and
by `conform --fuzz` on a marker it puts in them, against a real server of ours that quotes the
code it cannot scan in its error message (`tests/servers/faulty_echo.py`) and the same server
with `--clean`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli
from forkserver import python
from mcp_contracts_generator.conformance.echoes import MARKER

SERVER = ("--", *python(str(ROOT / "tests" / "servers" / "faulty_echo.py")))
LATEST = ("--protocol", "2026-07-28")

# As faulty_echo.py lists `scan`; errors are the envelope of `init`'s contract, as text.
TOOLS = """\
tools:
  - name: scan
    description: Scans code for dangerous calls.
    mutation: false
    annotations: {openWorldHint: false}
    possible_error_codes: [example_error]
    result: {structured: false}
    secret_arguments: [code]
    inputSchema:
      type: object
      required: [code]
      properties:
        code: {type: string}
      additionalProperties: false
"""
EXAMPLE = """\
    examples:
      - arguments: {code: "eval(input())"}
        result: scan_error.json
"""
# What the example call expects: an error (an `isError` answer to a call expecting a success is
# `example-is-error`, another fault).
EXPECTED = '{"success": false, "error": {"code": "example_error", "message": "the code given does not parse"}}\n'


def _project(tmp_path: Path, tools: str) -> Path:
    assert run_cli("init", "scanner", cwd=tmp_path).returncode == 0
    folder = tmp_path / "schemas" / "contracts" / "scanner"
    (folder / "tools.yaml").write_text(tools, encoding="utf-8")
    (folder / "examples" / "scan_error.json").write_text(EXPECTED, encoding="utf-8")
    return tmp_path


def _conform(project: Path, *args: str) -> tuple[int, dict[str, Any]]:
    result = run_cli("conform", "--contract", "scanner", "--format", "json", *LATEST, *args, cwd=project)
    return result.returncode, conform_report(result.stdout)


@pytest.mark.fires("error-echoes-argument")
@pytest.mark.parametrize(
    ("mode", "place"),
    [((), "text content[0] (its JSON at /error/message)"), (("--rpc",), "the JSON-RPC error's message")],
)
def test_an_error_that_quotes_the_code_of_an_example_call_is_found_where_it_quotes_it(
    tmp_path: Path, mode: tuple[str, ...], place: str
) -> None:
    code, report = _conform(_project(tmp_path, TOOLS + EXAMPLE), *SERVER, *mode)
    assert (code, report["problem"]) == (1, None)
    [finding] = [f for f in report["findings"] if f["rule"] != "call-failed"]  # --rpc: a JSON-RPC error too
    assert (finding["rule"], finding["level"], finding["subject"]) == (
        "error-echoes-argument",
        "error",
        'scan({"code": "eval(input())"})',
    )
    assert finding["message"] == f"scan's error answer carries argument 'code' (secret_arguments) at {place}"
    assert (finding["file"].endswith("tools.yaml"), finding["pointer"]) == (True, "/tools/0/examples/0/arguments/code")


@pytest.mark.fires("error-echoes-argument")
def test_fuzz_finds_it_with_a_marker_in_the_code_though_no_example_call_is_given(tmp_path: Path) -> None:
    code, report = _conform(_project(tmp_path, TOOLS), "--fuzz", "5", "--seed", "1", *SERVER)
    assert (code, report["problem"]) == (1, None)
    assert {(f["rule"], f["pointer"]) for f in report["findings"]} == {
        ("error-echoes-argument", "/tools/0/secret_arguments/0")
    }
    message = report["findings"][0]["message"]
    assert message.startswith("scan's error answer carries argument 'code' (secret_arguments) at text content[0]")
    assert MARKER in message and message.endswith("(--fuzz 5 --seed 1)")


@pytest.mark.quiet("error-echoes-argument")
def test_a_server_whose_errors_name_no_code_passes_with_and_without_fuzz(tmp_path: Path) -> None:
    project = _project(tmp_path, TOOLS + EXAMPLE)
    for fuzz in ((), ("--fuzz", "5", "--seed", "1")):
        code, report = _conform(project, *fuzz, *SERVER, "--clean")
        assert (code, report["findings"], report["problem"]) == (0, [], None)


def test_a_value_too_short_to_tell_from_chance_is_not_looked_for(tmp_path: Path) -> None:
    """Code of five characters could be in any message: `x = 1` quoted is not a finding."""
    project = _project(tmp_path, TOOLS + EXAMPLE.replace("eval(input())", "x = 1"))
    code, report = _conform(project, *SERVER)
    assert (code, report["findings"]) == (0, [])
