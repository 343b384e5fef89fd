"""Standard input and output as the event loop's own pipes: the stdio transport of `mock`.

The SDK's `stdio_server` reads each line and writes each answer through a worker thread
(`anyio.wrap_file`): two thread hand-offs a request, more than a mock spends answering it.
It takes the streams it serves as arguments, and these are the process's standard input
and output read and written by the event loop itself (`connect_read_pipe`,
`connect_write_pipe`: epoll, no thread). Each line is decoded as the SDK decodes it
(UTF-8, a bad byte replaced), and the SDK still parses every message and frames every
answer. Standard input or output that is not a pipe, a socket or a character device (a
regular file) is served by the SDK's own transport (`serve`).

The descriptors are set non-blocking while served (the loop needs it) and put back as they
were when the server stops, so what the process prints afterwards blocks as it did.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

# A line longer than this is refused by the reader (the SDK's own transport has no bound;
# a tools/call of 64 MiB is far past what any client sends).
_LINE_LIMIT = 64 * 1024 * 1024


class _Lines:
    """Standard input as the async iterator of text lines `stdio_server` reads."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        line = await self._reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class _Out:
    """Standard output as the async file `stdio_server` writes to: each answer is handed to
    the pipe at once, and `flush` waits while the client has not read what is pending."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, text: str) -> None:
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._writer.drain()


def _pipe_like(fd: int) -> bool:
    """Whether the loop can watch `fd`: a pipe, a socket or a character device."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


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
    writer = asyncio.StreamWriter(write_transport, protocol, reader, loop)
    try:
        yield _Lines(reader), _Out(writer)
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
