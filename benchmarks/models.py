"""The generated models against `orjson.loads`, for the benchmark suite to call.

`validation_rows` measures, for every built-in example and in one run, `orjson.loads` of the
bytes (the anchor), the judge (`JUDGE.is_valid(parse_json(raw))`), `Envelope.model_validate_json`
of the valid document, and `model_validate_json` raising on invalid variants of it (a required
member removed, a wrong type, an extra member where closed, a wrong const: the first mutation of
each kind the judge refuses). `import_row` measures the CPU of importing a generated contract in
a new process against `import pydantic` and one model class. Timings are interleaved with their
anchor and the best of several rounds of CPU time (`time.thread_time`) is kept; nothing here is
asserted by a test.

Run alone: `.venv/bin/python benchmarks/models.py [--smoke]`.
"""

from __future__ import annotations

import copy
import importlib
import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "generated" / "python"
CONTRACTS = {
    "code-scalpel": "code_scalpel",
    "foundry": "foundry",
    "jsonrpc": "jsonrpc",
    "mcp-envelope": "mcp_envelope",
    "tuitbot": "tuitbot",
}


def best_us(calls: list[Callable[[], object]], number: int, rounds: int) -> list[float]:
    """Per call, in microseconds of CPU time: each call's best round, the calls interleaved."""
    best = [float("inf")] * len(calls)
    for _ in range(rounds):
        for index, call in enumerate(calls):
            start = time.thread_time()
            for _ in range(number):
                call()
            best[index] = min(best[index], (time.thread_time() - start) / number * 1e6)
    return best


def _paths(node: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield at, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*at, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*at, index))


def _changed(document: Any, path: tuple[Any, ...], change: Callable[[Any, Any], None]) -> Any:
    changed = copy.deepcopy(document)
    node = changed
    for step in path[:-1]:
        node = node[step]
    change(node, path[-1])
    return changed


def _add(document: Any, path: tuple[Any, ...]) -> Any:
    changed = copy.deepcopy(document)
    node = changed
    for step in path:
        node = node[step]
    node["zz_extra"] = 1
    return changed


def invalid_variants(document: Any, is_valid: Callable[[Any], bool]) -> dict[str, Any]:
    """The first variant of each kind of mistake that the judge refuses."""
    leaves = [(path, value) for path, value in _paths(document) if path]

    def removed(node: Any, key: Any) -> None:
        del node[key]

    def put(value: Any) -> Callable[[Any, Any], None]:
        def change(node: Any, key: Any) -> None:
            node[key] = value

        return change

    candidates = {
        "missing": (_changed(document, p, removed) for p, _ in leaves if isinstance(p[-1], str)),
        "type": (_changed(document, p, put(12345)) for p, v in leaves if isinstance(v, str)),
        "extra": (_add(document, p) for p, v in _paths(document) if isinstance(v, dict)),
        "const": (
            _changed(document, p, put(not v if isinstance(v, bool) else "zz-not-a-const"))
            for p, v in leaves
            if isinstance(v, (bool, str))
        ),
    }
    return {kind: next((d for d in found if not is_valid(d)), None) for kind, found in candidates.items()}


def _judged(is_valid: Callable[[Any], bool], parse_json: Callable[[bytes], Any], raw: bytes) -> bool:
    return is_valid(parse_json(raw))


def _refused(model: Any, error: type[Exception], bad: bytes) -> None:
    try:
        model.model_validate_json(bad)
    except error:
        return
    raise AssertionError("an invalid variant was accepted")


def validation_rows(smoke: bool = False) -> tuple[list[str], dict[str, float]]:
    """One table row per example, and the medians and maxima of the ratios."""
    import orjson
    from pydantic import ValidationError

    sys.path.insert(0, str(GENERATED))
    number, rounds = (50, 2) if smoke else (2000, 15)
    rows, valid, invalid = [], [], []
    for contract, module in CONTRACTS.items():
        package = importlib.import_module(f"mcp_contracts.{module}")
        parse_json = importlib.import_module("mcp_contracts._runtime").parse_json
        model, judge = package.Envelope, package.JUDGE
        for example in sorted((ROOT / "schemas" / "contracts" / contract / "examples").glob("*.json")):
            raw = example.read_bytes()
            model.model_validate_json(raw)  # compiled and built before timing
            judging = partial(_judged, judge.is_valid, parse_json, raw)
            calls: list[Callable[[], object]] = [
                partial(orjson.loads, raw),
                judging,
                partial(model.model_validate_json, raw),
            ]
            loads, judged, built = best_us(calls, number, rounds)
            valid.append(built / loads)
            refused = []
            for kind, variant in invalid_variants(json.loads(raw), judge.is_valid).items():
                if variant is None:
                    continue
                bad = orjson.dumps(variant)
                refuse = partial(_refused, model, ValidationError, bad)
                anchor, raised = best_us([partial(orjson.loads, bad), refuse], max(number // 10, 5), rounds)
                invalid.append(raised / anchor)
                refused.append(f"{kind} {raised / anchor:.1f} x")
            rows.append(
                f"| {contract} | {example.name} | {loads:.2f} | {judged / loads:.1f} x | {built / loads:.1f} x"
                f" | {', '.join(refused)} |"
            )
    summary = {
        "valid median": statistics.median(valid),
        "valid max": max(valid),
        "invalid median": statistics.median(invalid),
        "invalid max": max(invalid),
    }
    return rows, summary


def _cpu(code: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True, env={"PYTHONPATH": str(GENERATED)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def import_row(smoke: bool = False, contract: str = "tuitbot") -> str:
    """CPU of importing a generated contract against `import pydantic` and one model class."""
    anchor_code = "import pydantic\nclass M(pydantic.BaseModel):\n    x: int"
    subject_code = f"import mcp_contracts.{CONTRACTS[contract]}"
    anchor = subject = float("inf")
    for _ in range(2 if smoke else 15):
        anchor, subject = min(anchor, _cpu(anchor_code)), min(subject, _cpu(subject_code))
    return f"| `{subject_code}` | {anchor * 1000:.0f} ms | {subject * 1000:.0f} ms | {subject / anchor:.2f} x |"


def main() -> None:
    smoke = "--smoke" in sys.argv
    rows, summary = validation_rows(smoke)
    print("| contract | example | `orjson.loads` us | judge | `model_validate_json` valid | raising on invalid |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print(", ".join(f"{name} {value:.1f} x" for name, value in summary.items()))
    print("| import | anchor | contract | ratio |")
    print(import_row(smoke))


if __name__ == "__main__":
    main()
