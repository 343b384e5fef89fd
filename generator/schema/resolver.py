"""The one reference resolver: `$ref`, `$dynamicRef` and `$recursiveRef` among a set of
resources, without the network.

Resources are given by URI (a file's, or a document's own), and may embed others (`$id`);
a missing one may be asked of `retrieve` (the contract folder: load/bundle.py), never
fetched. A reference resolves against the base it is written at (RFC 3986, `urn:` too, see
`uri`), to a resource's root, a JSON pointer inside it (percent-decoded first), or a
plain-name anchor (`$anchor`, `$dynamicAnchor`; draft-07's `$id: "#name"`). A dynamic
reference resolves as a static one: what it names in the document where it is written.

Not `referencing`: its walk is a second keyword table, and its errors are exceptions of
several classes. This one is built on `walk`, answers None for what does not resolve, and
keeps every resource it reads alive, so that places keyed by `id()` stay unique.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import debug
from .pointer import PointerError, follow, from_fragment
from .uri import defrag, join
from .vocabulary import EITHER, Vocabulary, named
from .walk import Visit, anchors, base_within, children, copied, replaced, walk

Retrieve = Callable[[str], Any]
MAX_HOPS = 32  # references followed one after another, at most: a longer chain is a loop


@dataclass(frozen=True, slots=True)
class Target:
    """What a reference names: the schema, the base URI inside it, its dialect."""

    node: Any
    base: str
    dialect: Vocabulary


class Resolver:
    """Resolves references among `resources` (URI -> document). A resource without
    `$schema` is read in `default`, else in the dialect of the first resource (the root),
    as the judge reads a bundle."""

    def __init__(
        self, resources: Mapping[str, Any], *, default: Vocabulary | None = None, retrieve: Retrieve | None = None
    ) -> None:
        self._default = default
        self._retrieve = retrieve
        self._resources: dict[str, Visit] = {}
        self._anchors: dict[tuple[str, str], Visit] = {}
        self._places: dict[int, Visit] = {}
        self._pointed: set[int] = set()  # schemas only a pointer reached: no keyword leads to them
        self._kept: list[Any] = []  # every document read: ids stay unique while they live
        self.root_uri = ""
        for uri, document in resources.items():
            self.add(uri, document)

    @classmethod
    def of_document(cls, document: Any, base: str = "", default: Vocabulary | None = None) -> Resolver:
        """The resolver of one self-contained document (a compound one: resources embedded
        by `$id`), read at `base`; `root_uri` is the base inside it."""
        return cls({base: document}, default=default)

    def add(self, uri: str, document: Any) -> None:
        """Read one more resource, filed at `uri` (and at its own `$id`, if it has one)."""
        uri = defrag(uri)[0]
        if uri in self._resources:
            return
        self._kept.append(document)
        for position, visit in enumerate(walk(document, uri, named(document) or self._default)):
            if position == 0:
                self._default = self._default or visit.dialect
                self._resources[uri] = visit
                self.root_uri = visit.base if len(self._kept) == 1 else self.root_uri
            if isinstance(visit.node, dict):
                self._places.setdefault(id(visit.node), visit)
            if not visit.pointer:
                self._resources.setdefault(visit.base, visit)
            for name in anchors(visit.node, visit.dialect):
                self._anchors.setdefault((visit.base, name), visit)

    def visits(self) -> list[Visit]:
        """Every schema object of every resource read so far, in the order read."""
        return list(self._places.values())

    def place(self, node: Any) -> Visit | None:
        """Where a schema node of a resource read here is (None for one that is not)."""
        return self._places.get(id(node))

    def only_pointed_at(self, node: Any) -> bool:
        """Whether `node` has its place because a reference's pointer reached it, no keyword
        of its dialect leading there (a schema inside a plain container, `#/definitions/group/a`)."""
        return id(node) in self._pointed

    def base_within(self, node: Any, base: str) -> str:
        """The base URI inside `node`, a subschema read at `base`."""
        visit = self._places.get(id(node))
        return base_within(node, base, visit.dialect if visit is not None else self._default or EITHER)

    def chain(self, node: Any) -> list[Any]:
        """`node` (a schema read here) and each schema its `$ref` leads to in turn, to the
        first without one. A reference that names nothing here (another file's, say) ends
        the chain at the schema that writes it, and so do MAX_HOPS references (a loop)."""
        found = [node]
        base = self._base_of(node)
        while len(found) <= MAX_HOPS and isinstance(node, dict) and isinstance(node.get("$ref"), str):
            target = self.resolve(node["$ref"], base)
            if target is None:
                break
            node, base = target.node, target.base
            found.append(node)
        return found

    def _base_of(self, node: Any) -> str:
        """The base URI inside a schema read here (inside one that was not, read at the root)."""
        visit = self._places.get(id(node))
        return visit.base if visit is not None else self.base_within(node, self.root_uri)

    def _resource(self, uri: str) -> Visit | None:
        found = self._resources.get(uri)
        if found is None and self._retrieve is not None and uri:
            try:
                document = self._retrieve(uri)
            except Exception as exc:  # a retriever says what it cannot find in its own words, elsewhere
                debug.handled(exc)
                return None
            self.add(uri, document)
            found = self._resources.get(uri)
        return found

    def resolve(self, reference: str, base: str) -> Target | None:
        """What `reference`, written at `base`, names; None when nothing here is named so."""
        uri, name = defrag(join(base, reference))
        resource = self._resource(uri or base)
        if resource is None:
            return None
        if name and not name.startswith("/"):
            visit = self._anchors.get((resource.base, name))
            return Target(visit.node, visit.base, visit.dialect) if visit is not None else None
        try:
            tokens = from_fragment(name)
        except PointerError:
            return None
        return self._follow(resource, tokens)

    def _follow(self, resource: Visit, tokens: tuple[str, ...]) -> Target | None:
        """Down a pointer from a resource's root; each `$id` on the way moves the base. A
        schema the walk did not reach (under a keyword its dialect does not have, such as
        `$defs` in draft-07) gets a place here, so that it has a location too."""
        node, outer, pointer, dialect = resource.node, resource.base, resource.pointer, resource.dialect
        base = outer
        for token in tokens:
            try:
                node = follow(node, (token,))
            except PointerError:
                return None
            visit = self._places.get(id(node))
            if visit is not None:
                outer, base, pointer, dialect = visit.base, visit.base, visit.pointer, visit.dialect
            else:
                outer, pointer = base, (*pointer, token)
                base = base_within(node, base, dialect) if isinstance(node, dict) else base
        if isinstance(node, dict) and id(node) not in self._places:
            self._pointed.add(id(node))
            for visit in walk(node, outer, dialect, at=pointer):
                if isinstance(visit.node, dict):
                    self._places.setdefault(id(visit.node), visit)
        return Target(node, base, dialect)


def absolute_references(schema: Any, base: str = "") -> Any:
    """A copy of `schema` whose every `$ref` is written against the base it was read at,
    so that each resolves the same wherever it is followed from. A loop, not recursion; a
    schema met twice (a YAML alias) is copied at its first place and left as it is after."""
    if not isinstance(schema, dict):
        return schema
    top = copied(schema)
    seen = {id(schema)}
    pending = [(top, base)]
    while pending:
        node, outer = pending.pop()
        inside = base_within(node, outer)
        reference = node.get("$ref")
        if isinstance(reference, str) and inside:
            node["$ref"] = join(inside, reference)
        for path, sub in list(children(node)):
            if isinstance(sub, dict) and id(sub) not in seen:
                seen.add(id(sub))
                fresh = copied(sub)
                replaced(node, path, fresh)
                pending.append((fresh, inside))
    return top
