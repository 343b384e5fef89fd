"""Every figure of the performance table, each beside its anchor measured in the same run.

Run: `.venv/bin/python benchmarks/run.py` (a few minutes on two cores); it writes
BENCHMARKS.md. `--smoke` runs every benchmark once with tiny sizes and writes nothing into
the repository (only to `--out PATH` when given): tests/test_benchmarks.py runs it so the
suite keeps working. No test ever asserts a time.

One module per group: startup.py (rows 1 and 6), check.py (2), scale.py (3, with
large_bundle.py), validation.py (4), builders.py (5), serving.py (7, `mock`), size.py (8),
typescript.py (9 to 11, with typescript_bench.mjs; they need node and tests/ts/node_modules),
import_memory.py (12, with resources_server.py); harness.py times and formats.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the group modules beside this file

from harness import GENERATED, ROOT, Row, Settings

sys.path.insert(0, str(GENERATED / "python"))  # the built-in contracts' generated package

PACKAGES = ("pydantic", "jsonschema-rs", "msgspec", "orjson", "mcp", "datamodel-code-generator", "black")
GROUPS = ("startup", "check", "scale", "validation", "builders", "imports", "mock", "size", "typescript", "import")


def machine() -> list[str]:
    """The machine and the versions that bear on the numbers; nothing that changes per run."""
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    versions = ", ".join(f"{name} {_version(name)}" for name in PACKAGES)
    return [
        f"- CPU: {model}, {os.cpu_count()} logical cores",
        f"- OS: {platform.system()} {platform.release()} ({platform.machine()})",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- Packages: {versions}",
        f"- Load average (1 min) when the run began: {os.getloadavg()[0]:.2f} (what else shares the cores;"
        " it lengthens walls more than a child's CPU)",
    ]


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "(not installed)"


def number(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if value == float("inf"):
        return f"∞ {unit}"
    if unit == "bytes":
        return f"{value:,.0f} B"
    if unit == "x":
        return f"{value:.2f} x"
    digits = {"µs": 2, "ms": 1, "s": 2, "MiB": 0, "calls/s": 0}.get(unit, 2)
    return f"{value:,.{digits}f} {unit}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _order(row: Row) -> tuple[int, ...]:
    return tuple(int(part) for part in row.key.split("."))


def table(rows: list[Row]) -> list[str]:
    lines = [
        "| # | figure | anchor | anchor value | ours | ratio | goal | met | note |",
        "| --- | --- | --- | ---: | ---: | ---: | --- | --- | --- |",
    ]
    for row in sorted(rows, key=_order):
        met = "-" if row.met is None else "yes" if row.met else "**no**"
        cells = [
            row.key,
            row.figure,
            row.anchor or "-",
            number(row.anchor_value, row.unit),
            number(row.ours, row.unit),
            number(row.ratio, "x"),
            row.goal.text() if row.goal is not None else "-",
            met,
            row.note or "",
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return lines


def measure(settings: Settings, groups: tuple[str, ...]) -> tuple[list[Row], dict[str, list[str]]]:
    import builders
    import check
    import import_memory
    import scale
    import serving
    import size
    import startup
    import typescript
    import validation

    rows: list[Row] = []
    details: dict[str, list[str]] = {}

    def run_validation() -> list[Row]:
        found, details["validation"] = validation.measure(settings)
        return found

    def run_typescript() -> list[Row]:
        found, details["typescript"] = typescript.measure(settings)
        return found

    def run_scale() -> list[Row]:
        found, axes = scale.measure(settings)
        details["scale"] = scale.growth_markdown(axes)
        return found

    steps: dict[str, Callable[[], list[Row]]] = {
        "startup": lambda: startup.version(settings),
        "check": lambda: check.measure(settings),
        "scale": run_scale,
        "validation": run_validation,
        "builders": lambda: builders.measure(settings),
        "imports": lambda: startup.imports(settings),
        "mock": lambda: serving.measure(settings),
        "size": size.measure,
        "typescript": run_typescript,
        "import": lambda: import_memory.measure(settings),
    }
    for name in groups:
        start = time.perf_counter()
        rows += steps[name]()
        print(f"benchmarks: {name} took {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    return rows, details


def _typescript_machine() -> list[str]:
    import typescript

    return typescript.machine()


def markdown(rows: list[Row], details: dict[str, list[str]], settings: Settings) -> str:
    judged = [row for row in rows if row.met is not None]
    met = sum(1 for row in judged if row.met)
    lines = [
        "# Benchmarks",
        "",
        "Measured by `.venv/bin/python benchmarks/run.py` (one run; every anchor measured in the same",
        "run as the figure beside it)"
        + (", in `--smoke` mode: sizes and repeats are tiny, the numbers mean nothing." if settings.smoke else "."),
        "Ratio is ours / anchor (for throughput, ours / anchor calls per second: more is better);",
        "a goal with an `x` is judged on the ratio, any other on the value itself.",
        "",
        "## Machine",
        "",
        *machine(),
        *(_typescript_machine() if details.get("typescript") else []),
        "",
        "## Results",
        "",
        f"{met} of {len(judged)} goals met.",
        "",
        *table(rows),
        "",
        "## How each row is measured",
        "",
        "- Commands (rows 1, 2, 3, 6) are new processes; CPU is the child's own user + system seconds",
        "  and peak RSS its `ru_maxrss`, both from `os.wait4`; wall is `time.perf_counter` around it.",
        "  A figure and its anchor run in turn (a, b, a, b, ...), best of N each.",
        "- Rows 1 and 6 import our package as pip installs it: a copy with its bytecode written, first",
        "  on PYTHONPATH for the figure and its anchor alike (the tool's for row 1, the generated one",
        "  for 6). PYTHONDONTWRITEBYTECODE is set where these are measured, so from its source folder",
        "  every process would compile our modules again, which no installed package does.",
        "- Row 2's anchor: `datamodel-codegen --input schemas/contracts/tuitbot/envelope.schema.json",
        "  --input-file-type jsonschema --output <tmp>/m.py --disable-timestamp --formatters black isort",
        "  --check`, after one run of the same without `--check`; both from the repository's root.",
        "- Row 3 runs `mcp-contracts generate` in a project with this repository's settings (its",
        "  `[tool.mcp-contracts]`: both languages, the rules page; `limits.yaml_nodes` raised for 20,000",
        "  codes), so it writes what ours does: the Python and npm packages, the docs, the manifests and",
        "  tools.json. Its contract is tuitbot (27 codes, 65 tools listing the envelope) with more codes,",
        "  each with every column and in the envelope's enum it is bound to, or more tools, each with",
        "  every column and three codes. The growth along codes (to 20,000) holds tuitbot's 65 tools, its",
        "  points and tuitbot itself run in turn, best of 3 each; the headline is its 10,000 codes. The",
        "  growth along tools (to 2,000) holds its 27 codes, its points and tuitbot itself run in turn,",
        "  best of 5 each. Every tool lists the envelope, whose enums hold every code, so tools.json",
        "  grows as their product. 3.7's schema is benchmarks/large_bundle.py's: 200 draft-07",
        "  definitions, each referring to three others, over an envelope and 25 files, 1.2 MB, as large",
        "  as SchemaStore's largest; one tool (best of 2).",
        "- Rows 4 and 5 run in this process: `time.perf_counter` over rounds of about 2 ms of calls,",
        "  the best of 60 rounds (short rounds, so a context switch spoils a round, not the figure).",
        "  Row 4's goal is judged on the median of the per-example ratios; the note gives the max.",
        "  Invalid variants (4.3): the first member, root first then inner objects in key order, whose",
        '  removal the judge rejects ("dropped"); the first whose value replaced by one of another type',
        '  (a string by 12345, anything else by a string) it rejects ("wrong type"); a member',
        '  `zz_benchmark_added` put into the first object that is closed ("added"; none for a contract',
        "  whose objects are all open). Each variant is checked to raise before it is timed.",
        "  Rows 4.2 and 4.3 are context; the goals of the models are 4.4 to 4.7, against the pydantic models",
        "  the pinned datamodel-code-generator writes from the same envelope.schema.json (generated in the run",
        "  into a temporary folder: pydantic v2 `BaseModel`, target Python 3.11, no timestamp, the root class",
        "  named `Envelope`), their own `model_validate_json` of the same bytes, each figure and its anchor in",
        "  turn. They judge only what pydantic types say: a variant they accept is timed accepting and left",
        "  out of 4.6 and 4.7, which judge only the variants both refuse (the note counts them). 4.4 and 4.6",
        "  are the median of the per-document ratios, 4.5 and 4.7 the largest: the goal holds on both.",
        "- Row 5's anchor is the envelope the builder made, written as a dict literal compiled into a",
        "  function (every call builds the dicts anew) + `orjson.dumps`. Required keyword arguments of a",
        "  builder take the first value of a member of that name in the contract's examples. A contract",
        "  whose package has no builders (`error_response`) has no row 5. The first half of row 5 is the",
        "  model's path (`*_response` + `model_dump_json()`), context; the second half the documented",
        "  fastest path to the wire, `dump_json(*_document(...))` (the same arguments, judged alike, no",
        "  model built), beside the literal of the envelope it writes: the goal.",
        "- Row 7 uses the official SDK's `Client` over stdio for both servers; the tool called is",
        "  tuitbot's `x_post_tweet` with its `api-success.json` example arguments, and the bare server",
        "  answers that example's document. The client checks structured content against each tool's",
        "  output schema: the contract's envelope for ours, a plain object for the bare server.",
        "- Row 8 has no anchor: bytes only.",
        "- Rows 9 to 11 run the generated TypeScript package, compiled by tests/ts's `tsc` in a temporary",
        "  copy beside a link to tests/ts/node_modules, in node (benchmarks/typescript_bench.mjs). Rows 9",
        "  and 10 in one process: `process.hrtime.bigint()` around rounds of about 5 ms of calls, the",
        "  median of 21 rounds, every call warmed for 50 ms first and the rounds of every call run in",
        "  turn. Row 9's ratios are per example, its goals judged on their median; 9.2's anchor is ajv 8",
        "  (`Ajv2020`, or `Ajv` for a draft-07 root; `strict: false`, `allErrors: false`, `validateFormats`",
        "  as the bundle's `formats`) with every resource of the contract's schema.json added under its",
        "  URI and `{$ref: root}` compiled once. 9.3's invalid text is the example without its first",
        "  member, root first then inner objects in key order, that `isEnvelope` rejects. Row 10's",
        "  members are row 5's arguments; its anchor is the envelope the builder made, written as an",
        "  object literal in a function (`new Function`), so every call builds the objects anew.",
        "- Row 11 runs each figure and its anchor in a fresh node process, all in turn, the median of 7:",
        "  what is timed starts after node has started. 11.6 to 11.10 time only the compile: the",
        "  runtime's `Judge` class (or ajv) is loaded and the bundle read before the clock starts.",
        "- Row 12 runs `import` once per figure into a new project, against benchmarks/resources_server.py;",
        "  peak RSS is the child's `ru_maxrss` (the import's process; its server's is a few MiB). Before",
        "  issue 51 the 600 contents were held until the end: 3,355 MiB for 12.1, measured once by hand.",
    ]
    if "validation" in details:
        lines += ["", "## Row 4 per example", "", *details["validation"]]
    if "scale" in details:
        lines += ["", "## Row 3 growth", "", *details["scale"]]
    if details.get("typescript"):
        lines += ["", "## Row 9 per example", "", *details["typescript"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--smoke", action="store_true", help="every benchmark once, tiny sizes; writes no file")
    parser.add_argument("--out", type=Path, help="write the markdown here (default: BENCHMARKS.md, not in smoke)")
    parser.add_argument("--group", action="append", choices=GROUPS, help="only these groups (repeatable)")
    options = parser.parse_args(argv)
    settings = Settings(smoke=options.smoke)
    groups = tuple(g for g in GROUPS if not options.group or g in options.group)
    rows, details = measure(settings, groups)
    text = markdown(rows, details, settings)
    out = options.out if options.out is not None else None if settings.smoke else ROOT / "BENCHMARKS.md"
    if out is not None:
        out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
