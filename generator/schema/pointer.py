"""RFC 6901 JSON pointers: the one place a pointer is written, read, followed or filled.

A pointer is a string ("" is the whole document, "/a~1b/0" is key "a/b", then index 0);
its tokens are keys and indexes. Inside a URI fragment a pointer is also percent-encoded
(RFC 3986): `fragment` and `from_fragment` convert, so that `#/$defs/n%25` names "n%".
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, unquote

Token = str | int

# Characters a fragment keeps as they are: RFC 3986's `pchar` and "/", less "'" (as the
# locations of generated classes have always been written).
_FRAGMENT_SAFE = "/~!$&()*+,;=:@"


class PointerError(KeyError):
    """A pointer that names nothing in a document (or is not a pointer at all)."""


def encode(tokens: Iterable[object]) -> str:
    """The pointer of a sequence of keys and indexes: `~` is `~0` and `/` is `~1`."""
    return "".join("/" + str(token).replace("~", "~0").replace("/", "~1") for token in tokens)


def decode(pointer: str) -> tuple[str, ...]:
    """The tokens of a pointer, unescaped; PointerError when it does not start with `/`."""
    if not pointer:
        return ()
    if not pointer.startswith("/"):
        raise PointerError(pointer)
    return tuple(token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/"))


def fragment(tokens: Iterable[object]) -> str:
    """The pointer of `tokens` as a URI fragment writes it (percent-encoded, no `#`)."""
    return quote(encode(tokens), safe=_FRAGMENT_SAFE)


def location(base: str, tokens: Iterable[object]) -> str:
    """Where `tokens` lead in the resource at `base`: `base#pointer`, the pointer written as
    a URI fragment (the locations of generated classes, and what a lookup by one compares)."""
    return f"{base}#{fragment(tokens)}"


def from_fragment(text: str) -> tuple[str, ...]:
    """The tokens of a URI fragment that is a pointer (percent-decoded first)."""
    return decode(unquote(text))


def written_tokens(text: str) -> list[tuple[str, str]]:
    """(as written, decoded) of each token of a URI fragment that is a pointer: a rewrite
    that renames some tokens keeps the others as they were spelt. [] for "" and for a
    fragment that is not a pointer."""
    if not text.startswith("/"):
        return []
    return [(raw, unquote(raw).replace("~1", "/").replace("~0", "~")) for raw in text[1:].split("/")]


def _step(node: Any, token: str) -> tuple[bool, Any]:
    """(found, the child) one token down from `node`."""
    if isinstance(node, dict):
        return (True, node[token]) if token in node else (False, None)
    if isinstance(node, list) and _is_index(token) and int(token) < len(node):
        return True, node[int(token)]
    return False, None


def _is_index(token: str) -> bool:
    """An array index as RFC 6901 writes one: digits, no leading zero (but "0")."""
    return token.isascii() and token.isdigit() and (token == "0" or not token.startswith("0"))


def follow(document: Any, tokens: Iterable[str]) -> Any:
    """The value `tokens` lead to from `document`; PointerError when they lead nowhere."""
    node = document
    for token in tokens:
        found, node = _step(node, token)
        if not found:
            raise PointerError(token)
    return node


def resolve(document: Any, pointer: str) -> Any:
    """The value at `pointer` in `document`; PointerError when there is none."""
    try:
        return follow(document, decode(pointer))
    except PointerError:
        raise PointerError(pointer) from None


def value_at(document: Any, pointer: str, default: Any = None) -> Any:
    """The value at `pointer` in `document`, or `default` where there is none."""
    try:
        return resolve(document, pointer)
    except PointerError:
        return default


def put(document: Any, pointer: str, value: Any) -> Any:
    """A copy of `document` with `value` at `pointer`: missing objects are made on the way
    (an array where the next token is an index), a value already there is replaced, an
    index one past the end appends. `document` itself, unchanged, when the pointer cannot
    be placed (it goes through a string, or past the end of an array)."""
    try:
        tokens = decode(pointer)
    except PointerError:
        return document
    if not tokens:
        return value
    result = copy.deepcopy(document) if isinstance(document, dict | list) else {}
    node: Any = result
    for position, token in enumerate(tokens):
        last = position == len(tokens) - 1
        made: Any = value if last else [] if _is_index(tokens[position + 1]) else {}
        if isinstance(node, dict):
            if last or not isinstance(node.get(token), dict | list):
                node[token] = made
            node = node[token]
        elif isinstance(node, list) and _is_index(token) and int(token) <= len(node):
            index = int(token)
            if index == len(node):
                node.append(made)
            elif last or not isinstance(node[index], dict | list):
                node[index] = made
            node = node[index]
        else:
            return document
    return result
