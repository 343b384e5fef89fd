"""The TypeScript package as a reviewer reads it: the schemas judge.ts and tools.ts embed are
written one JSON line a source line, so that a one-keyword edit of a schema is a one-line
diff of each file it reaches. (The package compiles and judges as the Python package does:
tests/test_typescript_package.py, under `slow`.)"""

from __future__ import annotations

import difflib
import json
import re
import shutil
from pathlib import Path

from conftest import ROOT, SCHEMAS, run_cli

FOLDER = "generated/typescript/contracts/src/jsonrpc"


def _project(tmp_path: Path) -> Path:
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", tmp_path / "schemas" / "contracts" / "jsonrpc")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mcp-contracts]\npackage = "contracts"\nlanguages = ["python", "typescript"]\n', encoding="utf-8"
    )
    return tmp_path


def _generated(project: Path) -> dict[str, list[str]]:
    result = run_cli("generate", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    return {
        name: (project / FOLDER / name).read_text(encoding="utf-8").splitlines()
        for name in ("judge.ts", "tools.ts", "compiled.ts")
    }


def _changed(before: list[str], after: list[str]) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before, after, lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_one_keyword_edit_is_a_one_line_diff(tmp_path: Path) -> None:
    project = _project(tmp_path)
    contract = project / "schemas" / "contracts" / "jsonrpc"
    before = _generated(project)
    _edit(contract / "envelope.schema.json", '"type": "string", "minLength": 1,', '"type": "string", "minLength": 2,')
    after = _generated(project)
    # The envelope is in the judge's bundle, and it is the output schema every tool publishes.
    for name in ("judge.ts", "tools.ts"):
        changed = _changed(before[name], after[name])
        assert len(changed) == 2, (name, changed)
        assert re.fullmatch(r'-\s+"\s*\\"minLength\\": 1,",', changed[0]), changed
        assert re.fullmatch(r'\+\s+"\s*\\"minLength\\": 2,",', changed[1]), changed
    # The code compiled from it (compiled.ts): the line that checks the length.
    changed = _changed(before["compiled.ts"], after["compiled.ts"])
    assert [line[0] for line in changed] == ["-", "+"], changed
    assert all("codePointLength" in line for line in changed), changed


def test_the_embedded_text_is_the_schema_as_json_reads_it(tmp_path: Path) -> None:
    """Each embedded array of lines joins to the JSON of its schema: the judge's bundle holds
    the envelope as written, and tools.ts each published schema of mcp/jsonrpc.tools.json."""
    project = _project(tmp_path)
    files = _generated(project)
    bundles = _embedded(files["judge.ts"])
    assert len(bundles) == 1
    envelope = json.loads((project / "schemas" / "contracts" / "jsonrpc" / "envelope.schema.json").read_text())
    assert (
        envelope["properties"].items() <= bundles[0]["resources"]["file:///envelope.schema.json"]["properties"].items()
    )
    listed = json.loads((project / "generated" / "mcp" / "jsonrpc.tools.json").read_text(encoding="utf-8"))
    published = {
        json.dumps(t[key], sort_keys=True)
        for t in listed["tools"]
        for key in ("inputSchema", "outputSchema")
        if key in t
    }
    embedded = _embedded(files["tools.ts"])
    # Beside the schemas, the serving data (`serving_document`), its schemas as their indexes.
    serving = [s for s in embedded if isinstance(s, dict) and "at" in s and "results" in s]
    assert len(serving) == 1
    assert {json.dumps(s, sort_keys=True) for s in embedded if s not in serving} == published


def _embedded(lines: list[str]) -> list[object]:
    """The values of every `JSON.parse([...].join("\\n"))` of a file: its lines read as the JSON
    strings they are (each is a JSON string literal), joined, and parsed."""
    found, current = [], None
    for line in lines:
        if line.rstrip().endswith("JSON.parse(["):
            current = []
        elif current is not None and line.lstrip().startswith('].join("\\n")'):
            found.append(json.loads("\n".join(current)))
            current = None
        elif current is not None:
            current.append(json.loads(line.strip().removesuffix(",")))
    return found


def test_resources_ts_and_prompts_ts_only_where_the_contract_declares_them(tmp_path: Path) -> None:
    """The example contract declares resources, a template and prompts; jsonrpc none: its folder
    and index stay as they were (tests/test_typescript_surface.py compiles and calls them)."""
    fixtures = _project(tmp_path / "fixtures")
    shutil.copytree(
        ROOT / "tests" / "contracts" / "conformance-fixtures",
        fixtures / "schemas" / "contracts" / "conformance-fixtures",
    )
    _generated(fixtures)
    declared = fixtures / "generated/typescript/contracts/src/conformance_fixtures"
    index = (declared / "index.ts").read_text(encoding="utf-8")
    assert 'export * as resources from "./resources.js";' in index
    assert 'export * as prompts from "./prompts.js";' in index
    resources = (declared / "resources.ts").read_text(encoding="utf-8")
    assert 'export const STATIC_TEXT = "test://static-text";' in resources
    assert 'UriTemplate.parse("test://template/{id}/data")' in resources
    assert "export function matchTemplateData(uri: string): TemplateDataValues | null {" in resources
    prompts = (declared / "prompts.ts").read_text(encoding="utf-8")
    assert "export function isTestPromptWithArgumentsArguments(value: unknown)" in prompts
    assert (fixtures / "generated/typescript/contracts/src/_runtime/uri_template.ts").is_file()
    plain = fixtures / FOLDER
    assert not (plain / "resources.ts").exists() and not (plain / "prompts.ts").exists()
    assert "resources" not in (plain / "index.ts").read_text(encoding="utf-8")
