"""`mcp-contracts conform`: hold a live MCP server to a contract, as its client.

One pipeline whatever the transport (a command spoken to over stdio, or a streamable HTTP
URL), on the official SDK's `Client`: list the tools and compare them with the contract
(missing, extra, input and output schemas that say something else, `readOnlyHint`), then
make every example call the contract gives (and, with `probe_errors`, ask for each error code
a tool declares) and judge each result: the document (`structuredContent`, or the JSON of
the text content), `isError` against the document, the error code against the catalogue
and the tool, what the catalogue derives from the code. Each call has its own timeout.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any, TextIO

import anyio
import httpx2
import mcp.types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from pydantic import ValidationError

from ..breaking import input_narrowings
from ..keywords import first_refusal, not_json, standalone_validator
from ..runtime import NotJson, json_pointer, parse_json
from .compare import TooLarge, schema_difference
from .mock import ERROR_REQUEST
from .served import ServedContract, ServedTool

Target = StdioServerParameters | str


class _Stopped(Exception):
    """Nothing more can be asked of the server: it went away, or its listing cannot be read
    (what stopped the run is reported as a finding)."""


_MAX_PAGES = 100
# The MCP SDK's own HTTP timeouts: a server may hold a response stream open.
_HTTP_TIMEOUT = httpx2.Timeout(30.0, read=300.0)
_SHOWN_VIOLATIONS = 3


@dataclass(frozen=True)
class Finding:
    """One way the server departs from the contract. `level` is error, warning or note."""

    rule: str
    level: str
    tool: str | None
    where: str
    message: str

    def as_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "level": self.level, "tool": self.tool, "where": self.where, "message": self.message}

    def __str__(self) -> str:
        return f"{self.rule} [{self.level}] {self.where}: {self.message}"


@dataclass
class Report:
    contract: str
    target: str
    findings: list[Finding] = field(default_factory=list)
    listed: int = 0
    calls: int = 0
    problem: str | None = None  # why the server could not be checked at all

    @property
    def conforms(self) -> bool:
        return self.problem is None and not any(f.level == "error" for f in self.findings)

    def add(self, rule: str, level: str, tool: str | None, where: str, message: str) -> None:
        self.findings.append(Finding(rule, level, tool, where, message))

    def as_json(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "target": self.target,
            "conforms": self.conforms,
            "problem": self.problem,
            "tools_listed": self.listed,
            "calls": self.calls,
            "findings": [f.as_json() for f in self.findings],
        }


def describe(target: Target) -> str:
    if isinstance(target, str):
        return target
    return " ".join([target.command, *target.args])


@dataclass(frozen=True)
class ConformOptions:
    """How `conform` talks to a server.

    `timeout`: seconds each request may take. `probe_errors`: ask for each declared error
    code too (see `mock`). `headers`: sent with every HTTP request (an `Authorization`...).
    `handshake`: the SDK's; `auto` asks `server/discover` first and falls back to
    `initialize`, `legacy` goes straight to `initialize` (a server that quits on a method it
    does not know).
    """

    timeout: float = 10.0
    probe_errors: bool = False
    headers: Mapping[str, str] = field(default_factory=dict)
    handshake: str = "auto"


def conform(contract: ServedContract, target: Target, options: ConformOptions | None = None) -> Report:
    """The report of `target` against `contract`; a server that cannot be reached sets `problem`.

    A command is started with this process's environment: it is the user's own server, run
    as they would run it.
    """
    report = Report(contract.name, describe(target))
    try:
        anyio.run(_conform, contract, target, options or ConformOptions(), report)
    except Exception as exc:  # the SDK's transports raise what they meet, often in groups
        hint = " (a server that wants credentials takes them with --header)" if isinstance(target, str) else ""
        report.problem = f"cannot talk to the server: {_leaf(exc)}{hint}"
    return report


def _server_log() -> TextIO:
    """Where a started server's standard error goes: this process's own, even when
    `sys.stderr` has been replaced (a test runner, a notebook), else nowhere."""
    for stream in (sys.stderr, sys.__stderr__):
        try:
            if stream is not None:
                stream.fileno()
                return stream
        except (AttributeError, OSError, ValueError):
            continue
    return open(os.devnull, "w")


def _leaf(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, MCPError):
        return exc.message
    if isinstance(exc, ValidationError):
        return f"not an answer of the protocol: {_first_error(exc)}"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def _transport(stack: AsyncExitStack, target: Target, headers: dict[str, str]) -> Any:
    """What the SDK's `Client` connects through: the started command, or the URL."""
    if isinstance(target, StdioServerParameters):
        if target.env is None:
            target = target.model_copy(update={"env": dict(os.environ)})
        return stdio_client(target, errlog=_server_log())  # its standard error goes to ours
    if not headers:
        return target
    http = await stack.enter_async_context(httpx2.AsyncClient(headers=headers, timeout=_HTTP_TIMEOUT))
    return streamable_http_client(target, http_client=http)


async def _conform(contract: ServedContract, target: Target, options: ConformOptions, report: Report) -> None:
    async with AsyncExitStack() as stack:
        transport = await _transport(stack, target, dict(options.headers))
        client = Client(transport, read_timeout_seconds=options.timeout, mode=options.handshake)
        await stack.enter_async_context(client)
        await _session(client, contract, options.timeout, options.probe_errors, report)


async def _session(
    client: Client, contract: ServedContract, timeout: float, probe_errors: bool, report: Report
) -> None:
    """The listing compared, then every example call (and probe) made and judged."""
    try:
        listed = await _list(client, report)
        report.listed = len(listed)
        _compare_listing(contract, listed, report)
        for tool in contract.tools:
            if tool.name not in listed:
                continue
            answered = await _example_calls(client, contract, tool, timeout, report)
            if answered and probe_errors and tool.calls and contract.knows_errors():
                await _probe(client, contract, tool, timeout, report)
    except _Stopped:
        return  # reported where it happened; nothing after it can be asked


async def _list(client: Client, report: Report) -> dict[str, types.Tool]:
    """Every tool the server lists, page by page; a name listed twice and a listing that
    never ends are findings."""
    tools: dict[str, types.Tool] = {}
    cursor: str | None = None
    for _ in range(_MAX_PAGES):
        try:
            page = await client.list_tools(cursor=cursor, cache_mode="refresh")
        except ValidationError as exc:
            text = f"not a tools/list result: {_first_error(exc)}"
            report.add("invalid-response", "error", None, "tools/list", text)
            raise _Stopped from None
        for tool in page.tools:
            if tool.name in tools:
                report.add("duplicate-tool", "error", tool.name, "tools/list", f"{tool.name!r} is listed twice")
            tools.setdefault(tool.name, tool)
        cursor = page.next_cursor
        if cursor is None:
            return tools
    text = f"still a nextCursor after {_MAX_PAGES} pages: the listing was not read to its end"
    report.add("endless-tool-list", "error", None, "tools/list", text)
    return tools


def _compare_listing(contract: ServedContract, listed: dict[str, types.Tool], report: Report) -> None:
    names = [t.name for t in contract.tools]
    for name in names:
        if name not in listed:
            report.add("missing-tool", "error", name, "tools/list", f"the server does not list {name!r}")
    for name in listed:
        if name not in names:
            report.add(
                "extra-tool", "error", name, "tools/list", f"the server lists {name!r}, which the contract lacks"
            )
    for tool in contract.tools:
        if tool.name in listed:
            _compare_tool(tool, listed[tool.name], report)


def _compare_tool(tool: ServedTool, published: types.Tool, report: Report) -> None:
    name, expected = tool.name, tool.listing
    _compare_schema(report, tool, "inputSchema", published.input_schema)
    if published.output_schema is None:
        where = f"tools/list {name}.outputSchema"
        report.add("output-schema-missing", "error", name, where, "the server publishes no output schema")
    else:
        _compare_schema(report, tool, "outputSchema", published.output_schema)
    where = f"tools/list {name}.annotations.readOnlyHint"
    hint = (expected.get("annotations") or {}).get("readOnlyHint")
    given = published.annotations.read_only_hint if published.annotations is not None else None
    if hint is not None and given is not None and hint != given:
        text = f"readOnlyHint is {_json(given)}; the contract's mutation column makes it {_json(hint)}"
        report.add("annotation-differs", "error", name, where, text)
    elif hint is True and given is None:  # absent is false: clients take the tool to change things
        text = "no readOnlyHint (false, when absent); the contract's mutation column makes it true"
        report.add("annotation-missing", "warning", name, where, text)


def _compare_schema(report: Report, tool: ServedTool, key: str, theirs: Any) -> None:
    """One published schema against the contract's. An output schema that says anything else
    is an error: clients judge results by it. An input schema that accepts less is an error
    (named by the input rules of `breaking`, or by an example call it refuses); one that
    differs otherwise, a warning (it may accept more: callers are not hurt)."""
    name, ours = tool.name, tool.listing[key]
    where = f"tools/list {name}.{key}"
    try:
        validator = standalone_validator(theirs)  # what a client compiles (the MCP SDK's does)
    except ValueError as exc:
        report.add("schema-unreadable", "error", name, where, f"the server's schema does not compile on its own: {exc}")
        return
    try:
        difference = schema_difference(ours, theirs)
    except TooLarge as exc:
        report.add("schema-not-compared", "note", name, where, str(exc))
        return
    except (ValueError, TypeError, KeyError, RecursionError) as exc:  # what a server may publish
        report.add("schema-unreadable", "error", name, where, f"the server's schema cannot be read: {exc}")
        return
    if difference is None:
        return
    if key == "outputSchema":
        report.add("output-schema-differs", "error", name, f"{where}{_at(difference[0])}", _differs(difference))
        return
    narrowed = input_narrowings(ours, theirs)
    for rule, at, text in narrowed:
        report.add(rule, "error", name, f"{where}{at}", text)
    refused = [(call, first_refusal(validator, call.arguments)) for call in tool.calls]
    for call, refusal in refused:
        if refusal is not None and not narrowed:
            text = f"it refuses the example call {name}({_json(call.arguments, 120)}): {refusal}"
            report.add("input-example-refused", "error", name, where, text)
    if not narrowed and not any(refusal for _, refusal in refused):
        report.add("input-schema-differs", "warning", name, f"{where}{_at(difference[0])}", _differs(difference))


def _at(pointer: str) -> str:
    return pointer if len(pointer) <= 200 else pointer[:199] + "…"


def _differs(difference: tuple[str, Any, Any]) -> str:
    _, ours, theirs = difference
    return f"the contract has {_json(ours, 80)}, the server {_json(theirs, 80)}"


def _json(value: Any, limit: int = 200) -> str:
    text = "(nothing)" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def _call(
    client: Client,
    contract: ServedContract,
    tool: ServedTool,
    arguments: dict[str, Any],
    requested: str | None,
    timeout: float,
    report: Report,
) -> tuple[types.CallToolResult | None, str]:
    """The result of one call (None when it failed or timed out, which is reported), and
    how the report names the call."""
    where = f"{tool.name}({_json(arguments, 120)})" + (f" asking for {requested}" if requested else "")
    meta: Any = {ERROR_REQUEST: requested} if requested else None
    params = types.CallToolRequestParams(name=tool.name, arguments=arguments, _meta=meta)
    report.calls += 1
    try:
        with anyio.fail_after(timeout * 1.5):  # the SDK's own read timeout answers first
            result = await client.session.send_request(
                types.CallToolRequest(params=params), types.CallToolResult, request_read_timeout_seconds=timeout
            )
    except MCPError as exc:
        # The SDK's own errors for these: a server may send the same codes (-32000 and -32001
        # are the implementation's), not with the SDK's words.
        if exc.code == REQUEST_TIMEOUT and "timed out" in exc.message:
            report.add("call-timeout", "error", tool.name, where, f"no answer within {timeout:g} s")
        elif exc.code == CONNECTION_CLOSED and exc.message == "Connection closed":
            report.add("connection-lost", "error", tool.name, where, "the server closed the connection")
            raise _Stopped from None
        else:
            report.add("call-failed", "error", tool.name, where, f"JSON-RPC error {exc.code}: {exc.message}")
        return None, where
    except TimeoutError:
        report.add("call-timeout", "error", tool.name, where, f"no answer within {timeout:g} s")
        return None, where
    except ValidationError as exc:  # an answer, but not a CallToolResult of the protocol
        report.add("invalid-response", "error", tool.name, where, f"not a tools/call result: {_first_error(exc)}")
        return None, where
    return result, where


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return str(exc).splitlines()[0]
    where = "/".join(str(part) for part in errors[0].get("loc", ()))
    return f"{where}: {errors[0].get('msg', '')}" if where else str(errors[0].get("msg", ""))


async def _example_calls(
    client: Client, contract: ServedContract, tool: ServedTool, timeout: float, report: Report
) -> bool:
    """Make the tool's example calls and judge their results; False when one got no answer."""
    for call in tool.calls:
        result, where = await _call(client, contract, tool, call.arguments, None, timeout, report)
        if result is None:
            return False
        _judge(contract, tool, result, where, report)
    return True


async def _probe(client: Client, contract: ServedContract, tool: ServedTool, timeout: float, report: Report) -> None:
    """Ask for each error code the tool declares, for as long as the server honours the
    request (see `mock`); a server that answers something else is noted once, not judged."""
    codes = tool.declared_codes if tool.declared_codes is not None else contract.contract.catalogue.codes()
    for code in sorted(codes):
        result, where = await _call(client, contract, tool, tool.calls[0].arguments, code, timeout, report)
        if result is None:
            return
        if contract.error_code(_document(result)[0]) != code:
            text = f"the server does not answer `_meta` {ERROR_REQUEST!r}; its error paths were not probed"
            report.add("probe-unsupported", "note", tool.name, tool.name, text)
            return
        _judge(contract, tool, result, where, report)


def _document(result: types.CallToolResult) -> tuple[Any, str | None]:
    """The result's document and where it came from, or (None, None)."""
    if result.structured_content is not None:
        return result.structured_content, "structuredContent"
    for block in result.content:
        if isinstance(block, types.TextContent):
            try:
                return parse_json(block.text), "text"
            except NotJson:
                continue
    return None, None


def _judge(
    contract: ServedContract, tool: ServedTool, result: types.CallToolResult, where: str, report: Report
) -> None:
    document, source = _document(result)
    if source is None:
        report.add("no-document", "error", tool.name, where, "neither structuredContent nor JSON text content")
        return
    if source == "text" and not result.is_error:
        text = "no structuredContent, though the tool has an output schema (the text content was judged)"
        report.add("no-structured-content", "error", tool.name, where, text)
    odd = not_json(document)
    if odd is not None:  # JSON has no such number: a parser let it through
        text = f"the contract refuses the result: {json_pointer(list(odd[0])) or '/'}: {odd[1]} is not a JSON number"
        report.add("invalid-result", "error", tool.name, where, text)
        return
    violations = tool.check(document)
    if violations:
        shown = "; ".join(f"{v.pointer or '/'}: {v.message}" for v in violations[:_SHOWN_VIOLATIONS])
        more = f" (and {len(violations) - _SHOWN_VIOLATIONS} more)" if len(violations) > _SHOWN_VIOLATIONS else ""
        report.add("invalid-result", "error", tool.name, where, f"the contract refuses the result: {shown}{more}")
    if not contract.knows_errors():
        return
    code = contract.error_code(document)
    if (code is not None) != result.is_error:
        said = "an error" if code is not None else "a success"
        text = f"isError is {_json(result.is_error)}, but the document is {said}"
        report.add("is-error-mismatch", "error", tool.name, where, text)
    if code is None:
        return
    if contract.entry(code) is None:
        report.add("unknown-error-code", "error", tool.name, where, f"{code!r} is not a code of the catalogue")
        return
    if not tool.declares(code):
        declared = ", ".join(sorted(tool.declared_codes or ())) or "none"
        text = f"{code!r} is not among the codes the tool declares ({declared})"
        report.add("undeclared-error-code", "error", tool.name, where, text)
    for mismatch in contract.mismatches(document, code):
        text = (
            f"{mismatch.pointer} is {_json(mismatch.found)}, but the catalogue gives {code!r} "
            f"{mismatch.column}: {_json(mismatch.expected)}"
        )
        report.add("catalogue-contradicted", "error", tool.name, where, text)
