"""The fuzzing of one tool (`ToolRun`, in a worker thread), each call made on the event loop,
and what every tool's run shares (`Run`: its `Plan`, `Deadline`, server and report).

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
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import anyio
import hypothesis.strategies as st
from hypothesis import given, seed
from hypothesis.errors import Unsatisfiable

from ... import debug
from ...client.report import Report, shown
from ...findings.finding import Finding
from ...rules import Rule
from ...rules import conform as rules
from ...schema.engine import standalone_validator
from ...schema.values import not_json
from ...serving.served import ServedContract, ServedTool
from ..echoes import echo_at, echoes, marked
from ..link import Answer, Link
from ..results import answered_code, judge_result
from .fuzz_answers import crash_of, refusal
from .fuzz_draw import Breach, breakable, invalid_strategy, leaves, run_settings, valid_strategy

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

    @property
    def spent(self) -> str:
        return f"the --fuzz-budget of {self.budget:g} s was spent"


@dataclass
class Deadline:
    """The seconds left of `--fuzz-budget` (no bound: `deadline` None); `spent` once a call or
    a tool was given up for it."""

    deadline: float | None
    spent: bool = False

    def over(self) -> bool:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.spent = True
        return self.spent


@dataclass
class Run:
    """What every tool's fuzzing shares: the plan, the contract, the server, the report, the budget."""

    plan: Plan
    contract: ServedContract
    server: Link
    report: Report
    budget: Deadline


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


class ToolRun:
    """The fuzzing of one tool, in the worker thread; each call is made on the event loop."""

    def __init__(self, shared: Run, tool: ServedTool):
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
            self._note(rules.FUZZ_SKIPPED, f"fuzzed in part: {self.plan.spent} after {calls}")
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
        refused = refusal(answer, self.tool.name, self.contract)
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
