"""The lint rules about what MCP clients receive: an output each declared revision can carry,
error envelopes a tool's own output schema admits, and the `directory` profile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli
from mcp_contracts_generator.schema.proofs import always_object

DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def _init(tmp_path: Path) -> Path:
    assert run_cli("init", "shop", cwd=tmp_path).returncode == 0
    return tmp_path / "schemas" / "contracts" / "shop"


def _lint(tmp_path: Path) -> tuple[int, list[str]]:
    result = run_cli("lint", cwd=tmp_path)
    return result.returncode, [line for line in result.stdout.splitlines() if ": " in line]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.quiet("hints-explicit", "tool-title", "description-length")
def test_a_fresh_scaffold_lints_clean_with_the_directory_profile(tmp_path: Path) -> None:
    folder = _init(tmp_path)
    (folder / "contract.yaml").write_text(
        (folder / "contract.yaml").read_text(encoding="utf-8") + "lint:\n  profiles: [directory]\n", encoding="utf-8"
    )
    code, lines = _lint(tmp_path)
    assert code == 0, lines
    assert not [line for line in lines if " hints-explicit " in line or " tool-title " in line], lines


def _envelope_may_be_null(folder: Path) -> None:
    envelope = folder / "envelope.schema.json"
    schema = json.loads(envelope.read_text(encoding="utf-8"))
    schema["oneOf"].append({"type": "null"})
    envelope.write_text(json.dumps(schema, indent=2), encoding="utf-8")


@pytest.mark.fires("output-not-object")
def test_an_envelope_that_may_be_no_object_names_the_revisions_that_cannot_carry_it(tmp_path: Path) -> None:
    folder = _init(tmp_path)
    _envelope_may_be_null(folder)
    code, lines = _lint(tmp_path)
    assert code == 1, lines
    found = [line for line in lines if " output-not-object " in line]
    assert len(found) == 1, lines
    assert found[0].startswith("schemas/contracts/shop/envelope.schema.json:1:1: output-not-object [error]")
    assert "2025-06-18, 2025-11-25" in found[0] and "example_tool" in found[0]
    assert "2025-03-26" not in found[0] and "2026-07-28" not in found[0]


@pytest.mark.quiet("output-not-object")
@pytest.mark.parametrize("revisions", ['["2026-07-28"]', '["2025-03-26", "2026-07-28"]'])
def test_revisions_that_take_any_output_or_none_do_not_need_an_object(tmp_path: Path, revisions: str) -> None:
    folder = _init(tmp_path)
    _envelope_may_be_null(folder)
    _edit(
        folder / "contract.yaml",
        'protocol: ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]',
        f"protocol: {revisions}",
    )
    code, lines = _lint(tmp_path)
    assert code == 0, lines
    assert not [line for line in lines if " output-not-object " in line]


@pytest.mark.fires("output-not-object")
def test_a_tool_output_schema_that_may_be_an_array_is_named_at_its_line(tmp_path: Path) -> None:
    folder = _init(tmp_path)
    tools = folder / "tools.yaml"
    tools.write_text(
        tools.read_text(encoding="utf-8")
        + "  - name: listing\n    outputSchema:\n      type: array\n      items: {type: string}\n",
        encoding="utf-8",
    )
    code, lines = _lint(tmp_path)
    assert code == 1, lines
    line = tools.read_text(encoding="utf-8").splitlines().index("    outputSchema:") + 1
    assert any(
        entry.startswith(f"schemas/contracts/shop/tools.yaml:{line}:5: output-not-object [error] 'listing'")
        for entry in lines
    ), lines


@pytest.mark.fires("error-outside-output")
@pytest.mark.quiet("error-outside-output")
def test_an_output_schema_that_refuses_the_error_envelope_is_an_error(tmp_path: Path) -> None:
    folder = _init(tmp_path)
    tools = folder / "tools.yaml"
    only_success = (
        "  - name: strict\n    possible_error_codes: [example_error]\n    outputSchema:\n      type: object\n"
        "      required: [success, data]\n      properties:\n        success: {const: true}\n"
    )
    tools.write_text(tools.read_text(encoding="utf-8") + only_success, encoding="utf-8")
    code, lines = _lint(tmp_path)
    assert code == 1, lines
    found = [line for line in lines if " error-outside-output " in line]
    assert len(found) == 1, lines
    assert "'strict'" in found[0] and "'example_error'" in found[0]
    # Error results carried as text only: no client judges them by the output schema.
    (folder / "contract.yaml").write_text(
        (folder / "contract.yaml").read_text(encoding="utf-8") + "error_results:\n  structured: false\n",
        encoding="utf-8",
    )
    code, lines = _lint(tmp_path)
    assert code == 0 and not [line for line in lines if " error-outside-output " in line], lines


@pytest.mark.fires("hints-explicit", "tool-title", "description-length")
@pytest.mark.quiet("hints-explicit")
def test_the_directory_profile_asks_for_every_hint_a_title_and_short_descriptions(tmp_path: Path) -> None:
    folder = _init(tmp_path)
    tools = folder / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8") + "  - name: bare\n    description: Twelve chars\n")
    code, lines = _lint(tmp_path)
    assert not [line for line in lines if " hints-explicit " in line]  # off unless the profile is on
    (folder / "contract.yaml").write_text(
        (folder / "contract.yaml").read_text(encoding="utf-8")
        + "lint:\n  profiles: [directory]\n  description_limit: 11\n",
        encoding="utf-8",
    )
    code, lines = _lint(tmp_path)
    assert code == 0, lines  # the profile warns
    rules = sorted(line.split(": ", 1)[1].split(" ", 3)[::2] for line in lines if "'bare'" in line)
    assert rules == [
        ["description-length", "'bare':"],
        ["hints-explicit", "'bare'"],
        ["tool-title", "'bare'"],
    ], lines
    hints = next(line for line in lines if " hints-explicit [warning] 'bare'" in line)
    assert "readOnlyHint, destructiveHint, idempotentHint, openWorldHint" in hints
    # A rule of the profile turned on by itself, without the profile.
    text = (folder / "contract.yaml").read_text(encoding="utf-8").replace("  profiles: [directory]\n", "")
    (folder / "contract.yaml").write_text(text + "  rules: {tool-title: error}\n", encoding="utf-8")
    code, lines = _lint(tmp_path)
    assert code == 1 and [line for line in lines if " tool-title [error] 'bare'" in line], lines
    assert not [line for line in lines if " hints-explicit " in line], lines


@pytest.mark.parametrize(
    ("schema", "proven"),
    [
        ({"type": "object"}, True),
        ({"oneOf": [{"type": "object"}, {"$ref": "#/$defs/a"}], "$defs": {"a": {"type": "object"}}}, True),
        ({"anyOf": [{"type": "object"}, {"type": "null"}]}, False),
        ({"allOf": [{"required": ["a"]}, {"type": "object"}]}, True),
        ({"required": ["a"]}, False),  # any non-object passes `required`
        ({"enum": [{"a": 1}, {}]}, True),
        ({"enum": [{"a": 1}, 1]}, False),
        ({"const": []}, False),
        ({"$ref": "#"}, False),  # a cycle proves nothing
        ({"then": {"type": "object"}, "else": {"type": "object"}}, False),  # without `if`, they say nothing
        ({"if": {}, "then": {"type": "object"}, "else": {"type": "object"}}, True),
        ({"oneOf": []}, False),
    ],
)
def test_always_object_is_a_proof(schema: object, proven: bool) -> None:
    assert always_object(schema) is proven


def _typescript_sdk(folder: Path) -> None:
    """The profile on, and the example's data an array of one string (the data the tests give)."""
    _edit(folder / "contract.yaml", "module: shop\n", "module: shop\nlint:\n  profiles: [typescript-sdk]\n")
    (folder / "examples" / "success.json").write_text('{"success": true, "data": ["a"]}', encoding="utf-8")


def _sdk_findings(lines: list[str]) -> list[str]:
    marker = " typescript-sdk-keyword [warning] "
    return [line.split(marker, 1)[1] for line in lines if marker in line]


@pytest.mark.fires("typescript-sdk-keyword")
@pytest.mark.quiet("typescript-sdk-keyword")
def test_the_typescript_sdk_profile_names_what_its_draft_07_ajv_reads_otherwise(tmp_path: Path) -> None:
    """Measured against the SDK's ajv (1.32.2: draft-07, `format` asserted): in a 2020-12 schema it
    ignores `prefixItems` and reads the `items` beside it as every item's."""
    folder = _init(tmp_path)
    pair = '"data": { "type": "array", "prefixItems": [{"type": "string"}], "items": false, "format": "uri"'
    _edit(folder / "envelope.schema.json", '"data": {', pair + ",")
    _typescript_sdk(folder)
    _edit(folder / "contract.yaml", "  profiles: [typescript-sdk]\n", "  profiles: []\n")
    assert _sdk_findings(_lint(tmp_path)[1]) == []  # a profile: off unless turned on
    _edit(folder / "contract.yaml", "  profiles: []\n", "  profiles: [typescript-sdk]\n")
    code, lines = _lint(tmp_path)
    assert code == 0 and _sdk_findings(lines) == [
        "the TypeScript SDK's draft-07 ajv does not apply `prefixItems`",
        "the TypeScript SDK's ajv asserts `format`, which this contract does not (`formats`)",
    ], lines
    (row,) = [n for n, line in enumerate((folder / "envelope.schema.json").read_text().splitlines(), 1) if pair in line]
    assert lines[0].startswith(f"schemas/contracts/shop/envelope.schema.json:{row}:"), lines


@pytest.mark.quiet("typescript-sdk-keyword")
def test_a_draft_07_contract_is_read_by_the_typescript_sdk_as_written_but_beside_a_ref(tmp_path: Path) -> None:
    """Published in draft-07, a pair (`items` as a list) is what the SDK's ajv reads too; a keyword
    beside `$ref`, which draft-07 ignores, it applies."""
    folder = _init(tmp_path)
    _typescript_sdk(folder)
    envelope = folder / "envelope.schema.json"
    text = envelope.read_text(encoding="utf-8").replace("$defs", "definitions")
    envelope.write_text(text.replace("https://json-schema.org/draft/2020-12/schema", DRAFT_07), encoding="utf-8")
    settings = folder / "contract.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("/$defs/", "/definitions/"), encoding="utf-8")
    _edit(envelope, '"data": {', '"data": { "type": "array", "items": [{"type": "string"}], "additionalItems": false,')
    code, lines = _lint(tmp_path)
    assert code == 0 and _sdk_findings(lines) == [], lines
    reference = '"error": { "$ref": "#/definitions/ToolError"'
    _edit(envelope, reference, reference + ', "type": "object"')
    code, lines = _lint(tmp_path)
    assert _sdk_findings(lines) == [
        "beside `$ref`, draft-07 ignores `type`: the TypeScript SDK's ajv applies them"
    ], lines


@pytest.mark.fires("typescript-sdk-keyword")
def test_a_draft_07_pair_said_in_2020_12_is_named_where_it_is_written(tmp_path: Path) -> None:
    """With a 2020-12 file beside it, a draft-07 envelope is published in 2020-12: its pair
    becomes `prefixItems`, which the SDK's ajv ignores."""
    folder = _init(tmp_path)
    _typescript_sdk(folder)
    envelope = folder / "envelope.schema.json"
    text = envelope.read_text(encoding="utf-8").replace("$defs", "definitions")
    text = text.replace('  "$id": "urn:mcp-contracts:shop:envelope",\n', "")  # a file name resolves against the folder
    envelope.write_text(text.replace("https://json-schema.org/draft/2020-12/schema", DRAFT_07), encoding="utf-8")
    settings = folder / "contract.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("/$defs/", "/definitions/"), encoding="utf-8")
    text_schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string"}
    (folder / "text.schema.json").write_text(json.dumps(text_schema), encoding="utf-8")
    pair = '"data": { "type": "array", "items": [{"$ref": "text.schema.json"}], "additionalItems": false,'
    _edit(envelope, '"data": {', pair)
    code, lines = _lint(tmp_path)
    assert code == 0 and _sdk_findings(lines) == [
        "`items` is published in 2020-12 as `prefixItems`, which the TypeScript SDK's ajv ignores"
    ], lines
