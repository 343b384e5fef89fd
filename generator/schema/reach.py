"""What a schema's root reaches, and the schema without the definitions it never reaches.

A schema is evaluated from its root: through its applicators, and through each reference
(`$ref`, `$dynamicRef`, `$recursiveRef`) to what the `Resolver` says it names. An entry of
a definitions keyword (`$defs`; `definitions` in draft-07) is evaluated only when a
reference leads into it, so an entry no reached reference leads into can be dropped without
changing any verdict. A `$dynamicRef` may land, at evaluation time, on any
`$dynamicAnchor` of its name in the dynamic scope: every schema declaring that anchor
counts as reached, which keeps more than needed and never less.

Used for the `outputSchema` of each tool (`model.Bundle.listed`): a compound envelope embeds every
resource of the contract's folder, and a tool carries only those its schema reaches.
"""

from __future__ import annotations

import copy
from typing import Any

from .resolver import Resolver
from .uri import defrag
from .vocabulary import DEFINITIONS, REFERENCES, Vocabulary
from .walk import Path, Visit, base_within, children, walk


def reached(document: Any, base: str = "", dialect: Vocabulary | None = None) -> set[int]:
    """The `id()` of every schema object the root of `document` reaches (see the module)."""
    if not isinstance(document, dict):
        return set()
    resolver = Resolver({base: document}, default=dialect)
    every = list(walk(document, base, dialect))
    dynamic: dict[str, list[Visit]] = {}
    for visit in every:
        name = visit.node.get("$dynamicAnchor") if isinstance(visit.node, dict) else None
        if isinstance(name, str):
            dynamic.setdefault(name, []).append(visit)
    found: set[int] = set()
    pending = [every[0]]
    while pending:
        visit = pending.pop()
        node = visit.node
        if not isinstance(node, dict) or id(node) in found:
            continue
        found.add(id(node))
        inner = visit.base  # the base inside `node`: its own `$id` is counted in
        for path, sub in children(node, visit.dialect):
            if path[0] not in DEFINITIONS and isinstance(sub, dict):
                place = resolver.place(sub)
                pending.append(place or Visit(sub, base_within(sub, inner, visit.dialect), (), (), visit.dialect, 0))
        for keyword in REFERENCES:
            reference = node.get(keyword)
            if not isinstance(reference, str):
                continue
            target = resolver.resolve(reference, inner)
            if target is not None and isinstance(target.node, dict):
                pending.append(
                    resolver.place(target.node) or Visit(target.node, target.base, (), (), target.dialect, 0)
                )
            if keyword != "$ref":  # the anchors a dynamic reference may land on
                pending.extend(dynamic.get(defrag(reference)[1], ()))
    return found


def _dicts_in(value: Any) -> set[int]:
    """The `id()` of every object inside a JSON value, itself included."""
    ids: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ids.add(id(item))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return ids


def unreached_definitions(document: Any, base: str = "", dialect: Vocabulary | None = None) -> list[Path]:
    """The path of each definitions entry of `document` that holds nothing its root reaches,
    outermost first (an entry inside a dropped one is not listed). A boolean entry (`true`,
    `false`) is never listed: a few bytes, kept rather than told apart from another."""
    found = reached(document, base, dialect)
    dropped: list[Path] = []
    for visit in walk(document, base, dialect):
        path = visit.path
        if len(path) < 2 or path[-2] not in DEFINITIONS or any(path[: len(d)] == d for d in dropped):
            continue
        if not isinstance(visit.node, dict):  # a boolean schema has no identity to be reached by: kept
            continue
        if not (_dicts_in(visit.node) & found):
            dropped.append(path)
    return dropped


def pruned(document: Any, base: str = "", dialect: Vocabulary | None = None) -> Any:
    """`document` without the definitions entries its root never reaches (an emptied
    definitions keyword goes too); the same verdict on every instance. `document` itself
    is left as it is."""
    dropped = unreached_definitions(document, base, dialect)
    if not dropped:
        return document
    result = copy.deepcopy(document)
    for path in dropped:
        container = result
        for token in path[:-1]:
            container = container[token]
        del container[path[-1]]
        if not container:
            parent = result
            for token in path[:-2]:
                parent = parent[token]
            del parent[path[-2]]
    return result
