"""JSON values as JSON Schema sees them: their types, and numbers JSON cannot hold."""

from __future__ import annotations

import math
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
