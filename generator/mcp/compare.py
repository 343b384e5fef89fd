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

from ..keywords import Resolver, replaced, subschemas
from ..runtime import json_pointer

_ANNOTATIONS = frozenset(
    {"title", "description", "examples", "default", "$comment", "deprecated", "readOnly", "writeOnly"}
)
_DROPPED = frozenset({"$defs", "definitions", "$id", "$anchor", "$dynamicAnchor", "$schema", "$vocabulary"})
_UNORDERED = frozenset({"required", "enum", "type"})
_MAX_DEPTH = 64  # references followed within one another
_MAX_NESTING = 200  # schemas within one another, as `limits.document_depth` has it


class TooLarge(ValueError):
    """A schema whose normal form would pass the budget (references inlined many times over)."""


def normal_form(schema: Any, budget: int = 50_000) -> Any:
    """`schema` in the form `schema_difference` compares (see the module's docstring);
    TooLarge past `budget` schema nodes or nesting deeper than the judge follows."""
    resolver = Resolver(schema)
    return _normal(schema, resolver.root_uri, resolver, (), [budget], 0)


def _normal(schema: Any, base: str, resolver: Resolver, stack: tuple[int, ...], budget: list[int], depth: int) -> Any:
    if not isinstance(schema, dict):
        return schema
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_NESTING:
        raise TooLarge("too large or too deeply nested to compare")
    if len(stack) > _MAX_DEPTH:
        return {"$ref": "(too deep)"}
    base = resolver.base_of(schema, base)
    result: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ANNOTATIONS or key in _DROPPED:
            continue
        if key == "$ref" and isinstance(value, str):
            found = resolver.resolve(value, base)
            if found is None or id(found[0]) in stack:
                result["$ref"] = "(itself)" if found is not None else value
            else:
                inlined = _normal(found[0], found[1], resolver, (*stack, id(found[0])), budget, depth + 1)
                result.update(inlined if isinstance(inlined, dict) else {"allOf": [inlined]})
        elif key in _UNORDERED and isinstance(value, list):
            result[key] = sorted(value, key=lambda v: json.dumps(v, sort_keys=True))
        else:
            result[key] = value
    for path, sub in list(subschemas(result)):
        replaced(result, path, _normal(sub, base, resolver, stack, budget, depth + 1))
    return result


def first_difference(a: Any, b: Any, path: tuple[str | int, ...] = ()) -> tuple[str, Any, Any] | None:
    """(JSON pointer, one side, other side) where two forms first differ, or None."""
    if len(path) > 2 * _MAX_NESTING:
        return json_pointer(list(path)), "(too deep to compare)", "(too deep to compare)"
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
    """Where the server's schema first says something else than the contract's, or None.
    Schemas too large to bring to their normal form are compared as they are written."""
    try:
        return first_difference(normal_form(contract), normal_form(server))
    except TooLarge:
        return first_difference(contract, server)
