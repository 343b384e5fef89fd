"""Row 3: `mcp-contracts generate` as this repository runs it, on a catalogue and a bundle grown.

The settings are this repository's own (`[tool.mcp-contracts]` of pyproject.toml: both
languages, the rules page), so each generate writes what ours does: the Python and npm
packages, the docs, the manifests and tools.json. The contract is shaped like the richest
built-in, tuitbot (many catalogue columns, 65 tools listing the envelope, codes bound to the
envelope's enums), grown: N more codes, each in the enum of its `retryable` kind, and T more
tools with every column set. A schema the size of a large SchemaStore one (large_bundle.py)
is generated too. Each generate is a new process; its wall, CPU and peak RSS are the child's
own.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import large_bundle
import yaml
from harness import COMMAND, ROOT, SCHEMAS, Child, Goal, Row, Settings, best_child

# tuitbot as written: its codes and tools, every point's least.
BASE = (27, 65)
# Full run: the headline, and the two growth axes (the other count held at tuitbot's).
HEADLINE_CODES = 10_000
CODES_AXIS = (1_000, 2_000, 5_000, 10_000, 20_000)
TOOLS_AXIS = (250, 500, 1_000, 2_000)
# Smoke: the same shape, tiny, two points per axis (the headline is the codes axis's last point).
SMOKE_CODES_AXIS = (40, 60)
SMOKE_TOOLS_AXIS = (70, 80)
SMOKE_BUNDLE = (8, 2, 20_000)  # definitions, files, bytes
# 20,000 codes of five values each are more nodes than the default limit (100,000): the
# project raises it, as a project with such a catalogue would.
YAML_NODES = 1_000_000


def settings_text() -> str:
    """This repository's `[tool.mcp-contracts]`, but its folders (the project's own defaults)."""
    ours = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mcp-contracts"]
    lines = ["[tool.mcp-contracts]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in ours.items() if key not in ("schemas", "output")]
    lines += ["", "[tool.mcp-contracts.limits]", f"yaml_nodes = {YAML_NODES}"]
    return "\n".join(lines) + "\n"


def write_project(folder: Path, codes: int, tools: int) -> None:
    """A project of one contract, tuitbot with as many codes and tools in all (at least its
    own); its settings are this repository's."""
    contract = folder / "schemas" / "contracts" / "tuitbot"
    shutil.copytree(SCHEMAS / "contracts" / "tuitbot", contract)
    errors = yaml.safe_load((contract / "errors.yaml").read_text(encoding="utf-8"))
    listed = yaml.safe_load((contract / "tools.yaml").read_text(encoding="utf-8"))
    envelope = json.loads((contract / "envelope.schema.json").read_text(encoding="utf-8"))
    for i in range(codes - len(errors["errors"])):
        retryable = i % 2 == 0
        code = f"scaled_{i}"
        errors["errors"].append(
            {"code": code, "category": f"Scaled {i % 10}", "retryable": retryable, "description": f"Scaled code {i}"}
        )
        bound = "RetryableToolError" if retryable else "PermanentToolError"
        envelope["$defs"][bound]["properties"]["code"]["enum"].append(code)
    names = [entry["code"] for entry in errors["errors"]]
    for i in range(tools - len(listed["tools"])):
        listed["tools"].append(
            {
                "name": f"scaled_tool_{i}",
                "category": f"scaled{i % 10}",
                "mutation": i % 2 == 0,
                "requires_x_client": i % 3 == 0,
                "requires_llm": i % 5 == 0,
                "requires_db": True,
                "profiles": ["workflow", "api"] if i % 2 else ["workflow"],
                "possible_error_codes": [names[(i + k) % len(names)] for k in range(3)],
            }
        )
    # Block YAML, as tools.yaml and errors.yaml are written (and read by libyaml: see load/fast_yaml.py).
    (contract / "errors.yaml").write_text(yaml.safe_dump(errors, sort_keys=False), encoding="utf-8")
    (contract / "tools.yaml").write_text(yaml.safe_dump(listed, sort_keys=False), encoding="utf-8")
    (contract / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    (folder / "pyproject.toml").write_text(settings_text(), encoding="utf-8")


def _generate(folder: Path, repeat: int) -> Child:
    """`mcp-contracts generate` in `folder`, as a user runs it there; best of `repeat`."""
    return best_child([COMMAND, "generate"], repeat, cwd=folder)


def generate_in_turn(projects: list[tuple[int, int]], repeat: int) -> dict[tuple[int, int], Child]:
    """`generate` of each project (codes, tools), run in turn (a, b, c, a, b, c, ...) `repeat`
    times, best of them each: drift in the machine's load falls on every project alike, where
    a project measured apart may meet a busier minute than the next."""
    runs: dict[tuple[int, int], list[Child]] = {project: [] for project in projects}
    with tempfile.TemporaryDirectory(prefix="mcp-contracts-bench-") as work:
        folders = {project: Path(work) / f"{project[0]}-{project[1]}" for project in projects}
        for project, folder in folders.items():
            write_project(folder, *project)
        for _ in range(repeat):
            for project, folder in folders.items():
                runs[project].append(_generate(folder, 1))
    return {project: best_of(found) for project, found in runs.items()}


def best_of(runs: list[Child]) -> Child:
    """The best wall and the best CPU of `runs`, the largest peak RSS, a failure kept."""
    failed = next((run.returncode for run in runs if run.returncode != 0), 0)
    return Child(min(r.wall for r in runs), min(r.cpu for r in runs), max(r.peak_rss for r in runs), failed)


def generate_bundle(settings: Settings) -> tuple[Child, int, int]:
    """`generate` of the large schema (large_bundle.py) under this repository's settings:
    the child, the bytes of its schema files and the number of them."""
    definitions, files, size = SMOKE_BUNDLE if settings.smoke else large_bundle.SIZE
    with tempfile.TemporaryDirectory(prefix="mcp-contracts-bench-") as work:
        contracts = Path(work) / "schemas" / "contracts"
        folder = large_bundle.write_contract(contracts, definitions, files, size)
        (Path(work) / "pyproject.toml").write_text(settings_text(), encoding="utf-8")
        schema_files = sorted(folder.glob("*.json"))
        written = sum(path.stat().st_size for path in schema_files)
        return _generate(Path(work), settings.repeats(2)), written, len(schema_files)


@dataclass(frozen=True)
class Point:
    codes: int
    tools: int
    child: Child


@dataclass(frozen=True)
class Axis:
    """One growth axis: the count that grows, the project where it is least, and the points."""

    grows: str  # "codes" or "tools"
    base: Point
    points: list[Point]

    def count(self, point: Point) -> int:
        return point.codes if self.grows == "codes" else point.tools

    def last_step(self) -> float:
        """CPU seconds per 1,000 between the last two points (the largest step of the axis)."""
        if len(self.points) < 2:
            return float("nan")
        before, last = self.points[-2], self.points[-1]
        return per_thousand(last.child.cpu - before.child.cpu, self.count(last) - self.count(before))

    def above_base(self, point: Point) -> float:
        """CPU seconds per 1,000 of the growing count, the base project's CPU subtracted: the
        child's own CPU, which a busy machine disturbs far less than its wall."""
        return per_thousand(point.child.cpu - self.base.child.cpu, self.count(point) - self.count(self.base))


def measure(settings: Settings) -> tuple[list[Row], list[Axis]]:
    codes_axis = SMOKE_CODES_AXIS if settings.smoke else CODES_AXIS
    tools_axis = SMOKE_TOOLS_AXIS if settings.smoke else TOOLS_AXIS
    headline = codes_axis[-1] if settings.smoke else HEADLINE_CODES
    repeat, tool_repeat = settings.repeats(3), settings.repeats(5)
    # Each axis and its base (the start-up every generate pays) in turn, best of N: a point
    # measured apart may meet a busier minute than the next, and a tool costs about a tenth of
    # a millisecond, so drift would swamp it.
    by_codes = generate_in_turn([BASE, *((n, BASE[1]) for n in codes_axis)], repeat)
    by_tools = generate_in_turn([BASE, *((BASE[0], n) for n in tools_axis)], tool_repeat)
    main = by_codes[headline, BASE[1]]
    axes = [
        Axis("codes", Point(*BASE, by_codes[BASE]), [Point(n, BASE[1], by_codes[n, BASE[1]]) for n in codes_axis]),
        Axis("tools", Point(*BASE, by_tools[BASE]), [Point(BASE[0], n, by_tools[BASE[0], n]) for n in tools_axis]),
    ]
    bundle, bundle_bytes, bundle_files = generate_bundle(settings)
    children = [main, bundle, *(p.child for a in axes for p in [a.base, *a.points])]
    note = "a generate **FAILED** (exit status not 0)" if any(c.returncode for c in children) else ""
    size = f"{headline:,} error codes, tuitbot's {BASE[1]} tools"
    rows = [
        Row("3.1", f"`generate`, {size}: wall (best of {repeat})", main.wall, "s", Goal("<", 2.0, "s"), note=note),
        Row("3.2", f"`generate`, {size}: CPU of the process", main.cpu, "s", None),
        Row("3.3", f"`generate`, {size}: peak RSS of the process", main.peak_rss / 2**20, "MiB", None),
    ]
    for key, axis in zip(("3.4", "3.5"), axes, strict=True):
        figure = (
            f"growth along {axis.grows}: CPU s per 1,000 {axis.grows} of the last step, over the same"
            " from the base to the point before it"
        )
        last, before = axis.last_step(), axis.above_base(axis.points[-2]) if len(axis.points) > 1 else float("nan")
        noise = "a value at or below 0: the base's noise is larger than the growth" if min(last, before) <= 0 else ""
        context = f"{last:.3f} over {before:.3f}; a cost that grows as the square would give about 3 x"
        ratio = last / before if last > 0 and before > 0 else float("inf")  # noise: no ratio
        rows.append(Row(key, figure, ratio, "x", Goal("<=", 1.5), note="; ".join(filter(None, [note, noise, context]))))
    most = axes[1].points[-1]
    rows.append(
        Row(
            "3.6",
            f"`generate`, {most.tools:,} tools, tuitbot's {BASE[0]} codes: wall (best of {tool_repeat})",
            most.child.wall,
            "s",
            None,
            note=f"CPU {most.child.cpu:.2f} s",
        )
    )
    definitions = SMOKE_BUNDLE[0] if settings.smoke else large_bundle.SIZE[0]
    rows.append(
        Row(
            "3.7",
            f"`generate`, a draft-07 schema of {definitions} definitions in {bundle_files} files,"
            f" {bundle_bytes / 1e6:.1f} MB (large_bundle.py): wall (best of {settings.repeats(2)})",
            bundle.wall,
            "s",
            Goal("<", 10.0, "s"),
            note="; ".join(filter(None, [note, f"CPU {bundle.cpu:.2f} s, peak RSS {bundle.peak_rss / 2**20:.0f} MiB"])),
        )
    )
    return rows, axes


def per_thousand(seconds: float, count: int) -> float:
    return seconds / count * 1000 if count > 0 else float("inf")


def growth_markdown(axes: list[Axis]) -> list[str]:
    lines = [
        'Each point is one new process. "Above base" subtracts the CPU of the axis\'s base project',
        "(tuitbot as written, the first line of each axis: the start-up every generate pays), so a",
        "linear cost shows a flat column. Rows 3.4 and 3.5 divide the cost per 1,000 of each axis's",
        "last step by the point before it's cost per 1,000 above base: 1 x when linear, about 3 x",
        "for a square.",
        "",
        "| codes | tools | wall s | CPU s | CPU s per 1,000 | CPU s per 1,000 above base | peak RSS MiB |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for axis in axes:
        for point in [axis.base, *axis.points]:
            child = point.child
            above = "base" if point is axis.base else f"{axis.above_base(point):.3f}"
            lines.append(
                f"| {point.codes:,} | {point.tools:,} | {child.wall:.2f} | {child.cpu:.2f}"
                f" | {per_thousand(child.cpu, axis.count(point)):.3f} | {above} | {child.peak_rss / 2**20:.0f} |"
            )
    return lines
