"""Patterns that are not ECMA-262 regular expressions.

JSON Schema's `pattern` and the keys of `patternProperties` are ECMA-262 regular
expressions. The Python judge's engine also compiles some that are not (`^a++$`, `(?i)a`,
`(?P<n>a)`, Rust's syntax), which a JavaScript judge, or any client in another language,
cannot: such a contract would mean one thing to Python and nothing elsewhere. A pattern
is ECMA-262 when regress (an ECMA-262 engine) compiles it with the `u` flag or without it,
as the generated TypeScript judge compiles it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import regress

from .vocabulary import Vocabulary
from .walk import Path, walk


def is_ecma_262(pattern: str) -> bool:
    """Whether `pattern` is an ECMA-262 regular expression (with the `u` flag or without)."""
    for flags in ("u", ""):
        try:
            regress.Regex(pattern, flags)
        except regress.RegressError:
            continue
        return True
    return False


def non_ecma_patterns(document: Any, base: str = "", dialect: Vocabulary | None = None) -> Iterator[tuple[Path, str]]:
    """(path from `document`, message) of each `pattern`, and each key of `patternProperties`,
    that is not ECMA-262, in every subschema of `document`."""
    for visit in walk(document, base, dialect):
        node = visit.node
        if not isinstance(node, dict):
            continue
        pattern = node.get("pattern")
        if isinstance(pattern, str) and not is_ecma_262(pattern):
            yield (*visit.path, "pattern"), _message(pattern)
        keyed = node.get("patternProperties")
        for key in keyed if isinstance(keyed, dict) else ():
            if not is_ecma_262(key):
                yield (*visit.path, "patternProperties", key), _message(key)


def _message(pattern: str) -> str:
    return (
        f"{pattern!r} is not an ECMA-262 regular expression, which JSON Schema's patterns are"
        " (Rust's or Python's syntax, such as `a++`, `(?i)` or `(?P<name>...)`, is not)"
    )
