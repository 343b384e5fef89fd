"""The shared harness of the benchmarks: timing, child processes, rows and settings.

Wall time is the best of several repeats of `time.perf_counter`; the CPU and peak memory of
a command are those the kernel reports for that one child (`os.wait4`'s resource usage:
user + system seconds, `ru_maxrss`). Nothing here asserts a time: the numbers go to
BENCHMARKS.md, and tests only check that every row has one.
"""

from __future__ import annotations

import compileall
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "generated"
SCHEMAS = ROOT / "schemas"
PYTHON = sys.executable
# The console script beside this interpreter: what a user runs.
COMMAND = str(Path(PYTHON).with_name("mcp-contracts"))
CONTRACTS = ("code-scalpel", "foundry", "jsonrpc", "mcp-envelope", "tuitbot")


def module_of(contract: str) -> str:
    return f"mcp_contracts.{contract.replace('-', '_')}"


@dataclass(frozen=True)
class Settings:
    """How hard to measure: the full run, or `--smoke` (once each, tiny sizes)."""

    smoke: bool

    def repeats(self, full: int) -> int:
        return 1 if self.smoke else full

    def number(self, full: int) -> int:
        return 1 if self.smoke else full


@dataclass(frozen=True)
class Goal:
    """`ours <op> bound`, on the ratio when the row has an anchor, else on the value."""

    op: str  # "<=", "<", ">="
    bound: float
    unit: str = "x"

    def met(self, value: float) -> bool:
        if self.op == "<=":
            return value <= self.bound
        if self.op == "<":
            return value < self.bound
        return value >= self.bound

    def text(self) -> str:
        return f"{self.op} {self.bound:g} {self.unit}"


@dataclass(frozen=True)
class Row:
    """One line of the results table: a figure beside its anchor, measured in the same run."""

    key: str  # sorts the table: "<row number>.<sub>", e.g. "4.2"
    figure: str
    ours: float
    unit: str
    goal: Goal | None
    anchor: str = ""
    anchor_value: float | None = None
    note: str = ""
    # The ratio when it is not ours / anchor: the median of per-example ratios, or the inverse
    # for a throughput (more is better).
    given_ratio: float | None = None

    @property
    def ratio(self) -> float | None:
        if self.given_ratio is not None:
            return self.given_ratio
        if self.anchor_value is None:
            return None
        return self.ours / self.anchor_value if self.anchor_value > 0 else float("inf")

    @property
    def judged(self) -> float:
        """What the goal is judged on: the ratio beside an anchor, else the value itself."""
        return self.ours if self.ratio is None else self.ratio

    @property
    def met(self) -> bool | None:
        return None if self.goal is None else self.goal.met(self.judged)


def best_wall(call: Callable[[], object], number: int, repeat: int) -> float:
    """Seconds per call: the best of `repeat` rounds of `number` calls, in process."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            call()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def fastest(call: Callable[[], object], settings: Settings, budget: float = 0.002, rounds: int = 60) -> float:
    """Seconds per call, in process: the best of many short rounds of about `budget` seconds.

    Short rounds, many of them: on a shared machine a round that a context switch lands in is
    simply not the best one, whatever the call costs (long rounds would be hit more often for
    slow calls than for fast ones, and bias the ratio). Smoke: one call."""
    call()  # warm: the first call may build caches
    if settings.smoke:
        return best_wall(call, 1, 1)
    once = best_wall(call, 1, 5)
    number = max(1, int(budget / max(once, 1e-9)))
    return best_wall(call, number, rounds)


@dataclass(frozen=True)
class Child:
    """What one finished child process cost: wall and CPU seconds, peak RSS in bytes."""

    wall: float
    cpu: float
    peak_rss: int
    returncode: int


def run_child(
    argv: Sequence[str], *, cwd: Path = ROOT, env: Mapping[str, str] | None = None, stdin: bytes | None = None
) -> Child:
    """Run one command to its end; its own resource usage comes from `os.wait4`."""
    start = time.perf_counter()
    process = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env) if env is not None else None,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if stdin is not None and process.stdin is not None:
        process.stdin.write(stdin)
        process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return Child(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, process.returncode)


def best_child(argv: Sequence[str], repeat: int, **kwargs: object) -> Child:
    """The best of `repeat` runs of a command, by CPU and by wall each; peak RSS the largest seen.

    A run that fails is reported as it is (its return code kept), never retried.
    """
    runs = [run_child(argv, **kwargs) for _ in range(repeat)]  # type: ignore[arg-type]
    failed = next((r.returncode for r in runs if r.returncode != 0), 0)
    return Child(min(r.wall for r in runs), min(r.cpu for r in runs), max(r.peak_rss for r in runs), failed)


def interleaved(commands: Sequence[Sequence[str]], repeat: int, **kwargs: object) -> list[Child]:
    """Best of `repeat` for each command, run in turn (a, b, a, b, ...) so drift in the
    machine's load falls on every command alike."""
    runs: list[list[Child]] = [[] for _ in commands]
    for _ in range(repeat):
        for index, argv in enumerate(commands):
            runs[index].append(run_child(argv, **kwargs))  # type: ignore[arg-type]
    return [
        Child(
            min(r.wall for r in found),
            min(r.cpu for r in found),
            max(r.peak_rss for r in found),
            next((r.returncode for r in found if r.returncode != 0), 0),
        )
        for found in runs
    ]


def installed(folder: Path, packages: Mapping[str, Path]) -> dict[str, str]:
    """This environment with `packages` (import name -> source folder) importable as pip
    installs them: copied into `folder`, first on PYTHONPATH, with their bytecode written.

    pip writes each module's `.pyc` when it installs a wheel, and every process after reads
    it. The sources here have none (an editable install, `generated/`), and with
    PYTHONDONTWRITEBYTECODE set, as on the machine these numbers come from, no process ever
    writes one: each would compile every module of ours from source, a cost no user pays
    and the anchors (the standard library, pydantic: compiled when installed) do not pay."""
    for name, source in packages.items():
        target = folder / name
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        if not compileall.compile_dir(target, quiet=1):
            raise RuntimeError(f"benchmarks: {source} does not compile")
    env = dict(os.environ)
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(folder) + (os.pathsep + path if path else "")
    for name in packages:
        found = subprocess.run(
            [PYTHON, "-c", f"import {name}; print({name}.__file__)"], env=env, capture_output=True, text=True
        ).stdout.strip()
        if not Path(found).is_relative_to(folder):  # an editable install's finder comes after PYTHONPATH
            raise RuntimeError(f"benchmarks: {name} is imported from {found or 'nowhere'}, not from {folder}")
    return env


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
