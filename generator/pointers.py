"""RFC 6901 JSON pointers into a document: the one walk every part of the generator uses."""

from __future__ import annotations

from typing import Any


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at an RFC 6901 pointer; KeyError when there is none."""
    node = document
    for token in pointer.split("/")[1:] if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise KeyError(pointer)
    return node


def value_at(document: Any, pointer: str) -> Any:
    """The value at a JSON pointer of a document, or None where there is none."""
    try:
        return resolve_pointer(document, pointer)
    except KeyError:
        return None


def pointer_tokens(pointer: str) -> tuple[str, ...]:
    """The unescaped tokens of an RFC 6901 pointer (`/a~1b/c~0d` is `a/b`, `c~d`)."""
    return tuple(token.replace("~1", "/").replace("~0", "~") for token in pointer.split("/")[1:]) if pointer else ()
