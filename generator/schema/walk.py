"""The one walk: every subschema of a document, with where it is, in document order.

A subschema is what an applicator keyword of the dialect holds (see `vocabulary`). Each
is visited once (a value shared by two places, as YAML aliases make, is visited at the
first), with its location (the URI of the resource it is in and its JSON pointer inside
that resource: an embedded `$id` starts a resource) and its keyword path from the walked
document's root. The walk is a loop, not recursion, and stops descending at `max_depth`:
what lies below is not visited, and the visit at the limit says so (`too_deep`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .pointer import Token, encode
from .pointer import location as location_in
from .uri import defrag, join
from .vocabulary import DRAFT_2020_12, EITHER, Vocabulary, named

Path = tuple[Token, ...]
# Schemas within schemas: deeper than any source the reader accepts (`limits.document_depth`).
MAX_DEPTH = 1024


@dataclass(frozen=True, slots=True)
class Visit:
    """One subschema and where it is."""

    node: Any  # a schema: an object or a boolean
    base: str  # the URI of the resource it is in (its own, when it declares an `$id`)
    pointer: Path  # from the root of that resource
    path: Path  # from the root of the walked document
    dialect: Vocabulary
    depth: int  # schemas above it
    too_deep: bool = False  # at `max_depth`: its subschemas are not visited

    @property
    def location(self) -> str:
        """`base#pointer`, the pointer percent-encoded as a URI fragment writes it."""
        return location_in(self.base, self.pointer)

    @property
    def json_path(self) -> str:
        """The JSON pointer of the node from the walked document's root."""
        return encode(self.path)


def children(node: Any, dialect: Vocabulary = EITHER) -> Iterator[tuple[Path, Any]]:
    """(path from `node`, value) of each schema `node` holds directly, in document order.

    The values are what the keywords hold; one that is not a schema (`"not": 5`) is given
    as it is, for the caller (an engine refuses it) to pass over."""
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key in dialect.one or (key in dialect.one_or_list and not isinstance(value, list)):
            yield (key,), value
        elif key in dialect.maps and isinstance(value, dict):
            yield from (((key, name), sub) for name, sub in value.items())
        elif (key in dialect.lists or key in dialect.one_or_list) and isinstance(value, list):
            yield from (((key, index), sub) for index, sub in enumerate(value))
        elif key in dialect.mixed_maps and isinstance(value, dict):
            yield from (((key, name), sub) for name, sub in value.items() if not isinstance(sub, list))


def replaced(node: dict[str, Any], path: Path, value: Any) -> None:
    """Put `value` at `path` (as `children` gives it) in `node`, in place."""
    if len(path) == 1:
        node[str(path[0])] = value
    else:
        node[str(path[0])][path[1]] = value


def copied(node: dict[str, Any]) -> dict[str, Any]:
    """A copy of `node` that `replaced` may write into: its maps and lists copied too, so
    that the schema it came from is never changed."""
    return {key: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v for key, v in node.items()}


def declared_base(node: Any, dialect: Vocabulary) -> str | None:
    """The `$id` of a node that starts a resource, as written; None when it starts none
    (no `$id`; only a fragment, which is an anchor; or draft-07's `$id` beside `$ref`)."""
    identifier = node.get("$id") if isinstance(node, dict) else None
    if not isinstance(identifier, str) or not defrag(identifier)[0]:
        return None
    if dialect.legacy_ref and "$ref" in node:
        return None
    return identifier


def base_within(node: Any, base: str, dialect: Vocabulary = EITHER) -> str:
    """The base URI inside `node`, which is read at `base`."""
    identifier = declared_base(node, dialect)
    return base if identifier is None else defrag(join(base, identifier))[0]


def anchors(node: Any, dialect: Vocabulary) -> Iterator[str]:
    """The plain-name fragments a node declares: `$anchor` and `$dynamicAnchor` in 2020-12,
    the fragment of an `$id` in draft-07."""
    if not isinstance(node, dict):
        return
    for keyword in sorted(dialect.anchors):
        if isinstance(node.get(keyword), str):
            yield node[keyword]
    identifier = node.get("$id")
    if dialect.legacy_ref and isinstance(identifier, str) and "$ref" not in node:
        name = defrag(identifier)[1]
        if name and not name.startswith("/"):
            yield name


def walk(
    document: Any, base: str = "", dialect: Vocabulary | None = None, max_depth: int = MAX_DEPTH, at: Path = ()
) -> Iterator[Visit]:
    """Every subschema of `document` (itself first), read at `base` in `dialect` (by
    default what its `$schema` names, else 2020-12); see the module's docstring. `at` is
    the pointer of `document` in its resource, for a schema a pointer reached."""
    start = dialect or named(document) or DRAFT_2020_12
    seen: set[int] = set()
    pending: list[tuple[Any, str, Path, Path, Vocabulary, int]] = [(document, base, at, (), start, 0)]
    while pending:
        node, outer, pointer, path, current, depth = pending.pop()
        if isinstance(node, dict):
            if id(node) in seen:
                continue
            seen.add(id(node))
            if declared_base(node, current) is not None:
                current = named(node) or current  # an embedded resource may say its dialect
                outer, pointer = base_within(node, outer, current), ()
        elif not isinstance(node, bool):
            continue
        deep = depth >= max_depth
        yield Visit(node, outer, pointer, path, current, depth, deep)
        if deep:
            continue
        below = list(children(node, current))
        for step, sub in reversed(below):
            pending.append((sub, outer, (*pointer, *step), (*path, *step), current, depth + 1))
