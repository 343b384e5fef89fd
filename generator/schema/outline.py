"""A bundle as its readers see it: where every `$ref` leads, and the root's definitions.

Computed once per bundle (`model.Bundle.outline`, when first asked) with one `Resolver`, so
that the docs (`render/describe.py`) and the TypeScript judge (`render/ts_compiled.py`) read
what a reference names and resolve nothing themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .dialect import read_as
from .pointer import PointerError, from_fragment, location
from .resolver import Resolver
from .uri import defrag, join
from .vocabulary import DEFINITIONS


@dataclass(frozen=True, slots=True)
class Reference:
    """What a `$ref` names: the schema (None when nothing of the bundle is named so), the base
    URI inside it, its place (`location`: where it is, else where the reference writes it to),
    and its key when it is an entry of its resource's root definitions (`$defs`, `definitions`)."""

    node: Any
    base: str
    location: str
    definition: str | None


@dataclass(frozen=True, slots=True)
class Defined:
    """An entry of the root's definitions: its key, its place and its schema."""

    key: str
    location: str
    node: Any


@dataclass(frozen=True)
class Outline:
    """`references` by the identity of the schema object that writes the `$ref` (objects of the
    bundle's own documents, which the bundle keeps alive); `schemas` by location."""

    root_uri: str
    definitions: tuple[Defined, ...]
    references: Mapping[int, Reference]
    schemas: Mapping[str, Any]

    def reference(self, node: Any) -> Reference | None:
        """What the `$ref` of `node`, a schema object of the bundle, names (None for another object)."""
        return self.references.get(id(node))


def _written(uri: str) -> str:
    """A location as a reference writes it, its pointer spelt as the core spells one."""
    resource, name = defrag(uri)
    try:
        return location(resource, from_fragment(name))
    except PointerError:  # a plain name: an anchor
        return uri


def outline(root: str, resources: Mapping[str, Any]) -> Outline:
    """The outline of the bundle of `resources` whose root is at `root`."""
    schema = resources[root]
    if not isinstance(schema, dict):
        return Outline(root, (), {}, {})
    resolver = Resolver(resources, default=read_as(schema, meta=resources.__getitem__))
    references: dict[int, Reference] = {}
    done = 0
    while done < len(visits := resolver.visits()):  # a pointer may place schemas no keyword leads to
        for visit in visits[done:]:
            written = visit.node.get("$ref")
            if isinstance(written, str):
                target = resolver.resolve(written, visit.base)
                place = resolver.place(target.node) if target is not None else None
                pointer = place.pointer if place is not None else ()
                key = str(pointer[1]) if len(pointer) == 2 and pointer[0] in DEFINITIONS and pointer[1] else None
                references[id(visit.node)] = Reference(
                    target.node if target is not None else None,
                    target.base if target is not None else visit.base,
                    place.location if place is not None else _written(join(visit.base, written)),
                    key,
                )
        done = len(visits)
    base = resolver.root_uri
    found: dict[str, Defined] = {}
    for container in DEFINITIONS:
        entries = schema.get(container)
        for key, node in entries.items() if isinstance(entries, dict) else ():
            target = resolver.resolve(location(base, (container, key)), base)
            place = resolver.place(target.node) if target is not None else None
            found.setdefault(key, Defined(key, place.location if place else location(base, (container, key)), node))
    schemas = {visit.location: visit.node for visit in reversed(resolver.visits())}
    return Outline(base, tuple(found.values()), references, schemas)
