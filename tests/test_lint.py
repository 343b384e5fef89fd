"""`mcp-contracts lint`: each rule fires on what it names, at its line, at its level."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import SCHEMAS, run_cli
from mcp_contracts_generator.lint import RULES

NEW_ERRORS = """  - code: lower_case_code
    http_status: 200
    jsonrpc_code: -31000
    retryable: true
  - code: NOT_FOUND_AGAIN
    http_status: 404
    jsonrpc_code: -32010
    retryable: true
    description: Gone again.
"""
RETRYABLE = """    retryable:
      type: boolean
      role: retryable
      description: Whether a retry may succeed.
"""


def _project(tmp_path: Path, lint: str = "") -> Path:
    folder = tmp_path / "schemas" / "contracts" / "jsonrpc"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", folder)
    (tmp_path / "pyproject.toml").write_text('[tool.mcp-contracts]\npackage = "linted"\n', encoding="utf-8")
    errors = folder / "errors.yaml"
    errors.write_text(errors.read_text(encoding="utf-8") + NEW_ERRORS, encoding="utf-8")
    tools = folder / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8") + "  - name: bare\n", encoding="utf-8")
    contract = folder / "contract.yaml"
    text = contract.read_text(encoding="utf-8").replace("  errors:\n", "  errors:\n" + RETRYABLE, 1)
    contract.write_text(text + lint, encoding="utf-8")
    schema = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    schema["properties"]["note"] = {"type": "string"}
    (folder / "envelope.schema.json").write_text(json.dumps(schema, indent=2), encoding="utf-8")
    return tmp_path


def _line(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


def test_every_rule_fires_at_its_line_and_level(tmp_path: Path) -> None:
    project = _project(tmp_path)
    result = run_cli("lint", cwd=project)
    assert result.returncode == 1, result.stdout + result.stderr
    errors = project / "schemas" / "contracts" / "jsonrpc" / "errors.yaml"
    where = "schemas/contracts/jsonrpc/errors.yaml"
    expected = [
        f"{where}:{_line(errors, '  - code: lower_case_code')}:1: "
        "code-style [error] 'lower_case_code' is not upper_snake",
        f"{where}:{_line(errors, '    http_status: 200')}:1: http-range [error] 200 is not an error status (400..599)",
        f"{where}:{_line(errors, '    jsonrpc_code: -31000')}:1: "
        "jsonrpc-range [error] -31000 is outside -32000..-32019",
        f"{where}:{_line(errors, '  - code: lower_case_code')}:1: "
        "code-described [warning] 'lower_case_code' has no description",
        f"{where}:{_line(errors, '  - code: NOT_FOUND_AGAIN')}:1: "
        "code-unused [warning] no tool returns 'NOT_FOUND_AGAIN'",
        "retry-4xx [warning] retryable, yet its HTTP status 404 says a retry fails",
        "tool-name [warning] 'mcp.tool:docs.load.fetch' is not a valid MCP tool name",  # switched by the contract
        "property-described [warning] property 'note' has no description (at /properties/note)",
        "def-unused [warning] 'ToolIo' is not referenced (at /$defs/ToolIo)",
        "tool-described [warning] 'bare' has no description",
    ]
    for line in expected:
        assert line in result.stdout, line
    fired = {line.split(": ", 1)[1].split(" ", 1)[0] for line in result.stdout.splitlines() if ": " in line}
    judged_here = {rule.id for rule in RULES} - LOADING_TOO - PUBLISHED
    assert fired >= judged_here, judged_here - fired


LOADING_TOO = {"code-unique", "code-identifier", "tool-codes-known"}
# Rules about what MCP clients receive, each fired in test_lint_mcp.py.
PUBLISHED = {"output-not-object", "error-outside-output", "hints-explicit", "tool-title", "description-length"}


def test_what_loading_refuses_has_rule_ids_too(tmp_path: Path) -> None:
    project = _project(tmp_path)
    folder = project / "schemas" / "contracts" / "jsonrpc"
    errors = folder / "errors.yaml"
    errors.write_text(errors.read_text(encoding="utf-8") + "  - code: TOOL_NOT_FOUND\n  - code: tool.not.found\n")
    tools = folder / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8") + "    possible_error_codes: [NOPE]\n", encoding="utf-8")
    result = run_cli("lint", cwd=project)
    assert result.returncode == 2
    assert "code-unique [error] 'TOOL_NOT_FOUND' appears twice" in result.stdout
    identifier = "code-identifier [error] 'tool.not.found' and 'TOOL_NOT_FOUND' are both TOOL_NOT_FOUND in Python"
    assert identifier in result.stdout
    assert "tool-codes-known [error] 'bare' names 'NOPE', which errors.yaml lacks" in result.stdout
    assert "problem(s) in the sources." in result.stderr


def test_rules_are_switched_per_contract(tmp_path: Path) -> None:
    off = "lint:\n  rules:\n    tool-name: off\n    code-style: off\n    http-range: warning\n    jsonrpc-range: off\n"
    project = _project(tmp_path, lint=off.replace("lint:\n  rules:\n", "lint:\n  rules:\n", 1))
    contract = project / "schemas" / "contracts" / "jsonrpc" / "contract.yaml"
    contract.write_text(contract.read_text(encoding="utf-8").replace("lint:\n  rules:\n    tool-name: warning\n", ""))
    result = run_cli("lint", cwd=project)
    assert result.returncode == 0, result.stdout
    assert "code-style" not in result.stdout and "tool-name" not in result.stdout
    assert "http-range [warning] 200 is not an error status (400..599)" in result.stdout
    assert "0 error(s)" in result.stdout


def test_github_annotations_and_json(tmp_path: Path) -> None:
    project = _project(tmp_path)
    github = run_cli("lint", "--format", "github", cwd=project)
    assert github.returncode == 1
    assert "::error file=schemas/contracts/jsonrpc/errors.yaml,line=" in github.stdout
    assert ",title=code-style::'lower_case_code' is not upper_snake" in github.stdout
    report = json.loads(run_cli("lint", "--format", "json", cwd=project).stdout)
    assert report["version"] == 2
    assert {"rule": "http-range", "level": "error"}.items() <= next(
        f for f in report["findings"] if f["rule"] == "http-range"
    ).items()


def test_the_built_in_contracts_have_no_lint_error() -> None:
    result = run_cli("lint")
    assert result.returncode == 0, result.stdout
    assert result.stdout.endswith(" warning(s).\n")
