"""Generated Python is written as the pinned black writes it: `black --check`, with the mode
generated code is formatted in (`render.python_format.BLACK_MODE`), leaves every generated
`.py` file as it is. The catalogue (`errors.py`) and the other templates are rendered in
black's form directly, never through black, so this test is what keeps that form honest: of
the built-in contracts, and of a contract of many codes whose strings are hostile (quotes,
backslashes, newlines, unicode, very long text, long arrays)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SCHEMAS
from mcp_contracts_generator import api
from mcp_contracts_generator.render.python_format import BLACK_MODE

HANDWRITTEN = {"canonical.py"}  # copied from the sources as they are (`modules:` of contract.yaml)


def _black_check(files: list[Path]) -> subprocess.CompletedProcess[str]:
    versions = [f"--target-version={v.name.lower()}" for v in sorted(BLACK_MODE.target_versions, key=str)]
    command = [sys.executable, "-m", "black", "--check", "--diff", f"--line-length={BLACK_MODE.line_length}"]
    return subprocess.run([*command, *versions, *map(str, files)], capture_output=True, text=True, check=False)


def _generated_python(folder: Path) -> list[Path]:
    files = sorted(p for p in folder.rglob("*.py") if p.name not in HANDWRITTEN)
    assert files
    return files


def test_the_built_in_contracts_python_is_as_black_writes_it() -> None:
    result = _black_check(_generated_python(ROOT / "generated" / "python"))
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


HOSTILE = [
    'say "hi"',
    "back\\slash \\n not a newline",
    "a real\nnewline and a\ttab",
    "unicode: é 中文 🎉 \u2028 line separator",
    "'single' and \"double\" and '''triple''' and \"\"\"triple\"\"\"",
    "x" * 300,
    " ".join(["a long description that goes on"] * 12),
    "{{ 7*7 }} {% raw %} </script> a|b `x` # h - [x]",
]


def _hostile_contract(tmp_path: Path, codes: int) -> Path:
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, schemas)
    folder = schemas / "contracts" / "jsonrpc"
    contract = (folder / "contract.yaml").read_text(encoding="utf-8")
    columns = (
        "    tags:\n      type: array\n      description: Tags.\n"
        "    retryable:\n      type: boolean\n      description: Whether to retry.\n"
        "    weight:\n      type: number\n      description: A weight.\n"
        "    hint:\n      type: string\n      description: A hint.\n"
    )
    (folder / "contract.yaml").write_text(contract.replace("  errors:\n", "  errors:\n" + columns, 1), encoding="utf-8")
    errors = []
    for index in range(codes):
        text = HOSTILE[index % len(HOSTILE)]
        entry: dict[str, object] = {"code": f"CODE_{index}", "message": text, "http_status": 400 + index % 100}
        if index % 3:
            entry |= {"description": text[::-1], "jsonrpc_code": -32000 - index}
        if index % 2:
            entry |= {"tags": [f"tag-{index}-{HOSTILE[k % len(HOSTILE)][:20]}" for k in range(index % 7)]}
            entry |= {"retryable": index % 4 == 1, "weight": index / 7, "hint": HOSTILE[(index + 3) % len(HOSTILE)]}
        errors.append(entry)
    for length in (39, 40, 41, 60, 78, 79, 80, 95):  # enum members about the width of a line
        errors.append(
            {
                "code": "L" * length,
                "message": "m",
                "http_status": 400,
                "tags": ["中文" * (length // 4), "文" * (length // 2)],
            }
        )
    (folder / "errors.yaml").write_text(json.dumps({"errors": errors}, ensure_ascii=False), encoding="utf-8")
    names = [e["code"] for e in errors]
    tools = [
        {"name": f"tool_{i}", "description": HOSTILE[i % len(HOSTILE)], "possible_error_codes": names[i : i + 3]}
        for i in range(codes // 4)
    ]
    (folder / "tools.yaml").write_text(json.dumps({"tools": tools}, ensure_ascii=False), encoding="utf-8")
    return schemas


@pytest.mark.slow  # CI runs it; the README's command leaves it out (its 4 minutes)
def test_a_large_contract_of_hostile_strings_is_as_black_writes_it(tmp_path: Path) -> None:
    schemas = _hostile_contract(tmp_path, 240)
    out = tmp_path / "out"
    outcome = api.generate(schemas, out)
    assert outcome.drift is not None, outcome.diagnostics
    result = _black_check(_generated_python(out / "python"))
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
