"""The typed view of a schema: the classes and field types the generated models carry.

The judge (the schema itself, compiled) decides what is valid; the view only types what
the judge accepted. So every view type accepts at least every value its schema accepts:
keywords with no Python type (`pattern`, `minimum`, `not`, `if`, `contains`, ...) are
left to the judge, a conjunction (`allOf`, `$ref` beside other keywords) is typed by
what its parts say together, a disjunction (`anyOf`, `oneOf`) becomes a union, and
where nothing sound can be said the type is `Any`.

An object schema with `properties` becomes a class, identified by its location (a URI
with a JSON pointer) so that the class can judge by its own subschema when used alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..model.schemas import NO_DEFAULT, NoDefault, Scalar, TypeKind, View, ViewClass, ViewField, ViewType
from ..naming import RESERVED_NAMES, camel, class_name_from
from ..schema.dialect import read_as
from ..schema.pointer import fragment, location
from ..schema.resolver import Resolver
from ..schema.values import json_types
from ..schema.vocabulary import ALTERNATIVES, ANNOTATIONS, DEFINITIONS, TYPES
from ..schema.walk import Visit
from .bundle import ROOT_URI, Retriever

ANY = ViewType(TypeKind.ANY)
MAX_DEPTH = 48
MAX_LITERALS = 512


@dataclass
class _Class:
    name: str
    location: str
    description: str
    fields: list[ViewField] = field(default_factory=list)
    closed: bool = False
    root: ViewType | None = None


class ViewBuilder:
    """Walks a bundle of schema resources and collects the classes of its view.

    Where each schema is, and what each reference names, the schema core's `Resolver` says:
    the root at `root_uri` (the envelope's ROOT_URI unless said), the files it refers to through `retrieve`."""

    def __init__(self, root: Any, retrieve: Retriever, root_name: str, root_uri: str = ROOT_URI) -> None:
        self._root = root
        self._root_name = root_name
        self._root_uri = root_uri
        dialect = read_as(root, meta=retrieve)
        self._resolver = Resolver({root_uri: root}, default=dialect, retrieve=retrieve)
        self._classes: dict[str, _Class] = {}
        self._names: set[str] = {*RESERVED_NAMES, root_name}
        self._stack: set[int] = set()
        self._root_wrapped = False  # a root that is not one object: its object part is a class of its own

    # Places and references --------------------------------------------------------

    def _visit(self, node: Any) -> Visit | None:
        """Where a schema object is (None for one no keyword or reference leads to)."""
        return self._resolver.place(node)

    def _location(self, node: Any) -> str | None:
        visit = self._visit(node)
        return visit.location if visit is not None else None

    def _follow(self, node: dict[str, Any]) -> Any:
        """The target of a node's `$ref`; `True` (anything) when it cannot be resolved here."""
        visit = self._visit(node)
        target = self._resolver.resolve(node["$ref"], visit.base) if visit is not None else None
        if target is None or (isinstance(target.node, dict) and self._visit(target.node) is None):
            return True
        return target.node

    def _replaces_siblings(self, node: dict[str, Any]) -> bool:
        """Whether the node's `$ref` stands for the whole node: before 2019-09 it always
        does; since, only when nothing but annotations is beside it."""
        visit = self._visit(node)
        return (visit is not None and visit.dialect.legacy_ref) or set(node) - ANNOTATIONS == {"$ref"}

    def canonical(self, node: Any) -> Any:
        """The node that decides: a node that is only a `$ref` (or, before 2019-09, any node
        with a `$ref`) stands for its target."""
        seen: set[int] = set()
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and id(node) not in seen:
            seen.add(id(node))
            if not self._replaces_siblings(node):
                break
            node = self._follow(node)
        return node

    def conjuncts(self, node: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
        """The node and every schema it must also satisfy: `allOf` parts and `$ref` targets."""
        node = self.canonical(node)
        if not isinstance(node, dict) or depth > MAX_DEPTH:
            return
        yield node
        if isinstance(node.get("$ref"), str):
            yield from self.conjuncts(self._follow(node), depth + 1)
        for part in node.get("allOf", []) if isinstance(node.get("allOf"), list) else []:
            yield from self.conjuncts(part, depth + 1)

    # Types --------------------------------------------------------------------------

    def types_of(self, node: Any, depth: int = 0) -> set[str]:
        """The JSON types a valid instance may have, as far as can be told."""
        allowed = set(TYPES)
        if depth > MAX_DEPTH:
            return allowed
        for part in self.conjuncts(node, depth):
            allowed &= _declared_types(part)
            for keyword_ in ALTERNATIVES:
                options = part.get(keyword_)
                if isinstance(options, list) and options:
                    allowed &= set().union(*(self.types_of(option, depth + 1) for option in options))
        if node is False:
            return set()
        return allowed

    def view_type(self, node: Any, depth: int = 0, hint: str = "") -> ViewType:
        node = self.canonical(node)
        if not isinstance(node, dict) or depth > MAX_DEPTH or id(node) in self._stack or self._visit(node) is None:
            return ANY
        self._stack.add(id(node))
        try:
            return self._view_type(node, depth, hint)
        finally:
            self._stack.discard(id(node))

    def _view_type(self, node: dict[str, Any], depth: int, hint: str) -> ViewType:
        types = self.types_of(node, depth)
        if not types:
            return ANY  # nothing is valid: any type is a sound view
        parts = list(self.conjuncts(node, depth))
        choices = [p for p in parts if isinstance(_alternatives(p), list)]
        if len(choices) == 1 and not any(self._has_properties(p) for p in parts):
            options: list[Any] = _alternatives(choices[0]) or []
            union = _union([self.view_type(option, depth + 1, hint) for option in options])
            if union.kind != "any":
                return union
        if types == set(TYPES):
            return ANY  # no type named: the view imposes none
        members: list[ViewType] = []
        for name in TYPES:
            if name not in types or (name == "integer" and "number" in types):
                continue
            members.append(self._type_part(name, node, parts, depth, hint))
        return _union(members)

    @staticmethod
    def _has_properties(part: dict[str, Any]) -> bool:
        return isinstance(part.get("properties"), dict) and bool(part["properties"])

    def _type_part(
        self, name: str, node: dict[str, Any], parts: list[dict[str, Any]], depth: int, hint: str
    ) -> ViewType:
        if name in ("string", "boolean"):
            literals = _literals(parts, str if name == "string" else bool)
            return ViewType(TypeKind.LITERAL, values=literals) if literals else ViewType(TypeKind(name))
        if name == "array":
            items = self._each_type(parts, "items", "prefixItems", depth, hint + "Item")
            return ViewType(TypeKind.LIST, items=(items,))
        if name == "object":
            if any(self._has_properties(p) for p in parts):
                return ViewType(TypeKind.CLASS, name=self._class(node, parts, depth, hint).name)
            values = self._each_type(parts, "additionalProperties", "patternProperties", depth, hint + "Value")
            return ViewType(TypeKind.DICT, items=(values,))
        return ViewType(TypeKind(name))

    def _each_type(self, parts: list[dict[str, Any]], keyword: str, unless: str, depth: int, hint: str) -> ViewType:
        """The type of every element of an array, or every member of an object without
        `properties`: from a part whose `keyword` applies to all of them (no `unless` beside it)."""
        for part in parts:
            each = part.get(keyword)
            if isinstance(each, dict | bool) and unless not in part:
                return self.view_type(each, depth + 1, hint)
        return ANY

    # Classes ------------------------------------------------------------------------

    def _named_by_key(self, node: dict[str, Any], tokens: tuple[object, ...]) -> bool:
        """Whether a class takes its name from its key: an entry of `$defs` (or `definitions`),
        or a reference's target no keyword leads to (a schema inside a plain container)."""
        in_definitions = len(tokens) >= 2 and tokens[-2] in DEFINITIONS and tokens[-1] != ""
        return in_definitions or self._resolver.only_pointed_at(node)

    def _name_for(self, node: dict[str, Any], hint: str) -> str:
        visit = self._visit(node)
        tokens = visit.pointer if visit is not None else ()
        title = node.get("title")
        key = str(tokens[-1]) if tokens else ""
        if node is self._root and not self._root_wrapped:
            return self._root_name
        if node is self._root:
            base = self._root_name + "Object"
        elif isinstance(title, str) and title.strip():
            base = class_name_from(title)
        elif self._named_by_key(node, tokens):
            base = class_name_from(key)
        else:
            base = class_name_from(hint or "Model")
        name, suffix = base, 2
        while name in self._names:
            name, suffix = f"{base}{suffix}", suffix + 1
        self._names.add(name)
        return name

    def _class(self, node: dict[str, Any], parts: list[dict[str, Any]], depth: int, hint: str) -> _Class:
        location = self._location(node) or ""  # view_type views placed schemas only
        if location in self._classes:
            return self._classes[location]
        made = _Class(self._name_for(node, hint), location, _description(parts))
        self._classes[location] = made
        required: list[str] = []
        properties: dict[str, Any] = {}
        for part in parts:
            if isinstance(part.get("required"), list):
                required += [r for r in part["required"] if isinstance(r, str)]
            if isinstance(part.get("properties"), dict):
                for key, sub in part["properties"].items():
                    properties.setdefault(key, sub)
            made.closed = made.closed or (part.get("additionalProperties") is False and "patternProperties" not in part)
        for key, sub in properties.items():
            made.fields.append(self._field(key, sub, key in required, depth, made.name))
        for key in dict.fromkeys(required):
            if key not in properties:
                made.fields.append(ViewField(key, ANY, True, NO_DEFAULT, "", None))
        return made

    def _field(self, key: str, sub: Any, required: bool, depth: int, owner: str) -> ViewField:
        canonical = self.canonical(sub)
        description = _description(list(self.conjuncts(sub)))
        view = self.view_type(sub, depth + 1, owner + camel(key))
        where = self._location(canonical) if isinstance(canonical, dict) else None
        return ViewField(key, view, required, _scalar_default(sub, required), description, where)

    def build(self) -> View:
        """Every class: the root first, then those of `$defs` (or `definitions`) and below."""
        root_view = self._root_view()
        root = self._root_name
        wrapper = None
        if root_view.kind == "class":
            root = root_view.name
        else:  # the root is not one object: a root model wraps its type
            described = [self._root] if isinstance(self._root, dict) else []
            wrapper = _Class(root, self._root_location(), _description(described), root=root_view)
        for container, key in self._definitions():
            sub = self._reach((container, key))
            self.view_type(sub, 1, class_name_from(key))
        root_location = self._root_location()
        classes = tuple(
            ViewClass(
                c.name,
                "" if c.location == root_location else c.location,
                c.description,
                tuple(c.fields),
                c.closed,
                c.root,
            )
            for c in ([wrapper] if wrapper else []) + list(self._classes.values())
        )
        return View(root, classes)

    def _root_view(self) -> ViewType:
        """The type of the root. A root that may be an object or something else (`"type":
        ["object", "array"]`) is viewed twice: its object part, first named as the root, is
        then a class of its own beside the root model."""
        root_view = self.view_type(self._root, 0, self._root_name)
        if root_view.kind != "class" and self._root_location() in self._classes:
            self._root_wrapped = True
            self._classes, self._names = {}, {*RESERVED_NAMES, self._root_name}
            root_view = self.view_type(self._root, 0, self._root_name)
        return root_view

    def _root_location(self) -> str:
        return self._location(self._root) or location(self._root_uri, ())

    def _definitions(self) -> list[tuple[str, str]]:
        """(container, key) of each entry of the root's `$defs`, then of its `definitions`."""
        if not isinstance(self._root, dict):
            return []
        found = []
        for container in DEFINITIONS:
            entries = self._root.get(container)
            found += [(container, key) for key in (entries if isinstance(entries, dict) else ())]
        return found

    def _reach(self, tokens: tuple[str, ...]) -> Any:
        """The schema at `tokens` of the root, placed (a pointer reaches what no keyword of
        the root's dialect does: `$defs` in draft-07)."""
        target = self._resolver.resolve("#" + fragment(tokens), self._resolver.root_uri)
        return target.node if target is not None else True


def _declared_types(node: dict[str, Any]) -> set[str]:
    allowed = set(TYPES)
    declared = node.get("type")
    if isinstance(declared, str):
        declared = [declared]
    if isinstance(declared, list):
        named = {t for t in declared if isinstance(t, str)}
        if "number" in named:
            named.add("integer")
        allowed &= named
    values = [node["const"]] if "const" in node else node.get("enum") if isinstance(node.get("enum"), list) else None
    if values is not None:
        allowed &= set().union(*(json_types(v) for v in values)) if values else set()
    return allowed


def _alternatives(part: dict[str, Any]) -> Any:
    """What the first alternatives keyword with a value holds (`anyOf`, else `oneOf`)."""
    found = None
    for keyword in ALTERNATIVES:
        found = found or part.get(keyword)
    return found


def _scalar_default(node: Any, required: bool) -> Scalar | NoDefault:
    """The default of an optional field when it is a string, a number or a boolean."""
    default = node.get("default") if isinstance(node, dict) else None
    return default if isinstance(default, str | int | float | bool) and not required else NO_DEFAULT


def _literals(parts: list[dict[str, Any]], kind: type) -> tuple[str | bool, ...]:
    """The strings (or booleans) the first part with a `const` or `enum` allows, if any.

    Numbers stay numbers: a `Literal[1]` would refuse `1.0`, which JSON Schema accepts.
    """
    for part in parts:
        values = [part["const"]] if "const" in part else part.get("enum")
        if isinstance(values, list):
            literals = tuple(dict.fromkeys(v for v in values if type(v) is kind and isinstance(v, str | bool)))
            # A Literal of thousands of values costs the type checker and the generator more
            # than it says: beyond this, the view is the plain type and the judge decides.
            return literals if len(literals) <= MAX_LITERALS else ()
    return ()


def _description(parts: list[dict[str, Any]]) -> str:
    return next((p["description"] for p in parts if isinstance(p.get("description"), str)), "")


def _union(members: list[ViewType]) -> ViewType:
    flat: list[ViewType] = []
    for member in members:
        for part in member.items if member.kind == "union" else (member,):
            if part.kind == "any":
                return ANY
            if part not in flat:
                flat.append(part)
    if not flat:
        return ANY
    return flat[0] if len(flat) == 1 else ViewType(TypeKind.UNION, items=tuple(flat))
