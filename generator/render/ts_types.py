"""TypeScript types of a contract's typed view: object types and aliases, never stricter than
the judge (the same view the Python models read: a value with no declared type is
`unknown`, an integer a `number`, an object that allows other members keeps an index
signature).

A type alias may not refer to itself but through an array or an object; where a view's
union does (a root that is itself or a string, say), the reference is `unknown`. Where a
class of the view is named `Array`, an array is `globalThis.Array<...>`. An optional member
named as a method of `Object` (`constructor`, `toString`...) is `unknown` (`OBJECT_MEMBERS`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..model.schemas import View, ViewClass, ViewType
from .escape import ts, ts_key

# The members TypeScript sees on every object (its `Object` interface). An object type with
# an optional member of one of these names refuses every object literal without it, whose
# `constructor` is the inherited `Function` to TypeScript: such a member is `unknown`, and the
# judge says what it holds.
OBJECT_MEMBERS = frozenset(
    {
        "constructor",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toLocaleString",
        "toString",
        "valueOf",
    }
)

_SIMPLE = {
    "any": "unknown",
    "string": "string",
    "integer": "number",
    "number": "number",
    "boolean": "boolean",
    "null": "null",
}


@dataclass(frozen=True, slots=True)
class TsField:
    key: str  # the property name, quoted
    type: str
    optional: bool
    description: str


@dataclass(frozen=True, slots=True)
class TsType:
    """One declaration of types.ts: an object type (`fields`) or an alias of another (`alias`)."""

    name: str
    description: str
    fields: tuple[TsField, ...] = ()
    open: bool = False
    alias: str | None = None


def type_of(node: ViewType, class_type: Callable[[str], str] = str, array: str = "Array") -> str:
    """The TypeScript type of a value of `node`: a class is `class_type` of its name (itself,
    `unknown` where an alias may not name it, ...), an array `array<...>` (`globalThis.Array`
    where a class of the view is `Array`)."""
    kind = node.kind
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == "literal":
        return " | ".join(ts(value) for value in node.values) or "never"
    if kind == "list":
        return f"{array}<{type_of(node.items[0], class_type, array)}>"
    if kind == "dict":
        return f"{{ [key: string]: {type_of(node.items[0], class_type, array)} }}"
    if kind == "class":
        return class_type(node.name)
    parts = list(dict.fromkeys(type_of(item, class_type, array) for item in node.items))
    return "unknown" if "unknown" in parts or not parts else " | ".join(parts)


def member_type(view: View, node: ViewType) -> str:
    """The TypeScript type of the JSON a builder takes for a member of `node`: an object
    class is any object (the builder may put members inside it), any other class `unknown`."""
    objects = {c.name for c in view.classes if c.root is None}
    return type_of(node, lambda name: "{ readonly [key: string]: unknown }" if name in objects else "unknown")


def _bare_classes(node: ViewType) -> set[str]:
    """The classes a type names outside arrays and objects (where an alias may not recur)."""
    if node.kind == "class":
        return {node.name}
    if node.kind == "union":
        return {name for item in node.items for name in _bare_classes(item)}
    return set()


def _circular(classes: tuple[ViewClass, ...]) -> frozenset[str]:
    """The aliases that would refer to themselves through unions only."""
    aliases = {c.name: _bare_classes(c.root) for c in classes if c.root is not None}
    found = set()
    for start in aliases:
        seen: set[str] = set()
        todo = list(aliases[start])
        while todo:
            name = todo.pop()
            if name == start:
                found.add(start)
                break
            if name in seen or name not in aliases:
                continue
            seen.add(name)
            todo.extend(aliases[name])
    return frozenset(found)


def declarations(view: View) -> tuple[TsType, ...]:
    """Each class of the view as an object type (an object class) or an alias (any other)."""
    circular = _circular(view.classes)

    def unless_circular(name: str) -> str:  # an alias that would name itself through unions
        return "unknown" if name in circular else name

    array = "globalThis.Array" if any(c.name == "Array" for c in view.classes) else "Array"
    found = []
    for model in view.classes:
        if model.root is not None:
            named = unless_circular if model.name in circular else str
            found.append(TsType(model.name, model.description, alias=type_of(model.root, named, array)))
            continue
        fields = tuple(
            TsField(
                ts_key(f.name),
                # an optional member named as a method of `Object` (see `OBJECT_MEMBERS`)
                "unknown" if not f.required and f.name in OBJECT_MEMBERS else type_of(f.type, array=array),
                not f.required,
                f.description,
            )
            for f in model.fields
        )
        found.append(TsType(model.name, model.description, fields, open=not model.closed))
    return tuple(found)
