"""Benchmarks of the generator and of the generated validators; results go to BENCHMARKS.md.

Run: `.venv/bin/python benchmarks/run.py` (a minute on two cores). Timings are the best
of several repeats, in process; they are never asserted by tests.
"""

from __future__ import annotations

import importlib
import platform
import subprocess
import sys
import timeit
from functools import partial
from pathlib import Path

import scale  # benchmarks/scale.py: `generate` at scale, the size of generated/

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "generated" / "python"))  # the built-in contracts' generated package
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
    """Per contract and example: orjson alone, the judge on the bytes, the models on the bytes."""
    import orjson
    from mcp_contracts_generator.runtime import parse_json

    rows = []
    for name, module in CONTRACTS.items():
        package = importlib.import_module(f"mcp_contracts.{module}")
        for example in sorted((ROOT / "schemas" / "contracts" / name / "examples").glob("*.json")):
            text = example.read_bytes()
            package.JUDGE.is_valid(parse_json(text))  # compile before timing
            loads = best_us(partial(orjson.loads, text), 20000)
            judge = best_us(lambda text=text, judge=package.JUDGE: judge.is_valid(parse_json(text)), 20000)
            models = best_us(partial(package.Envelope.model_validate_json, text), 20000)
            rows.append(
                f"| {name} | {example.name} | {len(text)} | {loads:.2f} | {judge:.2f} | {judge / loads:.1f} x"
                f" | {models:.2f} | {models / loads:.1f} x |"
            )
    return rows


def mock_rows() -> list[str]:
    """What the mock spends on one answer, in process (no transport): an example call, a
    default success, the error envelope of a code."""
    from mcp_contracts_generator import api
    from mcp_contracts_generator.mcp.mock import ERROR_REQUEST, Mock
    from mcp_contracts_generator.mcp.served import served

    project = api.load(ROOT / "schemas").project
    assert project is not None
    tuitbot = Mock(served(next(c for c in project.contracts if c.name == "tuitbot")))
    calls = {
        "the example call's result": ({"text": "Follow me for free followers!"}, None),
        "a default success": ({"text": "anything else"}, None),
        "the error envelope of `x_forbidden` (made at the first call, then kept)": (
            {"text": "anything else"},
            {ERROR_REQUEST: "x_forbidden"},
        ),
    }
    first = timeit.timeit(
        partial(tuitbot.answer, "x_post_tweet", {"text": "x"}, {ERROR_REQUEST: "x_forbidden"}), number=1
    )
    rows = [f"| the first error envelope of `x_forbidden` (made: examples, then synthesis) | {first * 1e6:.1f} |"]
    for label, (arguments, meta) in calls.items():
        micros = best_us(partial(tuitbot.answer, "x_post_tweet", arguments, meta), 2000)
        rows.append(f"| {label} | {micros:.1f} |")
    return rows


def command_seconds(*args: str) -> float:
    timings = []
    for _ in range(3):
        start = timeit.default_timer()
        subprocess.run(
            [sys.executable, "-m", "mcp_contracts_generator", *args], cwd=ROOT, check=True, capture_output=True
        )
        timings.append(timeit.default_timer() - start)
    return min(timings)


def main() -> None:
    rows = validation_rows()
    scaling = scale.section(smoke="--smoke" in sys.argv)
    mock = mock_rows()
    check = command_seconds("check")
    startup = command_seconds("--version")
    mock_command = (sys.executable, "-m", "mcp_contracts_generator", "mock", "--contract", "tuitbot")
    conform = command_seconds("conform", "--contract", "tuitbot", "--probe-errors", "--", *mock_command)
    lines = [
        "# Benchmarks",
        "",
        f"Measured by `benchmarks/run.py` on {platform.machine()}, Python {platform.python_version()}.",
        "",
        "## Judging one envelope from its JSON bytes (microseconds, best of 5)",
        "",
        "`judge` is `JUDGE.is_valid(parse_json(raw))`, what `validate` runs: msgspec reads the bytes (integers",
        "exact), then the contract's bundled schema compiled by jsonschema-rs judges them.",
        "`model_validate_json` runs the judge, then builds the typed view.",
        "Ratios are against `orjson.loads` of the same bytes in the same run; the target for the judge is 3 x.",
        "",
        "| contract | example | bytes | `orjson.loads` | judge | judge / loads"
        " | `model_validate_json` | models / loads |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
        *rows,
        "",
        "## Commands (seconds, best of 3, new process each)",
        "",
        "| command | seconds |",
        "| --- | --- |",
        f"| `mcp-contracts --version` (the start of every command; the MCP SDK is not imported) | {startup:.2f} |",
        f"| `mcp-contracts check` on the five built-in contracts | {check:.2f} |",
        f"| `conform --probe-errors` of tuitbot against its `mock` over stdio (17 calls) | {conform:.2f} |",
        "",
        "## The mock's answers (microseconds, best of 5, in process)",
        "",
        "`Mock.answer` for a call of tuitbot's `x_post_tweet`: the arguments checked by the tool's",
        "`inputSchema`, the document chosen or built, judged, and wrapped in a `CallToolResult`.",
        "",
        "| answer | microseconds |",
        "| --- | --- |",
        *mock,
        "",
        *scaling,
        "",
    ]
    (ROOT / "BENCHMARKS.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
