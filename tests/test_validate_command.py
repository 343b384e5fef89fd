"""`mcp-contracts validate`: documents judged by the contract's judge (from the sources), with JSON pointers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SCHEMAS, assert_report, run_cli
from mcp_contracts.jsonrpc import Envelope
from pydantic import ValidationError

EXAMPLES = SCHEMAS / "contracts"


@pytest.mark.quiet("document-invalid")
def test_valid_documents_exit_zero() -> None:
    files = sorted(str(p) for p in (EXAMPLES / "tuitbot" / "examples").glob("*.json"))
    result = run_cli("validate", "--contract", "tuitbot", *files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [f"{f}: valid" for f in files]
    report = json.loads(run_cli("validate", "--contract", "tuitbot", "--format", "json", *files).stdout)
    assert_report(report, "findings-report")
    assert report["findings"] == [] and report["exit_code"] == 0
    assert [d["valid"] for d in report["facts"]["documents"]] == [True] * len(files)


def test_invalid_documents_name_each_violation_by_pointer(reference: Path) -> None:
    fixtures = sorted(str(p) for p in (reference / "ragx" / "envelope").glob("*.json"))
    result = run_cli("validate", "--contract", "jsonrpc", *fixtures)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{fixtures[0]}: invalid",
        '  /method: "method" is a required property',
        f"{fixtures[1]}: invalid",
        '  /params: "not-a-object" is not of type "object"',
    ]


@pytest.mark.fires("document-invalid")
def test_json_format_reports_each_violation_as_a_finding_and_each_document_as_a_fact(tmp_path: Path) -> None:
    wrong_flag = tmp_path / "wrong-flag.json"
    wrong_flag.write_text(
        json.dumps({"success": False, "data": None, "error": {"code": "db_error", "message": "m", "retryable": False}}),
        encoding="utf-8",
    )
    valid = EXAMPLES / "tuitbot" / "examples" / "rate-limited.json"
    result = run_cli("validate", "--contract", "tuitbot", "--format", "json", str(wrong_flag), str(valid))
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert_report(report, "findings-report")
    assert (report["version"], report["command"], report["rules"]) == (2, "validate", ["document-invalid"])
    assert report["facts"] == {
        "contract": "tuitbot",
        "documents": [
            {
                "path": str(wrong_flag),
                "valid": False,
                "errors": [{"pointer": "/error/retryable", "message": "true was expected"}],
                "problem": None,
            },
            {"path": str(valid), "valid": True, "errors": [], "problem": None},
        ],
    }
    (finding,) = report["findings"]
    assert (finding["rule"], finding["file"], finding["pointer"], finding["message"]) == (
        "document-invalid",
        str(wrong_flag),
        "/error/retryable",
        "true was expected",
    )
    github = run_cli("validate", "--contract", "tuitbot", "--format", "github", str(wrong_flag)).stdout
    assert github.startswith(f"::error file={str(wrong_flag).replace(':', '%3A')},line=1,title=document-invalid::")


def test_double_wrapped_envelope_is_refused(reference: Path, tmp_path: Path) -> None:
    vector = reference / "prov-spec" / "vectors" / "adapter.wrap.envelope_v0_1" / "negative" / "double_wrapped.json"
    envelope = tmp_path / "double.json"
    envelope.write_text(json.dumps(json.loads(vector.read_text(encoding="utf-8"))["envelope"]), encoding="utf-8")
    result = run_cli("validate", "--contract", "mcp-envelope", str(envelope))
    assert result.returncode == 1
    assert '  /result: {"$ref":"#/$defs/WrappedEnvelopeMarker"} is not allowed for' in result.stdout, result.stdout


def test_standard_input() -> None:
    document = (EXAMPLES / "foundry" / "examples" / "validation-error.json").read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "mcp_contracts_generator", "validate", "--contract", "foundry", "-"],
        input=document,
        cwd=ROOT,
        capture_output=True,
        env=dict(os.environ),
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == "<stdin>: valid\n"


def test_malformed_and_unreadable_files_exit_two_and_the_others_are_still_judged(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"id": "1", ', encoding="utf-8")
    valid = EXAMPLES / "jsonrpc" / "examples" / "tool-invoke.json"
    missing = tmp_path / "missing.json"
    result = run_cli("validate", "--contract", "jsonrpc", str(broken), str(valid), str(missing))
    assert result.returncode == 2
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{broken}: error: not JSON: unexpected end of data")
    assert lines[1] == f"{valid}: valid"
    assert lines[2].startswith(f"{missing}: error: cannot read")


def test_unknown_contract_exits_two() -> None:
    result = run_cli("validate", "--contract", "nope", str(EXAMPLES / "jsonrpc" / "examples" / "tool-invoke.json"))
    assert result.returncode == 2
    assert "unknown contract 'nope'" in result.stderr


def test_one_contract_is_read_alone(tmp_path: Path) -> None:
    """`validate`, `mock` and `conform` read the contract they are given and no other: a
    sibling being edited (here broken) neither stops them nor costs them its reading."""
    contracts = tmp_path / "schemas" / "contracts"
    shutil.copytree(EXAMPLES / "jsonrpc", contracts / "jsonrpc")
    shutil.copytree(EXAMPLES / "jsonrpc", contracts / "jsonrpx")
    (contracts / "jsonrpx" / "envelope.schema.json").write_text("{not json", encoding="utf-8")
    document = str(EXAMPLES / "jsonrpc" / "examples" / "tool-invoke.json")
    result = run_cli("validate", "--contract", "jsonrpc", document, cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, f"{document}: valid\n"), result.stderr
    broken = run_cli("validate", "--contract", "jsonrpx", document, cwd=tmp_path)
    assert broken.returncode == 2 and "envelope.schema.json" in broken.stderr
    unknown = run_cli("validate", "--contract", "jsonrpcc", document, cwd=tmp_path)
    assert unknown.returncode == 2
    assert "unknown contract 'jsonrpcc': did you mean 'jsonrpc'? it has: jsonrpc, jsonrpx" in unknown.stderr


HOSTILE = {
    "bom.json": (b'\xef\xbb\xbf{"id": "1"}', "not JSON: starts with a UTF-8 byte order mark"),
    "latin1.json": (b'{"id": "caf\xe9"}', "not JSON: not valid UTF-8"),
    "nan.json": (b'{"id": NaN}', "not JSON: NaN and Infinity are not JSON numbers at line 1, column 8"),
    "infinity.json": (b'{"id": -Infinity}', "not JSON: NaN and Infinity are not JSON numbers"),
    "deep.json": (b"[" * 100_000 + b"]" * 100_000, "not JSON: nested too deeply"),
    "empty.json": (b"", "not JSON: empty"),
    "blank.json": (b" \n\t", "not JSON: empty"),
    "trailing.json": (b'{"id": "1"}\n{}', "not JSON: trailing characters at line 2, column 1"),
}


def test_hostile_documents_get_a_message_each_and_exit_two(tmp_path: Path) -> None:
    for name, (data, _) in HOSTILE.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "folder.json").mkdir()
    valid = EXAMPLES / "jsonrpc" / "examples" / "tool-invoke.json"
    names = [*HOSTILE, "folder.json"]
    result = run_cli("validate", "--contract", "jsonrpc", *(str(tmp_path / n) for n in names), str(valid))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    for line, name in zip(lines, names, strict=False):
        expected = HOSTILE[name][1] if name in HOSTILE else "cannot read"
        assert line.startswith(f"{tmp_path / name}: error: {expected}"), line
    assert lines[len(names) :] == [f"{valid}: valid"]


def test_hostile_bytes_are_a_validation_error_of_the_models() -> None:
    for data, expected in HOSTILE.values():
        try:
            Envelope.model_validate_json(data)
        except ValidationError as error:
            [detail] = error.errors()
            assert detail["type"] == "json_invalid"
            assert expected.removeprefix("not JSON: ") in detail["msg"]
        else:
            raise AssertionError(f"accepted {data[:20]!r}")
