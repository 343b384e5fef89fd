"""JSON values as JSON Schema sees them: their types, and numbers JSON cannot hold."""

from __future__ import annotations

import math
import re
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
    pending = [(value, path)]  # a loop, not recursion: a value may nest deeply
    while pending:
        node, at = pending.pop()
        if isinstance(node, float) and not math.isfinite(node):
            return at, repr(node)
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
