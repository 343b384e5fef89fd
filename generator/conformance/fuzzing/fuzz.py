"""`conform --fuzz N [--seed S]`: each tool called with N argument sets its input schema accepts
and N that break it by one keyword, once per run, at the newest revision checked, on sessions of
its own (a `link.Link`, opened again after a crash).

Valid arguments are drawn from the tool's `inputSchema` as the contract has it, invalid ones
break it by exactly one keyword (`fuzz_draw`).

Invalid arguments must be refused: any error answers them (a JSON-RPC error of any code, the
SDK's code 0 and -32603 too, or an `isError` result), for the contract refuses them itself and
an SDK may refuse them before the handler runs (docs/mcp.md, "What each SDK answers"); a
success is `fuzz-invalid-accepted`. Valid arguments must get a result the contract accepts
(`results.judge_result`); an error that says "bad arguments" is `fuzz-valid-refused`
(JSON-RPC -32602, or an error code of a boolean column with `role: argument_error` true,
`ServedContract.argument_error`), one that stands for an exception the handler did not handle
a crash (JSON-RPC's internal error -32603, the Python SDK's code 0, its `MCPServer`'s
"Error executing tool NAME"), and any other a domain answer (a book not found): no finding,
counted (`domain_answers`, and the summary), its envelope judged as any error's when the
contract says where codes are (an undeclared code is still a finding). The TypeScript SDK's
`McpServer` answers an `McpError` a handler threw with an isError result "MCP error CODE: ...",
read as that code. Whatever the arguments, the connection lost is a crash and no answer within
`--timeout` a hang; the server is connected to again and the fuzzing goes on. An answer past a
bound of the client (`limits.message_bytes`, the SDK's depth) is `bound-exceeded`, not a crash:
it is the client that ended the connection.
Hypothesis shrinks each failure to its simplest arguments, calling again (at most
`SHRINK_CALLS` more calls, `RECONNECTS` new sessions), and the report gives one finding per
tool, rule and kind of arguments, with the shrunk arguments. Every answer is kept by its
arguments, so that hypothesis's last replay asks nothing twice.

The run is reproducible from its seed (`@seed(S)`, no example database, no deadline): the
same seed and server give the same calls and findings. Fuzzing is safe by default: a tool is
fuzzed only when `--call-tool` names it, unless the contract annotates it read-only and
closed-world and neither the contract nor the server calls it destructive or open-world (an
`openWorldHint` not given is MCP's default, true). `--fuzz-budget` bounds the whole run: once
it is spent no call is made and no tool begun, and the tools cut short are noted.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import anyio
import hypothesis.strategies as st
import mcp.types as types
from hypothesis import given, seed
from hypothesis.errors import Unsatisfiable
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS

from ... import debug
from ...client.bounded import Budget
from ...client.report import Report, shown
from ...findings.finding import Finding
from ...model import Surface
from ...rules import Rule
from ...rules import conform as rules
from ...schema.engine import standalone_validator
from ...schema.values import not_json
from ...serving.served import ServedContract, ServedTool
from ..echoes import echo_at, echoes, marked
from ..link import UNHANDLED, Answer, Link, Reconnect
from ..listing import HINT_DEFAULTS
from ..results import answered_code, judge_result, texts_of
from .fuzz_draw import Breach, breakable, invalid_strategy, leaves, run_settings, shown_line, valid_strategy
from .fuzz_surface import SurfaceFuzz
from .mutate import long_integers

SHRINK_CALLS = 100  # calls one run of a tool may make past its N, to shrink what it found
RECONNECTS = 8  # new sessions one run may ask for (a crash or a hang costs one)
HANGS = 2  # calls that got no answer, after which a run asks nothing more
_SHOWN = 400  # characters of arguments a message shows


@dataclass(frozen=True)
class Plan:
    """How much to fuzz: `examples` valid and as many invalid argument sets per tool, from
    `seed`; `named`: tools to fuzz though not safe by default (`unsafe`); `timeout` per call;
    `budget`: seconds the whole run may take (None: no bound)."""

    examples: int
    seed: int
    named: frozenset[str]
    timeout: float
    budget: float | None = None

    @property
    def again(self) -> str:
        return f"--fuzz {self.examples} --seed {self.seed}"


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


@dataclass
class _Budget:
    """The seconds left of `--fuzz-budget` (no bound: `deadline` None); `spent` once a call or
    a tool was given up for it."""

    deadline: float | None
    spent: bool = False

    def over(self) -> bool:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.spent = True
        return self.spent


class _Spent(BaseException):
    """Raised in hypothesis's test once the budget is spent before anything was found: it ends
    the run at once (hypothesis lets what is no `Exception` through), where returning would
    leave it drawing up to N more argument sets."""


@dataclass(frozen=True)
class _Found:
    """What one call departed by: a rule with a message, or (rule None) the findings of
    judging its result."""

    rule: Rule | None
    arguments: dict[str, Any]
    text: str = ""
    at: tuple[Any, ...] = ()
    findings: tuple[Finding, ...] = ()


class _Failure(Exception):
    """Raised in hypothesis's test for a departure: one subclass per kind, which hypothesis
    shrinks apart."""

    def __init__(self, found: _Found) -> None:
        super().__init__(found.text)
        self.found = found


_KINDS: dict[Rule | None, type[_Failure]] = {
    rules.FUZZ_CRASH: type("_Crash", (_Failure,), {}),
    rules.FUZZ_HANG: type("_Hang", (_Failure,), {}),
    rules.BOUND_EXCEEDED: type("_OverBound", (_Failure,), {}),
    rules.FUZZ_VALID_REFUSED: type("_Refused", (_Failure,), {}),
    rules.FUZZ_INVALID_ACCEPTED: type("_Accepted", (_Failure,), {}),
    None: type("_Departed", (_Failure,), {}),
}


def _text(result: types.CallToolResult) -> str:
    return " ".join(texts_of(result))


# How the TypeScript SDK's McpServer answers a call whose handler (or its own check of the
# arguments) threw an `McpError`: an isError result whose text starts with its code.
_TYPESCRIPT_CODE = re.compile(r"MCP error (-?[0-9]{1,9}): ")


def _code_of(answer: Answer) -> int | None:
    """The JSON-RPC error code an answer carries: a JSON-RPC error's, or the one the
    TypeScript SDK writes into the isError result it makes of an `McpError`."""
    if answer.kind == "rpc-error":
        return answer.code
    result = answer.result
    found = _TYPESCRIPT_CODE.match(_text(result)) if result is not None and result.is_error else None
    return int(found.group(1)) if found is not None else None


def _said(result: types.CallToolResult) -> str:
    return f"an isError result `{shown_line(_text(result), 120)}`"


def crash_of(answer: Answer, tool: str, accepted: bool) -> str | None:
    """What says the server failed on a call of `tool`: the connection lost, whatever was
    asked; on arguments the contract `accepted`, also an answer that stands for an exception the
    handler did not handle (JSON-RPC -32603, as the TypeScript SDK writes it too, the Python
    SDK's code 0, or `MCPServer`'s isError result that names the tool and nothing of the
    exception: mcp 2.x's `UnexpectedToolError`). None for any other answer: on arguments the
    contract refuses, any error is a refusal (an SDK may refuse them before the handler runs)."""
    if answer.kind == "lost":
        return answer.text
    if not accepted:
        return None
    crash, result = answer.crash(), answer.result
    if crash is None and result is not None and _code_of(answer) == INTERNAL_ERROR:
        crash = f"{_said(result)}, the TypeScript SDK's {UNHANDLED[INTERNAL_ERROR]}"
    if crash is None and result is not None and result.is_error and _unexpected(tool, _text(result)):
        said = f"{_said(result)}, the Python MCP SDK MCPServer's answer to an exception its handler raised"
        crash = said + answer.words()
    return crash


def _unexpected(tool: str, text: str) -> bool:
    """Whether `text` is what `MCPServer` says of a handler's exception: `Error executing tool
    NAME`, and the same for each nested tool that crashed (a `ToolError` says its message)."""
    return re.fullmatch(rf"Error executing tool {re.escape(tool)}(?:: Error executing tool \S+)*", text) is not None


def _validation_refused(tool: str, text: str) -> bool:
    """Whether `text` is `MCPServer`'s refusal of arguments its function's signature refuses
    (pydantic's `N validation error(s) for NAMEArguments`), before the handler runs."""
    pattern = rf"Error executing tool {re.escape(tool)}: \d+ validation errors? for {re.escape(tool)}Arguments\b"
    return re.match(pattern, text) is not None


@dataclass
class _Run:
    """What every tool's fuzzing shares: the plan, the contract, the server, the report, the budget."""

    plan: Plan
    contract: ServedContract
    server: Link
    report: Report
    budget: _Budget


class _ToolRun:
    """The fuzzing of one tool, in the worker thread; each call is made on the event loop."""

    def __init__(self, shared: _Run, tool: ServedTool):
        self.plan, self.contract, self.server, self.report = shared.plan, shared.contract, shared.server, shared.report
        self.budget, self.tool = shared.budget, tool
        self.schema = tool.listing.get("inputSchema", {"type": "object"})
        self.validator = standalone_validator(self.schema)
        self.domain_answers = 0  # error answers to valid arguments that are no finding

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict) and not_json(value) is None and bool(self.validator.is_valid(value))

    def run(self) -> dict[str, Any]:
        valid, drawn_by, degraded = valid_strategy(self.schema, self.accepts)
        if valid is not None and self.tool.secrets:  # invalid arguments are drawn from these too
            valid = valid.map(lambda drawn: marked(self.tool, drawn, self.accepts))
        facts: dict[str, Any] = {"drawn_by": drawn_by, "valid": 0, "invalid": 0}
        if degraded is not None:  # never silently: the synthesiser's few argument sets, or none
            done = "fuzzed with the synthesiser's few argument sets only" if valid is not None else "not fuzzed"
            self._note(rules.FUZZ_DEGRADED, f"{done}: {degraded}")
        if valid is None:
            if degraded is None:
                self._note(rules.FUZZ_SKIPPED, "not fuzzed: nothing the input schema accepts could be drawn from it")
            return facts
        found, facts["valid"] = self._property(valid, self._valid, lambda drawn: drawn)
        broken: list[_Found] = []
        invalid = invalid_strategy(valid, self.validator, self.schema, self.accepts) if not self.budget.spent else None
        if invalid is not None:
            broken, facts["invalid"] = self._property(invalid, self._invalid, lambda drawn: drawn.arguments)
        if self.budget.spent:
            calls = f"{facts['valid']} valid and {facts['invalid']} invalid call(s)"
            self._note(rules.FUZZ_SKIPPED, f"fuzzed in part: {_spent(self.plan)} after {calls}")
        elif not facts["invalid"] and self.server.failed is None and breakable(self.schema):  # never silently
            self._note(
                rules.FUZZ_SKIPPED,
                "not fuzzed with invalid arguments: no valid arguments drawn could be changed to break"
                " exactly one keyword of the input schema",
            )
        for one in [*found, *broken]:
            self._report(one)
        facts["domain_answers"] = self.domain_answers
        return facts

    def _note(self, rule: Rule, text: str) -> None:
        """A finding about the fuzzing of the tool as a whole, at its input schema."""
        self.report.add(rule, self.tool.name, text, tool=self.tool.name, at=("inputSchema",))

    def _property(
        self, strategy: st.SearchStrategy[Any], expect: Callable[[Any], _Found | None], of: Callable[[Any], Any]
    ) -> tuple[list[_Found], int]:
        """Run hypothesis over `strategy`; what it found, shrunk, and the calls made."""
        answers: dict[str, _Found | None] = {}
        limit, start, made = self.plan.examples + SHRINK_CALLS, self.server.reconnects, [0, 0]  # calls, hangs

        def probe(drawn: Any) -> None:
            key = json.dumps(of(drawn), sort_keys=True)
            if key not in answers:
                spent = made[0] >= limit or self.server.reconnects - start >= RECONNECTS or made[1] >= HANGS
                if self.budget.over() and not any(answers.values()):
                    raise _Spent  # nothing found to shrink: the run ends now
                if spent or self.budget.spent or self.server.failed is not None:
                    return  # nothing more is asked: what was found is kept
                made[0] += 1
                answers[key] = expect(drawn)
                made[1] += answers[key] is not None and answers[key].rule == rules.FUZZ_HANG  # type: ignore[union-attr]
            found = answers[key]
            if found is not None:
                raise _KINDS[found.rule](found)

        test = seed(self.plan.seed)(run_settings(self.plan.examples)(given(strategy)(probe)))
        try:
            test()
        except (Unsatisfiable, _Spent):  # nothing could be drawn (no mutant the judge refuses by one keyword)
            return [], made[0]
        except Exception as exc:
            debug.handled(exc)
            failures = leaves(exc)
            if not all(isinstance(leaf, _Failure) for leaf in failures):
                raise
            return [leaf.found for leaf in failures if isinstance(leaf, _Failure)], made[0]
        return [], made[0]

    def _call(self, arguments: dict[str, Any]) -> Answer:
        return anyio.from_thread.run(self.server.call, self.tool.name, arguments)

    def _trouble(
        self, answer: Answer, arguments: dict[str, Any], at: tuple[Any, ...], after: str, accepted: bool
    ) -> _Found | None:
        """A crash (`crash_of`), a hang or an answer that is no result."""
        crash = crash_of(answer, self.tool.name, accepted)
        if crash is not None:
            return _Found(rules.FUZZ_CRASH, arguments, f"{crash} {after}", at)
        if answer.kind == "timeout":
            return _Found(rules.FUZZ_HANG, arguments, f"no answer within {self.plan.timeout:g} s {after}", at)
        if answer.kind == "over-bound":
            return _Found(rules.BOUND_EXCEEDED, arguments, f"{answer.text} {after}", at)
        if answer.kind == "not-a-result":
            scratch = self._scratch()
            scratch.add(rules.INVALID_RESPONSE, self._where(arguments), answer.text, tool=self.tool.name)
            return _Found(None, arguments, findings=tuple(scratch.findings))
        return None

    def _echoed(self, answer: Answer, arguments: dict[str, Any]) -> _Found | None:
        """An error answer that carries a secret argument (`echoes`), whatever the arguments."""
        result = answer.result
        if result is not None and not result.is_error and answered_code(self.contract, result) is None:
            return None
        said = echoes(self.tool, arguments, result, answer.text if answer.kind == "rpc-error" else None)
        if not said:
            return None
        scratch = self._scratch()
        for name, text in said:
            at = echo_at(self.tool, name)
            scratch.add(rules.ERROR_ECHOES_ARGUMENT, self._where(arguments), text, tool=self.tool.name, at=at)
        return _Found(None, arguments, findings=tuple(scratch.findings))

    def _valid(self, arguments: dict[str, Any]) -> _Found | None:
        answer, at = self._call(arguments), ("inputSchema",)
        after = "on arguments the input schema accepts"
        trouble = self._trouble(answer, arguments, at, after, True) or self._echoed(answer, arguments)
        if trouble is not None or answer.kind in ("unreachable", "spent"):
            return trouble
        refused = self._refused(answer)
        if refused is not None:
            return _Found(rules.FUZZ_VALID_REFUSED, arguments, f"{refused} {after}", at)
        result = answer.result
        if result is None or result.is_error:
            self.domain_answers += 1
            if result is None or not (self.contract.knows_errors() or answered_code(self.contract, result)):
                return None  # nothing says what an error must hold
        scratch = self._scratch()
        judge_result(self.contract, self.tool, result, self._where(arguments), scratch)
        return _Found(None, arguments, findings=tuple(scratch.findings)) if scratch.findings else None

    def _refused(self, answer: Answer) -> str | None:
        """What says an answer refused the arguments (to arguments the input schema accepts):
        JSON-RPC -32602, or an error code the catalogue marks as an argument error."""
        result = answer.result
        if _code_of(answer) == INVALID_PARAMS:
            if result is None:
                return f"JSON-RPC error {INVALID_PARAMS} ({answer.text})"
            return f"{_said(result)}, the TypeScript SDK's JSON-RPC error {INVALID_PARAMS},"
        if result is not None and result.is_error and _validation_refused(self.tool.name, _text(result)):
            return f"{_said(result)}, the Python MCP SDK MCPServer's refusal of arguments its signature refuses,"
        code = answered_code(self.contract, result) if result is not None and result.is_error else None
        column = self.contract.argument_error(code) if code is not None else None
        if column is None:
            return None
        return f"the error code {code!r}, which the catalogue marks as an argument error ({column}: true),"

    def _invalid(self, breach: Breach) -> _Found | None:
        answer, at = self._call(breach.arguments), ("inputSchema", *breach.schema_at)
        after = f"on arguments that break `{breach.keyword}` at {breach.pointer or '/'}"
        trouble = self._trouble(answer, breach.arguments, at, after, False) or self._echoed(answer, breach.arguments)
        if trouble is not None or answer.result is None or answer.result.is_error:
            return trouble  # refused: a JSON-RPC error of any code, or an isError result
        return _Found(rules.FUZZ_INVALID_ACCEPTED, breach.arguments, f"a success {after}", at)

    def _scratch(self) -> Report:
        """A report of its own for one call's findings: only the shrunk call's are kept."""
        given = self.report
        return Report(given.contract, given.target, places=given.places, tools=given.tools, revision=given.revision)

    def _where(self, arguments: dict[str, Any]) -> str:
        return f"{self.tool.name}({shown(arguments, 120)})"

    def _report(self, found: _Found) -> None:
        arguments = shown(found.arguments, _SHOWN)
        if found.rule is None:
            for finding in found.findings:
                text = f"{finding.message}; fuzzed arguments {arguments} ({self.plan.again})"
                self.report.findings.append(replace(finding, message=text))
            return
        text = f"{found.text}: {arguments} ({self.plan.again})"
        self.report.add(found.rule, self._where(found.arguments), text, tool=self.tool.name, at=found.at)


def _spent(the_plan: Plan) -> str:
    return f"the --fuzz-budget of {the_plan.budget:g} s was spent"


def _why_not(shared: _Run, tool: ServedTool, published: Mapping[str, bool]) -> tuple[str, tuple[str, ...]] | None:
    """Why `tool` is not fuzzed at all, and where the finding is placed; None when it is."""
    risk = unsafe(tool, published)
    if risk is not None and tool.name not in shared.plan.named:
        return f"not fuzzed: {risk}; --call-tool {tool.name} names it to be", ("annotations",)
    if shared.server.failed is not None:
        return f"not fuzzed: {shared.server.failed}", ()
    if shared.budget.over():
        return f"not fuzzed: {_spent(shared.plan)}", ()
    return None


def _fuzz_all(
    shared: _Run, tools: list[ServedTool], published: Mapping[str, Mapping[str, bool]], surface: Surface | None = None
) -> None:
    report = shared.report
    facts: dict[str, Any] = report.fuzz.setdefault("tools", {}) if report.fuzz is not None else {}
    for tool in tools:
        skipped = _why_not(shared, tool, published.get(tool.name, {}))
        if skipped is not None:
            report.add(rules.FUZZ_SKIPPED, tool.name, skipped[0], tool=tool.name, at=skipped[1])
            continue
        try:
            run = _ToolRun(shared, tool)
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
    shared = _Run(the_plan, contract, server, report, _Budget(deadline))
    with long_integers():  # an integer past 4300 digits is drawn, judged, keyed and shown
        async with anyio.create_task_group() as group:
            group.start_soon(server.hold)
            try:
                await anyio.to_thread.run_sync(_fuzz_all, shared, tools, published or {}, surface)
            finally:
                server.close()
    return server.spent
