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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from pydantic import ValidationError

from .. import interrupt
from ..client import client_side
from ..client.bounded import DEFAULT_MESSAGE_BYTES, MessageTooLarge, ServerLog
from ..client.connect import Stopped, Target, connected, describe, first_error, leaf, list_tools
from ..client.report import Report, shown
from ..protocol import VERSIONS, Revision, revision
from ..serving.mock import ERROR_REQUEST
from ..serving.revisions import contract_at
from ..serving.served import ServedContract, ServedTool
from .echoes import echo_at, echoes
from .listing import compare_listing, published_hints
from .results import document_of, judge_result
from .surface import conform_surface

if TYPE_CHECKING:  # `--fuzz` imports hypothesis: only a run that fuzzes pays for it
    from .fuzzing.fuzz import Plan
    from .fuzzing.fuzz_calls import Reconnect

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
    `message_bytes`: what one message from the server may hold (`limits.message_bytes`).
    `client_capabilities`: what the client declares (`client_side`: roots, sampling and
    elicitation by default), which may change what the server lists.
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
    client_capabilities: frozenset[str] = client_side.DEFAULT


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
    try:
        for checked in revisions:
            report.revision = checked.version
            report.revisions.append(checked.version)
            plan = fuzzing if checked is revisions[-1] else None  # once, at the newest revision
            at = contract_at(contract, checked, options.tools)
            interrupt.run(_conform, at, target, options, checked, report, plan)
    except Exception as exc:  # the SDK's transports raise what they meet, often in groups
        hint = " (a server that wants credentials takes them with --header)" if isinstance(target, str) else ""
        hint = "" if isinstance(exc, MessageTooLarge) else hint
        report.problem = f"cannot talk to the server at {report.revision}: {leaf(exc)}{hint}"
    return report


def _fuzz_plan(options: ConformOptions, report: Report) -> Plan | None:
    """The `--fuzz` plan (its seed picked now when none is given), noted in the report."""
    if options.fuzz <= 0:
        return None
    from .fuzzing.fuzz import plan

    chosen = plan(options.fuzz, options.seed, options.call_tools, options.timeout, options.fuzz_budget)
    report.fuzz = {"seed": chosen.seed, "examples": chosen.examples, "tools": {}}
    if chosen.budget is not None:
        report.fuzz["budget"] = chosen.budget
    return chosen


async def _conform(
    contract: ServedContract, target: Target, options: ConformOptions, at: Revision, report: Report, fuzz: Plan | None
) -> None:
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
    )
    try:
        async with reconnect() as (session, answered):
            if answered != at.version:
                text = f"asked for {at.version}, the server answered {answered}; nothing more was asked at {at.version}"
                asked = "initialize" if at.handshake else "server/discover"
                report.add("revision-unsupported", asked, text, at=("protocol",))
                return
            await _session(session, contract, options, report, at, (fuzz, reconnect) if fuzz is not None else None)
    finally:
        _stray_output(log, report)


def _stray_output(log: ServerLog, report: Report) -> None:
    """The lines of the server's standard output that were no MCP message, one finding."""
    if log.strays:
        said = f"{log.strays} line(s) of its standard output are no MCP message, which stdio forbids"
        text = f"{said}: {' | '.join(log.stray)}"
        report.add("stdout-not-protocol", "stdout", text)


async def _session(
    session: ClientSession,
    contract: ServedContract,
    options: ConformOptions,
    report: Report,
    at: Revision,
    fuzz: tuple[Plan, Reconnect] | None = None,
) -> None:
    """The listing compared, then every example call (and probe) made and judged; then, with
    `fuzz` (a plan, and how to connect again), the tools fuzzed (`fuzz.fuzz_tools`)."""
    timeout, probe_errors = options.timeout, options.probe_errors
    try:
        wire: dict[str, dict[str, Any]] = {}
        listed = await list_tools(session, report, wire)
        report.listed = max(report.listed, len(listed))
        if options.tools is not None:  # the others are not the run's business
            listed = {name: tool for name, tool in listed.items() if name in options.tools}
        compare_listing(contract, listed, report, wire, at)
        tools = [t.as_listed(listed[t.name].output_schema) for t in contract.tools if t.name in listed]
        for tool in tools:
            answered = await _example_calls(session, contract, tool, timeout, report)
            if answered and probe_errors and tool.calls and contract.knows_errors():
                await _probe(session, contract, tool, timeout, report)
        if options.tools is None:  # a run of some tools asks nothing else
            await conform_surface(session, contract.contract.surface, report)
        if fuzz is not None:
            from .fuzzing.fuzz import fuzz_tools

            hints = {name: published_hints(tool) for name, tool in listed.items()}
            surface = contract.contract.surface if options.tools is None else None
            await fuzz_tools(fuzz[1], fuzz[0], contract, tools, report, hints, surface)
    except Stopped:
        return  # reported where it happened; nothing after it can be asked


async def _call(
    session: ClientSession,
    contract: ServedContract,
    tool: ServedTool,
    arguments: dict[str, Any],
    requested: str | None,
    timeout: float,
    report: Report,
    at: tuple[Any, ...],
) -> tuple[types.CallToolResult | None, str]:
    """The result of one call (None when it failed or timed out, which is reported), and
    how the report names the call; `at` is where the call was written in the tool's entry
    (an example call, or the error code a probe asks for)."""
    where = f"{tool.name}({shown(arguments, 120)})" + (f" asking for {requested}" if requested else "")
    meta: Any = {ERROR_REQUEST: requested} if requested else None
    params = types.CallToolRequestParams(name=tool.name, arguments=arguments, _meta=meta)
    report.calls += 1
    report.failed += 1  # until a result comes
    try:
        with anyio.fail_after(timeout * 1.5):  # the SDK's own read timeout answers first
            result = await session.send_request(
                types.CallToolRequest(params=params), types.CallToolResult, request_read_timeout_seconds=timeout
            )
    except MCPError as exc:
        # The SDK's own errors for these: a server may send the same codes (-32000 and -32001
        # are the implementation's), not with the SDK's words.
        if exc.code == REQUEST_TIMEOUT and "timed out" in exc.message:
            report.add("call-timeout", where, f"no answer within {timeout:g} s", tool=tool.name, at=at)
        elif exc.code == CONNECTION_CLOSED and exc.message == "Connection closed":
            exited = report.log.exit() if report.log is not None else None
            text = exited or "the server closed the connection"
            report.add("connection-lost", where, text, tool=tool.name, at=at)
            raise Stopped from None
        else:
            report.add("call-failed", where, f"JSON-RPC error {exc.code}: {exc.message}", tool=tool.name, at=at)
            for name, text in echoes(tool, arguments, rpc_message=exc.message):
                report.add("error-echoes-argument", where, text, tool=tool.name, at=echo_at(tool, name, at))
        return None, where
    except TimeoutError:
        report.add("call-timeout", where, f"no answer within {timeout:g} s", tool=tool.name, at=at)
        return None, where
    except ValidationError as exc:  # an answer, but not a CallToolResult of the protocol
        text = f"not a tools/call result: {first_error(exc)}"
        report.add("invalid-response", where, text, tool=tool.name, at=at)
        return None, where
    report.failed -= 1
    return result, where


async def _example_calls(
    session: ClientSession, contract: ServedContract, tool: ServedTool, timeout: float, report: Report
) -> bool:
    """Make the tool's example calls and judge their results; False when one got no answer."""
    for index, call in enumerate(tool.calls):
        at = ("examples", index)
        result, where = await _call(session, contract, tool, call.arguments, None, timeout, report, at)
        if result is None:
            return False
        if result.is_error and contract.error_code(call.result) is None:  # a success was expected
            report.failed += 1
            text = f"isError: true, though the example call expects a success: {_said(result)}"
            report.add("example-is-error", where, text, tool=tool.name, at=at)
        judge_result(contract, tool, result, where, report, at, call.arguments)
    return True


def _said(result: types.CallToolResult) -> str:
    """What an error result says: its text content, cut short (or that it has none)."""
    texts = [block.text for block in result.content if isinstance(block, types.TextContent)]
    return shown(" ".join(texts), 160) if texts else "no text content"


async def _probe(
    session: ClientSession, contract: ServedContract, tool: ServedTool, timeout: float, report: Report
) -> None:
    """Ask for each error code the tool declares, for as long as the server honours the
    request (see `mock`); a server that answers something else is noted once, not judged."""
    codes = tool.declared_codes if tool.declared_codes is not None else contract.contract.catalogue.codes()
    for code in sorted(codes):
        at = _code_at(contract, tool, code)
        result, where = await _call(session, contract, tool, tool.calls[0].arguments, code, timeout, report, at)
        if result is None:
            return
        if contract.error_code(document_of(result)[0]) != code:
            text = f"the server does not answer `_meta` {ERROR_REQUEST!r}; its error paths were not probed"
            report.add("probe-unsupported", tool.name, text, tool=tool.name, at=("possible_error_codes",))
            return
        judge_result(contract, tool, result, where, report, at, tool.calls[0].arguments)


def _code_at(contract: ServedContract, tool: ServedTool, code: str) -> tuple[Any, ...]:
    """Where the tool's entry names `code` among its `possible_error_codes` (the list, when
    the tool names none and any code of the catalogue may be asked for)."""
    entry = next((e for e in contract.contract.manifest.tools.entries if e.code == tool.name), None)
    codes = (entry.get("possible_error_codes") if entry is not None else None) or []
    return ("possible_error_codes", list(codes).index(code)) if code in codes else ("possible_error_codes",)
