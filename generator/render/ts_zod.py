"""The zod part of a tool's input or output schema: what zod can say of a published schema
without ever refusing what the schema accepts.

Only keywords that hold whatever else the schema says are read: `type`, `const` and `enum`
of scalars, `properties` with `required`, and `items` where no `prefixItems` takes the
first items. Everything else (`$ref`, `anyOf`, bounds, patterns...) is the judge's, which
`judged` (the runtime's zod.ts) adds as the final word. An object is a loose object, for
the schema decides which other members it allows. In a draft-07 schema (published as
written), a `$ref` hides every keyword beside it: such a node is the judge's alone.
"""

from __future__ import annotations

import json
from typing import Any

from ..schema.vocabulary import DRAFT_07, named
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
_TYPES = {
    "string": "z.string()",
    "number": "z.number()",
    "integer": "z.number()",
    "boolean": "z.boolean()",
    "null": "z.null()",
}


def zod_object(schema: Any) -> str:
    """The zod schema of an MCP tool's input or output: always an object (MCP sends only
    objects there, and the TypeScript SDK registers only zod objects)."""
    return _object(schema if isinstance(schema, dict) else {}, 0, named(schema) is DRAFT_07)


def _hidden(schema: dict[str, Any], draft_07: bool) -> bool:
    """Whether draft-07 ignores what `schema` says beside its `$ref`."""
    return draft_07 and "$ref" in schema


def _object(schema: dict[str, Any], depth: int, draft_07: bool) -> str:
    properties = schema.get("properties")
    required = schema.get("required")
    needed = set(required) if isinstance(required, list) and all(isinstance(r, str) for r in required) else set()
    if not isinstance(properties, dict) or depth >= _DEPTH or _hidden(schema, draft_07):
        return "z.looseObject({})"
    members = []
    for name, subschema in properties.items():
        if name in _INHERITED:
            continue
        value = _zod(subschema, depth + 1, draft_07)
        members.append(f"{ts_key(name)}: {value}{'' if name in needed else '.optional()'}")
    return "z.looseObject({" + ", ".join(members) + "})"


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _zod(schema: Any, depth: int, draft_07: bool) -> str:
    if not isinstance(schema, dict) or depth > _DEPTH or _hidden(schema, draft_07):
        return "z.unknown()"
    if "const" in schema:
        return _literals([schema["const"]])
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return _literals(enum)
    kinds = schema.get("type")
    if isinstance(kinds, str):
        kinds = [kinds]
    if not isinstance(kinds, list) or not kinds or not all(isinstance(k, str) for k in kinds):
        return "z.unknown()"
    parts = [_of_type(kind, schema, depth, draft_07) for kind in dict.fromkeys(kinds)]
    if "z.unknown()" in parts:
        return "z.unknown()"
    return parts[0] if len(parts) == 1 else "z.union([" + ", ".join(parts) + "])"


def _literals(values: list[Any]) -> str:
    if not all(_scalar(v) for v in values):
        return "z.unknown()"
    # True and 1 are one key to a dict, not to JSON
    unique = {json.dumps(v, allow_nan=False): v for v in values}.values()
    parts = ["z.null()" if v is None else f"z.literal({ts(v)})" for v in unique]
    return parts[0] if len(parts) == 1 else "z.union([" + ", ".join(parts) + "])"


def _of_type(kind: str, schema: dict[str, Any], depth: int, draft_07: bool) -> str:
    if kind in _TYPES:
        return _TYPES[kind]
    if kind == "object":
        return _object(schema, depth, draft_07)
    if kind == "array":
        items = schema.get("items")
        if isinstance(items, dict) and "prefixItems" not in schema:
            return f"z.array({_zod(items, depth + 1, draft_07)})"
        return "z.array(z.unknown())"
    return "z.unknown()"
