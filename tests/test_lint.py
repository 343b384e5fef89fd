"""`mcp-contracts lint`: each rule fires on an edit of an `init` scaffold, at the file, line,
column and JSON pointer of what it names, at its level; and keeps quiet on the scaffold."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from mcp_contracts_generator.rules import rule as registry_rule
from mcp_contracts_generator.rules.lint import LINT_RULES as REGISTRY_LINT

# The lint rules, as the marks name them (tests/test_rules.py reads marks without running them);
# the first test holds it to the registry.
LINT_RULES = (
    "code-unique",
    "code-identifier",
    "tool-codes-known",
    "code-style",
    "code-unused",
    "tool-name",
    "jsonrpc-range",
    "http-range",
    "retry-4xx",
    "code-described",
    "tool-described",
    "property-described",
    "def-unused",
    "shape-copy-differs",
    "output-not-object",
    "error-outside-output",
    "hints-explicit",
    "example-match-unresolved",
    "tool-title",
    "description-length",
    "typescript-sdk-keyword",
)
SHOP = Path("schemas") / "contracts" / "shop"
PROFILES = "  profiles: [directory, typescript-sdk]\n"
# The scaffold (its columns carry `retryable` and `http_status`) with the other column role a
# lint rule reads, and every profile on.
ROLES = (
    (
        "contract.yaml",
        "  tools:\n    mutation:",
        "    jsonrpc_code: {type: integer, role: jsonrpc_code, description: The JSON-RPC code.}\n"
        "  tools:\n    mutation:",
    ),
    ("errors.yaml", "    http_status: 400\n", "    jsonrpc_code: -32001\n"),
)


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One `init shop` project with the roles and the profile, copied by each test."""
    root = tmp_path_factory.mktemp("scaffold")
    assert run_cli("init", "shop", cwd=root).returncode == 0
    for file, after, added in ROLES:
        _edit(root / SHOP / file, after, after + added if after.endswith("\n") else added)
    contract = root / SHOP / "contract.yaml"
    contract.write_text(contract.read_text(encoding="utf-8") + "lint:\n" + PROFILES, encoding="utf-8")
    return root


@pytest.fixture
def project(scaffold: Path, tmp_path: Path) -> Path:
    shutil.copytree(scaffold, tmp_path / "project")
    return tmp_path / "project"


def _edit(path: Path, old: str, new: str) -> None:
    """`old` replaced by `new` in the file, once; an empty `old` appends `new`."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")


def _lint(project: Path) -> tuple[int, list[dict[str, Any]]]:
    result = run_cli("lint", "--format", "json", cwd=project)
    return result.returncode, json.loads(result.stdout)["findings"]


def _place(project: Path, file: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """The 1-based line and column where `needle` begins (its `occurrence`-th time) in `file`."""
    lines = (project / SHOP / file).read_text(encoding="utf-8").splitlines()
    found = [(n + 1, line.index(needle) + 1) for n, line in enumerate(lines) if needle in line]
    return found[occurrence]


NEW_CODE = "  - code: {code}\n    retryable: false\n    http_status: 400\n    jsonrpc_code: -32001\n"
NEW_CODE += "    message: M\n    description: D.\n"


def _add_code(project: Path, code: str, enum: bool = True) -> None:
    """A code appended to errors.yaml (and to the envelope's enum, which must list every code)."""
    errors = project / SHOP / "errors.yaml"
    errors.write_text(errors.read_text(encoding="utf-8") + NEW_CODE.format(code=code), encoding="utf-8")
    if enum:
        _edit(
            project / SHOP / "envelope.schema.json", '"enum": ["example_error"', f'"enum": ["example_error", "{code}"'
        )


# A second tool with its own output schema (and no example call, which it would have to accept).
NEW_TOOL = "  - name: listing\n    title: Listing\n    description: Lists.\n    mutation: false\n"
NEW_TOOL += "    annotations: {{destructiveHint: false, idempotentHint: true, openWorldHint: false}}\n"
NEW_TOOL += "    possible_error_codes: [example_error]\n    outputSchema: {output}\n"


EDITS: dict[str, tuple[list[tuple[str, str, str]], str, str, str, int]] = {
    # rule: ([(file, old, new)], file of the finding, its pointer, the text that begins at its place, occurrence)
    "code-style": ([], "errors.yaml", "/errors/1/code", "code: ExampleTwo", 0),
    "code-unused": ([], "errors.yaml", "/errors/1/code", "code: other_error", 0),
    "tool-name": (
        [("tools.yaml", "name: example_tool", "name: example:tool")],
        "tools.yaml",
        "/tools/0/name",
        "name:",
        0,
    ),
    "jsonrpc-range": (
        [("errors.yaml", "jsonrpc_code: -32001", "jsonrpc_code: -31000")],
        "errors.yaml",
        "/errors/0/jsonrpc_code",
        "jsonrpc_code:",
        0,
    ),
    "http-range": (
        [("errors.yaml", "http_status: 400", "http_status: 200")],
        "errors.yaml",
        "/errors/0/http_status",
        "http_status:",
        0,
    ),
    "retry-4xx": (
        [("errors.yaml", "retryable: false", "retryable: true")],
        "errors.yaml",
        "/errors/0/retryable",
        "retryable:",
        0,
    ),
    "code-described": (
        [("errors.yaml", "    description: Replace this entry with your first error code.\n", "")],
        "errors.yaml",
        "/errors/0/code",
        "code:",
        0,
    ),
    "tool-described": (
        [("tools.yaml", "    description: Replace this entry with your first tool.\n", "")],
        "tools.yaml",
        "/tools/0/name",
        "name:",
        0,
    ),
    "property-described": (
        [("envelope.schema.json", '"data": { "description": "The tool\'s payload, any JSON value." }', '"data": {}')],
        "envelope.schema.json",
        "/$defs/SuccessEnvelope/properties/data",
        '"data": {}',
        0,
    ),
    "def-unused": (
        [("envelope.schema.json", '"$defs": {\n', '"$defs": {\n    "Unused": { "type": "string" },\n')],
        "envelope.schema.json",
        "/$defs/Unused",
        '"Unused"',
        0,
    ),
    "shape-copy-differs": (  # the envelope as import writes it: the anyOf of the shapes
        [("envelope.schema.json", '"oneOf": [', '"anyOf": ['), ("tools.yaml", "", NEW_TOOL.format(output="{}"))],
        "tools.yaml",
        "/tools/1/outputSchema",
        "outputSchema:",
        0,
    ),
    "output-not-object": (
        [("tools.yaml", "", NEW_TOOL.format(output="{type: array}"))],
        "tools.yaml",
        "/tools/1/outputSchema",
        "outputSchema:",
        0,
    ),
    "error-outside-output": (
        [("tools.yaml", "", NEW_TOOL.format(output="{type: object, properties: {success: {const: true}}}"))],
        "tools.yaml",
        "/tools/1/outputSchema",
        "outputSchema:",
        0,
    ),
    "hints-explicit": (
        [("tools.yaml", "    annotations: {destructiveHint: false, idempotentHint: true, openWorldHint: false}\n", "")],
        "tools.yaml",
        "/tools/0",
        "name: example_tool",
        0,
    ),
    "example-match-unresolved": (
        [("tools.yaml", "        result: success.json\n", "        result: success.json\n        match: [/data/no]\n")],
        "tools.yaml",
        "/tools/0/examples/0/match/0",
        "/data/no",
        0,
    ),
    "tool-title": ([("tools.yaml", "    title: Example tool\n", "")], "tools.yaml", "/tools/0/name", "name:", 0),
    "description-length": (
        [("contract.yaml", PROFILES, f"{PROFILES}  description_limit: 10\n")],
        "tools.yaml",
        "/tools/0/description",
        "description:",
        0,
    ),
    "typescript-sdk-keyword": (
        [("envelope.schema.json", '"data": {', '"data": { "dependentRequired": {"a": ["b"]},')],
        "envelope.schema.json",
        "/$defs/SuccessEnvelope/properties/data/dependentRequired",
        '"dependentRequired"',
        0,
    ),
    # What loading refuses too: the sources do not load, and lint still names the rule.
    "code-unique": ([], "errors.yaml", "/errors/1/code", "code: example_error", 1),
    "code-identifier": ([], "errors.yaml", "/errors/1/code", "code: Example_Error", 0),
    "tool-codes-known": (
        [("tools.yaml", "possible_error_codes: [example_error]", "possible_error_codes: [example_error, nope]")],
        "tools.yaml",
        "/tools/0/possible_error_codes/1",
        "nope",
        0,
    ),
}
ADDED_CODES = {"code-style": "ExampleTwo", "code-unused": "other_error", "code-unique": "example_error"}
ADDED_CODES["code-identifier"] = "Example_Error"
LOADING_REFUSES = {"code-unique", "code-identifier", "tool-codes-known"}


# The rules of resources.yaml and prompts.yaml, which an `init` scaffold has not: tests/test_surface.py.
SURFACE_RULES = ("resource-described", "prompt-described", "placeholder-unknown")


def test_the_table_has_an_edit_for_every_lint_rule() -> None:
    assert tuple(rule.id for rule in REGISTRY_LINT if rule.id not in SURFACE_RULES) == LINT_RULES
    assert sorted(EDITS) == sorted(LINT_RULES)


@pytest.mark.fires(*LINT_RULES, "source-invalid")
@pytest.mark.parametrize("rule", LINT_RULES)
def test_each_rule_fires_at_its_file_line_column_and_pointer(project: Path, rule: str) -> None:
    edits, file, pointer, needle, occurrence = EDITS[rule]
    if rule in ADDED_CODES:
        _add_code(project, ADDED_CODES[rule], enum=rule != "code-unique")
    for name, old, new in edits:
        _edit(project / SHOP / name, old, new)
    code, findings = _lint(project)
    mine = [f for f in findings if f["rule"] == rule]
    assert len(mine) == 1, [(f["rule"], f["message"]) for f in findings]
    [finding] = mine
    line, column = _place(project, file, needle, occurrence)
    assert (finding["file"], finding["line"], finding["column"], finding["pointer"]) == (
        f"schemas/contracts/shop/{file}",
        line,
        column,
        pointer,
    )
    assert finding["level"] == registry_rule(rule).level
    assert finding["contract"] == "shop"
    if rule in LOADING_REFUSES:
        assert code == 2 and any(f["rule"] == "source-invalid" for f in findings), findings
    else:
        assert code == (1 if finding["level"] == "error" else 0), findings
        assert not any(f["rule"] == "source-invalid" for f in findings)


@pytest.mark.quiet(*LINT_RULES, "source-invalid")
def test_the_scaffold_with_every_role_and_the_directory_profile_lints_clean(project: Path) -> None:
    assert _lint(project) == (0, []), [f["message"] for f in _lint(project)[1]]
    text = run_cli("lint", cwd=project)
    assert text.stdout == "0 error(s), 0 warning(s), 0 note(s).\n"


@pytest.mark.fires("source-invalid")
def test_sources_that_do_not_load_are_findings_at_their_place_in_every_format(project: Path) -> None:
    _edit(project / SHOP / "tools.yaml", "    mutation: false\n", "    mutation: nope\n")
    code, findings = _lint(project)
    assert code == 2
    [invalid] = [f for f in findings if f["rule"] == "source-invalid"]
    assert invalid["file"] == "schemas/contracts/shop/tools.yaml"
    assert invalid["line"] == _place(project, "tools.yaml", "mutation: nope")[0]
    github = run_cli("lint", "--format", "github", cwd=project)
    assert github.returncode == 2
    assert f"::error file=schemas/contracts/shop/tools.yaml,line={invalid['line']}," in github.stdout


def test_text_lines_name_file_line_column_rule_and_level(project: Path) -> None:
    _edit(project / SHOP / "errors.yaml", "http_status: 400", "http_status: 200")
    result = run_cli("lint", cwd=project)
    line, column = _place(project, "errors.yaml", "http_status:")
    assert result.stdout.splitlines() == [
        f"schemas/contracts/shop/errors.yaml:{line}:{column}: http-range [error] 200 is not an error status (400..599)",
        "1 error(s), 0 warning(s), 0 note(s).",
    ]
    assert result.returncode == 1


@pytest.mark.parametrize(
    ("where", "setting", "level"),
    [
        ("pyproject", "warning", "warning"),
        ("pyproject", "off", None),
        ("rules", "note", "note"),
        ("lint.rules", "off", None),
        ("both", "error", "error"),  # the contract's setting wins over the project's
    ],
)
def test_levels_come_from_the_registry_the_project_and_the_contract(
    project: Path, where: str, setting: str, level: str | None
) -> None:
    _edit(project / SHOP / "errors.yaml", "http_status: 400", "http_status: 200")
    pyproject, contract = project / "pyproject.toml", project / SHOP / "contract.yaml"
    if where in ("pyproject", "both"):
        other = "off" if where == "both" else setting
        pyproject.write_text(
            pyproject.read_text(encoding="utf-8") + f'\n[tool.mcp-contracts.rules]\nhttp-range = "{other}"\n'
        )
    if where in ("rules", "both"):
        contract.write_text(contract.read_text(encoding="utf-8") + f"rules: {{http-range: {setting}}}\n")
    if where == "lint.rules":
        _edit(contract, PROFILES, f"{PROFILES}  rules: {{http-range: {setting}}}\n")
    code, findings = _lint(project)
    assert [f["level"] for f in findings if f["rule"] == "http-range"] == ([level] if level else [])
    assert code == (1 if level == "error" else 0), findings


def test_the_built_in_contracts_have_no_lint_error() -> None:
    result = run_cli("lint")
    assert result.returncode == 0, result.stdout
    assert result.stdout.endswith(" note(s).\n")


@pytest.mark.fires("tool-name")
def test_a_tool_name_with_a_newline_at_its_end_is_no_mcp_tool_name(project: Path) -> None:
    """`$` matches before a last newline: the name is judged whole."""
    _edit(project / SHOP / "tools.yaml", "name: example_tool", 'name: "example_tool\\n"')
    _, findings = _lint(project)
    assert [f["message"] for f in findings if f["rule"] == "tool-name"] == [
        "'example_tool\\n' is not a valid MCP tool name"
    ]
