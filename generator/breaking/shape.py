"""A schema as the comparison reads it: `$ref` followed, `allOf` merged, with where each part is.

A `Shape` is one subschema seen whole: the keywords of the node, of what its `$ref` names
and of its `allOf` members (the first holder of a keyword wins; `properties` and `required`
are merged), each keyword with the place of the node that holds it, so that a finding can
name the line a property was written on even when it came through a reference.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..schema.pointer import Token
from ..schema.resolver import Resolver
from ..schema.values import json_types
from ..schema.vocabulary import ALTERNATIVES, ANNOTATIONS, OPENINGS, STRUCTURAL, TYPES
from ..schema.walk import walk

Loc = tuple[str, tuple[Token, ...]]  # (source: a file of the contract folder or a resource URI, path in it)
ALL_TYPES = frozenset(TYPES)
MERGED_LIMIT = 64  # `$ref`s and `allOf`s followed into one shape: a chain longer is cut there


@dataclass(frozen=True)
class Side:
    """One side of a comparison: the resolver of its documents and where their nodes are."""

    resolver: Resolver
    places: Mapping[int, Loc]  # id(node) -> its place, for nodes a reference reaches
    documents: Mapping[str, Any]  # URI -> document

    @classmethod
    def of(cls, resources: Mapping[str, Any], source: str | None = None, prefix: tuple[Token, ...] = ()) -> Side:
        """The side of `resources` (URI -> document); each node's place is its resource's URI
        and pointer, or `source` and `prefix` + pointer when the documents sit inside a file
        (a tool's schema in tools.yaml)."""
        places: dict[int, Loc] = {}
        for uri, document in resources.items():
            for visit in walk(document, uri):
                if isinstance(visit.node, dict):
                    places.setdefault(id(visit.node), (source or uri, (*prefix, *visit.path)))
        return cls(Resolver(resources), places, resources)


@dataclass
class Shape:
    """One schema seen whole (see the module's docstring): `words` are its keywords, each
    with the place of the node that holds it in `origin`; `props` and `required` merged."""

    at: Loc
    node: Any  # the first node (after references): what identifies the pair for cycles
    words: dict[str, Any] = field(default_factory=dict)
    origin: dict[str, Loc] = field(default_factory=dict)
    props: dict[str, tuple[Any, Loc]] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    empty: bool = False  # the `false` schema: nothing is valid

    def child(self, keyword: str, *tokens: Token) -> Loc:
        """The place of `keyword` (and `tokens` below it) in the node that holds it."""
        source, path = self.origin.get(keyword, self.at)
        return source, (*path, keyword, *tokens)

    def types(self) -> frozenset[str]:
        """The JSON types an instance may be of (an integer is a number too)."""
        if self.empty:
            return frozenset()
        declared = self.words.get("type")
        found = set(ALL_TYPES)
        if isinstance(declared, str):
            found = {declared}
        elif isinstance(declared, list):
            found = {t for t in declared if isinstance(t, str)}
        if "number" in found:
            found.add("integer")
        values = self.values()
        if values is not None:
            found &= set().union(*(json_types(json.loads(v)) for v in values)) if values else set()
        return frozenset(found)

    def values(self) -> frozenset[str] | None:
        """The values allowed by `const` or `enum` (JSON-encoded), None when neither is there."""
        if "const" in self.words:
            return frozenset({encoded(self.words["const"])})
        enum = self.words.get("enum")
        return frozenset(encoded(v) for v in enum) if isinstance(enum, list) else None

    def extra(self) -> Any:
        """What other properties must meet: `additionalProperties`, else `unevaluatedProperties`
        (True when neither is there)."""
        for keyword in OPENINGS:
            if keyword in self.words:
                return self.words[keyword]
        return True

    def extra_at(self) -> Loc:
        keyword = next((k for k in OPENINGS if k in self.words), None)
        return self.child(keyword) if keyword is not None else self.at

    def alternatives(self) -> tuple[str, list[Any]] | None:
        """(keyword, branches) of a `oneOf` or `anyOf`, None when there is neither."""
        for keyword in ALTERNATIVES:
            branches = self.words.get(keyword)
            if isinstance(branches, list) and branches:
                return keyword, branches
        return None


def encoded(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def shape_of(side: Side, node: Any, at: Loc) -> Shape:
    """The shape of `node` (at `at`): its references followed and its `allOf` merged."""
    start, at = _followed(side, node, at)
    shape = Shape(at, start)
    pending: list[tuple[Any, Loc]] = [(start, at)]
    merged = 0
    while pending and merged < MERGED_LIMIT:
        current, where = pending.pop(0)
        merged += 1
        if current is False:
            shape.empty = True
        if not isinstance(current, dict):
            continue
        _merge(shape, current, where)
        target = _reference(side, current)
        if target is not None:
            pending.append((target, side.places.get(id(target), where)))
        members = current.get("allOf")
        if isinstance(members, list):
            pending += [(m, (where[0], (*where[1], "allOf", i))) for i, m in enumerate(members)]
    return shape


def _followed(side: Side, node: Any, at: Loc) -> tuple[Any, Loc]:
    """Down a chain of schemas that are only a `$ref` (and annotations), to what it names."""
    for _ in range(MERGED_LIMIT):
        if not isinstance(node, dict) or set(node) - ANNOTATIONS - {"$ref"} or "$ref" not in node:
            break
        target = _reference(side, node)
        if target is None:
            break
        node, at = target, side.places.get(id(target), at)
    return node, at


def _reference(side: Side, node: dict[str, Any]) -> Any:
    reference = node.get("$ref")
    if not isinstance(reference, str):
        return None
    visit = side.resolver.place(node)
    base = visit.base if visit is not None else side.resolver.root_uri
    target = side.resolver.resolve(reference, base)
    return target.node if target is not None else None


def _merge(shape: Shape, node: dict[str, Any], at: Loc) -> None:
    for keyword, value in node.items():
        if keyword in ANNOTATIONS or keyword in STRUCTURAL or keyword == "$ref" or keyword == "allOf":
            continue
        if keyword == "properties" and isinstance(value, dict):
            for name, sub in value.items():
                shape.props.setdefault(name, (sub, (at[0], (*at[1], "properties", name))))
        elif keyword == "required" and isinstance(value, list):
            shape.required |= {v for v in value if isinstance(v, str)}
        if keyword not in shape.words:
            shape.words[keyword] = value
            shape.origin[keyword] = at


def reach_text(side: Side, node: Any, limit: int = 2_000) -> str | None:
    """The text of `node` and of every schema its references reach, in the order met: two
    nodes with the same text admit the same instances. None past `limit` schemas."""
    texts: list[str] = []
    seen: set[int] = set()
    pending = [node]
    while pending:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        texts.append(encoded(current))
        if len(texts) > limit:
            return None
        for visit in walk(current):
            target = _reference(side, visit.node) if isinstance(visit.node, dict) else None
            if target is not None:
                pending.append(target)
    return "\n".join(texts)
