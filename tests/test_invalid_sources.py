"""Invalid sources: exit 2, every problem named by file and line or JSON pointer, nothing written."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import assert_report, run_cli, tree_bytes


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


def _generate_fails(schemas: Path, out: Path) -> str:
    before = tree_bytes(out)
    result = run_cli("generate", "--schemas", str(schemas), "--out", str(out))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert tree_bytes(out) == before, "generated/ must stay exactly as it was"
    checked = run_cli("check", "--schemas", str(schemas), "--out", str(out))
    assert checked.returncode == 2
    return result.stderr


def test_yaml_syntax_error_names_file_and_line(schemas_copy: Path, out_copy: Path) -> None:
    errors = schemas_copy / "contracts" / "tuitbot" / "errors.yaml"
    _replace(errors, "  - code: db_error\n", "  - code: [db_error\n")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert re.search(r"contracts/tuitbot/errors\.yaml:\d+: invalid YAML", stderr), stderr


def test_meta_schema_violation_names_the_line_of_the_bad_value(schemas_copy: Path, out_copy: Path) -> None:
    tools = schemas_copy / "contracts" / "tuitbot" / "tools.yaml"
    _replace(
        tools,
        "  - name: get_stats\n    category: analytics\n    mutation: false",
        "  - name: get_stats\n    category: analytics\n    mutation: sometimes",
    )
    line = _line_of(tools, "mutation: sometimes")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert f'contracts/tuitbot/tools.yaml:{line}: "sometimes" is not of type "boolean"' in stderr, stderr


def test_tool_naming_an_unknown_error_code_is_an_error(schemas_copy: Path, out_copy: Path) -> None:
    tools = schemas_copy / "contracts" / "tuitbot" / "tools.yaml"
    _replace(tools, "    possible_error_codes: [db_error]\n", "    possible_error_codes: [db_eror]\n")
    line = _line_of(tools, "[db_eror]")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert f"tools.yaml:{line}: tool 'get_stats' names error code 'db_eror', which errors.yaml lacks" in stderr, stderr


def test_duplicate_error_code_is_an_error(schemas_copy: Path, out_copy: Path) -> None:
    errors = schemas_copy / "contracts" / "jsonrpc" / "errors.yaml"
    _replace(errors, "  - code: TOOL_NOT_FOUND", "  - code: INVALID_ENVELOPE")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert "duplicate code 'INVALID_ENVELOPE'" in stderr


def test_envelope_json_syntax_error_names_the_line(schemas_copy: Path, out_copy: Path) -> None:
    envelope = schemas_copy / "contracts" / "jsonrpc" / "envelope.schema.json"
    _replace(
        envelope,
        '"required": ["id", "jsonrpc", "method", "params"],',
        '"required": ["id", "jsonrpc", "method", "params"]',
    )
    stderr = _generate_fails(schemas_copy, out_copy)
    assert re.search(r"contracts/jsonrpc/envelope\.schema\.json:\d+: invalid JSON", stderr), stderr


def test_invalid_json_schema_names_the_json_pointer(schemas_copy: Path, out_copy: Path) -> None:
    envelope = schemas_copy / "contracts" / "jsonrpc" / "envelope.schema.json"
    _replace(envelope, '"method": { "type": "string", "minLength": 1,', '"method": { "type": "text", "minLength": 1,')
    stderr = _generate_fails(schemas_copy, out_copy)
    assert "contracts/jsonrpc/envelope.schema.json#/properties/method/type:" in stderr, stderr


def test_dangling_ref_names_the_json_pointer(schemas_copy: Path, out_copy: Path) -> None:
    envelope = schemas_copy / "contracts" / "jsonrpc" / "envelope.schema.json"
    _replace(envelope, '"params": { "$ref": "#/$defs/Params" }', '"params": { "$ref": "#/$defs/Parameters" }')
    stderr = _generate_fails(schemas_copy, out_copy)
    assert "envelope.schema.json#/properties/params/$ref: Pointer '/$defs/Parameters' does not exist" in stderr


def test_catalogue_code_missing_from_the_envelope_enum_is_an_error(schemas_copy: Path, out_copy: Path) -> None:
    errors = schemas_copy / "contracts" / "tuitbot" / "errors.yaml"
    errors.write_text(
        errors.read_text(encoding="utf-8")
        + "  - code: quota_exceeded\n    category: X API\n    retryable: true\n    description: New.\n",
        encoding="utf-8",
    )
    stderr = _generate_fails(schemas_copy, out_copy)
    expected = (
        "envelope.schema.json#/$defs/RetryableToolError/properties/code/enum: "
        "lacks the codes of errors.yaml with retryable=True: quota_exceeded"
    )
    assert expected in stderr, stderr


def test_example_that_breaks_the_schema_is_an_error(schemas_copy: Path, out_copy: Path) -> None:
    example = schemas_copy / "contracts" / "tuitbot" / "examples" / "api-success.json"
    document = json.loads(example.read_text(encoding="utf-8"))
    document["meta"]["mode"] = "autopilot"
    example.write_text(json.dumps(document), encoding="utf-8")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert "tuitbot/examples/api-success.json#/meta/mode: example breaks the envelope schema" in stderr, stderr


def test_every_problem_is_reported_in_one_run(schemas_copy: Path, out_copy: Path) -> None:
    _replace(schemas_copy / "contracts" / "foundry" / "contract.yaml", "module: foundry", "module: Foundry!")
    _replace(
        schemas_copy / "contracts" / "code-scalpel" / "tools.yaml",
        "  - name: analyze_code\n",
        "  - nme: analyze_code\n",
    )
    stderr = _generate_fails(schemas_copy, out_copy)
    assert "contracts/foundry/contract.yaml:" in stderr
    assert "contracts/code-scalpel/tools.yaml:" in stderr
    assert "3 problem(s)" in stderr  # the misspelt key, and the name it lacks


def test_missing_source_file_and_wrong_folder_name(schemas_copy: Path, out_copy: Path) -> None:
    (schemas_copy / "contracts" / "jsonrpc" / "tools.yaml").unlink()
    shutil.move(schemas_copy / "contracts" / "foundry", schemas_copy / "contracts" / "foundry-v2")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert "contracts/jsonrpc/tools.yaml: missing" in stderr
    assert "contracts/foundry-v2/contract.yaml:" in stderr and "must equal the folder name 'foundry-v2'" in stderr


def test_check_json_format_lists_source_errors(schemas_copy: Path, out_copy: Path) -> None:
    _replace(schemas_copy / "contracts" / "jsonrpc" / "contract.yaml", "module: jsonrpc", "module: 9jsonrpc")
    result = run_cli("check", "--schemas", str(schemas_copy), "--out", str(out_copy), "--format", "json")
    assert result.returncode == 2
    report = json.loads(result.stdout)
    assert_report(report, "findings-report")
    assert (report["command"], report["loaded"], report["exit_code"]) == ("check", False, 2)
    [error] = report["findings"]
    assert error["rule"] == "source-invalid" and error["file"].endswith("contracts/jsonrpc/contract.yaml")
    assert isinstance(error["line"], int) and "does not match" in error["message"]


@pytest.mark.parametrize(
    ("declared", "named"),
    [
        ("http://json-schema.org/draft-06/schema#", "draft-06 is not read"),
        ("https://json-schema.org/draft/2019-09/schema", "draft 2019-09 is not read"),
        ("https://example.com/meta.json", "'https://example.com/meta.json' is not a dialect mcp-contracts reads"),
    ],
)
def test_a_dialect_that_is_not_read_is_refused_at_its_schema_keyword(
    schemas_copy: Path, out_copy: Path, declared: str, named: str
) -> None:
    """Only draft 2020-12 and draft-07 are read (schema/dialect.py): an envelope in another
    dialect would be judged in one and published in another."""
    envelope = schemas_copy / "contracts" / "tuitbot" / "envelope.schema.json"
    _replace(envelope, '"https://json-schema.org/draft/2020-12/schema"', json.dumps(declared))
    stderr = _generate_fails(schemas_copy, out_copy)
    assert re.search(r"contracts/tuitbot/envelope\.schema\.json(:\d+)?#/\$schema: " + re.escape(named), stderr), stderr


def test_a_referred_file_in_a_dialect_that_is_not_read_is_named(schemas_copy: Path, out_copy: Path) -> None:
    folder = schemas_copy / "contracts" / "tuitbot"
    (folder / "old.schema.json").write_text(
        json.dumps({"$schema": "http://json-schema.org/draft-04/schema#", "type": "string"}), encoding="utf-8"
    )
    envelope = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    envelope.setdefault("$defs", {})["Old"] = {"$ref": "file:///old.schema.json"}
    (folder / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert re.search(r"contracts/tuitbot/old\.schema\.json#/\$schema: draft-04 is not read", stderr), stderr


@pytest.mark.parametrize(
    "pattern",
    [
        "^a++$",
        pytest.param("(?i)abc", marks=pytest.mark.slow),
        "(?P<name>a)",
        pytest.param("(?x)a b", marks=pytest.mark.slow),
    ],
)
def test_a_pattern_that_is_not_ecma_262_is_refused_at_its_pointer(
    pattern: str, schemas_copy: Path, out_copy: Path
) -> None:
    """Python's engine compiles some patterns no ECMA-262 engine does (a JavaScript judge, a
    client in another language): refused where they stand, in the envelope, a file it refers
    to and a tool's schema."""
    folder = schemas_copy / "contracts" / "tuitbot"
    envelope = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    envelope["$defs"]["Word"] = {"type": "string", "pattern": pattern}
    envelope["$defs"]["Keyed"] = {"patternProperties": {pattern: True}}
    envelope["$defs"]["Other"] = {"$ref": "file:///other.schema.json"}
    (folder / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    (folder / "other.schema.json").write_text(json.dumps({"pattern": pattern}), encoding="utf-8")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert re.search(r"contracts/tuitbot/envelope\.schema\.json(:\d+)?#/\$defs/Word/pattern: ", stderr), stderr
    assert "is not an ECMA-262 regular expression" in stderr
    envelope["$defs"].pop("Word")
    (folder / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert re.search(r"envelope\.schema\.json(:\d+)?#/\$defs/Keyed/patternProperties/", stderr), stderr
    envelope["$defs"].pop("Keyed")
    (folder / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    assert re.search(r"contracts/tuitbot/other\.schema\.json#/pattern: ", _generate_fails(schemas_copy, out_copy))
    envelope["$defs"].pop("Other")
    (folder / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    tools = folder / "tools.yaml"
    _replace(tools, "    inputSchema:\n", f"    inputSchema:\n      pattern: {json.dumps(pattern)}\n")
    stderr = _generate_fails(schemas_copy, out_copy)
    assert re.search(r"contracts/tuitbot/tools\.yaml:\d+.*is not an ECMA-262", stderr), stderr


@pytest.mark.parametrize("pattern", ["^a\\-b$", "^\\p{L}+$", "[[:alpha:]]", "^[a-z0-9-]{1,63}$"])
def test_an_ecma_262_pattern_is_accepted(pattern: str) -> None:
    from mcp_contracts_generator.schema.patterns import is_ecma_262

    assert is_ecma_262(pattern)
