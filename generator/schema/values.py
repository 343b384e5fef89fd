"""JSON values as JSON Schema sees them: their types, and numbers JSON cannot hold."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from .pointer import Token


def json_types(value: Any) -> set[str]:
    """The JSON Schema types a value is of (`1.0` is an integer too)."""
    if value is None:
        return {"null"}
    if isinstance(value, bool):
        return {"boolean"}
    if isinstance(value, int):
        return {"integer", "number"}
    if isinstance(value, float):
        return {"integer", "number"} if value.is_integer() else {"number"}
    if isinstance(value, str):
        return {"string"}
    return {"array"} if isinstance(value, list) else {"object"}


def not_json(value: Any, path: tuple[Token, ...] = ()) -> tuple[tuple[Token, ...], str] | None:
    """The first number JSON cannot hold (YAML's `.inf`, a server's NaN), with its path, or None."""
    found = _first(value, lambda node: isinstance(node, float) and not math.isfinite(node), path)
    return None if found is None else (found[0], repr(found[1]))


def _first(value: Any, wanted: Any, path: tuple[Token, ...] = ()) -> tuple[tuple[Token, ...], Any] | None:
    """The first node of `value` that `wanted` picks, with its path, depth first in order."""
    pending = [(value, path)]  # a loop, not recursion: a value may nest deeply
    while pending:
        node, at = pending.pop()
        if wanted(node):
            return at, node
        if isinstance(node, dict):
            pending.extend(((item, (*at, key)) for key, item in reversed(node.items())))
        elif isinstance(node, list | tuple):
            pending.extend(((item, (*at, index)) for index, item in reversed(list(enumerate(node)))))
    return None


_EXPONENT = re.compile("[eE]")


def unheld(text: str, value: float) -> str | None:
    """Why the number written `text`, read as the double `value`, cannot stand in a schema or
    an example; None when it can.

    Refused: a number whose double is not finite (`1e400`, `-1e400`; YAML's `.inf` and `.nan`,
    the `NaN` and `Infinity` some JSON readers take), and one written nonzero whose double is
    0 (`1e-400`). A JSON parser reads the first as infinity, as an error or as null, and the
    second as 0, so the contract would mean one thing in Python and another elsewhere. Every
    other decimal stands for its nearest double, as every JSON parser reads it (`0.1` too, and
    subnormals such as `5e-324`); integers are not floats and are kept exact at any size.
    """
    if math.isfinite(value):
        mantissa = _EXPONENT.split(text, maxsplit=1)[0]
        if value == 0 and any(digit in mantissa for digit in "123456789"):
            return f"{text} is too small for a double: it reads as 0, and JSON parsers disagree on it"
        return None
    if any(char.isdigit() for char in text):
        return f"{text} is not a finite double: JSON parsers disagree on it"
    return f"{text} is not a JSON number: JSON has no infinity or NaN"


@dataclass(frozen=True)
class _Written:
    """A number of a JSON text that no double holds as written, in place of its value."""

    why: str


# Only a number with a three-digit exponent or twenty digits in a row can be one no double
# holds: with fewer of each its magnitude lies between 1e-118 and 1e118.
_MAYBE_UNHELD = re.compile(rb"[eE][+-]?[0-9]{3}|[0-9]{20}|NaN|Infinity")


def _written(text: str) -> float | _Written:
    value = float(text)
    why = unheld(text, value)
    if why is None:
        return value
    shown = text if len(text) <= 40 else f"{text[:24]}…{text[-12:]} ({len(text):,} characters)"
    return _Written(why.replace(text, shown, 1))


def first_unheld(message: bytes) -> tuple[tuple[Token, ...], str] | None:
    """The first number of the JSON text `message` that no double holds as written
    (`unheld`), with its path and why; None when it has none, or is no JSON (whoever reads
    it says so).

    For text read by a parser that keeps only the double (the MCP SDK's), where `1e-400` is
    already 0 and `1e400` infinity: the written number is seen here, before that parser.
    """
    if _MAYBE_UNHELD.search(message) is None:
        return None
    try:  # integers are exact at any size: none is made an int (Python limits their digits)
        value = json.loads(message, parse_float=_written, parse_constant=_written, parse_int=lambda _: 0)
    except (ValueError, RecursionError):
        return None
    found = _first(value, lambda node: isinstance(node, _Written))
    return None if found is None else (found[0], found[1].why)
