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

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote, urldefrag, urljoin

from referencing import Registry, Resource
from referencing import jsonschema as specifications
from referencing.exceptions import Unresolvable

from ..keywords import json_types
from ..model import View, ViewClass, ViewField, ViewType
from ..naming import camel, class_name_from
from ..runtime import json_pointer
from ..schema.pointer import decode as pointer_tokens
from .bundle import ROOT_URI, Retriever

ANY = ViewType("any")
_TYPE_NAMES = ("string", "integer", "number", "boolean", "null", "array", "object")
_ANNOTATIONS = {"title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"}
_MAP_KEYWORDS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
_LIST_KEYWORDS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
_SCHEMA_KEYWORDS = (
    "not",
    "if",
    "then",
    "else",
    "items",
    "additionalItems",
    "additionalProperties",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
_LEGACY_DRAFTS = ("draft-03", "draft-04", "draft-06", "draft-07")
# Names a class must not take: what a generated module imports or exports besides its classes.
RESERVED_NAMES = frozenset(
    {
        # the exports of a contract package, beside its root class
        "CONTRACTS",
        "JUDGE",
        "builders",
        "error_info",
        "error_response",
        "errors",
        "judge",
        "models",
        "success_response",
        "Annotated",
        "Any",
        "ConfigDict",
        "Envelope",
        "ERRORS",
        "ErrorCode",
        "Field",
        "Judge",
        "Integer",
        "JudgedModel",
        "JudgedRootModel",
        "Literal",
        "MISSING",
        "RootModel",
    }
)
MAX_DEPTH = 48
MAX_LITERALS = 512


@dataclass(frozen=True, slots=True)
class Place:
    """Where a schema node lives: the URI of its resource and its pointer inside it."""

    base: str
    pointer: str
    legacy: bool  # draft-07 and older: `$ref` replaces its siblings; `items` may be a list

    @property
    def location(self) -> str:
        return f"{self.base}#{quote(self.pointer, safe='/~!$&()*+,;=:@')}"


@dataclass
class _Class:
    name: str
    place: Place
    description: str
    fields: list[ViewField] = field(default_factory=list)
    closed: bool = False
    root: ViewType | None = None


def _dialect_is_legacy(schema: Any) -> bool:
    declared = schema.get("$schema", "") if isinstance(schema, dict) else ""
    return isinstance(declared, str) and any(d in declared for d in _LEGACY_DRAFTS)


class ViewBuilder:
    """Walks a bundle of schema resources and collects the classes of its view."""

    def __init__(self, root: Any, retrieve: Retriever, root_name: str) -> None:
        self._root = root
        self._root_name = root_name
        self._registry: Registry[Any] = Registry(retrieve=self._retrieve_resource(retrieve))  # type: ignore[call-arg]
        self._registry = self._registry.with_resource(ROOT_URI, self._resource(root)).crawl()
        self._places: dict[int, Place] = {}
        self._legacy: dict[str, bool] = {}  # the dialect of each resource, by its URI
        self._targets: set[int] = set()  # `$ref` targets that no keyword leads to, named by their key
        self._documents: list[Any] = []  # keeps every walked document alive, so ids stay unique
        self._index(root, ROOT_URI)
        self._classes: dict[str, _Class] = {}
        self._names: set[str] = {*RESERVED_NAMES, root_name}
        self._stack: set[int] = set()
        self._root_wrapped = False  # a root that is not one object: its object part is a class of its own

    # Resources and places ---------------------------------------------------------

    @staticmethod
    def _resource(contents: Any) -> Resource[Any]:
        legacy = _dialect_is_legacy(contents)
        default = specifications.DRAFT7 if legacy else specifications.DRAFT202012
        try:
            return Resource.from_contents(contents, default_specification=default)
        except Exception:  # an unknown dialect: read it as the default draft
            return default.create_resource(contents)

    def _retrieve_resource(self, retrieve: Retriever) -> Any:
        def retrieve_resource(uri: str) -> Resource[Any]:
            contents = retrieve(uri)
            self._index(contents, uri)
            return self._resource(contents)

        return retrieve_resource

    def _index(self, document: Any, uri: str) -> None:
        """Record the place of every schema node of a document, once."""
        if isinstance(document, dict | list) and id(document) not in self._places:
            self._documents.append(document)
            self._walk(document, urldefrag(uri)[0], (), _dialect_is_legacy(document))

    def _index_target(self, target: Any, uri: str, legacy: bool) -> None:
        """Record the place of a `$ref` target that no keyword leads to (a schema inside a
        plain container, `#/definitions/group/full`): its true location is the reference's
        own, the resource `uri` and the pointer of its fragment."""
        resource, fragment = urldefrag(uri)
        if not fragment.startswith("/"):
            return  # an anchor no keyword leads to: the target stays unplaced, and is viewed as Any
        path = pointer_tokens(unquote(fragment))
        self._documents.append(target)
        self._targets.add(id(target))
        self._walk(target, resource, path, self._legacy.get(resource, legacy), entry=True)

    def _walk(self, node: Any, base: str, path: tuple[object, ...], legacy: bool, entry: bool = False) -> None:
        if not isinstance(node, dict) or id(node) in self._places:
            return
        declared = node.get("$id")
        rebased = isinstance(declared, str) and not declared.startswith("#") and not (legacy and "$ref" in node)
        if rebased and not entry:
            base, path = urldefrag(urljoin(base, str(declared)))[0], ()
        self._legacy.setdefault(base, legacy)
        self._places[id(node)] = Place(base, json_pointer(path), legacy)
        for key, value in node.items():
            if key in _MAP_KEYWORDS and isinstance(value, dict):
                for name, sub in value.items():
                    self._walk(sub, base, (*path, key, name), legacy)
            elif key in _LIST_KEYWORDS and isinstance(value, list):
                for index, sub in enumerate(value):
                    self._walk(sub, base, (*path, key, index), legacy)
            elif key in _SCHEMA_KEYWORDS:
                self._walk(value, base, (*path, key), legacy)

    def place(self, node: Any) -> Place:
        return self._places[id(node)]

    def _follow(self, node: dict[str, Any]) -> Any:
        """The target of a node's `$ref`; `True` (anything) when it cannot be resolved here."""
        place = self.place(node)
        try:
            resolved = self._registry.resolver(place.base).lookup(node["$ref"])
        except (Unresolvable, LookupError, ValueError):
            return True
        target = resolved.contents
        if isinstance(target, dict) and id(target) not in self._places:
            self._index_target(target, urljoin(place.base, node["$ref"]), place.legacy)
        return target if id(target) in self._places or not isinstance(target, dict) else True

    def canonical(self, node: Any) -> Any:
        """The node that decides: a node that is only a `$ref` (or, before 2019-09, any node
        with a `$ref`) stands for its target."""
        seen: set[int] = set()
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and id(node) not in seen:
            seen.add(id(node))
            if not (self.place(node).legacy or set(node) - _ANNOTATIONS == {"$ref"}):
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
        allowed = set(_TYPE_NAMES)
        if depth > MAX_DEPTH:
            return allowed
        for part in self.conjuncts(node, depth):
            allowed &= _declared_types(part)
            for keyword_ in ("anyOf", "oneOf"):
                options = part.get(keyword_)
                if isinstance(options, list) and options:
                    allowed &= set().union(*(self.types_of(option, depth + 1) for option in options))
        if node is False:
            return set()
        return allowed

    def view_type(self, node: Any, depth: int = 0, hint: str = "") -> ViewType:
        node = self.canonical(node)
        if not isinstance(node, dict) or depth > MAX_DEPTH or id(node) in self._stack:
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
        choices = [p for p in parts if isinstance(p.get("anyOf") or p.get("oneOf"), list)]
        if len(choices) == 1 and not any(self._has_properties(p) for p in parts):
            options: list[Any] = choices[0].get("anyOf") or choices[0].get("oneOf") or []
            union = _union([self.view_type(option, depth + 1, hint) for option in options])
            if union.kind != "any":
                return union
        if types == set(_TYPE_NAMES):
            return ANY  # no type named: the view imposes none
        members: list[ViewType] = []
        for name in _TYPE_NAMES:
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
            return ViewType("literal", values=literals) if literals else ViewType(name)
        if name == "array":
            return ViewType("list", items=(self._items_type(parts, depth, hint),))
        if name == "object":
            if any(self._has_properties(p) for p in parts):
                return ViewType("class", name=self._class(node, parts, depth, hint).name)
            return ViewType("dict", items=(self._values_type(parts, depth, hint),))
        return ViewType(name)

    def _items_type(self, parts: list[dict[str, Any]], depth: int, hint: str) -> ViewType:
        """The type of every element: from a part whose `items` applies to all of them."""
        for part in parts:
            items = part.get("items")
            if isinstance(items, dict | bool) and "prefixItems" not in part:
                return self.view_type(items, depth + 1, hint + "Item")
        return ANY

    def _values_type(self, parts: list[dict[str, Any]], depth: int, hint: str) -> ViewType:
        """The type of every member of an object without `properties`."""
        for part in parts:
            extra = part.get("additionalProperties")
            if isinstance(extra, dict | bool) and "patternProperties" not in part:
                return self.view_type(extra, depth + 1, hint + "Value")
        return ANY

    # Classes ------------------------------------------------------------------------

    def _name_for(self, node: dict[str, Any], hint: str) -> str:
        place = self.place(node)
        title = node.get("title")
        key = (pointer_tokens(place.pointer) or ("",))[-1]
        in_defs = re.search(r"/(\$defs|definitions)/[^/]+$", place.pointer) is not None
        if node is self._root and not self._root_wrapped:
            return self._root_name
        if node is self._root:
            base = self._root_name + "Object"
        elif isinstance(title, str) and title.strip():
            base = class_name_from(title)
        elif in_defs or id(node) in self._targets:
            base = class_name_from(key)
        else:
            base = class_name_from(hint or "Model")
        name, suffix = base, 2
        while name in self._names:
            name, suffix = f"{base}{suffix}", suffix + 1
        self._names.add(name)
        return name

    def _class(self, node: dict[str, Any], parts: list[dict[str, Any]], depth: int, hint: str) -> _Class:
        location = self.place(node).location
        if location in self._classes:
            return self._classes[location]
        made = _Class(self._name_for(node, hint), self.place(node), _description(parts))
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
                made.fields.append(ViewField(key, ANY, True, None, "", None))
        return made

    def _field(self, key: str, sub: Any, required: bool, depth: int, owner: str) -> ViewField:
        canonical = self.canonical(sub)
        description = _description(list(self.conjuncts(sub)))
        view = self.view_type(sub, depth + 1, owner + camel(key))
        default = sub.get("default") if isinstance(sub, dict) else None
        scalar_default = isinstance(default, str | int | float | bool) and not required
        where = (
            self.place(canonical).location if isinstance(canonical, dict) and id(canonical) in self._places else None
        )
        return ViewField(key, view, required, json.dumps(default) if scalar_default else None, description, where)

    def build(self) -> View:
        """Every class: the root first, then those of `$defs` (or `definitions`) and below."""
        root_view = self._root_view()
        root = self._root_name
        wrapper = None
        if root_view.kind == "class":
            root = root_view.name
        else:  # the root is not one object: a root model wraps its type
            described = [self._root] if isinstance(self._root, dict) else []
            wrapper = _Class(root, self._root_place(), _description(described), root=root_view)
        if isinstance(self._root, dict):
            for container in ("$defs", "definitions"):
                entries = self._root.get(container)
                for key, sub in entries.items() if isinstance(entries, dict) else ():
                    self.view_type(sub, 1, class_name_from(key))
        root_location = self._root_place().location
        classes = tuple(
            ViewClass(
                c.name,
                "" if c.place.location == root_location else c.place.location,
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
        if root_view.kind != "class" and self._root_place().location in self._classes:
            self._root_wrapped = True
            self._classes, self._names = {}, {*RESERVED_NAMES, self._root_name}
            root_view = self.view_type(self._root, 0, self._root_name)
        return root_view

    def _root_place(self) -> Place:
        return self.place(self._root) if isinstance(self._root, dict) else Place(ROOT_URI, "", False)


def _declared_types(node: dict[str, Any]) -> set[str]:
    allowed = set(_TYPE_NAMES)
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
    return flat[0] if len(flat) == 1 else ViewType("union", items=tuple(flat))
