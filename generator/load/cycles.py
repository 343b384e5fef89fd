"""Reference cycles that never descend into the document: `P = {$ref: Q}`, `Q = {$ref: P}`,
or `X = {oneOf: [{$ref: X}, ...]}`. Such a schema applies itself to the same value forever;
engines answer it with a stack overflow or an arbitrary verdict, so it is refused.

A cycle through `properties`, `items` or any keyword that moves to a part of the value (a
tree of itself, an array of itself) is fine: the document is finite. Which keywords keep
the value is the schema core's table (`vocabulary.IN_PLACE`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..schema.pointer import encode
from ..schema.resolver import Resolver
from ..schema.vocabulary import IN_PLACE, REFERENCES
from ..schema.walk import children

_ON_PATH, _DONE = 1, 2
Step = tuple[Any, str, str]  # (schema, the base URI inside it, where it was reached: URI#pointer)


def find_cycle(resources: Mapping[str, Any], root: str) -> str | None:
    """Where a reference cycle that never descends into the document closes (the path by
    which a schema is reached again while it applies to the same value), or None."""
    resolver = Resolver({root: resources[root], **resources})
    state: dict[int, int] = {}
    for visit in resolver.visits():
        if id(visit.node) not in state:
            found = _closes(resolver, (visit.node, visit.base, f"{visit.base}#{encode(visit.pointer)}"), state)
            if found is not None:
                return found
    return None


def _closes(resolver: Resolver, start: Step, state: dict[int, int]) -> str | None:
    """Depth first from `start` along the keywords and references that keep the value."""
    state[id(start[0])] = _ON_PATH
    stack: list[tuple[Any, Iterator[Step]]] = [(start[0], _in_place(resolver, *start))]
    while stack:
        node, steps = stack[-1]
        step = next(steps, None)
        if step is None:
            state[id(node)] = _DONE
            stack.pop()
            continue
        seen = state.get(id(step[0]))
        if seen == _ON_PATH:
            return step[2]
        if seen is None:
            state[id(step[0])] = _ON_PATH
            stack.append((step[0], _in_place(resolver, *step)))
    return None


def _in_place(resolver: Resolver, node: Any, base: str, where: str) -> Iterator[Step]:
    """The schemas that apply to the same value as `node`: its in-place subschemas, and
    what its references name."""
    place = resolver.place(node)
    for path, child in children(node, place.dialect) if place is not None else children(node):
        if path[0] in IN_PLACE and isinstance(child, dict):
            yield child, resolver.base_within(child, base), where + encode(path)
    for keyword in REFERENCES:
        reference = node.get(keyword)
        target = resolver.resolve(reference, base) if isinstance(reference, str) else None
        if target is not None and isinstance(target.node, dict):
            yield target.node, target.base, f"{where}/{keyword}"
