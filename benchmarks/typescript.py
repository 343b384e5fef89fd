"""Rows 9 to 11: the generated TypeScript package (generated/typescript/mcp_contracts), in node.

The package is copied into a temporary folder beside a link to tests/ts/node_modules (the
typescript, zod and ajv 8 the tests pin) and compiled with its `tsc`; one node process
(typescript_bench.mjs) then times, in process, for each built-in example
(schemas/contracts/*/examples/*.json):
- row 9: `JSON.parse(text)` + the generated `isEnvelope(value)`, against `JSON.parse(text)` alone
  (9.1) and against `JSON.parse(text)` + ajv 8 compiled from the same bundle (9.2);
  `validate(JSON.parse(bad))` of the example without a required member (9.3);
- row 10: `errorResponse(code, message, members)` / `successResponse(members)` + `JSON.stringify`,
  against the same envelope as an object literal + `JSON.stringify` (members as in row 5);
and, each in a fresh node process that it starts, the import of a contract's module against
that of zod (11.1 to 11.5), and its first `isEnvelope` call against ajv's compile (11.6 to 11.10).
Without node or tests/ts/node_modules the group has no rows (and says why on stderr).
"""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builders import _members, _required
from harness import CONTRACTS, GENERATED, ROOT, SCHEMAS, Goal, Row, Settings, median, module_of

TS = ROOT / "tests" / "ts"
PACKAGE = GENERATED / "typescript" / "mcp_contracts"
SCRIPT = Path(__file__).resolve().with_name("typescript_bench.mjs")
NEEDED = ("typescript", "zod", "ajv")


def missing() -> str | None:
    """Why the group cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    lacking = [name for name in NEEDED if not (TS / "node_modules" / name / "package.json").is_file()]
    if lacking:
        return f"{TS / 'node_modules'} lacks {', '.join(lacking)} (run npm ci in tests/ts)"
    return None


def _version(package: str) -> str:
    version: str = json.loads((TS / "node_modules" / package / "package.json").read_text(encoding="utf-8"))["version"]
    return version


def machine() -> list[str]:
    """The node and the packages rows 9 to 11 ran with (nothing when they could not run)."""
    if missing() is not None:
        return []
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    packages = ", ".join(f"{name} {_version(name)}" for name in NEEDED)
    return [f"- Node: {node}; from tests/ts (rows 9 to 11): {packages}"]


def _spec(folder: Path, settings: Settings) -> dict[str, Any]:
    contracts = []
    for contract in CONTRACTS:
        module = contract.replace("-", "_")
        package = importlib.import_module(module_of(contract))
        builders = None
        if hasattr(package, "error_response"):  # as row 5: required members from the examples
            members = _members(contract)
            builders = {
                "code": next(iter(package.ERRORS)).value,
                "error": _required(package.error_response, members),
                "success": _required(package.success_response, members),
            }
        examples = sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json"))
        contracts.append(
            {
                "name": contract,
                "module": module,
                "bundle": str(GENERATED / "python" / "mcp_contracts" / module / "schema.json"),
                "examples": [{"name": path.name, "text": path.read_text(encoding="utf-8")} for path in examples],
                "builders": builders,
            }
        )
    return {
        "folder": str(folder),
        "contracts": contracts,
        "smoke": settings.smoke,
        "warmup": 50,  # ms of calls of each call before any is timed
        "budget": 5,  # ms per round
        "repeats": settings.repeats(21),
        "coldRepeats": settings.repeats(7),
    }


def _node(settings: Settings) -> dict[str, Any]:
    """Compile the package in a temporary folder and run typescript_bench.mjs on it."""
    with tempfile.TemporaryDirectory(prefix="mcp-contracts-ts-bench-") as temporary:
        folder = Path(temporary) / "mcp_contracts"
        shutil.copytree(PACKAGE, folder, ignore=shutil.ignore_patterns("node_modules", "dist"))
        (folder / "node_modules").symlink_to(TS / "node_modules", target_is_directory=True)
        start = time.perf_counter()
        subprocess.run(
            [str(TS / "node_modules" / ".bin" / "tsc"), "-p", str(folder)], check=True, capture_output=True, text=True
        )
        print(f"benchmarks: typescript: tsc took {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
        spec = Path(temporary) / "spec.json"
        spec.write_text(json.dumps(_spec(folder, settings)), encoding="utf-8")
        done = subprocess.run(["node", str(SCRIPT), str(spec)], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"typescript_bench.mjs failed:\n{done.stderr[-3000:]}")
        found: dict[str, Any] = json.loads(done.stdout)
        return found


@dataclass(frozen=True)
class Example:
    contract: str
    example: str
    bytes: int
    parse: float  # seconds per call, each
    judge: float
    ajv: float
    variant: str | None
    violations: int
    bad_parse: float
    bad_validate: float


def _examples(found: dict[str, Any]) -> list[Example]:
    return [
        Example(
            e["contract"],
            e["example"],
            e["bytes"],
            e["parse"],
            e["judge"],
            e["ajv"],
            e.get("variant"),
            e.get("violations", 0),
            e.get("badParse", 0.0),
            e.get("badValidate", 0.0),
        )
        for e in found["examples"]
    ]


def _ratios(ratios: list[float]) -> str:
    return f"ratios: median {median(ratios):.1f} x, max {max(ratios):.1f} x"


def measure(settings: Settings) -> tuple[list[Row], list[str]]:
    reason = missing()
    if reason is not None:
        print(f"benchmarks: typescript: skipped, {reason}", file=sys.stderr, flush=True)
        return [], []
    found = _node(settings)
    examples = _examples(found)
    bad = [e for e in examples if e.variant is not None]
    n = len(examples)
    judge = [e.judge / e.parse for e in examples]
    against_ajv = [e.judge / e.ajv for e in examples]
    invalid = [e.bad_validate / e.bad_parse for e in bad]
    ajv = f"ajv {_version('ajv')}"
    figure = f"`JSON.parse(text)` + `isEnvelope(value)`, median of {n} examples"
    rows = [
        Row(
            "9.1",
            figure,
            median([e.judge for e in examples]) * 1e6,
            "µs",
            Goal("<=", 3.0),
            f"`JSON.parse(text)` of the same text, median of {n} examples",
            median([e.parse for e in examples]) * 1e6,
            _ratios(judge),
            given_ratio=median(judge),
        ),
        Row(
            "9.2",
            figure,
            median([e.judge for e in examples]) * 1e6,
            "µs",
            Goal("<=", 1.0),
            f"`JSON.parse(text)` + {ajv}'s validator of the same bundle, median of {n} examples",
            median([e.ajv for e in examples]) * 1e6,
            f"{_ratios(against_ajv)}; ajv / `JSON.parse`: median {median([e.ajv / e.parse for e in examples]):.1f} x",
            given_ratio=median(against_ajv),
        ),
        Row(
            "9.3",
            f"`validate(JSON.parse(text))` of invalid text (a required member dropped), median of {len(bad)} examples",
            median([e.bad_validate for e in bad]) * 1e6,
            "µs",
            Goal("<=", 10.0),
            f"`JSON.parse` of the same invalid text, median of {len(bad)}",
            median([e.bad_parse for e in bad]) * 1e6,
            _ratios(invalid),
            given_ratio=median(invalid),
        ),
    ]
    for index, b in enumerate(found["builders"], start=1):
        error = f"`errorResponse({b['code']!r}, message, members)`"
        call = error if b["kind"] == "error" else "`successResponse(members)`"
        rows.append(
            Row(
                f"10.{index}",
                f"{b['contract']}: {call} + `JSON.stringify`",
                b["ours"] * 1e6,
                "µs",
                Goal("<=", 3.0),
                "the same envelope as an object literal + `JSON.stringify`",
                b["literal"] * 1e6,
                f"members from the examples: {', '.join(sorted(b['arguments']))}" if b["arguments"] else "",
            )
        )
    cold = found["cold"]
    repeats = settings.repeats(7)
    for index, contract in enumerate(CONTRACTS, start=1):
        c = cold["contracts"][contract]
        rows.append(
            Row(
                f"11.{index}",
                f"`import` of `dist/{contract.replace('-', '_')}/index.js` in a fresh node (median of {repeats})",
                c["import"],
                "ms",
                None,
                "`import` of zod in a fresh node",
                cold["zod"],
                f"then its first `isEnvelope`: {c['first']:.2f} ms, the second: {c['second'] * 1000:.0f} µs"
                + ("" if c["zod"] else "; it loads no zod (no tools: tsc dropped the unused import)"),
            )
        )
    for index, contract in enumerate(CONTRACTS, start=len(CONTRACTS) + 1):
        c = cold["contracts"][contract]
        rows.append(
            Row(
                f"11.{index}",
                f"{contract}: `new Judge(bundle)` + its first `isValid`, in a fresh node (median of {repeats})",
                c["compile"],
                "ms",
                None,
                f"{ajv}: an instance, `addSchema` of each resource, `compile`, its first call",
                c["ajvCompile"],
            )
        )
    return rows, detail(examples)


def detail(examples: list[Example]) -> list[str]:
    lines = [
        "| contract | example | bytes | `JSON.parse` µs | + `isEnvelope` µs | / parse | + ajv µs | ours / ajv |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for e in examples:
        lines.append(
            f"| {e.contract} | {e.example} | {e.bytes} | {e.parse * 1e6:.2f} | {e.judge * 1e6:.2f}"
            f" | {e.judge / e.parse:.1f} x | {e.ajv * 1e6:.2f} | {e.judge / e.ajv:.2f} x |"
        )
    lines += [
        "",
        "Invalid variants (9.3): the first member, root first then inner objects in key order, whose removal",
        "`isEnvelope` rejects; `validate` collects every violation, where `isEnvelope` stops at the first:",
        "",
        "| contract | example | variant | `JSON.parse` µs | + `validate` µs | ratio | violations |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for e in examples:
        if e.variant is None:
            continue
        variant = e.variant.replace("|", "\\|")
        lines.append(
            f"| {e.contract} | {e.example} | {variant} | {e.bad_parse * 1e6:.2f} | {e.bad_validate * 1e6:.2f}"
            f" | {e.bad_validate / e.bad_parse:.1f} x | {e.violations} |"
        )
    return lines
