"""The HTTP client `connect` gives the SDK's streamable HTTP transport, each answer held to
the connection's `Cap` (`bounded`): the SDK reads a JSON answer whole (`response.aread()`) and
bounds an SSE event at 1 MiB only. The SDK's own seam, the `httpx2.AsyncClient` it is given,
counts the bytes of each answer (of each event, for an event stream) as they arrive, in a
response hook.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from typing import Any

import httpx2

from .bounded import Cap


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
