"""Any string, in every place a source string can go, renders safely or is refused.

Hypothesis draws strings into the contract's title and summary (its version is a semantic
version, refused otherwise: tests/hostile/cases.py), an error's message and description, a
tool's name and description, the schema's title and description, a property's name,
description, enum values and default, and an example. The render either
refuses with diagnostics (naming a file) or yields a plan whose Python parses, whose JSON
loads, whose Markdown tables keep their columns and whose TypeScript compiles under `tsc
--strict` (all the drawn packages in one run, with the tests' TypeScript toolchain). It never
raises.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import SCHEMAS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_contracts_generator import api

TEXT = st.text(min_size=1, max_size=40) | st.sampled_from(
    [
        '"""',
        "'''",
        "{{ 7*7 }}",
        "{% raw %}",
        "</script>",
        "a|b",
        "`x`",
        "\\",
        "\u2028",
        "# h",
        "- [x]",
        "\x00",
    ]
)
# Strings that would break TypeScript if placed raw: a comment's end, a template literal's
# placeholder, keys an object literal reads as its prototype or inherits.
TYPESCRIPT_HOSTILE = ["*/ x /*", "${7*7}", "__proto__", "constructor", "`", "\u2028", "'\"", "</script>", "a\\", "x"]


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")  # JSON is YAML


def _tables_keep_their_columns(page: str) -> None:
    width = None
    for line in page.split("\n"):
        if not line.startswith("|"):
            width = None
            continue
        cells = line.count("|") - line.count("\\|")
        width = width or cells
        assert cells == width, line


def _render_drawn(strings: list[str], work: Path) -> bool:
    """Place the strings, render, check what comes out; whether a plan came out. The
    TypeScript of the plan is written under `work/typescript/`, for `_typescript_compiles`."""
    folder = work / "schemas" / "contracts" / "jsonrpc"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", folder)
    title, summary, _, message, description, tool, schema_text, name, value, other = strings
    identity = {"name": "jsonrpc", "title": title, "summary": summary, "version": "1.0.0", "module": "jsonrpc"}
    identity["columns"] = {"errors": {"http_status": {"type": "integer", "description": description}}}
    _write(folder / "contract.yaml", identity)
    _write(folder / "errors.yaml", {"errors": [{"code": "E", "message": message, "description": description}]})
    _write(folder / "tools.yaml", {"tools": [{"name": tool, "description": description}]})
    schema = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    schema.update(title=schema_text, description=schema_text)
    schema["properties"][name] = {"enum": [value, other], "default": value, "description": description}
    _write(folder / "envelope.schema.json", schema)
    example = {"id": "1", "jsonrpc": "2.0", "method": "m", "params": {}, name: value}
    _write(folder / "examples" / "drawn.json", example)

    result = api.render(work / "schemas", package="drawn")
    if result.plan is None:
        assert result.diagnostics and all(d.file for d in result.diagnostics)
        return False
    for path, content in result.plan.items():
        text = content.decode("utf-8")
        if path.startswith("typescript/drawn/src/"):
            target = work / "typescript" / path.removeprefix("typescript/drawn/src/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        if path.endswith(".py"):
            ast.parse(text, filename=path)
        elif path.endswith(".json"):
            json.loads(text)
        elif path.endswith(".md"):
            _tables_keep_their_columns(text.split("## Examples")[0])
            assert "49" not in text or "49" in "".join(strings), "a template expression ran"
    return True


def test_any_string_anywhere_renders_safely_or_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    outcomes: list[bool] = []

    @settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(strings=st.lists(TEXT, min_size=10, max_size=10))
    def drawn(strings: list[str]) -> None:
        outcomes.append(_render_drawn(strings, tmp_path_factory.mktemp("strings")))

    drawn()
    # The strings are hostile, not broken: most of them must render, not be refused.
    assert sum(outcomes) >= len(outcomes) // 2, outcomes
    rendered = tmp_path_factory.mktemp("typescript")
    for folder in tmp_path_factory.getbasetemp().glob("strings*/typescript"):
        shutil.copytree(folder, rendered / folder.parent.name)
    _typescript_compiles(rendered)


@pytest.mark.slow  # tsc builds
def test_strings_hostile_to_typescript_render_code_that_compiles(tmp_path: Path) -> None:
    rendered = tmp_path / "rendered"
    for shift in range(len(TYPESCRIPT_HOSTILE)):  # each string in every place
        strings = TYPESCRIPT_HOSTILE[shift:] + TYPESCRIPT_HOSTILE[:shift]
        assert _render_drawn(strings, tmp_path / f"strings{shift}")
        shutil.copytree(tmp_path / f"strings{shift}" / "typescript", rendered / f"strings{shift}")
    _typescript_compiles(rendered)


def _typescript_compiles(folder: Path) -> None:
    """Every drawn TypeScript package, compiled in one `tsc --strict` run."""
    from typescript_toolchain import PACKAGE, TS, node_or_skip

    node_or_skip()
    assert any(folder.iterdir()), "no TypeScript was rendered"
    config = json.loads((PACKAGE / "tsconfig.json").read_text(encoding="utf-8"))
    config["compilerOptions"].update(rootDir=".", outDir="dist")
    config["include"] = ["*/**/*.ts"]
    (folder / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    (folder / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (folder / "node_modules").symlink_to(TS / "node_modules", target_is_directory=True)
    tsc = subprocess.run(
        [str(TS / "node_modules" / ".bin" / "tsc"), "-p", str(folder), "--strict"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert tsc.returncode == 0, tsc.stdout[-4000:]


@pytest.mark.parametrize("where", ["title", "message"])
def test_a_nul_is_refused_with_a_line_not_a_crash(where: str, tmp_path: Path) -> None:
    folder = tmp_path / "schemas" / "contracts" / "jsonrpc"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", folder)
    target = folder / ("contract.yaml" if where == "title" else "errors.yaml")
    target.write_text(target.read_text(encoding="utf-8").replace("\n", "\n# \x00\n", 1), encoding="utf-8")
    result = api.render(tmp_path / "schemas")
    assert result.plan is None and any(target.name in d.file for d in result.diagnostics)
