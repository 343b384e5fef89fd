"""The zod part of a tool's input or output schema: what zod can say of a published schema
without ever refusing what the schema accepts.

It is said from the schema's typed view (`load/view.py`), which never types a value stricter
than its schema: each tool's `inputSchema` and own `outputSchema` is viewed in its
`ToolArguments`, the envelope in `Contract.view`. Whatever the view leaves as `Any` (bounds,
patterns, numeric enums...) is the judge's, which `judged` (the runtime's zod.ts) adds as the
final word. An object is a loose object, for the schema decides which other members it allows.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model.schemas import View, ViewClass, ViewType
from .escape import ts, ts_key
from .ts_types import OBJECT_MEMBERS

# The members every object inherits: zod reads `input[name]` of an object without one, finds
# the inherited function, and refuses it (`constructor: z.number().optional()` refuses `{}`);
# `__proto__` would set a prototype. The judge alone says what they hold.
_INHERITED = OBJECT_MEMBERS | {
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
}
# How deep the zod part follows properties and items; below, a value is `z.unknown()`.
_DEPTH = 6
_PLAIN = {
    "string": "z.string()",
    "number": "z.number()",
    "integer": "z.number()",
    "boolean": "z.boolean()",
    "null": "z.null()",
    "dict": "z.looseObject({})",
}


def zod_object(view: View | None) -> str:
    """The zod schema of an MCP tool's input or output, of its view: always an object (MCP
    sends only objects there, and the TypeScript SDK registers only zod objects), so a root
    that is not one object (a root model) is any object, and so is a tool without a view."""
    classes = {c.name: c for c in view.classes} if view is not None else {}
    root = classes.get(view.root) if view is not None else None
    return _object(classes, root, 0) if root is not None and root.root is None else "z.looseObject({})"


def _object(classes: Mapping[str, ViewClass], model: ViewClass, depth: int) -> str:
    if model.root is not None:
        return _zod(classes, model.root, depth + 1)
    if depth >= _DEPTH:
        return "z.looseObject({})"
    members = (
        f"{ts_key(f.name)}: {_zod(classes, f.type, depth + 1)}{'' if f.required else '.optional()'}"
        for f in model.fields
        if f.name not in _INHERITED
    )
    return "z.looseObject({" + ", ".join(members) + "})"


def _zod(classes: Mapping[str, ViewClass], node: ViewType, depth: int) -> str:
    if depth > _DEPTH or node.kind == "any":
        return "z.unknown()"
    if node.kind in _PLAIN:
        return _PLAIN[node.kind]
    if node.kind == "class":
        return _object(classes, classes[node.name], depth)
    if node.kind == "list":
        return f"z.array({_zod(classes, node.items[0], depth + 1)})"
    if node.kind == "literal":
        parts = [f"z.literal({ts(v)})" for v in node.values]
    else:  # a union: `integer` and `number` are one zod type
        parts = list(dict.fromkeys(_zod(classes, item, depth) for item in node.items))
    if "z.unknown()" in parts:
        return "z.unknown()"
    return parts[0] if len(parts) == 1 else "z.union([" + ", ".join(parts) + "])"
