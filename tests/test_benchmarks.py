"""The benchmark suite keeps working: `benchmarks/run.py --smoke` runs every benchmark once with
tiny sizes and gives every row a number, in a well-formed table. Nothing here is timed: the
numbers themselves are never asserted, only that they are there."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CONTRACTS, GENERATED, ROOT

RUN = ROOT / "benchmarks" / "run.py"
WITH_BUILDERS = [
    c for c in CONTRACTS if hasattr(importlib.import_module(f"mcp_contracts.{c.replace('-', '_')}"), "error_response")
]
TOOLS_FILES = sorted((GENERATED / "mcp").glob("*.tools.json"))
# Every row of the table, by its number in BENCHMARKS.md.
EXPECTED = {
    "1", "2", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7",
    "7.1", "7.2", "8.0", "8.1", "12.1", "12.2",
    *(f"5.{i}" for i in range(1, 4 * len(WITH_BUILDERS) + 1)),  # the model's path, then the wire's
    *(f"6.{i}" for i in range(1, len(CONTRACTS) + 1)),
    *(f"8.{i}" for i in range(2, len(TOOLS_FILES) + 2)),
}  # fmt: skip
# Rows 9 to 11, the TypeScript package's: the run has them where node and tests/ts/node_modules are
# (what benchmarks/typescript.py's `missing` asks).
NODE = shutil.which("node") is not None and all(
    (ROOT / "tests" / "ts" / "node_modules" / name / "package.json").is_file() for name in ("typescript", "zod", "ajv")
)
TYPESCRIPT = {
    "9.1", "9.2", "9.3",
    *(f"10.{i}" for i in range(1, 2 * len(WITH_BUILDERS) + 1)),
    *(f"11.{i}" for i in range(1, 2 * len(CONTRACTS) + 1)),
}  # fmt: skip
HEADER = ["#", "figure", "anchor", "anchor value", "ours", "ratio", "goal", "met", "note"]
NUMBER = re.compile(r"^(\d[\d,]*(\.\d+)?|∞) (µs|ms|s|MiB|B|calls/s|x)$")  # ∞: a ratio over a zero


def _cells(line: str) -> list[str]:
    assert line.startswith("| ") and line.endswith(" |"), line
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line[1:-1])]


def _results(markdown: str) -> list[list[str]]:
    """The rows of the results table (the first table after `## Results`), checked well-formed:
    a header, a separator of as many cells, then rows of as many cells, and no other line."""
    lines = markdown.split("## Results", 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    header, separator, *rows = lines[start:end]
    assert _cells(header) == HEADER
    assert all(re.fullmatch(r"-+:?", cell) for cell in _cells(separator))
    assert len(_cells(separator)) == len(HEADER)
    found = [_cells(row) for row in rows]
    assert all(len(cells) == len(HEADER) for cells in found)
    return found


def _check(markdown: str, expected: set[str] = EXPECTED | TYPESCRIPT) -> None:
    rows = _results(markdown)
    keys = [cells[0] for cells in rows]
    assert set(keys) == expected
    assert keys == sorted(keys, key=lambda key: tuple(int(part) for part in key.split(".")))  # deterministic order
    for key, figure, anchor, anchor_value, ours, ratio, goal, met, _ in rows:
        assert figure, key
        assert NUMBER.match(ours), (key, ours)  # a number, never a blank or a failure
        if anchor != "-":  # a row beside an anchor has both values and their ratio
            assert NUMBER.match(anchor_value), (key, anchor_value)
            assert NUMBER.match(ratio), (key, ratio)
        assert (goal == "-") == (met == "-"), key
        assert met in {"-", "yes", "**no**"}, key
    assert "## Machine" in markdown
    for package in ("pydantic", "jsonschema-rs", "msgspec", "orjson", "mcp", "datamodel-code-generator", "black"):
        assert f"{package} " in markdown


@pytest.mark.slow  # every benchmark once, each a process of its own: `pytest -m slow`, as CI runs it
def test_the_smoke_run_gives_every_row_a_number_and_writes_only_where_told(tmp_path: Path) -> None:
    committed = (ROOT / "BENCHMARKS.md").read_bytes()
    out = tmp_path / "smoke.md"
    result = subprocess.run(
        [sys.executable, str(RUN), "--smoke", "--out", str(out)], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-3000:]
    markdown = out.read_text(encoding="utf-8")
    _check(markdown, EXPECTED | (TYPESCRIPT if NODE else set()))
    assert "**FAILED**" not in markdown  # no command the suite measures failed
    assert (ROOT / "BENCHMARKS.md").read_bytes() == committed  # smoke writes nothing into the repository
    assert markdown in result.stdout


@pytest.mark.parametrize("line", ["| 1 | a | b | 1 s |", "| 1 | a |"])
def test_a_table_with_a_row_of_the_wrong_width_is_refused(line: str) -> None:
    table = "## Results\n\n| " + " | ".join(HEADER) + " |\n|" + " --- |" * len(HEADER) + "\n" + line + "\n"
    with pytest.raises(AssertionError):
        _results(table)


def test_the_committed_results_have_every_row() -> None:
    """BENCHMARKS.md as committed comes from a full run of the suite as it is."""
    _check((ROOT / "BENCHMARKS.md").read_text(encoding="utf-8"))
