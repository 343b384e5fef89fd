"""What one connection, and one run, may take of a server, and what the readers of the
transports (`stdio_transport`, `http_transport`) note of each message before the SDK parses it.

One message is held to `limits.message_bytes`: a server that answers with more ends the
connection, and the run says the cap was hit (`MessageTooLarge`), instead of reading gigabytes
into memory; one nested deeper than the SDK's parser reads ends it too (`MessageTooDeep`).
What they read is charged to the run's `Budget`, when one is given (`limits.server_bytes`,
`limits.server_seconds` in all): a server past it ends the connection too (`BudgetSpent`).

The readers see each message's numbers as the server wrote them: the SDK keeps only
their doubles (`1e-400` is 0, `1e400` infinity), so a number no double holds is noted here
(`Cap.unheld`) before the SDK parses the message, for `import` to refuse; and a result's
`structuredContent` that holds one is kept as written (`Cap.written`, each such number an
`AsWritten`), for `conform` to judge what the server sent rather than what the SDK made of it.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import Any

from ..config import Limits
from ..schema.pointer import encode
from ..schema.values import first_unheld, unheld
from .server_log import ServerLog

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


def first_in_result(heard: list[UnheldNumber], under: str) -> tuple[str, str] | None:
    """The first number of `heard` in a result, below `under` in it: its pointer there, and why."""
    for number in heard:
        if number.pointer.startswith("/result" + under):
            return number.pointer.removeprefix("/result"), number.why
    return None


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
