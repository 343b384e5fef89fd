"""The stdio transport of `connect`: the SDK's `stdio_client` (mcp 2.3) written out with
public names (the process started and stopped as the SDK does), with another reader of the
server's standard output, which holds each line to the connection's `Cap` (`bounded`): the
SDK's joins a line's chunks until a newline comes, without a bound.

The reader also sees what the SDK only logs: a line of the server's standard output that is
no message (`ServerLog.stray`), which the stdio transport forbids. The server's standard error
goes where the run keeps it (`errlog`: a file, `--server-log`), through a pipe of this process
that keeps its last lines: a server that ends while it is asked is said with its exit status
and them (`ServerLog`), and a crash with the lines it wrote meanwhile.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any, TextIO, cast

import anyio
import mcp.types as types
from anyio.abc import ByteReceiveStream, Process
from mcp import StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp.os.posix.utilities import terminate_posix_process_tree
from mcp.shared.message import SessionMessage

from ..interrupt import received
from .bounded import Cap, MessageTooDeep, OverBound, too_deep
from .server_log import ServerLog

# How long a server whose standard output ended gets to exit and finish its standard error.
_EXIT_WAIT_SECONDS = 2.0
# How long a server that broke the cap gets to go after SIGTERM, before SIGKILL.
_KILL_AFTER_SECONDS = 1.0
# How long a server being stopped gets after its standard input closes, then after SIGTERM (the SDK's).
_STOP_GRACE_SECONDS = 2.0


# Where a server's standard error goes, chunk by chunk as it comes (`stdio_client`).
ErrLog = Callable[[bytes], None]


@asynccontextmanager
async def stdio_client(server: StdioServerParameters, errlog: ErrLog, cap: Cap) -> AsyncIterator[tuple[object, object]]:
    """As the SDK's `stdio_client` (mcp 2.3), with a reader that holds each line to `cap`: a
    longer one ends the session, and the server is stopped at once (it is not drained). A
    line that is no message is noted in `cap.log`; the server's standard error is given to
    `errlog` as it comes (which must not raise), its end kept in `cap.log`."""
    log, stderr_ended = cap.log, anyio.Event()
    log.status, log.stopping, log.started = None, False, False  # this connection's (a log serves several, in turn)
    log.stderr.clear()
    process = await _started(server)
    log.started = True
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)

    async def reader() -> None:
        assert process.stdout is not None
        async with read_writer:
            try:
                async for line in _lines(process.stdout, cap):
                    cap.read(line)
                    message = _message(line, server)
                    if isinstance(message, Exception) and too_deep(message):
                        cap.deep = True
                        raise MessageTooDeep
                    if isinstance(message, Exception) and line.strip():
                        log.not_protocol(line)
                    await read_writer.send(message)
                await _exited(process, log, stderr_ended)
            except OverBound:
                assert isinstance(process, Process)
                with anyio.CancelScope(shield=True):
                    await terminate_posix_process_tree(process, _KILL_AFTER_SECONDS)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError, OSError):
                return  # the session, or the server, is gone

    async def errors() -> None:
        if not isinstance(process, Process) or process.stderr is None:  # Windows' fallback: not piped
            stderr_ended.set()
            return
        with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError, OSError):
            async for chunk in process.stderr:  # read to its end, whatever `errlog` does: a full pipe stalls the server
                log.heard(chunk)
                errlog(chunk)
        stderr_ended.set()

    async def writer() -> None:
        assert process.stdin is not None
        try:
            async with write_reader:
                async for message in write_reader:
                    text = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await process.stdin.send(text.encode(server.encoding, server.encoding_error_handler))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()

    async with anyio.create_task_group() as group:
        group.start_soon(reader)
        group.start_soon(writer)
        group.start_soon(errors)
        try:
            yield read_stream, write_stream
        finally:
            log.stopping = True
            with anyio.CancelScope(shield=True):
                read_stream.close()
                write_stream.close()
                await _stop(process, _KILL_AFTER_SECONDS / 2 if received() is not None else _STOP_GRACE_SECONDS)
                for stream in (read_stream, write_stream, read_writer, write_reader):
                    await stream.aclose()
            group.cancel_scope.cancel()


async def _started(server: StdioServerParameters) -> Any:
    """The server's process as the SDK's `stdio_client` starts it: in a session of its own
    (a Job Object on Windows), so that its whole tree can be stopped; its standard error
    piped to `errors`, which gives it to `errlog`."""
    env = get_default_environment() | (server.env or {})
    if sys.platform == "win32":  # pragma: no cover
        from mcp.os.win32.utilities import create_windows_process, get_windows_executable_command

        command = await anyio.to_thread.run_sync(get_windows_executable_command, server.command)
        return await create_windows_process(command, server.args, env, cast(TextIO, subprocess.PIPE), server.cwd)
    command = [server.command, *server.args]
    return await anyio.open_process(command, env=env, stderr=subprocess.PIPE, cwd=server.cwd, start_new_session=True)


async def _stop(process: Any, grace: float) -> None:
    """Stop the server as the SDK does (the specification's shutdown): close its standard
    input, give it `grace` seconds to exit (less after a signal), then stop its tree (SIGTERM,
    then SIGKILL); then close its pipes' transports too (`aclose`), which a child of the
    server may hold open."""
    with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.stdin.aclose()
    if not await _exited_within(process, grace):
        if sys.platform == "win32":  # pragma: no cover
            from mcp.os.win32.utilities import terminate_windows_process_tree

            await terminate_windows_process_tree(process)
        else:
            await terminate_posix_process_tree(process, grace)
    with anyio.move_on_after(_STOP_GRACE_SECONDS):
        await process.aclose()


async def _exited_within(process: Any, seconds: float) -> bool:
    """Whether the process ended within `seconds` (its return code polled: `wait` would also
    wait for the end of its pipes, which a child it started may hold open)."""
    with anyio.move_on_after(seconds):
        while process.returncode is None:
            await anyio.sleep(0.01)
    return process.returncode is not None


async def _exited(process: object, log: ServerLog, stderr_ended: anyio.Event) -> None:
    """The server's standard output ended: unless the connection is being closed, wait a
    little for its exit and the rest of its standard error, and note its status in `log`."""
    if log.stopping:
        return
    with anyio.move_on_after(_EXIT_WAIT_SECONDS):
        while getattr(process, "returncode", None) is None:
            await anyio.sleep(0.02)
        await stderr_ended.wait()
    status = getattr(process, "returncode", None)
    if status is not None and not log.stopping:
        log.status = status


def _message(line: bytes, server: StdioServerParameters) -> SessionMessage | Exception:
    """One line as the SDK's transport parses it (`_parse_line`, without the traceback it logs
    for a line that is no message: `stdout-not-protocol` says it): a message, or why it is none."""
    try:
        text = line.decode(server.encoding, server.encoding_error_handler)
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(text, by_name=False))
    except ValueError as exc:  # bytes that are not of the encoding, or no JSON-RPC message
        return exc


async def _lines(stream: ByteReceiveStream, cap: Cap) -> AsyncGenerator[bytes, None]:
    """The lines of `stream` (without their newline), none longer than `cap` allows."""
    buffer = bytearray()
    async for chunk in stream:
        cap.charge(len(chunk))
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            cap.check(len(buffer) + end - start)
            line = bytes(buffer + chunk[start:end]) if buffer else chunk[start:end]
            buffer.clear()
            start = end + 1
            yield line
        buffer += chunk[start:]
        cap.check(len(buffer))
