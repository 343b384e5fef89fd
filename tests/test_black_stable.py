"""Generated Python is written as the pinned black writes it: `black --check`, with the mode
generated code is formatted in (`render.python_format.BLACK_MODE`), leaves every generated
`.py` file as it is. The catalogue (`errors.py`) and the other templates are rendered in
black's form directly, never through black, so this test is what keeps that form honest: of
the built-in contracts, and of a contract of many codes whose strings are hostile (quotes,
backslashes, newlines, unicode, very long text, long arrays)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from hostile_catalogue import hostile_contract
from mcp_contracts_generator import api, options
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


@pytest.mark.slow  # CI runs it; the README's command leaves it out (its 4 minutes)
def test_a_large_contract_of_hostile_strings_is_as_black_writes_it(tmp_path: Path) -> None:
    schemas = hostile_contract(tmp_path, 240)
    out = tmp_path / "out"
    outcome = api.run(options.Generate(schemas=schemas, out=out))
    assert outcome.exit_code == 0, outcome.findings
    result = _black_check(_generated_python(out / "python"))
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
