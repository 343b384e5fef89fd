"""Whether two published JSON Schemas say the same, whatever their bytes.

Both are brought to one form before they are compared: annotations dropped (`title`,
`description`, `examples`, `default`, `$comment`...), each `$ref` replaced by what it names
(a reference back into itself stays a marker), `$defs`, `$id`, `$anchor` and `$schema` gone,
and the order of `required`, `enum` and `type` lists ignored. Two schemas with one form
accept the same documents; two forms that differ are reported at their first difference,
which may still be a difference of spelling only (`minItems: 0` against nothing).
"""

from __future__ import annotations

import json
from typing import Any

from ..runtime import json_pointer

_ANNOTATIONS = frozenset(
    {"title", "description", "examples", "default", "$comment", "deprecated", "readOnly", "writeOnly"}
)
_DROPPED = frozenset({"$defs", "definitions", "$id", "$anchor", "$dynamicAnchor", "$schema", "$vocabulary"})
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas"})
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMAS = frozenset(
    {
        "items",
        "contains",
        "not",
        "if",
        "then",
        "else",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)
_UNORDERED = frozenset({"required", "enum", "type"})
_MAX_DEPTH = 64


def _target(root: Any, reference: str) -> Any:
    base, _, fragment = reference.partition("#")
    node: Any = root
    if base:
        defs = (root.get("$defs") or {}) if isinstance(root, dict) else {}
        node = next((d for d in defs.values() if isinstance(d, dict) and d.get("$id") == base), None)
    for token in fragment.split("/")[1:] if fragment.startswith("/") else ():
        token = token.replace("~1", "/").replace("~0", "~")
        node = node.get(token) if isinstance(node, dict) else None
    return node if not fragment or fragment.startswith("/") else None


def normal_form(schema: Any, root: Any = None, _stack: tuple[int, ...] = ()) -> Any:
    """`schema` in the form `compare` reads (see the module's docstring)."""
    root = schema if root is None else root
    if not isinstance(schema, dict):
        return schema
    if len(_stack) > _MAX_DEPTH:
        return {"$ref": "(too deep)"}
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ANNOTATIONS or key in _DROPPED:
            continue
        if key == "$ref" and isinstance(value, str):
            target = _target(root, value)
            if target is None or id(target) in _stack:
                result["$ref"] = "(itself)" if target is not None else value
            else:
                inlined = normal_form(target, root, (*_stack, id(target)))
                result.update(inlined if isinstance(inlined, dict) else {"allOf": [inlined]})
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            result[key] = {name: normal_form(sub, root, _stack) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            result[key] = [normal_form(sub, root, _stack) for sub in value]
        elif key in _SCHEMAS:
            result[key] = normal_form(value, root, _stack)
        elif key in _UNORDERED and isinstance(value, list):
            result[key] = sorted(value, key=lambda v: json.dumps(v, sort_keys=True))
        else:
            result[key] = value
    return result


def first_difference(a: Any, b: Any, path: tuple[str | int, ...] = ()) -> tuple[str, Any, Any] | None:
    """(JSON pointer, one side, other side) where two forms first differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return json_pointer([*path, key]), a.get(key), b.get(key)
            found = first_difference(a[key], b[key], (*path, key))
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, (*path, index))
            if found is not None:
                return found
        return None
    if type(a) is type(b) and a == b:
        return None
    return json_pointer(list(path)), a, b


def schema_difference(contract: Any, server: Any) -> tuple[str, Any, Any] | None:
    """Where the server's schema first says something else than the contract's, or None."""
    return first_difference(normal_form(contract), normal_form(server))
