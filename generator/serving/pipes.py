"""Standard input and output as the event loop's own pipes: the stdio transport of `mock`.

The SDK's `stdio_server` reads each line and writes each answer through a worker thread
(`anyio.wrap_file`): two thread hand-offs a request, more than a mock spends answering it.
It takes the streams it serves as arguments, and these are the process's standard input
and output read and written by the event loop itself (`connect_read_pipe`,
`connect_write_pipe`: epoll, no thread). Each line is decoded as the SDK decodes it
(UTF-8, a bad byte replaced), and the SDK still parses every message and frames every
answer. Standard input or output that is not a pipe, a socket or a terminal (a regular
file, `/dev/null`) is served by the SDK's own transport (`serve`).

The descriptors are set non-blocking while served (the loop needs it) and put back as they
were when the server stops, so what the process prints afterwards blocks as it did. Unlike
the SDK's transport, standard output is not diverted to standard error while serving: the
mock's handlers print nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import stat
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

# A line longer than this is refused by the reader (the SDK's own transport has no bound;
# a tools/call of 64 MiB is far past what any client sends).
_LINE_LIMIT = 64 * 1024 * 1024


# How long the end of standard input waits for the answers of the requests read before it.
_LAST_ANSWERS_SECONDS = 10.0
# The id of an answer as the SDK writes it (pydantic keeps the fields' order: jsonrpc, id).
_ANSWER_ID = re.compile(r'\{"jsonrpc":"2\.0","id":(-?[0-9]+|"(?:[^"\\]|\\.)*")')


class _Pending:
    """The requests read and not answered yet. At the end of standard input they are answered
    before the server stops: a client that writes its requests and closes its end (a shell
    pipe) gets every answer, where the SDK's transport stops at once and drops what is on the
    way. A request never answered (one the client cancelled) is waited for a few seconds."""

    def __init__(self) -> None:
        self._ids: set[int | str] = set()
        self.none = asyncio.Event()
        self.none.set()

    def read(self, line: bytes) -> None:
        if b'"method"' not in line or b'"id"' not in line:
            return  # a notification, or an answer to the server
        try:
            message = json.loads(line)
        except ValueError:
            return  # the SDK answers it with a parse error, an answer without this id
        ident = message.get("id") if isinstance(message, dict) and "method" in message else None
        if isinstance(ident, int | str) and not isinstance(ident, bool):
            self._ids.add(ident)
            self.none.clear()

    def written(self, text: str) -> None:
        found = _ANSWER_ID.match(text) if self._ids else None
        if found is not None:
            self._ids.discard(json.loads(found.group(1)))
            if not self._ids:
                self.none.set()


class _Lines:
    """Standard input as the async iterator of text lines `stdio_server` reads."""

    def __init__(self, reader: asyncio.StreamReader, pending: _Pending) -> None:
        self._reader = reader
        self._pending = pending

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        line = await self._reader.readline()
        if not line:
            with suppress(TimeoutError):
                await asyncio.wait_for(self._pending.none.wait(), _LAST_ANSWERS_SECONDS)
            raise StopAsyncIteration
        self._pending.read(line)
        return line.decode("utf-8", errors="replace")


class _Out:
    """Standard output as the async file `stdio_server` writes to: each answer is handed to
    the pipe at once, and `flush` returns once all of it is in the pipe (the transport keeps
    no buffer: its high-water mark is 0), as the SDK's blocking flush does."""

    def __init__(self, writer: asyncio.StreamWriter, pending: _Pending) -> None:
        self._writer = writer
        self._pending = pending

    async def write(self, text: str) -> None:
        self._writer.write(text.encode("utf-8"))
        self._pending.written(text)

    async def flush(self) -> None:
        await self._writer.drain()


def _pipe_like(fd: int) -> bool:
    """Whether the loop can watch `fd`: a pipe, a socket or a terminal (epoll refuses regular
    files and some character devices, `/dev/null` among them). A terminal read by the SDK's
    worker thread would keep the process alive after Ctrl-C until a line is typed."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)


@asynccontextmanager
async def _loop_pipes() -> AsyncIterator[tuple[_Lines, _Out]]:
    loop = asyncio.get_running_loop()
    blocking = {fd: os.get_blocking(fd) for fd in (0, 1)}
    # Private duplicates: the loop's transports close what they are given, not fd 0 and 1.
    stdin = os.fdopen(os.dup(0), "rb", buffering=0)
    stdout = os.fdopen(os.dup(1), "wb", buffering=0)
    reader = asyncio.StreamReader(limit=_LINE_LIMIT)
    read_transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
    write_transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, stdout)
    write_transport.set_write_buffer_limits(high=0)
    writer = asyncio.StreamWriter(write_transport, protocol, reader, loop)
    try:
        pending = _Pending()
        yield _Lines(reader, pending), _Out(writer, pending)
    finally:
        read_transport.close()
        write_transport.close()
        for fd, was in blocking.items():
            os.set_blocking(fd, was)


async def serve(run: Callable[[Any, Any], Awaitable[None]]) -> None:
    """Serve over standard input and output: `run(read_stream, write_stream)` with the SDK's
    `stdio_server` framing, through the loop's pipes when they are pipes."""
    from mcp.server.stdio import stdio_server

    if not (_pipe_like(0) and _pipe_like(1)) or sys.platform == "win32":
        async with stdio_server() as (read_stream, write_stream):
            await run(read_stream, write_stream)
        return
    async with _loop_pipes() as (lines, out), stdio_server(lines, out) as (read_stream, write_stream):  # type: ignore[arg-type]
        await run(read_stream, write_stream)
