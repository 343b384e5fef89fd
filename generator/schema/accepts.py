"""Whether the server's schema accepts every document the contract's does: less than
`compare`'s sameness, shown from the two normal forms keyword by keyword (what `conform` calls
an input schema that is wider). Apart from `compare` because it is a proof, not a comparison:
a True is sure, a False may only be unsure."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .compare import allowed_values, form_types, json_key, same
from .values import json_types
from .vocabulary import LOWER_BOUNDS, REFERENCES, UPPER_BOUNDS


def accepts_more(contract_form: Any, server_form: Any, budget: int = 20_000) -> bool:
    """Whether the server's schema accepts every document the contract's accepts, shown from
    their normal forms keyword by keyword: each keyword of the server's is implied by the
    contract's (a type among its types, a bound as loose, `required` among its `required`,
    each subschema accepting more; any other keyword only when the contract's says the same).
    True is sure; False may only be unsure: a reference left in the server's form (a cycle's
    marker, which says nothing on its own), a nesting past 64 schemas or a comparison past
    `budget` steps is False (one left in the contract's accepts more only than `true`)."""
    if _has_reference(server_form):
        return False
    return _Within(budget).within(contract_form, server_form, 0)


def _has_reference(form: Any) -> bool:
    """Whether a normal form keeps a reference (a cycle's marker, a `$ref` to nothing, a `$dynamicRef`)."""
    pending = [form]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if any(keyword in node for keyword in REFERENCES):
                return True
            pending += node.values()
        elif isinstance(node, list):
            pending += node
    return False


# Keywords whose assertion depends on what the keywords beside them evaluate: the same value
# says the same only beside the same keywords (`unevaluatedProperties: false` beside other
# `properties` refuses other names).
_IN_CONTEXT = frozenset({"unevaluatedProperties", "unevaluatedItems"})
_WITHIN_DEPTH = 64  # schemas within one another `accepts_more` follows (each a few Python frames)
_LOWER = {"minimum": "exclusiveMinimum", "exclusiveMinimum": "minimum"}  # the other keyword that bounds so
_UPPER = {"maximum": "exclusiveMaximum", "exclusiveMaximum": "maximum"}


@dataclass
class _Within:
    """`within(a, b)`: every instance `a` accepts, `b` accepts (both normal forms), shown."""

    steps: int

    def within(self, a: Any, b: Any, depth: int) -> bool:
        self.steps -= 1
        if self.steps < 0 or depth > _WITHIN_DEPTH:
            return False
        if b is True or a is False or same(a, b):
            return True
        if not isinstance(a, dict) or not isinstance(b, dict):
            return False
        if list(a) == ["anyOf"] and isinstance(a["anyOf"], list):
            return all(self.within(branch, b, depth + 1) for branch in a["anyOf"])
        if all(self._keyword(key, a, b, depth) for key in b):
            return True
        members = a.get("allOf")  # `a` accepts less than each member of its `allOf`
        return isinstance(members, list) and any(self.within(m, b, depth + 1) for m in members)

    def _keyword(self, key: str, a: dict[str, Any], b: dict[str, Any], depth: int) -> bool:
        """Whether `a` implies what `b` says with `key`."""
        value = b[key]
        if key == "type":
            return _types_within(a, value)
        if key == "anyOf" and isinstance(value, list):
            if any(self.within(a, branch, depth + 1) for branch in value):
                return True
            mine = a.get("anyOf")
            return isinstance(mine, list) and all(any(self.within(x, y, depth + 1) for y in value) for x in mine)
        if key == "allOf" and isinstance(value, list):
            return all(self.within(a, member, depth + 1) for member in value)
        if key in ("const", "enum"):
            return _values_within(a, [value] if key == "const" else value)
        if key in LOWER_BOUNDS or key in UPPER_BOUNDS:
            return _bound_within(a, key, value)
        if key == "required" and isinstance(value, list):
            mine = a.get("required")
            return isinstance(mine, list) and {json.dumps(v) for v in value} <= {json.dumps(v) for v in mine}
        if key == "properties" and isinstance(value, dict):
            return all(self.within(_member(a, name), sub, depth + 1) for name, sub in value.items())
        if key == "additionalProperties":
            return self._others_within(a, b, value, depth)
        if key == "items":  # after the same `prefixItems` only: the items before meet those
            mine = a.get("items", True)
            if not same(a.get("prefixItems"), b.get("prefixItems")):
                return False
            if isinstance(mine, list) or isinstance(value, list):  # draft-07's tuple
                return same(mine, value)
            return self.within(mine, value, depth + 1)
        if key in _IN_CONTEXT or key in REFERENCES:
            return False  # what they assert depends on the keywords beside them, or on another schema
        return key in a and same(a[key], value)

    def _others_within(self, a: dict[str, Any], b: dict[str, Any], theirs: Any, depth: int) -> bool:
        """Whether each property `a` allows that `b` does not name meets `b`'s `additionalProperties`
        (checked of more names than `b` applies it to when `b` has `patternProperties`: sound)."""
        named, mine, patterns = _map(b, "properties"), _map(a, "properties"), _map(a, "patternProperties")
        if not all(self.within(sub, theirs, depth + 1) for name, sub in mine.items() if name not in named):
            return False
        own = bool(patterns) and not same(patterns, b.get("patternProperties"))
        if own and not all(self.within(sub, theirs, depth + 1) for sub in patterns.values()):
            return False
        return self.within(a.get("additionalProperties", True), theirs, depth + 1)


def _map(form: dict[str, Any], key: str) -> dict[str, Any]:
    value = form.get(key)
    return value if isinstance(value, dict) else {}


def _member(form: dict[str, Any], name: str) -> Any:
    """What `form` asks of its property `name` at most (True when a pattern may ask more)."""
    properties = form.get("properties")
    if isinstance(properties, dict) and name in properties:
        return properties[name]
    return True if "patternProperties" in form else form.get("additionalProperties", True)


def _types_within(a: dict[str, Any], value: Any) -> bool:
    """Whether every instance of `a` is of a type `value` (a `type`) names."""
    if not isinstance(value, str | list):
        return same(a.get("type"), value)
    allowed = {value} if isinstance(value, str) else {t for t in value if isinstance(t, str)}
    if "number" in allowed:
        allowed.add("integer")
    values = allowed_values(a)
    if values is not None:
        return all(json_types(v) & allowed for v in values)
    declared = a.get("type")
    mine = [declared] if isinstance(declared, str) else declared if isinstance(declared, list) else form_types(a)
    return mine is not None and {t for t in mine if isinstance(t, str)} <= allowed


def _values_within(a: dict[str, Any], allowed: Any) -> bool:
    values = allowed_values(a)
    if values is None or not isinstance(allowed, list):
        return False
    texts = {json_key(v) for v in allowed}
    return all(json_key(v) in texts for v in values)


def _bound_within(a: dict[str, Any], key: str, value: Any) -> bool:
    """Whether `a` bounds as tightly as `value` of `key` does (a number; anything else: the same value)."""
    if not _is_number(value):
        return key in a and same(a[key], value)
    lower = key in LOWER_BOUNDS
    mine = a.get(key)
    if _is_number(mine) and bool(mine >= value if lower else mine <= value):
        return True
    sibling = (_LOWER if lower else _UPPER).get(key)  # exclusiveMinimum beside minimum, and so on
    bound = a.get(sibling) if sibling is not None else None
    if not _is_number(bound):
        return False
    if key.startswith("exclusive"):  # an inclusive bound asked to pass an exclusive one
        return bool(bound > value if lower else bound < value)
    return bool(bound >= value if lower else bound <= value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
