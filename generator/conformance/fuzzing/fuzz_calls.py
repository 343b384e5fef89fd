"""The calls of `conform --fuzz`: one `tools/call` at a time, on sessions of their own (a
transport that breaks under a call must not end the run's own session), opened again when the
server goes away (a crash) or stops answering (a hang).

The fuzzing loop runs in a worker thread and makes each call on the event loop
(`anyio.from_thread.run`). Sessions are opened and closed by one task, `Server.hold`, for the
transports' task groups must be left in the task that entered them; a call that finds its
session gone asks `hold` for another and waits for it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from mcp_types.jsonrpc import INTERNAL_ERROR
from pydantic import ValidationError

from ...client.connect import first_error, leaf
from ...client.report import Report

Reconnect = Callable[[], AbstractAsyncContextManager[tuple[ClientSession, str]]]


@dataclass(frozen=True)
class Answer:
    """What one call got: a `result`; a JSON-RPC error (`code`, `text`); or, by `kind`, the
    connection `lost`, no answer (`timeout`), an answer that is `not-a-result`, or the server
    `unreachable` (no session could be opened again: `text` says why)."""

    kind: str
    result: Any = None  # a `types.CallToolResult`, or the result of the request `Server.ask` made
    code: int | None = None
    text: str = ""

    def crash(self) -> str | None:
        """What says the server's handler failed (a crash, though the process lives on): the
        connection lost, or an error answer that stands for an exception it did not handle;
        None for any other answer."""
        if self.kind == "lost":
            return self.text
        if self.kind == "rpc-error" and self.code in UNHANDLED:
            return f"{UNHANDLED[self.code]} ({self.text})"
        return None


# The error codes a server answers with when a handler raised what it did not handle:
# JSON-RPC's internal error, and the code the Python SDK gives a plain exception instead
# (`JSONRPCDispatcher`: "code=0 pins existing-server compat; JSON-RPC says INTERNAL_ERROR").
UNHANDLED = {
    INTERNAL_ERROR: f"JSON-RPC internal error {INTERNAL_ERROR}",
    0: "error code 0, the Python MCP SDK's answer to an exception its handler raised",
}


class Server:
    """The server being fuzzed, at one protocol revision, through sessions opened by `hold`
    (the first before the first call)."""

    def __init__(self, reconnect: Reconnect, revision: str, timeout: float, report: Report):
        self.session: ClientSession | None = None
        self.failed: str | None = None  # why no session could be opened (again)
        self.reconnects = 0  # sessions asked for after the first
        self._reconnect, self._revision, self._timeout, self._report = reconnect, revision, timeout, report
        self._wanted = anyio.Event()  # set: a new session is wanted (or `close`)
        self._wanted.set()
        self._ready = anyio.Event()  # set: `session` is one to call on (or `failed` says why not)
        self._closing = False

    async def hold(self) -> None:
        """Open a session each time one is wanted, and close it when the next is, until `close`."""
        while not self._closing:
            await self._wanted.wait()
            if self._closing:
                return
            self._wanted = anyio.Event()
            opened = False
            try:
                async with self._reconnect() as (session, answered):
                    if answered != self._revision:
                        self.failed = f"asked for {self._revision}, the server answered {answered}"
                    else:
                        self.session, opened = session, True
                        self._ready.set()
                        await self._wanted.wait()
            except Exception as exc:  # the transports raise what they meet, often in groups
                if not opened:
                    self.failed = f"the server could not be reached: {leaf(exc)}"
            self.session = None
            if self.failed is not None:
                self._ready.set()
                return

    def close(self) -> None:
        self._closing = True
        self._wanted.set()

    def _drop(self) -> None:
        """The session is of no more use: the next call waits for a new one."""
        self.session = None
        self._ready = anyio.Event()
        self.reconnects += 1
        self._wanted.set()

    async def call(self, name: str, arguments: dict[str, Any]) -> Answer:
        params = types.CallToolRequestParams(name=name, arguments=arguments)
        return await self.ask(types.CallToolRequest(params=params), types.CallToolResult)

    async def ask(self, request: Any, result_type: Any) -> Answer:
        """One request (a `tools/call`, `resources/read`, `prompts/get`) and what it got."""
        if self.session is None and self.failed is None:
            await self._ready.wait()
        session = self.session
        if session is None:
            return Answer("unreachable", text=self.failed or "the server could not be reached")
        self._report.calls += 1
        method = getattr(request, "method", "tools/call")
        try:
            with anyio.fail_after(self._timeout * 1.5):  # the SDK's own read timeout answers first
                result = await session.send_request(request, result_type, request_read_timeout_seconds=self._timeout)
        except MCPError as exc:
            if exc.code == REQUEST_TIMEOUT and "timed out" in exc.message:
                self._drop()  # a server stuck on one call may be stuck on the next
                return Answer("timeout")
            if exc.code == CONNECTION_CLOSED and exc.message == "Connection closed":
                self._drop()
                return Answer("lost", text="the server closed the connection")
            return Answer("rpc-error", code=exc.code, text=exc.message)
        except TimeoutError:
            self._drop()
            return Answer("timeout")
        except ValidationError as exc:
            return Answer("not-a-result", text=f"not a {method} result: {first_error(exc)}")
        except Exception as exc:  # a transport that broke under the call
            self._drop()
            return Answer("lost", text=f"the connection broke: {leaf(exc)}")
        return Answer("result", result=result)
