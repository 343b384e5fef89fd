"""`conform --fuzz N [--seed S]`: each tool called with N argument sets its input schema accepts
and N that break it by one keyword, once per run, at the newest revision checked, on sessions of
its own (a `link.Link`, opened again after a crash).

Valid arguments are drawn from the tool's `inputSchema` as the contract has it, invalid ones
break it by exactly one keyword (`fuzz_draw`).

Each call is judged (`fuzz_tool`), and each answer read as its SDK words it (`fuzz_answers`).

The run is reproducible from its seed (`@seed(S)`, no example database, no deadline): the
same seed and server give the same calls and findings. Fuzzing is safe by default: a tool is
fuzzed only when `--call-tool` names it, unless the contract annotates it read-only and
closed-world and neither the contract nor the server calls it destructive or open-world (an
`openWorldHint` not given is MCP's default, true). `--fuzz-budget` bounds the whole run: once
it is spent no call is made and no tool begun, and the tools cut short are noted.
"""

import json
import random
import time
from collections.abc import Mapping
from typing import Any

import anyio

from ... import debug
from ...client.bounded import Budget
from ...client.report import Report
from ...model.surface import Surface
from ...rules import conform as rules
from ...serving.served import ServedContract, ServedTool
from ..link import Link, Reconnect
from ..listing import HINT_DEFAULTS
from .fuzz_draw import shown_line
from .fuzz_surface import SurfaceFuzz
from .fuzz_tool import Deadline, Plan, Run, ToolRun
from .mutate import long_integers


def plan(
    examples: int, chosen: int | None, named: tuple[str, ...], timeout: float, budget: float | None = None
) -> Plan:
    """The plan of a run; a seed is picked when none is given (the report says which)."""
    picked = chosen if chosen is not None else random.SystemRandom().randrange(2**32)
    return Plan(examples, picked, frozenset(named), timeout, budget)


# The hints that keep a tool from being fuzzed unless named: the value that is a risk, and
# what it means. destructiveHint is read only when given: its default (true) concerns a tool
# that is not read-only, which the first hint already leaves out.
_RISKS = (
    ("readOnlyHint", False, "it may change its environment"),
    ("destructiveHint", True, "it may destroy something"),
    ("openWorldHint", True, "it may reach hosts other than the server"),
)


def unsafe(tool: ServedTool, published: Mapping[str, bool]) -> str | None:
    """Why `tool` is fuzzed only when `--call-tool` names it, or None: by the hints the contract
    gives it (`tool.hints`, the mutation column's readOnlyHint among them) and those the server
    `published`, whichever says the tool is a risk."""
    for hint, risk, meaning in _RISKS:
        ours, theirs, said = tool.hints.get(hint), published.get(hint), json.dumps(risk)
        if theirs is risk:
            return f"the server lists it with {hint} {said} ({meaning})"
        if ours is risk:
            return f"the contract gives it {hint} {said} ({meaning})"
        if ours is None and hint != "destructiveHint" and HINT_DEFAULTS[hint] is risk:
            return f"{hint} is not given, which MCP takes for {said} ({meaning})"
    return None


def _why_not(shared: Run, tool: ServedTool, published: Mapping[str, bool]) -> tuple[str, tuple[str, ...]] | None:
    """Why `tool` is not fuzzed at all, and where the finding is placed; None when it is."""
    risk = unsafe(tool, published)
    if risk is not None and tool.name not in shared.plan.named:
        return f"not fuzzed: {risk}; --call-tool {tool.name} names it to be", ("annotations",)
    if shared.server.failed is not None:
        return f"not fuzzed: {shared.server.failed}", ()
    if shared.budget.over():
        return f"not fuzzed: {shared.plan.spent}", ()
    return None


def _fuzz_all(
    shared: Run, tools: list[ServedTool], published: Mapping[str, Mapping[str, bool]], surface: Surface | None = None
) -> None:
    report = shared.report
    facts: dict[str, Any] = report.fuzz.setdefault("tools", {}) if report.fuzz is not None else {}
    for tool in tools:
        skipped = _why_not(shared, tool, published.get(tool.name, {}))
        if skipped is not None:
            report.add(rules.FUZZ_SKIPPED, tool.name, skipped[0], tool=tool.name, at=skipped[1])
            continue
        try:
            run = ToolRun(shared, tool)
        except ValueError as exc:  # an input schema that does not compile: the listing says so
            report.add(rules.FUZZ_SKIPPED, tool.name, f"not fuzzed: {exc}", tool=tool.name, at=("inputSchema",))
            continue
        try:
            facts[tool.name] = run.run()
        except Exception as exc:  # hypothesis's own errors (a strategy it calls flaky...): a verdict still
            debug.handled(exc)
            text = f"the fuzzing stopped: {type(exc).__name__}: {shown_line(str(exc))}"
            report.add(rules.FUZZ_DEGRADED, tool.name, text, tool=tool.name, at=("inputSchema",))
    if surface and not shared.budget.spent and shared.server.failed is None:
        fuzz = SurfaceFuzz(shared.server, report, shared.plan.examples, shared.plan.seed, shared.plan.again)
        found = fuzz.run(surface)
        if report.fuzz is not None:
            report.fuzz["surface"] = found
    if report.fuzz is not None and shared.budget.spent:
        report.fuzz["budget_spent"] = True


async def fuzz_tools(
    reconnect: Reconnect,
    the_plan: Plan,
    contract: ServedContract,
    tools: list[ServedTool],
    report: Report,
    published: Mapping[str, Mapping[str, bool]] | None = None,
    surface: Surface | None = None,
    budget: Budget | None = None,
) -> str | None:
    """Fuzz `tools` (of `contract`, as the server lists them, with the hints it `published` for
    each), then the templates and prompts of `surface` (`fuzz_surface`), on sessions opened with
    `reconnect`, a new one whenever the server goes away; the bound of the run's `budget` that
    stopped it, once one did (the tools not fuzzed for it are noted)."""
    server = Link(reconnect, report.revision or "", the_plan.timeout, budget, counted=report)
    deadline = time.monotonic() + the_plan.budget if the_plan.budget is not None else None
    shared = Run(the_plan, contract, server, report, Deadline(deadline))
    with long_integers():  # an integer past 4300 digits is drawn, judged, keyed and shown
        async with anyio.create_task_group() as group:
            group.start_soon(server.hold)
            try:
                await anyio.to_thread.run_sync(_fuzz_all, shared, tools, published or {}, surface)
            finally:
                server.close()
    return server.spent
