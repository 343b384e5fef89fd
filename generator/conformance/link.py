"""The server as `conform` asks it: one session at a time, held by a task of its own and opened
again when the last one ended, each request's outcome an `Answer`.

A session is held apart from the task that asks (`Link.hold`), so that a connection that ends,
whatever ended it (the server, an answer past `limits.message_bytes` that ended it in the
middle, a transport that broke), ends no more than the request it was answering: that request
gets its `Answer`, named by what ended the connection (`over-bound` for an answer past a
bound, `spent` for the run's `Budget`, `lost` for the server going away), and the next one a
new session. The plain run asks from the event loop, `--fuzz` from its worker thread.

The MCP SDK logs an answer it cannot parse with its traceback (`logging`):
`client.connect.sdk_logs_silenced` keeps those off standard error while a run lasts; the
`Answer` says what happened instead. A crash carries the last lines the server wrote to its
standard error while it was asked (`Answer.stderr`; the whole of it is kept in a file of the
run, `--server-log`), and a result the numbers the server wrote: a `structuredContent` with a
number no double holds (`1e-400`, which the SDK reads as 0) is the one the server sent
(`client.bounded.AsWritten`), for the judge to refuse.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from mcp_types.jsonrpc import INTERNAL_ERROR, PARSE_ERROR
from pydantic import ValidationError

from .. import debug
from ..client.bounded import Budget, BudgetSpent, Cap, MessageTooDeep, OverBound, ServerExited, too_deep
from ..client.connect import Stopped, first_error, heard, leaf
from ..client.report import Report
from ..rules import conform as rules

Reconnect = Callable[[], AbstractAsyncContextManager[tuple[ClientSession, str]]]
T = TypeVar("T")
# How the SDK's HTTP transport answers a request whose event stream ended (or broke) unanswered:
# an answer past a bound ends it so (the connection then says which bound).
_STREAM_ENDED = "SSE stream "
# How long the server's standard error is given to reach us after an error answer that says
# its handler crashed (it wrote its traceback before its answer, but on another pipe): steps
# of a moment, until it stops growing.
_SETTLE_STEP = 0.01
_SETTLE_STEPS = 5


@dataclass(frozen=True)
class Answer:
    """What one request got: a `result`; a JSON-RPC error (`code`, `text`); or, by `kind`, the
    connection `lost`, no answer (`timeout`), an answer that is `not-a-result`, one past a bound
    of the client (`over-bound`: `text` says which), the run's budget `spent` (`text` says which
    bound), or the server `unreachable` (no session could be opened again: `text` says why).
    `stderr`: for an error answer that says the handler crashed, the last lines the server
    wrote to its standard error meanwhile, on one line ("" for none)."""

    kind: str
    result: Any = None  # a `types.CallToolResult`, or the result of the request `Link.ask` made
    code: int | None = None
    text: str = ""
    stderr: str = ""

    def crash(self) -> str | None:
        """What says the server's handler failed (a crash, though the process lives on): the
        connection lost, or an error answer that stands for an exception it did not handle,
        with what the server wrote to its standard error; None for any other answer."""
        if self.kind == "lost":
            return self.text
        if self.kind == "rpc-error" and self.code in UNHANDLED:
            return f"{UNHANDLED[self.code]} ({self.text}){self.words()}"
        return None

    def rpc_error(self) -> str:
        """A JSON-RPC error answer as a finding says it: its code and message; for one that says
        the handler crashed, what the server wrote to its standard error meanwhile instead, when
        it wrote something (an SDK words one crash otherwise at each revision: the Python SDK's
        code 0 "404" is -32603 "Internal server error" at 2026-07-28, and one fault is one finding)."""
        if self.code in UNHANDLED and self.stderr:
            return f"a JSON-RPC error that stands for an exception its handler did not handle{self.words()}"
        return f"JSON-RPC error {self.code}: {self.text}{self.words()}"

    def words(self) -> str:
        """`stderr` as a message ends with it ("" for none)."""
        return f"; its standard error: {self.stderr}" if self.stderr else ""


# The error codes a server answers with when a handler raised what it did not handle:
# JSON-RPC's internal error, and the code the Python SDK gives a plain exception instead
# (`JSONRPCDispatcher`: "code=0 pins existing-server compat; JSON-RPC says INTERNAL_ERROR").
UNHANDLED = {
    INTERNAL_ERROR: f"JSON-RPC internal error {INTERNAL_ERROR}",
    0: "error code 0, the Python MCP SDK's answer to an exception its handler raised",
}


@dataclass
class _Connection:
    """One session, and once it closed, the exception its connection ended with (None: none)."""

    session: ClientSession
    closed: anyio.Event = field(default_factory=anyio.Event)
    ended: BaseException | None = None


class Link:
    """The server at one protocol revision, through sessions `hold` opens with `reconnect` (the
    first at once, another whenever a request finds the last one ended); `budget` (given) is
    the run's, which every connection charges.

    `answered`: the revision the server answered the first session with. `failed`: why no
    session could be opened (again), and `error` the exception that said so. `spent`: the
    bound of the budget that stopped the run, once one did."""

    def __init__(
        self, reconnect: Reconnect, revision: str, timeout: float, budget: Budget | None = None, counted: Any = None
    ):
        self.answered: str | None = None
        self.failed: str | None = None
        self.error: BaseException | None = None
        self.spent: str | None = None
        self.reconnects = 0  # sessions opened after the first
        self.counted = counted  # a report whose `calls` counts every request (`--fuzz`), or None
        self._reconnect, self._revision, self._timeout, self._budget = reconnect, revision, timeout, budget
        self._current: _Connection | None = None
        self._opening = False
        self._opened = 0
        self._wanted = anyio.Event()  # set: a new session is wanted (or `close`)
        self._wanted.set()
        self._ready = anyio.Event()  # set: there is a session to ask, or `failed` says why not
        self._closing = False

    async def hold(self) -> None:
        """Open a session each time one is wanted, and close it when the next is, until `close`."""
        while not self._closing:
            await self._wanted.wait()
            if self._closing:
                return
            self._wanted, self._opening = anyio.Event(), True
            await self._held()
            if self.failed is not None:
                self._ready.set()
                return

    async def _held(self) -> None:
        """One session, from its opening to its end (wanted, or on its own)."""
        connection: _Connection | None = None
        try:
            async with self._reconnect() as (session, answered):
                self.answered = self.answered or answered
                if answered != self._revision:
                    self.failed = f"asked for {self._revision}, the server answered {answered}"
                    return
                connection = self._current = _Connection(session)
                self._opening = False
                self._opened += 1
                self.reconnects = self._opened - 1
                self._ready.set()
                await self._wanted.wait()
        except Exception as exc:  # the transports raise what they meet, often in groups
            debug.handled(exc)
            if isinstance(exc, BudgetSpent):
                self.spent = self.spent or str(exc)
            if connection is None:
                self.failed, self.error = f"the server could not be reached: {leaf(exc)}", exc
            else:
                connection.ended = exc
        finally:
            self._opening = False
            if connection is not None:
                connection.closed.set()
                if self._current is connection:  # it ended on its own: the next request asks for another
                    self._current, self._ready = None, anyio.Event()

    @asynccontextmanager
    async def held(self) -> AsyncIterator[Link]:
        """The link with its first session open (what opening it raised is raised), until the block ends."""
        async with anyio.create_task_group() as group:
            group.start_soon(self.hold)
            try:
                await self._connection()
                if self.error is not None:
                    raise self.error
                yield self
            finally:
                self.close()

    def close(self) -> None:
        self._closing = True
        self._wanted.set()

    async def _end(self, connection: _Connection) -> BaseException | None:
        """Close `connection` (unless it closed already) and wait for it; what it ended with."""
        if self._current is connection:
            self._current, self._ready = None, anyio.Event()
            self._wanted.set()
        await connection.closed.wait()
        return connection.ended

    async def _connection(self) -> _Connection | None:
        """The session to ask: the one open, else a new one (None when none can be opened)."""
        while self._current is None and self.failed is None:
            if not self._opening:
                self._wanted.set()
            await self._ready.wait()
        return self._current

    async def call(self, name: str, arguments: dict[str, Any], meta: Any = None) -> Answer:
        params = types.CallToolRequestParams(name=name, arguments=arguments, _meta=meta)
        return await self.ask(types.CallToolRequest(params=params), types.CallToolResult)

    async def ask(self, request: Any, result_type: Any) -> Answer:
        """One request (a `tools/call`, `resources/read`, `prompts/get`, a listing's page) and
        what it got, within `timeout` (the SDK's read timeout, a little more in all)."""
        if self.counted is not None:
            self.counted.calls += 1

        said = [""]  # what the server wrote to its standard error meanwhile, for an answer that may be a crash

        async def asked(session: ClientSession) -> Any:
            cap = heard(session)
            since = cap.log.mark() if cap is not None else 0
            with anyio.fail_after(self._timeout * 1.5):  # the SDK's own read timeout answers first
                result = await session.send_request(request, result_type, request_read_timeout_seconds=self._timeout)
            if _unstructured_error(result):  # the text of an exception a handler raised, maybe
                said[0] = await _settled_lines(cap, since)
            return result

        used = await self.use(asked, getattr(request, "method", "tools/call"))
        return used if isinstance(used, Answer) else Answer("result", result=used, stderr=said[0])

    async def use(self, operation: Callable[[ClientSession], Awaitable[T]], method: str) -> T | Answer:
        """What `operation` returns, on the session open (a new one if the last ended); or the
        `Answer` that says why it got none. `Stopped` is let through: the operation reported it."""
        spent = self._spent()
        if spent is not None:
            return spent
        connection = await self._connection()
        if connection is None:
            return self._spent() or Answer("unreachable", text=self.failed or "the server could not be reached")
        cap = heard(connection.session)
        marks = (cap.messages, cap.log.mark()) if cap is not None else (0, 0)
        try:
            return _as_written(await operation(connection.session), cap, marks[0])
        except Stopped:
            raise
        except MCPError as exc:
            # The SDK's own errors for these: a server may send the same codes (-32000 and -32001
            # are the implementation's), not with the SDK's words.
            if exc.code == REQUEST_TIMEOUT and "timed out" in exc.message:
                return await self._ended(connection, Answer("timeout"))  # one stuck may be stuck on the next
            if exc.code == CONNECTION_CLOSED and exc.message == "Connection closed":
                return await self._ended(connection, Answer("lost", text="the server closed the connection"))
            if exc.code == CONNECTION_CLOSED and exc.message.startswith(_STREAM_ENDED):  # no answer will come on it
                return await self._ended(connection, Answer("lost", text=exc.message))
            if exc.code == PARSE_ERROR and too_deep(exc.message):  # the SDK's transport said it, over HTTP
                return Answer("over-bound", text=str(MessageTooDeep()))
            crashed = await _settled_lines(cap, marks[1]) if exc.code in UNHANDLED else ""
            return Answer("rpc-error", code=exc.code, text=exc.message, stderr=crashed)
        except TimeoutError:
            return await self._ended(connection, Answer("timeout"))
        except ValidationError as exc:
            return Answer("not-a-result", text=f"not a {method} result: {first_error(exc)}")
        except Exception as exc:  # a transport that broke under the request
            debug.handled(exc)
            return await self._ended(connection, Answer("lost", text=f"the connection broke: {leaf(exc)}"))

    async def _ended(self, connection: _Connection, otherwise: Answer) -> Answer:
        """The answer of a request whose connection is given up: named by what ended it (a
        bound, the budget, the server's exit), else `otherwise`."""
        ended = await self._end(connection)
        if isinstance(ended, BudgetSpent):
            self.spent = self.spent or str(ended)
            return Answer("spent", text=self.spent)
        if isinstance(ended, OverBound):
            return Answer("over-bound", text=str(ended))
        if self._spent() is not None:
            return Answer("spent", text=self.spent or "")
        if isinstance(ended, ServerExited) and otherwise.kind == "lost":
            return Answer("lost", text=str(ended))
        return otherwise

    def _spent(self) -> Answer | None:
        """`spent` when the run's budget is: nothing more is asked (`failed` says why)."""
        said = self._budget.spent() if self._budget is not None else None
        if said is None and self.spent is None:
            return None
        self.spent = self.spent or said
        self.failed = self.failed or self.spent
        return Answer("spent", text=self.spent or "")


def _as_written(result: T, cap: Cap | None, since: int) -> T:
    """`result`, a `tools/call` result whose `structuredContent` held a number no double holds
    given as the server wrote it (`Cap.written`, of a message read after `since`)."""
    written = cap.written if cap is not None else None
    if written is None or written[0] <= since or not isinstance(result, types.CallToolResult):
        return result
    return cast(T, result.model_copy(update={"structured_content": written[1]}))


def _unstructured_error(result: Any) -> bool:
    """Whether `result` is an `isError` tool result in text only: what an SDK makes of an
    exception its handler raised (the Python SDK's "Error executing tool …")."""
    return isinstance(result, types.CallToolResult) and bool(result.is_error) and result.structured_content is None


async def _settled_lines(cap: Cap | None, since: int) -> str:
    """The last lines a server over stdio wrote to its standard error after `since`, once they
    stopped coming (a few milliseconds); "" for none, or a server not over stdio."""
    if cap is None or not cap.log.started:
        return ""
    before = cap.log.mark()
    for _ in range(_SETTLE_STEPS):
        await anyio.sleep(_SETTLE_STEP)
        now = cap.log.mark()
        if now == before and now > since:  # it came, and stopped coming
            break
        before = now
    return cap.log.last_lines(since)


def unanswered(
    report: Report,
    answer: Answer,
    subject: str,
    timeout: float,
    *,
    tool: str | None = None,
    at: tuple[Any, ...] | list[Any] = (),
    source: str | None = None,
) -> None:
    """A request of the plain run that got no answer, reported by what it got instead (a
    JSON-RPC error and an answer that is no result are the caller's to say); `Stopped` when
    nothing more can be asked at this revision (the connection lost, the budget spent)."""
    if answer.kind == "over-bound":
        report.add(rules.BOUND_EXCEEDED, subject, answer.text, tool=tool, at=at, source=source)
    elif answer.kind == "timeout":
        report.add(rules.CALL_TIMEOUT, subject, f"no answer within {timeout:g} s", tool=tool, at=at, source=source)
    elif answer.kind in ("lost", "unreachable"):
        exited = report.log.exit() if report.log is not None else None
        text = exited or answer.text
        report.add(rules.CONNECTION_LOST, subject, text, tool=tool, at=at, source=source)
        raise Stopped(text)
    elif answer.kind == "spent":
        raise Stopped(answer.text)  # said once, for the whole run (`conform`)
