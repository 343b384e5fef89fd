"""Talking to a live MCP server as its client, for `conform` and `import`: one transport
(a command spoken to over stdio, or a streamable HTTP URL), a session opened at the protocol
revision asked for, and the whole `tools/list` read page by page.

A session that cannot be opened is one error (`NotOpened`) that says it all: the command and
why (it could not be started, it exited with a status before it answered, it did not answer
in time), with the last lines of the server's standard error, which goes to a file of the run
(`server_log`) or, when none is given, to this process's own.
"""

from __future__ import annotations

import logging
import math
import os
import re
import sys
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager, suppress
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, TextIO

import anyio
import httpx2
import mcp.types as types
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from mcp_types.jsonrpc import PARSE_ERROR
from pydantic import BaseModel, ModelWrapValidatorHandler, PrivateAttr, ValidationError, model_validator

from .. import __version__
from ..diagnostics import printable, shown_url, without_secrets
from ..protocol import Revision
from ..rules import conform as rules
from . import client_side
from .bounded import (
    DEFAULT_MESSAGE_BYTES,
    Budget,
    BudgetSpent,
    Cap,
    MessageTooDeep,
    MessageTooLarge,
    ServerExited,
    UnheldNumber,
    too_deep,
)
from .http_transport import http_client
from .report import Report
from .server_log import HEADER, Appender, ServerLog
from .stdio_transport import ErrLog, stdio_client

Target = StdioServerParameters | str


def describe(target: Target) -> str:
    """The server as messages and reports name it: a URL without its credentials and query
    (`diagnostics.shown_url`), a command as typed; printable either way."""
    if isinstance(target, str):
        return shown_url(target)
    return printable(" ".join([target.command, *target.args]))


class Stopped(Exception):
    """Nothing more can be asked of the server: it went away, or its listing cannot be read
    (what stopped the run is reported as a finding)."""


class NotOpened(Exception):
    """No session could be opened with the server: it could not be started (`not_started`),
    it exited before it answered the opening request, or it did not answer that in time
    (`timed_out`). The message names the command, says which, and ends with the last lines
    of its standard error."""

    def __init__(self, message: str, *, timed_out: bool = False, not_started: bool = False) -> None:
        super().__init__(message)
        self.timed_out, self.not_started = timed_out, not_started


MAX_PAGES = 100
# The MCP SDK's own HTTP timeouts: a server may hold a response stream open.
HTTP_TIMEOUT = httpx2.Timeout(30.0, read=300.0)


def _our_stderr() -> TextIO:
    """This process's own standard error, even when `sys.stderr` has been replaced (a test
    runner, a notebook), else nowhere."""
    for stream in (sys.stderr, sys.__stderr__):
        try:
            if stream is not None:
                stream.fileno()
                return stream
        except (AttributeError, OSError, ValueError):
            continue
    return _devnull()


def _to_our_stderr(encoding: str) -> ErrLog:
    """A server's standard error copied to ours, as it comes (when no file keeps it)."""
    stream = _our_stderr()

    def copy(chunk: bytes) -> None:
        with suppress(OSError, ValueError):  # a closed or broken stream is left alone
            stream.write(chunk.decode(encoding, "replace"))
            stream.flush()

    return copy


@cache
def _devnull() -> TextIO:
    return open(os.devnull, "w")


@contextmanager
def sdk_logs_silenced() -> Iterator[None]:
    """The MCP SDK's log records dropped while the block runs, not printed: it logs an answer it
    cannot parse with a traceback (on standard error, with no handler configured), which the
    run (`conform`, `import`) reports in its own words (`leaf`)."""
    logger = logging.getLogger("mcp")
    dropped, propagate = logging.NullHandler(), logger.propagate
    logger.addHandler(dropped)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(dropped)
        logger.propagate = propagate


# Pydantic's words for text that is no JSON, inside the SDK's error message.
_INVALID_JSON = re.compile(r"Invalid JSON: ([^\[\n]+?)\s*\[")


def unparsed(exc: MCPError) -> str | None:
    """What the SDK's "Failed to parse JSON response" (its HTTP transport's error for a body it
    cannot read) says, in a line; None for another error. Its own message holds pydantic's
    whole error, over many lines."""
    if exc.code != PARSE_ERROR or not exc.message.startswith("Failed to parse"):
        return None
    if too_deep(exc.message):
        return str(MessageTooDeep())
    found = _INVALID_JSON.search(exc.message)
    return f"an answer that is not JSON ({found.group(1) if found else 'it cannot be parsed'})"


def innermost(exc: BaseException) -> BaseException:
    """`exc`, or the first exception of the group (of groups) it is: what the SDK's task groups
    raise wraps what went wrong."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def leaf(exc: BaseException) -> str:
    exc = innermost(exc)
    if isinstance(exc, MCPError):
        return without_secrets(unparsed(exc) or exc.message)  # the server's own words
    if isinstance(exc, MessageTooLarge | MessageTooDeep | ServerExited | BudgetSpent | NotOpened):
        return without_secrets(str(exc))
    if isinstance(exc, ValidationError):
        return without_secrets(f"not an answer of the protocol: {first_error(exc)}")
    text = str(exc).splitlines()[0] if str(exc) else ""
    return without_secrets(f"{type(exc).__name__}: {text}" if text else type(exc).__name__)


def timed_out(exc: BaseException | None) -> bool:
    """Whether `exc` is the SDK's error for a request not answered within its read timeout."""
    return isinstance(exc, MCPError) and exc.code == REQUEST_TIMEOUT and "timed out" in exc.message


def _closed(exc: BaseException | None) -> bool:
    """Whether `exc` (or the first of a group) says only that the connection ended."""
    exc = innermost(exc) if exc is not None else None
    if isinstance(exc, MCPError):
        return exc.code == CONNECTION_CLOSED
    return isinstance(exc, anyio.ClosedResourceError | anyio.BrokenResourceError | anyio.EndOfStream | OSError)


@asynccontextmanager
async def connected(
    target: Target,
    at: Revision,
    timeout: float,
    headers: Mapping[str, str],
    message_bytes: int = DEFAULT_MESSAGE_BYTES,
    unheld: list[UnheldNumber] | None = None,
    log: ServerLog | None = None,
    capabilities: frozenset[str] = client_side.DEFAULT,
    budget: Budget | None = None,
    server_log: Path | None = None,
) -> AsyncIterator[tuple[ClientSession, str]]:
    """A session with the server opened at revision `at`, and the revision the server chose.

    2026-07-28 is opened by the SDK's `Client(mode="auto")`: `server/discover`, falling back to
    `initialize` for a server that does not know it. The others by our own `initialize`
    (`_initialize`): the SDK's always offers its newest handshake revision. A message from the
    server over `message_bytes` ends the connection: `MessageTooLarge` is raised, whatever the
    session made of the connection's end (`MessageTooDeep` for one nested deeper than the SDK reads).
    Each number of the server's messages that no double
    holds as written is added to `unheld` (given), before the SDK reads it as another. What a
    server over stdio does besides answering is noted in `log` (given: see `ServerLog`); one
    that exits makes the connection's failure `ServerExited`, with its status and last words.
    The session declares `capabilities` and answers what they let the server ask (`client_side`).
    Every byte from the server is charged to `budget` (given): none is opened once it is
    spent, and one past its bytes or its deadline ends at once, `BudgetSpent` raised.
    A server started over stdio writes its standard error to the file `server_log` (appended
    to: `server_log.Appender`), else to ours. A session that cannot be opened raises
    `NotOpened`, which says why (`heard` gives what the connection of a session heard).
    """
    spent = budget.spent() if budget is not None else None
    if spent is not None:
        raise BudgetSpent(spent)
    cap = Cap(message_bytes, unheld=unheld if unheld is not None else [], log=log or ServerLog(), budget=budget)
    deadline = anyio.current_time() + budget.left() if budget is not None else math.inf
    header = f"{HEADER.decode()}a session at {at.version} ==="
    errlog = Appender(server_log, header) if server_log is not None else None
    opened = False
    try:
        with anyio.CancelScope(deadline=deadline) as scope:
            async with _session(target, at, timeout, dict(headers), cap, capabilities, errlog) as (session, chose):
                _HEARD[session] = cap
                opened = True
                yield session, chose
    except Exception:
        over = cap.ended() or (BudgetSpent(budget.over_time()) if budget is not None and budget.left() <= 0 else None)
        if over is not None:
            raise over from None
        if not opened:
            _not_opened(sys.exception(), target, at, timeout, cap.log)
        exited = cap.log.exit()
        if exited is not None and _closed(sys.exception()):
            raise ServerExited(exited) from None
        raise
    finally:
        if errlog is not None:
            errlog.close()
    over = cap.ended() or (BudgetSpent(budget.over_time()) if scope.cancelled_caught and budget is not None else None)
    if over is not None:
        raise over


# The capped connection of each session `connected` opened, while the session lives.
_HEARD: weakref.WeakKeyDictionary[ClientSession, Cap] = weakref.WeakKeyDictionary()


def heard(session: ClientSession) -> Cap | None:
    """What the connection of `session` heard besides the SDK's reading of it (`Cap`: numbers
    as written, the server's standard error); None for a session `connected` did not open."""
    return _HEARD.get(session)


def _not_opened(exc: BaseException | None, target: Target, at: Revision, timeout: float, log: ServerLog) -> None:
    """Raise `NotOpened` for what opening a session at `at` met, when it says why the server
    could not be started or did not answer (else return: the caller raises `exc`)."""
    first = innermost(exc) if exc is not None else None
    server, asked = describe(target), "initialize" if at.handshake else "server/discover"
    if isinstance(target, StdioServerParameters) and not log.started and isinstance(first, OSError):
        said = first.strerror or str(first)
        raise NotOpened(f"{server} could not be started: {said}", not_started=True) from None
    if timed_out(first) or isinstance(first, TimeoutError):
        raise NotOpened(f"{server} did not answer {asked} within {timeout:g} s{log.words()}", timed_out=True) from None
    if log.status is not None and _closed(exc):
        raise NotOpened(f"{server} exited with status {log.status} before it answered {asked}{log.words()}") from None


@asynccontextmanager
async def _session(
    target: Target,
    at: Revision,
    timeout: float,
    headers: dict[str, str],
    cap: Cap,
    capabilities: frozenset[str],
    errlog: ErrLog | None = None,
) -> AsyncIterator[tuple[ClientSession, str]]:
    """A session through the started command (its standard error to `errlog`, else to ours),
    or the URL; each message from the server held to `cap` (see `bounded`)."""
    answering = client_side.callbacks(capabilities)
    async with AsyncExitStack() as stack:
        transport: Any
        if isinstance(target, StdioServerParameters):
            if target.env is None:
                target = target.model_copy(update={"env": dict(os.environ)})
            transport = stdio_client(target, errlog or _to_our_stderr(target.encoding), cap)
        else:
            http = await stack.enter_async_context(http_client(headers, HTTP_TIMEOUT, cap))
            # Events are counted by `cap`; the SDK's own bound (1 MiB) would refuse events under it.
            transport = streamable_http_client(target, http_client=http, max_sse_event_size=None)
        if not at.handshake:
            client = Client(transport, read_timeout_seconds=timeout, mode="auto", **answering)
            await stack.enter_async_context(client)
            yield client.session, client.protocol_version
            return
        read, write = await stack.enter_async_context(transport)
        session = await stack.enter_async_context(ClientSession(read, write, read_timeout_seconds=timeout, **answering))
        yield session, await _initialize(session, at.version, capabilities)


async def _initialize(session: ClientSession, version: str, capabilities: frozenset[str]) -> str:
    """Open `session` with `initialize` offering `version`; the revision the server answers.

    What `ClientSession.initialize` does in mcp 2.3.0 (client/session.py), with our offer: the
    SDK's always offers `LATEST_HANDSHAKE_VERSION`. A session answered with another revision is
    not adopted (nothing more is asked of it).
    """
    offer = types.InitializeRequestParams(
        protocol_version=version,
        capabilities=client_side.declared(capabilities),
        client_info=types.Implementation(name="mcp-contracts conform", version=__version__),
    )
    result = await session.send_request(types.InitializeRequest(params=offer), types.InitializeResult)
    if result.protocol_version == version:
        session.adopt(result)
        await session.send_notification(types.InitializedNotification())
    return result.protocol_version


class Wire(BaseModel):
    """A listing page that also keeps its entries (under `key`) as the server wrote them
    (`_wire`): the SDK's types keep only the fields they know (of a tool's `execution`, only
    what it knows of it)."""

    _wire: list[Any] = PrivateAttr(default_factory=list)
    key: ClassVar[str] = ""

    @model_validator(mode="wrap")
    @classmethod
    def _keep_wire(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        page = handler(data)
        entries = data.get(cls.key) if isinstance(data, dict) else None
        page._wire = list(entries) if isinstance(entries, list) else []
        return page


class _Page(Wire, types.ListToolsResult):
    key = "tools"


async def list_tools(
    session: ClientSession, report: Report, wire: dict[str, dict[str, Any]] | None = None
) -> dict[str, types.Tool]:
    """Every tool the server lists, page by page; a name listed twice and a listing that
    never ends (`read_pages`) are findings. `wire` (given) gets each tool's JSON as the
    server wrote it."""
    tools: dict[str, types.Tool] = {}

    async def page(cursor: str | None) -> str | None:
        try:
            request = types.ListToolsRequest(params=types.PaginatedRequestParams(cursor=cursor))
            listed = await session.send_request(request, _Page)
        except ValidationError as exc:
            report.add(rules.INVALID_RESPONSE, "tools/list", f"not a tools/list result: {first_error(exc)}")
            raise Stopped from None
        for tool, written in zip(listed.tools, listed._wire, strict=False):
            if tool.name in tools:
                report.add(
                    rules.DUPLICATE_TOOL, "tools/list", f"{tool.name!r} is listed twice", tool=tool.name, at=["name"]
                )
            elif wire is not None and isinstance(written, dict):
                wire[tool.name] = written
            tools.setdefault(tool.name, tool)
        return listed.next_cursor

    endless = await read_pages(page)
    if endless is not None:
        report.add(rules.ENDLESS_TOOL_LIST, "tools/list", endless)
    return tools


async def read_pages(page: Callable[[str | None], Awaitable[str | None]]) -> str | None:
    """A listing paged through: `page` asks for the page at a cursor (None: the first), keeps
    its entries and gives its `nextCursor` (raises when it cannot). None once a page gives
    none; else why the listing never ends: a cursor given before, or one after `MAX_PAGES`."""
    cursor: str | None = None
    cursors: set[str] = set()
    for number in range(1, MAX_PAGES + 1):
        cursor = await page(cursor)
        if cursor is None:
            return None
        if cursor in cursors:
            return f"page {number} gives a nextCursor given before ({printable(cursor)[:80]!r}): the listing loops"
        cursors.add(cursor)
    return f"still a nextCursor after {MAX_PAGES} pages: the listing was not read to its end"


def first_error(exc: ValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return str(exc).splitlines()[0]
    where = "/".join(str(part) for part in errors[0].get("loc", ()))
    return f"{where}: {errors[0].get('msg', '')}" if where else str(errors[0].get("msg", ""))
