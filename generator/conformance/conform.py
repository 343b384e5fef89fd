"""`mcp-contracts conform`: hold a live MCP server to a contract, as its client.

One pipeline whatever the transport (a command spoken to over stdio, or a streamable HTTP
URL), on the official SDK's `Client`: list the tools and compare them with the contract
(missing, extra, input and output schemas that say something else, `readOnlyHint`), then
make every example call the contract gives (and, with `probe_errors`, ask for each error code
a tool declares) and judge each result: the document (`structuredContent`, or the JSON of
the text content), `isError` against the document, the error code against the catalogue
and the tool, what the catalogue derives from the code. Each call has its own timeout.

The whole session runs once per protocol revision (`--protocol`, else those the contract
declares), each on its own connection, and expects what that revision carries
(`revisions.contract_at`): a 2025-03-26 server lists no output schema, say. A server that
answers another revision than the one asked for is a finding, and that revision's run ends.

The server is read within bounds (`link`): an answer past `limits.message_bytes`, or nested
deeper than the SDK reads, is a finding about its request (`bound-exceeded`), and the next
request gets a new session; the run's `Budget` (`limits.server_bytes`, `limits.server_seconds`)
ends the whole run once spent, with one finding that names the bound (exit 1, not 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.shared.exceptions import MCPError

from .. import debug, interrupt
from ..client import client_side
from ..client.bounded import (
    DEFAULT_MESSAGE_BYTES,
    DEFAULT_SERVER_BYTES,
    DEFAULT_SERVER_SECONDS,
    Budget,
    BudgetSpent,
    OverBound,
)
from ..client.connect import (
    NotOpened,
    Stopped,
    Target,
    connected,
    describe,
    innermost,
    leaf,
    list_tools,
    sdk_logs_silenced,
    unparsed,
)
from ..client.report import Report, shown
from ..client.server_log import ServerLog
from ..protocol import VERSIONS, Revision, revision
from ..rules import conform as rules
from ..serving.mock import ERROR_REQUEST
from ..serving.revisions import contract_at
from ..serving.served import ServedContract, ServedTool
from .echoes import echo_at, echoes
from .examples import example_verdict, explained
from .link import Answer, Link, Reconnect, unanswered
from .listing import compare_listing, published_hints
from .resource_prompt_checks import conform_surface
from .results import document_of, judge_result

if TYPE_CHECKING:  # `--fuzz` imports hypothesis: only a run that fuzzes pays for it
    from .fuzzing.fuzz_tool import Plan

__all__ = ["ConformOptions", "Target", "conform", "describe", "revisions_checked"]


@dataclass(frozen=True)
class ConformOptions:
    """How `conform` talks to a server.

    `timeout`: seconds each request may take. `probe_errors`: ask for each declared error
    code too (see `mock`). `headers`: sent with every HTTP request (an `Authorization`...).
    `handshake`: `auto` checks every revision asked for; `legacy` only those opened with
    `initialize` (for a server that quits on a method it does not know, `server/discover`).
    `protocols`: the revisions to check (None: those the contract declares). `tools`: the
    tools to compare and call (None: all); other tools the server lists are not extra.
    `fuzz`: argument sets to draw per tool and kind (valid, invalid; 0: none), from `seed` (None:
    one is picked and reported); `call_tools`: tools fuzzed though not safe by default (not
    read-only, destructive or open-world: `fuzz.unsafe`); `fuzz_budget`: seconds the whole
    fuzzing may take (None: no bound).
    `message_bytes`: what one message from the server may hold (`limits.message_bytes`);
    `server_bytes` and `server_seconds`: what the whole run may read of the server, and for how
    long it may talk to it (`limits.server_bytes`, `limits.server_seconds`).
    `client_capabilities`: what the client declares (`client_side`: roots, sampling and
    elicitation by default), which may change what the server lists.
    `server_log`: the file a server started over stdio writes its standard error to (appended
    to; `api_serve.run_conform` empties it first), None: this process's own standard error.
    """

    timeout: float = 10.0
    probe_errors: bool = False
    headers: Mapping[str, str] = field(default_factory=dict)
    handshake: str = "auto"
    protocols: tuple[str, ...] | None = None
    tools: tuple[str, ...] | None = None
    fuzz: int = 0
    seed: int | None = None
    call_tools: tuple[str, ...] = ()
    fuzz_budget: float | None = None
    message_bytes: int = DEFAULT_MESSAGE_BYTES
    server_bytes: int = DEFAULT_SERVER_BYTES
    server_seconds: float = DEFAULT_SERVER_SECONDS
    client_capabilities: frozenset[str] = client_side.DEFAULT
    server_log: Path | None = None


def revisions_checked(contract: ServedContract, options: ConformOptions) -> tuple[Revision, ...]:
    """The revisions a run checks, oldest first."""
    asked = options.protocols if options.protocols is not None else contract.contract.protocol
    chosen = (revision(v) for v in VERSIONS if v in asked)
    return tuple(r for r in chosen if r.handshake or options.handshake != "legacy")


def conform(contract: ServedContract, target: Target, options: ConformOptions | None = None) -> Report:
    """The report of `target` against `contract`; a server that cannot be reached sets `problem`.

    A command is started with this process's environment: it is the user's own server, run
    as they would run it.
    """
    options = options or ConformOptions()
    report = Report.of(contract.contract, describe(target))
    revisions = revisions_checked(contract, options)
    named = [("--tool", name) for name in options.tools or ()] + [("--call-tool", n) for n in options.call_tools]
    unknown = [(flag, name) for flag, name in named if contract.tool(name) is None]
    if unknown:
        known = ", ".join(t.name for t in contract.tools) or "none"
        report.problem = f"{unknown[0][0]} {unknown[0][1]!r} is not a tool of the contract (it has: {known})"
        return report
    if not revisions:
        report.problem = "no protocol revision to check (--handshake legacy leaves only those opened with initialize)"
        return report
    fuzzing = _fuzz_plan(options, report)
    budget = Budget(options.server_bytes, options.server_seconds)  # the run's, over every revision
    try:
        with sdk_logs_silenced():
            for checked in revisions:
                report.revision = checked.version
                report.revisions.append(checked.version)
                plan = fuzzing if checked is revisions[-1] else None  # once, at the newest revision
                at = contract_at(contract, checked, options.tools)
                interrupt.run(_conform, at, target, options, checked, report, plan, budget)
    except BudgetSpent as exc:
        report.add(rules.BOUND_EXCEEDED, "the run", f"{exc}: what remained was not asked")
    except Exception as exc:  # the SDK's transports raise what they meet, often in groups
        debug.handled(exc)
        where = f"{report.target} " if isinstance(target, str) else ""  # a command names itself (`NotOpened`)
        report.problem = f"cannot talk to the server {where}at {report.revision}: {_unreached(exc, target)}"
    return report


def _unreached(exc: BaseException, target: Target) -> str:
    """Why the server could not be talked to, in a line: what `NotOpened` says (the command,
    its exit status or the time it had, the last lines of its standard error), an answer that
    is no JSON, else `leaf`; a hint where credentials may be missing."""
    exc = innermost(exc)
    said = unparsed(exc) if isinstance(exc, MCPError) else None
    if said is not None:
        return f"its answer to initialize: {said}"
    hint = " (a server that wants credentials takes them with --header)" if isinstance(target, str) else ""
    return leaf(exc) + ("" if isinstance(exc, OverBound | NotOpened) else hint)


def _fuzz_plan(options: ConformOptions, report: Report) -> Plan | None:
    """The `--fuzz` plan (its seed picked now when none is given), noted in the report."""
    if options.fuzz <= 0:
        return None
    from .fuzzing.fuzz import plan

    chosen = plan(
        examples=options.fuzz,
        chosen=options.seed,
        named=options.call_tools,
        timeout=options.timeout,
        budget=options.fuzz_budget,
    )
    report.fuzz = {"seed": chosen.seed, "examples": chosen.examples, "tools": {}}
    if chosen.budget is not None:
        report.fuzz["budget"] = chosen.budget
    return chosen


async def _conform(
    contract: ServedContract,
    target: Target,
    options: ConformOptions,
    at: Revision,
    report: Report,
    fuzz: Plan | None,
    budget: Budget,
) -> None:
    """One revision's run, on sessions of a `Link`; `BudgetSpent` once the run's budget is spent."""
    log = report.log = ServerLog()
    reconnect = partial(
        connected,
        target,
        at,
        options.timeout,
        options.headers,
        options.message_bytes,
        log=log,
        capabilities=options.client_capabilities,
        budget=budget,
        server_log=options.server_log,
    )
    link = Link(reconnect, at.version, options.timeout, budget)
    not_fuzzed: str | None = "the run stopped before it"
    try:
        async with link.held():
            if link.answered != at.version:
                said = f"asked for {at.version}, the server answered {link.answered}"
                asked = "initialize" if at.handshake else "server/discover"
                # the same words at each revision: one finding lists the revisions it holds at
                text = f"the server answered {link.answered}, not the revision asked for; nothing more was asked at it"
                report.add(rules.REVISION_UNSUPPORTED, asked, text, at=("protocol",))
                not_fuzzed = said
            else:
                plan = (fuzz, reconnect) if fuzz is not None else None
                not_fuzzed = await _session(link, contract, options, report, at, budget, plan)
    except Exception as exc:
        debug.handled(exc)
        if link.spent is None:  # what opening the first session raised: the server is not reached
            raise
    finally:
        _stray_output(log, report)
    if fuzz is not None and not_fuzzed is not None:
        report.add(rules.FUZZ_SKIPPED, "--fuzz", f"nothing was fuzzed: {link.spent or not_fuzzed}")
    if link.spent is not None:
        raise BudgetSpent(link.spent)


def _stray_output(log: ServerLog, report: Report) -> None:
    """The lines of the server's standard output that were no MCP message, one finding."""
    if log.strays:
        said = f"{log.strays} line(s) of its standard output are no MCP message, which stdio forbids"
        text = f"{said}: {' | '.join(log.stray)}"
        report.add(rules.STDOUT_NOT_PROTOCOL, "stdout", text)


async def _session(
    link: Link,
    contract: ServedContract,
    options: ConformOptions,
    report: Report,
    at: Revision,
    budget: Budget,
    fuzz: tuple[Plan, Reconnect] | None = None,
) -> str | None:
    """The listing compared, then every example call (and probe) made and judged; then, with
    `fuzz` (a plan, and how to connect again), the tools fuzzed (`fuzz.fuzz_tools`). Why the
    fuzzing was not begun (what stopped the run), or None."""
    timeout, probe_errors = options.timeout, options.probe_errors
    try:
        wire: dict[str, dict[str, Any]] = {}
        listing = await link.use(lambda session: list_tools(session, report, wire), "tools/list")
        if isinstance(listing, Answer):
            unanswered(report, listing, "tools/list", timeout)
            raise Stopped(listing.text or "the tools were not listed")
        listed = listing
        report.listed = max(report.listed, len(listed))
        if options.tools is not None:  # the others are not the run's business
            listed = {name: tool for name, tool in listed.items() if name in options.tools}
        compare_listing(contract, listed, report, wire, at)
        tools = [t.as_listed(listed[t.name].output_schema) for t in contract.tools if t.name in listed]
        for tool in tools:
            answered = await _example_calls(link, contract, tool, timeout, report)
            if answered and probe_errors and tool.calls and contract.knows_errors():
                await _probe(link, contract, tool, timeout, report)
        if options.tools is None:  # a run of some tools asks nothing else
            await conform_surface(link, contract.contract.surface, report, timeout)
        if fuzz is not None:
            from .fuzzing.fuzz import fuzz_tools

            hints = {name: published_hints(tool) for name, tool in listed.items()}
            surface = contract.contract.surface if options.tools is None else None
            link.spent = await fuzz_tools(fuzz[1], fuzz[0], contract, tools, report, hints, surface, budget)
    except Stopped as stopped:  # reported where it happened; nothing after it can be asked
        return str(stopped) or "the run stopped before it"
    return None


async def _call(
    link: Link,
    contract: ServedContract,
    tool: ServedTool,
    arguments: dict[str, Any],
    requested: str | None,
    timeout: float,
    report: Report,
    at: tuple[Any, ...],
) -> tuple[Answer | None, str]:
    """The answer of one call that got a result (None when it failed or timed out, which is
    reported), and how the report names the call; `at` is where the call was written in the tool's entry
    (an example call, or the error code a probe asks for)."""
    where = f"{tool.name}({shown(arguments, 120)})" + (f" asking for {requested}" if requested else "")
    meta: Any = {ERROR_REQUEST: requested} if requested else None
    report.calls += 1
    report.failed += 1  # until a result comes
    answer = await link.call(tool.name, arguments, meta)
    if answer.kind == "result":
        report.failed -= 1
        return answer, where
    if answer.kind == "rpc-error":
        report.add(rules.CALL_FAILED, where, answer.rpc_error(), tool=tool.name, at=at)
        for name, text in echoes(tool, arguments, rpc_message=answer.text):
            report.add(rules.ERROR_ECHOES_ARGUMENT, where, text, tool=tool.name, at=echo_at(tool, name, at))
    elif answer.kind == "not-a-result":  # an answer, but not a CallToolResult of the protocol
        report.add(rules.INVALID_RESPONSE, where, answer.text, tool=tool.name, at=at)
    else:
        unanswered(report, answer, where, timeout, tool=tool.name, at=at)
    return None, where


async def _example_calls(
    link: Link, contract: ServedContract, tool: ServedTool, timeout: float, report: Report
) -> bool:
    """Make the tool's example calls and judge their results by what each example says
    (`examples`), then by the contract; False when one got no answer."""
    for index, call in enumerate(tool.calls):
        at = ("examples", index)
        answer, where = await _call(link, contract, tool, call.arguments, None, timeout, report, at)
        if answer is None:
            return False
        result = answer.result
        verdict = example_verdict(contract, tool, call, result)
        report.failed += bool(verdict)
        for rule, text in verdict:
            report.add(rule, where, text + answer.words(), tool=tool.name, at=at)
        judge_result(contract, tool, result, where, report, at, call.arguments, explained(verdict))
    return True


async def _probe(link: Link, contract: ServedContract, tool: ServedTool, timeout: float, report: Report) -> None:
    """Ask for each error code the tool declares, for as long as the server honours the
    request (see `mock`); a server that answers something else is noted once, not judged."""
    codes = tool.declared_codes if tool.declared_codes is not None else contract.contract.catalogue.codes()
    for code in sorted(codes):
        at = _code_at(contract, tool, code)
        answer, where = await _call(link, contract, tool, tool.calls[0].arguments, code, timeout, report, at)
        if answer is None:
            return
        result = answer.result
        if contract.error_code(document_of(result)[0]) != code:
            text = f"the server does not answer `_meta` {ERROR_REQUEST!r}; its error paths were not probed"
            report.add(rules.PROBE_UNSUPPORTED, tool.name, text, tool=tool.name, at=("possible_error_codes",))
            return
        judge_result(contract, tool, result, where, report, at, tool.calls[0].arguments)


def _code_at(contract: ServedContract, tool: ServedTool, code: str) -> tuple[Any, ...]:
    """Where the tool's entry names `code` among its `possible_error_codes` (the list, when
    the tool names none and any code of the catalogue may be asked for)."""
    entry = next((e for e in contract.contract.manifest.tools.entries if e.code == tool.name), None)
    codes = (entry.get("possible_error_codes") if entry is not None else None) or []
    return ("possible_error_codes", list(codes).index(code)) if code in codes else ("possible_error_codes",)
