"""Reference cycles that never descend into the document: `P = {$ref: Q}`, `Q = {$ref: P}`,
or `X = {oneOf: [{$ref: X}, ...]}`. Such a schema applies itself to the same value forever;
engines answer it with a stack overflow or an arbitrary verdict, so it is refused.

A cycle through `properties`, `items` or any keyword that moves to a part of the value (a
tree of itself, an array of itself) is fine: the document is finite.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from referencing import Registry, Resource
from referencing import jsonschema as specifications
from referencing.exceptions import Unresolvable

from ..runtime import json_pointer

# Keywords whose subschemas apply to the same value as their parent.
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_MANY = ("allOf", "anyOf", "oneOf")
_IN_PLACE_MAP = ("dependentSchemas",)
_REFS = ("$ref", "$dynamicRef", "$recursiveRef")
# Keywords whose subschemas apply to a part of the value.
_INTO_ONE = (
    "items",
    "additionalItems",
    "contains",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)
_INTO_MANY = ("prefixItems",)
_INTO_MAP = ("properties", "patternProperties", "$defs", "definitions")


def _children(node: dict[str, Any], keys: tuple[str, ...], kind: str) -> Iterator[tuple[str, Any]]:
    for key in keys:
        value = node.get(key)
        if kind == "one" and isinstance(value, dict | bool):
            yield key, value
        elif kind in ("many", "one") and isinstance(value, list):  # a list under `items`: draft-07 tuples
            yield from ((f"{key}/{i}", v) for i, v in enumerate(value))
        elif kind == "map" and isinstance(value, dict):
            yield from ((f"{key}/{json_pointer([k])[1:]}", v) for k, v in value.items())


def find_cycle(resources: Mapping[str, Any], root: str) -> str | None:
    """Where a reference cycle that never descends into the document starts, or None."""
    legacy = isinstance(resources[root], dict) and "draft-0" in str(resources[root].get("$schema", ""))
    default = specifications.DRAFT7 if legacy else specifications.DRAFT202012
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(contents, default_specification=default)) for uri, contents in resources.items()
    )
    state: dict[int, int] = {}  # 1: on the current in-place path, 2: done
    pending: list[tuple[Any, Any, str]] = [(resources[root], registry.resolver(base_uri=root), root + "#")]
    explored: set[int] = set()
    while pending:
        node, resolver, where = pending.pop()
        if id(node) in explored:
            continue
        explored.add(id(node))
        found = _in_place(node, resolver, where, state, pending)
        if found is not None:
            return found
    return None


def _in_place(node: Any, resolver: Any, where: str, state: dict[int, int], pending: list[Any]) -> str | None:
    """Depth-first along the keywords that keep the value; the others are queued."""
    stack: list[tuple[Any, Any, str, Iterator[tuple[Any, Any, str]]]] = []

    def enter(item: Any, item_resolver: Any, item_where: str) -> str | None:
        if not isinstance(item, dict):
            return None
        if state.get(id(item)) == 1:
            return item_where
        if state.get(id(item)) == 2:
            return None
        state[id(item)] = 1
        if "$id" in item and isinstance(item["$id"], str):
            item_resolver = item_resolver.in_subresource(
                Resource.from_contents(item, default_specification=specifications.DRAFT202012)
            )
        for key, child in _children(item, _INTO_ONE, "one"):
            pending.append((child, item_resolver, f"{item_where}/{key}"))
        for key, child in [*_children(item, _INTO_MANY, "many"), *_children(item, _INTO_MAP, "map")]:
            pending.append((child, item_resolver, f"{item_where}/{key}"))
        stack.append((item, item_resolver, item_where, _next_in_place(item, item_resolver, item_where)))
        return None

    found = enter(node, resolver, where)
    while stack and found is None:
        item, _, _, children = stack[-1]
        step = next(children, None)
        if step is None:
            state[id(item)] = 2
            stack.pop()
            continue
        found = enter(*step)
    return found


def _next_in_place(node: dict[str, Any], resolver: Any, where: str) -> Iterator[tuple[Any, Any, str]]:
    for key, child in [
        *_children(node, _IN_PLACE_ONE, "one"),
        *_children(node, _IN_PLACE_MANY, "many"),
        *_children(node, _IN_PLACE_MAP, "map"),
    ]:
        yield child, resolver, f"{where}/{key}"
    for keyword in _REFS:
        reference = node.get(keyword)
        if not isinstance(reference, str):
            continue
        try:
            resolved = resolver.lookup(reference)
        except (Unresolvable, Exception):  # the engine has reported what does not resolve
            continue
        yield resolved.contents, resolved.resolver, f"{where}/{keyword}"
