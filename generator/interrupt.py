"""SIGINT and SIGTERM end a command, after it has cleaned up: exit 130 (SIGINT) or 143 (SIGTERM).

Click turns a `KeyboardInterrupt` into "Aborted!" and exit 1, and code that catches
`Exception` around a server cannot tell a signal from a failure. So the command's handler
(`install`) raises `Interrupted`, a `BaseException` nothing catches but `main`, and every
`finally` and `with` on the way (a started server, a temporary folder, the swap's staging
folder) runs first.

Inside an event loop an exception raised by a handler could land anywhere in the loop's own
code: `run` takes the place of `anyio.run`, and a signal cancels the whole run instead, so
each task leaves through its cancellation (the SDK's transports stop their servers then);
`Interrupted` is raised once the loop has ended.

Once a command has changed something that must be seen through (`generate` exchanged the
output folder), `commit` makes later signals wait: the command finishes, reports what it
did, and exits as if no signal came (what it says is true: the change is in place).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any, NoReturn, TypeVar

# anyio and asyncio are imported by `run` only: `--help` imports this module.
SIGNALS = (signal.SIGINT, signal.SIGTERM)
T = TypeVar("T")


class Interrupted(BaseException):
    """A signal asked the command to stop; `code` is its exit code (128 + the signal)."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by {signal.Signals(signum).name}")
        self.signum = signum
        self.code = 128 + signum


class _State:
    received: int | None = None  # the first signal, once one came
    committed = False  # signals only noted from now on (see `commit`)
    on_signal: Callable[[int], None] | None = None  # a running loop's, while `run` runs


def install() -> None:
    """Make SIGINT and SIGTERM raise `Interrupted` (the command's own handler)."""
    _State.received, _State.committed = None, False
    for signum in SIGNALS:
        signal.signal(signum, _handler)


def _handler(signum: int, frame: FrameType | None) -> None:
    if _State.received is not None:
        return  # the first is being acted on: cleaning up is not cut short by a second
    _State.received = signum
    if _State.committed:
        return
    if _State.on_signal is not None:
        _State.on_signal(signum)
        return
    raise Interrupted(signum)


def commit() -> None:
    """From now on a signal is noted, not acted on: the command sees its change through."""
    _State.committed = True


def exit_code() -> int | None:
    """The exit code of a command a signal stopped (128 + the signal), else None (no signal
    came, or it came once the command's change was committed)."""
    if _State.received is None or _State.committed:
        return None
    return 128 + _State.received


def leave(code: int) -> NoReturn:
    """End the process with `code` now that the command has cleaned up: what it printed is
    flushed, and the interpreter's own teardown (a second or more with the SDK and pydantic
    loaded, on a busy machine) is skipped: nothing is left for it to do."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def received() -> int | None:
    """The signal that came, if one did."""
    return _State.received


def run(func: Callable[..., Awaitable[T]], *args: Any) -> T:
    """`anyio.run(func, *args)`, ended by SIGINT or SIGTERM: the run is cancelled (every
    task cleans up as it leaves), then `Interrupted` is raised. Without `install`, as
    `anyio.run` (a library caller keeps its own handlers)."""
    import anyio

    if signal.getsignal(signal.SIGINT) is not _handler:
        return anyio.run(func, *args)
    result = anyio.run(_cancelled_by_signals, func, args)
    if _State.received is not None and not _State.committed:
        raise Interrupted(_State.received)
    return result


async def _cancelled_by_signals(func: Callable[..., Awaitable[T]], args: tuple[Any, ...]) -> T:
    import asyncio

    import anyio

    loop = asyncio.get_running_loop()
    with anyio.CancelScope() as scope:

        def cancel(signum: int) -> None:
            loop.call_soon_threadsafe(scope.cancel)

        _State.on_signal = cancel
        try:
            if _State.received is not None:  # one came before the loop ran
                scope.cancel()
            return await func(*args)
        finally:
            _State.on_signal = None
    raise Interrupted(_State.received or signal.SIGINT)  # cancelled: `run` raises it first
