"""Benchmarks of the generator and of the generated validators; results go to BENCHMARKS.md.

Run: `.venv/bin/python benchmarks/run.py` (a minute on two cores). Timings are the best
of several repeats, in process; they are never asserted by tests.
"""

from __future__ import annotations

import importlib
import json
import platform
import subprocess
import sys
import timeit
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = {
    "code-scalpel": "code_scalpel",
    "foundry": "foundry",
    "jsonrpc": "jsonrpc",
    "mcp-envelope": "mcp_envelope",
    "tuitbot": "tuitbot",
}


def best_us(call: object, number: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=5)) / number * 1e6  # type: ignore[arg-type]


def validation_rows() -> list[str]:
    from generator.load.jsonschema_judge import contract_validator

    rows = []
    for name, module in CONTRACTS.items():
        example = sorted((ROOT / "schemas" / "contracts" / name / "examples").glob("*.json"))[0]
        text = example.read_bytes()
        envelope = importlib.import_module(f"mcp_contracts.{module}").Envelope
        schema = json.loads((ROOT / "schemas" / "contracts" / name / "envelope.schema.json").read_text())
        judge = contract_validator(schema)
        document = json.loads(text)
        models = best_us(partial(envelope.model_validate_json, text), 20000)
        dumped = envelope.model_validate_json(text)
        dump = best_us(dumped.model_dump_json, 20000)
        reference = best_us(partial(judge.is_valid, document), 300)
        rows.append(f"| {name} | {example.name} | {len(text)} | {models:.1f} | {dump:.1f} | {reference:.0f} |")
    return rows


def command_seconds(*args: str) -> float:
    timings = []
    for _ in range(3):
        start = timeit.default_timer()
        subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT, check=True, capture_output=True)
        timings.append(timeit.default_timer() - start)
    return min(timings)


def main() -> None:
    rows = validation_rows()
    check = command_seconds("check")
    lines = [
        "# Benchmarks",
        "",
        f"Measured by `benchmarks/run.py` on {platform.machine()}, Python {platform.python_version()}.",
        "",
        "## Judging one envelope (microseconds, best of 5)",
        "",
        "| contract | example | bytes | `model_validate_json` | `model_dump_json` | jsonschema (reference) |",
        "| --- | --- | --- | --- | --- | --- |",
        *rows,
        "",
        "## Commands (seconds, best of 3, new process each)",
        "",
        "| command | seconds |",
        "| --- | --- |",
        f"| `mcp-contracts check` on the five built-in contracts | {check:.2f} |",
        "",
    ]
    (ROOT / "BENCHMARKS.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
