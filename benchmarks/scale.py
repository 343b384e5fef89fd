"""Row 3: `mcp-contracts generate` of one contract with many error codes and tools.

The project is this repository's `jsonrpc` contract with its catalogue and tool list
replaced: N codes `CODE_0..`, each with a message and an HTTP status, and T tools, tool i
naming codes i, i+1 and i+2 (as the old in-process scaling table did). Each generate is a
new process; its wall, CPU and peak RSS are the child's own.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from harness import COMMAND, SCHEMAS, Child, Goal, Row, Settings, best_child

# Full run: the headline project, and the two growth axes (the other held fixed).
HEADLINE = (10_000, 2_000)  # codes, tools: the 10,000 codes, with its largest tool count
LARGEST = (10_000, 10_000)  # as many tools as codes, as the old scaling table had: reported, no goal
CODES_AXIS = (1_000, 2_000, 5_000, 10_000, 20_000)
CODES_AXIS_TOOLS = 100
TOOLS_AXIS = (100, 500, 1_000, 2_000)
TOOLS_AXIS_CODES = 100
# Smoke: the same shape, tiny, two points per axis (the headline is the codes axis's last point).
SMOKE_HEADLINE = (20, 10)
SMOKE_CODES_AXIS = (10, 20)
SMOKE_TOOLS_AXIS = (10, 20)
SMOKE_FIXED = 10


def write_project(folder: Path, codes: int, tools: int) -> Path:
    """A project of one contract with `codes` error codes and `tools` tools; its schemas folder."""
    schemas = folder / "schemas"
    contract = schemas / "contracts" / "jsonrpc"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", contract)
    names = [f"CODE_{i}" for i in range(codes)]
    errors = {"errors": [{"code": name, "message": "m", "http_status": 400} for name in names]}
    listed = [
        {"name": f"t{i}", "possible_error_codes": [names[(i + k) % codes] for k in range(3)]} for i in range(tools)
    ]
    (contract / "errors.yaml").write_text(json.dumps(errors), encoding="utf-8")
    (contract / "tools.yaml").write_text(json.dumps({"tools": listed}), encoding="utf-8")
    return schemas


def generate(codes: int, tools: int, repeat: int, seen: dict[tuple[int, int], Child] | None = None) -> Child:
    """`generate` of a new project, best of `repeat`; a project in `seen` is not measured again."""
    if seen is not None and (codes, tools) in seen:
        return seen[codes, tools]
    child = _generate(codes, tools, repeat)
    if seen is not None:
        seen[codes, tools] = child
    return child


def _generate(codes: int, tools: int, repeat: int) -> Child:
    with tempfile.TemporaryDirectory(prefix="mcp-contracts-bench-") as work:
        schemas = write_project(Path(work), codes, tools)
        argv = [COMMAND, "generate", "--schemas", str(schemas), "--out", str(Path(work) / "generated")]
        return best_child([*argv, "--package", "scale"], repeat, cwd=Path(work))


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
    headline = SMOKE_HEADLINE if settings.smoke else HEADLINE
    codes_axis = SMOKE_CODES_AXIS if settings.smoke else CODES_AXIS
    tools_axis = SMOKE_TOOLS_AXIS if settings.smoke else TOOLS_AXIS
    fixed_tools = SMOKE_FIXED if settings.smoke else CODES_AXIS_TOOLS
    fixed_codes = SMOKE_FIXED if settings.smoke else TOOLS_AXIS_CODES
    repeat = settings.repeats(3)
    tool_repeat = settings.repeats(5)  # a tool costs about a tenth of a millisecond: more runs against the noise

    seen: dict[tuple[int, int], Child] = {}
    main = generate(*headline, settings.repeats(2), seen)
    largest_counts = SMOKE_HEADLINE if settings.smoke else LARGEST
    largest = generate(*largest_counts, settings.repeats(2), seen)
    axes = [
        Axis(
            "codes",
            Point(3, fixed_tools, generate(3, fixed_tools, repeat, seen)),  # three codes: each tool names three
            [Point(n, fixed_tools, generate(n, fixed_tools, 1, seen)) for n in codes_axis],
        ),
        Axis(
            "tools",
            Point(fixed_codes, 1, generate(fixed_codes, 1, tool_repeat, seen)),
            # Best of five: a tool costs far less than a code, so one run's noise would swamp it.
            [Point(fixed_codes, n, generate(fixed_codes, n, tool_repeat, seen)) for n in tools_axis],
        ),
    ]
    children = [main, largest, *(p.child for a in axes for p in [a.base, *a.points])]
    note = "a generate **FAILED** (exit status not 0)" if any(c.returncode for c in children) else ""
    size = f"{headline[0]:,} error codes and {headline[1]:,} tools"
    rows = [
        Row(
            "3.1",
            f"`generate`, {size}: wall (best of {settings.repeats(2)})",
            main.wall,
            "s",
            Goal("<", 2.0, "s"),
            note=note,
        ),
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
    largest_size = f"{largest_counts[0]:,} error codes and {largest_counts[1]:,} tools"
    rows.append(Row("3.6", f"`generate`, {largest_size}: CPU of the process", largest.cpu, "s", None))
    return rows, axes


def per_thousand(seconds: float, count: int) -> float:
    return seconds / count * 1000 if count > 0 else float("inf")


def growth_markdown(axes: list[Axis]) -> list[str]:
    lines = [
        'Each point is one new process. "Above base" subtracts the CPU of the axis\'s base project',
        "(the first line of each axis, the start-up every generate pays), so a linear cost shows a",
        "flat column. Rows 3.4 and 3.5 divide the cost per 1,000 of each axis's last step by",
        "the point before it's cost per 1,000 above base: 1 x when linear, about 3 x for a square.",
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
