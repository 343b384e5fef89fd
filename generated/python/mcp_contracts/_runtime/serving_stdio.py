# Copied by mcp-contracts from its generator/runtime/serving_stdio.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""Standard input as the generated server reads it: the SDK's stdio transport, with one repair.

The SDK parses each line with pydantic-core, which refuses an integer of more than 4,300
digits ("number out of range") whatever `sys.set_int_max_str_digits` says: the request is
dropped and its client waits for an answer that never comes. Yet a schema without a
`maximum` accepts such an integer. So a line holding a run of more than 4,300 digits is read
here first, by the standard library's JSON reader, each long integer read through `Decimal`
(no digit limit) and held under a key no client can guess, put in its place as a string; the
SDK then reads the line, and `LongIntegers.restore` puts each integer back into the
arguments before they are judged (Python's limit on the digits of an integer's text, which the
judge reads it by, lifted to the longest integer read). Every other line reaches the SDK as it came.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sys
from collections import OrderedDict
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

# Python reads an integer of at most this many digits from text (sys.int_info).
_DIGITS = 4300
_LONG = re.compile(f"[0-9]{{{_DIGITS + 1}}}")
# At most this many integers held: those of a request no handler restores (a notification,
# another method) are let go, oldest first.
_HELD = 256


class LongIntegers:
    """The long integers of the lines read, each held under its key until it is restored."""

    def __init__(self) -> None:
        self._prefix = f"\x00mcp-contracts:{secrets.token_hex(8)}:"
        self._held: OrderedDict[str, int] = OrderedDict()
        self._count = 0

    def line(self, text: str) -> str:
        """`text`, with each integer the SDK cannot read replaced by its key."""
        if _LONG.search(text) is None:
            return text
        try:
            value = json.loads(text, parse_int=self._hold)
        except (ValueError, RecursionError):
            return text  # the SDK answers what is no JSON its own way
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"

    def _hold(self, digits: str) -> Any:
        if len(digits.lstrip("-")) <= _DIGITS:
            return int(digits)
        key = f"{self._prefix}{self._count}"
        self._count += 1
        self._held[key] = int(Decimal(digits))
        # The judge (jsonschema-rs) reads a Python integer through its decimal text, which
        # Python refuses past `sys.get_int_max_str_digits()`: lifted to the longest one read.
        limit = sys.get_int_max_str_digits()
        if limit and len(digits) > limit:
            sys.set_int_max_str_digits(len(digits))
        while len(self._held) > _HELD:
            self._held.popitem(last=False)
        return key

    def restore(self, value: Any) -> Any:
        """`value` with each key of a held integer replaced by the integer (let go of)."""
        if not self._held:
            return value
        if isinstance(value, str):
            return (
                self._held.pop(value)
                if value.startswith(self._prefix) and value in self._held
                else value
            )
        if isinstance(value, list):
            return [self.restore(item) for item in value]
        if isinstance(value, dict):
            return {key: self.restore(item) for key, item in value.items()}
        return value


async def _lines(lines: Any, integers: LongIntegers) -> AsyncIterator[str]:
    """Standard input as the async iterator of text lines the SDK's `stdio_server` reads."""
    async for line in lines:
        yield integers.line(line)


def standard_input(integers: LongIntegers) -> Any:
    """Standard input (a private duplicate of descriptor 0, as UTF-8 text, a bad byte
    replaced, as the SDK reads it) for `stdio_server(stdin=...)`."""
    import anyio

    stream = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace", newline=None)
    return _lines(anyio.wrap_file(stream), integers)
