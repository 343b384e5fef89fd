"""The client transports of `connect`, each holding one message from the server to
`limits.message_bytes`: a server that answers with more ends the connection, and the run
says the cap was hit (`MessageTooLarge`), instead of reading gigabytes into memory.

The SDK's stdio transport joins a line's chunks until a newline comes, without a bound; its
streamable HTTP transport reads a JSON answer whole (`response.aread()`) and bounds an SSE
event at 1 MiB only. HTTP is bounded through the SDK's own seam, the `httpx2.AsyncClient`
it is given: a response hook counts the bytes of each answer (of each event, for an event
stream) as they arrive. Stdio has no such seam: `stdio_client` here is the SDK's written
out with public names (the process started and stopped as the SDK does), and another reader
of the server's standard output.

The same readers charge what they read to the run's `Budget`, when one is given: every
byte from the server over every connection of one run, summed (`limits.server_bytes`), and
the time the run may talk to it in all (`limits.server_seconds`), which `connect.connected`
holds each session to. A server past either ends the connection (`BudgetSpent`), as one
message over its bound does.

The same readers see each message's numbers as the server wrote them: the SDK keeps only
their doubles (`1e-400` is 0, `1e400` infinity), so a number no double holds is noted here
(`Cap.unheld`) before the SDK parses the message, for `import` to refuse; and a result's
`structuredContent` that holds one is kept as written (`Cap.written`, each such number an
`AsWritten`), for `conform` to judge what the server sent rather than what the SDK made of it.

The stdio reader also sees what the SDK only logs: a line of the server's standard output
that is no message (`ServerLog.stray`), which the stdio transport forbids. The server's
standard error goes where the run keeps it (`errlog`: a file, `--server-log`), through a pipe
of this process that keeps its last lines: a server that ends while it is asked is said with
its exit status and them (`ServerLog`), and a crash with the lines it wrote meanwhile.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import time
import zlib
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

import anyio
import httpx2
import mcp.types as types
from anyio.abc import ByteReceiveStream, Process
from mcp import StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp.os.posix.utilities import terminate_posix_process_tree
from mcp.shared.message import SessionMessage

from ..config import Limits
from ..diagnostics import printable
from ..interrupt import received
from ..schema.pointer import encode
from ..schema.values import first_unheld, unheld

# What one message may hold by default: `[tool.mcp-contracts.limits] message_bytes`.
DEFAULT_MESSAGE_BYTES = Limits.message_bytes
# What one run may take of its server in all, by default: `server_bytes` and `server_seconds`.
DEFAULT_SERVER_BYTES = Limits.server_bytes
DEFAULT_SERVER_SECONDS = Limits.server_seconds


@dataclass(frozen=True)
class UnheldNumber:
    """A number of a message from the server that no double holds as written: its JSON
    pointer in the message (`/result/tools/0/...`), and why (`schema.values.unheld`)."""

    pointer: str
    why: str


# What a report shows of a server's standard output and error: a few lines, each cut short
# (those of its standard error on one line, cut short again: a finding is one line).
_STRAY_SHOWN = 3
_TAIL_LINES = 3
_LINE_SHOWN = 200
_TAIL_SHOWN = 300
_TAIL_BYTES = 8192  # the end of its standard error kept to find those lines in
# How long a server whose standard output ended gets to exit and finish its standard error.
_EXIT_WAIT_SECONDS = 2.0


@dataclass
class ServerLog:
    """What a server started over stdio did besides answering, over the connections it is
    given to: the lines of its standard output that are no MCP message (the first few,
    printable and cut short, in `stray`; how many in `strays`), and, when its standard output
    ended while it was asked (not when it was stopped), its exit status and the end of its
    standard error. `started`: whether the last connection's process was started at all;
    `heard_bytes`, every byte of standard error heard over every connection (a `mark`)."""

    stray: list[str] = field(default_factory=list)
    strays: int = 0
    status: int | None = None
    stderr: bytearray = field(default_factory=bytearray)
    stopping: bool = False  # the connection is being closed: an exit now is ours
    started: bool = False
    heard_bytes: int = 0

    def not_protocol(self, line: bytes) -> None:
        self.strays += 1
        if len(self.stray) < _STRAY_SHOWN:
            self.stray.append(_shown_line(line))

    def heard(self, chunk: bytes) -> None:
        self.stderr += chunk
        self.heard_bytes += len(chunk)
        del self.stderr[:-_TAIL_BYTES]

    def mark(self) -> int:
        """Where the server's standard error is now, for `last_lines` to say what came after."""
        return self.heard_bytes

    def last_lines(self, since: int | None = None) -> str:
        """The last few lines of the server's standard error (of those heard after `since`, a
        `mark`), printable, on one line and cut short; "" when there are none."""
        tail = bytes(self.stderr)
        if since is not None:
            after = max(self.heard_bytes - since, 0)
            tail = tail[max(len(tail) - after, 0) :]
        said = [line for line in tail.splitlines() if _WORDS.search(line) and not _BOXED.match(line)]
        raised = [line for line in said if _RAISED.match(line)]  # an exception's line says most
        lines = [_shown_line(b" ".join(line.split())) for line in (raised or said)[-_TAIL_LINES:]]
        joined = " | ".join(lines)
        return joined if len(joined) <= _TAIL_SHOWN else "…" + joined[len(joined) - _TAIL_SHOWN + 1 :]

    def exit(self) -> str | None:
        """The server's exit as a message says it, or None while it has not ended."""
        if self.status is None:
            return None
        return f"the server exited with status {self.status}{self.words()}"

    def words(self) -> str:
        """The last lines of the server's standard error, as a message ends with them ("" for none)."""
        lines = self.last_lines()
        return f" (the last lines of its standard error: {lines})" if lines else ""


# A line of standard error worth quoting holds a letter or a digit (not a box's border alone),
# and is no line of a framed traceback (rich's, which the SDK logs with: `│ 214 │ ...`).
_WORDS = re.compile(rb"[A-Za-z0-9]")
_BOXED = re.compile(rb"\s*\xe2[\x94\x95]")  # U+2500..U+257F, the box-drawing characters, in UTF-8
# The line a Python traceback ends with: `KeyError: 404`, `mcp.ToolError: ...`.
_RAISED = re.compile(rb"\s*[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b(?::|$)")


def _shown_line(line: bytes) -> str:
    text = printable(line.decode("utf-8", errors="surrogateescape"))
    return text if len(text) <= _LINE_SHOWN else text[: _LINE_SHOWN - 1] + "…"


class AsWritten(float):
    """A number of a server's answer that no double holds as written (`1e-400`, `1e400`,
    `NaN`: `schema.values.unheld`), kept as the server wrote it: `repr` gives its text, and it
    is NaN to arithmetic, so that `schema.values.not_json` finds it and no judge takes it for
    the double the SDK made of it (0 for `1e-400`, which a schema may well accept)."""

    text: str

    def __new__(cls, text: str) -> AsWritten:
        number = super().__new__(cls, math.nan)
        number.text = text
        return number

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def _number_as_written(text: str) -> float:
    value = float(text)
    return value if unheld(text, value) is None else AsWritten(text)


def json_as_written(text: bytes | str) -> Any:
    """The JSON document `text`, each number no double holds as written an `AsWritten`
    (ValueError or RecursionError: no JSON Python reads)."""
    return json.loads(text, parse_float=_number_as_written, parse_constant=_number_as_written)


def structured_as_written(message: bytes) -> Any:
    """The `structuredContent` of a JSON-RPC result message, each number no double holds as
    written an `AsWritten`; None when the message has none (or is no JSON Python reads)."""
    try:
        value = json_as_written(message)
    except (ValueError, RecursionError):
        return None
    result = value.get("result") if isinstance(value, dict) else None
    return result.get("structuredContent") if isinstance(result, dict) else None


class ServerExited(Exception):
    """The server ended while it was asked (its exit status and last words: `ServerLog.exit`)."""


class OverBound(Exception):
    """The server went past a bound of the run: the connection ends at once."""


class BudgetSpent(OverBound):
    """What one run may take of its server in all is spent (`Budget.spent` says which)."""


@dataclass
class Budget:
    """What one run (`import`, `conform`) may take of its server over every connection it
    opens: `max_bytes` read from it in all (`limits.server_bytes`), and `max_seconds` from the
    budget's making (`limits.server_seconds`, on `time.monotonic`'s clock). Each connection's
    `Cap` charges what it reads (`charge`); `connect.connected` ends a session at the
    deadline and opens none once either is spent."""

    max_bytes: int = DEFAULT_SERVER_BYTES
    max_seconds: float = DEFAULT_SERVER_SECONDS
    used: int = 0
    started: float = field(default_factory=time.monotonic)

    def charge(self, size: int) -> None:
        """Count `size` more bytes read; `BudgetSpent` once they are more than `max_bytes`."""
        self.used += size
        if self.used > self.max_bytes:
            raise BudgetSpent(self.over_bytes())

    def left(self) -> float:
        """The seconds left before the deadline (0 when it has passed)."""
        return max(self.started + self.max_seconds - time.monotonic(), 0.0)

    def spent(self) -> str | None:
        """Why nothing more may be asked of the server (a bound spent), or None."""
        if self.used > self.max_bytes:
            return self.over_bytes()
        return self.over_time() if self.left() <= 0 else None

    def over_bytes(self) -> str:
        return f"the server's messages exceeded limits.server_bytes ({self.max_bytes:,} bytes in all)"

    def over_time(self) -> str:
        return f"the run reached limits.server_seconds ({self.max_seconds:,g} s in all)"


@dataclass
class Cap:
    """The bound of one connection, whether the server went past it, and the numbers of its
    messages that no double holds as written, in the order they came (`unheld`); what a
    server over stdio did besides answering (`log`); the run's `budget` (given), which every
    byte read is charged to (`spent`: the bound it ended, once it did). `messages`: how many
    messages were read; `written`: the number of the last result message whose
    `structuredContent` holds a number no double holds, and that content as written."""

    limit: int = DEFAULT_MESSAGE_BYTES
    hit: bool = False
    unheld: list[UnheldNumber] = field(default_factory=list)
    log: ServerLog = field(default_factory=ServerLog)
    budget: Budget | None = None
    spent: BudgetSpent | None = None
    deep: bool = False  # a message nested deeper than the SDK reads ended the connection (stdio)
    messages: int = 0
    written: tuple[int, Any] | None = None

    def check(self, size: int) -> None:
        """Raise `MessageTooLarge` (and remember it) once a message holds more than the limit."""
        if size > self.limit:
            self.hit = True
            raise MessageTooLarge(self.limit)

    def charge(self, size: int) -> None:
        """Charge `size` bytes read to the budget: `BudgetSpent` (remembered) once it is spent."""
        if self.budget is None:
            return
        try:
            self.budget.charge(size)
        except BudgetSpent as exc:
            self.spent = exc
            raise

    def ended(self) -> OverBound | None:
        """The bound this connection ended at (the message too large or too deep, the budget
        spent), or None."""
        if self.hit:
            return MessageTooLarge(self.limit)
        if self.deep:
            return MessageTooDeep()
        return BudgetSpent(str(self.spent)) if self.spent is not None else None

    def read(self, message: bytes) -> None:
        """Note the first number of `message` (JSON text) that no double holds as written, and
        the `structuredContent` as written of a result that holds one."""
        self.messages += 1
        found = first_unheld(message)
        if found is not None:
            self.unheld.append(UnheldNumber(encode(found[0]), found[1]))
            written = structured_as_written(message) if found[0][:1] == ("result",) else None
            if written is not None:
                self.written = (self.messages, written)


class MessageTooLarge(OverBound):
    """A message from the server held more than `limits.message_bytes`."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"a message from the server exceeded limits.message_bytes ({limit:,} bytes)")
        self.limit = limit


# How deep the SDK's JSON parser reads (pydantic-core's recursion limit), and what it says past it.
JSON_DEPTH = 200
_TOO_DEEP = "recursion limit exceeded"


class MessageTooDeep(OverBound):
    """A message from the server nested deeper than the SDK's JSON parser reads: no answer
    can be made of it, so it ends the connection as one too large does."""

    def __init__(self) -> None:
        super().__init__(
            f"a message from the server nested deeper than the MCP SDK's JSON parser reads ({JSON_DEPTH} levels)"
        )


def too_deep(said: object) -> bool:
    """Whether `said` (a parser's error, or its text) is the SDK's parser refusing JSON nested too deep."""
    return _TOO_DEEP in str(said)


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


def http_client(headers: dict[str, str], timeout: httpx2.Timeout, cap: Cap) -> httpx2.AsyncClient:
    """The HTTP client the SDK's streamable HTTP transport is given: each answer's body is
    counted as it is read (a response hook, so a proxy's transport is counted too).

    Answers are asked for unencoded (`Accept-Encoding: identity`); one compressed all the
    same (gzip or deflate) is decoded here, in bounded pieces (`_Inflate`), and its decoded
    bytes are counted (a few kilobytes of gzip can hold gigabytes).
    """

    async def counted(response: httpx2.Response) -> None:
        events = response.headers.get("content-type", "").lower().startswith("text/event-stream")
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        response.stream = _Counted(response.stream, cap, events, _decoder(response))

    sent = {"Accept-Encoding": "identity", **headers}
    return httpx2.AsyncClient(headers=sent, timeout=timeout, event_hooks={"response": [counted]})


def _decoder(response: httpx2.Response) -> list[Any]:
    """The decoders of an answer's `Content-Encoding` (none for none), the last applied first,
    which this client then applies itself: the header goes, so that httpx2 does not decode a
    second time. gzip and deflate are undone with the standard library's zlib; a coding other
    than them (br, zstd) is left as it came, as httpx2 leaves it without the optional package
    that decodes it."""
    values = response.headers.get_list("content-encoding", split_commas=True)
    codings = [value.strip().lower() for value in values if value.strip().lower() != "identity"]
    if codings:
        del response.headers["content-encoding"]
    # 47: a gzip or a zlib header, whichever comes (deflate is zlib's format, RFC 9110).
    return [zlib.decompressobj(47) for coding in reversed(codings) if coding in ("gzip", "x-gzip", "deflate")]


# The largest piece a decoder hands on at once: a small compressed input never inflates to more.
_PIECE = 64 * 1024


def _inflated(stage: Any, pieces: Iterable[bytes]) -> Iterator[bytes]:
    """`pieces` undone by one decoder, in pieces of at most `_PIECE` bytes (each handed on as
    soon as it is made, so that zlib holds nothing back at the end)."""
    for data in pieces:
        while True:
            try:
                out = stage.decompress(data, _PIECE)
            except zlib.error as exc:
                raise httpx2.DecodingError(f"the answer's compressed body is broken: {exc}") from exc
            if out:
                yield out
            data = stage.unconsumed_tail
            if not data and len(out) < _PIECE:
                break


class _Counted(httpx2.AsyncByteStream):
    """A body whose messages are held to the cap, and read by it (`Cap.read`) before the SDK
    parses them: the whole body, or each event of an event stream (an event ends at a blank
    line, and its message is its `data:` lines)."""

    def __init__(self, inner: httpx2.AsyncByteStream, cap: Cap, events: bool, decoders: Sequence[Any] = ()) -> None:
        self._inner = inner
        self._cap = cap
        self._events = events
        self._decoders = decoders  # `_decoder`
        self._held = bytearray()  # the message not yet ended: the body, or the open event

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for raw in self._inner:
            pieces: Iterable[bytes] = (raw,)
            for decoder in self._decoders:
                pieces = _inflated(decoder, pieces)
            for chunk in pieces:
                self._count(chunk)
                yield chunk
        if not self._events:
            self._cap.read(bytes(self._held))
        self._held.clear()

    def _count(self, chunk: bytes) -> None:
        self._cap.charge(len(chunk))
        start = max(len(self._held) - 3, 0)  # a blank line may begin in what came before
        self._held += chunk
        if self._events:
            ends = _EVENT_END.search(self._held, start)
            if ends is not None:
                *ended, rest = _EVENT_END.split(self._held)
                for event in ended:
                    self._cap.check(len(event))
                    self._cap.read(_event_data(event))
                self._held = bytearray(rest)
        self._cap.check(len(self._held))

    async def aclose(self) -> None:
        await self._inner.aclose()


_EVENT_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")
_LINE_END = re.compile(rb"\r\n|\n|\r")


def _event_data(event: bytes) -> bytes:
    """The message of one server-sent event: its `data:` lines, joined by newlines."""
    lines = (line for line in _LINE_END.split(event) if line.startswith(b"data:"))
    return b"\n".join(line[6:] if line.startswith(b"data: ") else line[5:] for line in lines)
