"""Whether two published JSON Schemas say the same, whatever their bytes.

Both are brought to one form before they are compared:

- annotations are dropped (`title`, `description`, `examples`, `default`, `$comment`...),
  and so are `$defs`, `$id`, `$anchor` and `$schema`, once references are followed;
- each `$ref` is replaced by what it names (beside other keywords, as one more `allOf`
  entry); a reference back into a schema being followed becomes a marker that says how
  many references back it leads, so that two different cycles stay different;
- keywords that say nothing are dropped (`properties: {}`, `additionalProperties: true`,
  `required: []`, `minLength: 0`, a keyword of another type than the one `type` names, a
  `type` beside an `enum` or `const` that says it already; a subschema `{}` is `true`);
- one spelling is kept where several say the same: a one-value `enum` is a `const`, a
  one-type list is its type, a list of types is an `anyOf` of one type each (as SDKs write
  `Optional`), an `anyOf` within an `anyOf` is spread out, and the order of `required`,
  `enum`, `type` and of `anyOf`/`oneOf` branches does not count; `1.0` is `1`.

Two schemas with one form accept the same documents. Two forms that differ are reported at
their first difference, which may still be a difference of spelling only (an `allOf` of
one entry against that entry). A schema whose form would be too large (references inlined
many times over) or too deep raises TooLarge: the caller says it was not compared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .pointer import encode
from .resolver import Resolver
from .values import json_types
from .vocabulary import (
    ALTERNATIVES,
    ANNOTATIONS,
    COMBINATIONS,
    EITHER,
    NEUTRAL,
    OF_TYPE,
    STRUCTURAL,
    UNORDERED,
)
from .walk import children, copied, replaced

_HOLDERS = EITHER.applicators  # their schemas are normalised one by one
_MAX_DEPTH = 64  # references followed within one another
_MAX_NESTING = 200  # schemas within one another, as `limits.document_depth` has it


class TooLarge(ValueError):
    """A schema whose normal form would pass the budget, or nest too deep."""


def normal_form(schema: Any, budget: int = 50_000) -> Any:
    """`schema` in the form `schema_difference` compares (see the module's docstring)."""
    resolver = Resolver.of_document(schema)
    return _normal(schema, resolver.root_uri, resolver, (id(schema),), [budget], 0)


def _number(value: Any, depth: int = 0) -> Any:
    """JSON numbers compare by value: an integral float is that integer."""
    if depth > _MAX_NESTING:
        raise TooLarge("a value too deeply nested to compare")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_number(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {k: _number(v, depth + 1) for k, v in value.items()}
    return value


def _normal(schema: Any, base: str, resolver: Resolver, stack: tuple[int, ...], budget: list[int], depth: int) -> Any:
    """`schema` in normal form; `base` is the base URI inside it."""
    if not isinstance(schema, dict):
        return schema
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_NESTING:
        raise TooLarge("too large or too deeply nested to compare")
    result: dict[str, Any] = {}
    inlined: Any = None
    for key, value in copied(schema).items():
        if key in ANNOTATIONS or key in STRUCTURAL:
            continue
        if key == "$ref" and isinstance(value, str):
            inlined = _followed(value, base, resolver, stack, budget, depth)
        elif key in UNORDERED and isinstance(value, list):
            result[key] = sorted(_number(value), key=json_key)
        else:
            result[key] = value if key in _HOLDERS else _number(value)
    for path, sub in list(children(result)):
        replaced(result, path, _normal(sub, resolver.base_within(sub, base), resolver, stack, budget, depth + 1))
    cleaned = _canonical(result)
    if inlined is None:
        return cleaned
    if cleaned is True:
        return inlined
    cleaned["allOf"] = [*cleaned.get("allOf", []), inlined]
    return cleaned


def _followed(
    reference: str, base: str, resolver: Resolver, stack: tuple[int, ...], budget: list[int], depth: int
) -> Any:
    found = resolver.resolve(reference, base)
    if found is None:
        return {"$ref": reference}  # it names nothing in the document: as written
    target, target_base = found.node, found.base
    if id(target) in stack:
        return {"$ref": f"(back {len(stack) - stack.index(id(target))})"}
    if len(stack) > _MAX_DEPTH:
        raise TooLarge("references nest too deep to compare")
    return _normal(target, target_base, resolver, (*stack, id(target)), budget, depth + 1)


def _canonical(result: dict[str, Any]) -> Any:
    """One spelling for schemas that say the same (see the module's docstring)."""
    for key, neutral in NEUTRAL.items():
        if key in result and result[key] == neutral and type(result[key]) is type(neutral):
            del result[key]
    if isinstance(result.get("enum"), list) and len(result["enum"]) == 1 and "const" not in result:
        result["const"] = result.pop("enum")[0]
    types = result.get("type")
    if isinstance(types, list) and len(types) == 1:
        result["type"] = types = types[0]
    if isinstance(types, str):
        _drop_other_types(result, types)
    if "type" in result and _values_fit(result):
        del result["type"]  # the `const` or `enum` says it already
        types = None
    if isinstance(types, list) and len(types) > 1 and "anyOf" not in result:
        rest = {k: v for k, v in result.items() if k != "type"}
        result = {"anyOf": [_canonical({**rest, "type": t}) for t in types if isinstance(t, str)]}
    for key in ALTERNATIVES:
        if isinstance(result.get(key), list):
            result[key] = _branches(result[key], key)
    for key in COMBINATIONS:  # one branch, and nothing beside it: that branch
        if list(result) == [key] and isinstance(result[key], list) and len(result[key]) == 1:
            return result[key][0]
    return result if result else True


def _branches(branches: list[Any], key: str) -> list[Any]:
    """Branches in one order, an `anyOf` within an `anyOf` spread out, repeats once."""
    spread: list[Any] = []
    for branch in branches:
        inner = branch.get(key) if isinstance(branch, dict) and list(branch) == [key] else None
        spread.extend(inner if key == "anyOf" and isinstance(inner, list) else [branch])
    unique = {json_key(b): b for b in spread}
    return [unique[k] for k in sorted(unique)] if key == "anyOf" else sorted(spread, key=json_key)


def json_key(value: Any) -> str:
    """A JSON value as one text, its members in order: equal values, equal texts."""
    return json.dumps(value, sort_keys=True)


def _drop_other_types(result: dict[str, Any], kind: str) -> None:
    own = OF_TYPE.get("number" if kind == "integer" else kind, frozenset())
    for keywords in OF_TYPE.values():
        for keyword in keywords - own:
            result.pop(keyword, None)


def allowed_values(form: dict[str, Any]) -> list[Any] | None:
    """The values `const` or `enum` allows, None when neither is there."""
    if "const" in form:
        return [form["const"]]
    enum = form.get("enum")
    return enum if isinstance(enum, list) else None


def _values_fit(result: dict[str, Any]) -> bool:
    """Whether every value `const` or `enum` allows is of the declared type(s)."""
    values = allowed_values(result)
    types = result.get("type")
    declared = {types} if isinstance(types, str) else set(types) if isinstance(types, list) else set()
    if values is None or not declared:
        return False
    return all(json_types(v) & declared for v in values)


@dataclass(frozen=True)
class Difference:
    """Where two normal forms first differ: the schema (`at`, a JSON pointer), the keyword
    whose values differ there (None: the schemas themselves, one of them a boolean, or one
    left out), and each side's value (None: left out)."""

    at: str
    keyword: str | None
    ours: Any
    theirs: Any

    @property
    def pointer(self) -> str:
        """The pointer of the keyword (of the schema, without one)."""
        return self.at + (encode([self.keyword]) if self.keyword is not None else "")

    def said(self, limit: int = 80) -> str:
        """The change from ours to theirs, as `type: array -> string at /properties/tags`."""
        shown = _type_words if self.keyword == "type" else _json_words
        change = f"{shown(self.ours, limit)} -> {shown(self.theirs, limit)}"
        return f"{self.keyword}: {change} at {self.at or '/'}" if self.keyword else f"{change} at {self.at or '/'}"


def _json_words(value: Any, limit: int) -> str:
    text = "(nothing)" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _type_words(value: Any, limit: int) -> str:
    """The types a `type` difference names, bare: `string`, `null | string`."""
    if isinstance(value, list) and value and all(isinstance(t, str) for t in value):
        return " | ".join(value)
    return value if isinstance(value, str) else _json_words(value, limit)


def form_types(form: Any) -> list[str] | None:
    """The types a normal form names: its `type`, or those of an `anyOf` of typed branches
    (how a list of types is spelt); None when it names none."""
    if not isinstance(form, dict):
        return None
    if isinstance(form.get("type"), str):
        return [form["type"]]
    branches = form.get("anyOf")
    typed = isinstance(branches, list) and all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in branches)
    return sorted({b["type"] for b in branches}) if typed and branches else None


def first_difference(a: Any, b: Any, path: tuple[str | int, ...] = ()) -> Difference | None:
    """Where two normal forms first differ (see `Difference`), or None: the types first, then
    each keyword in order; into the schemas a keyword holds, else its whole value."""
    if len(path) > 2 * _MAX_NESTING:
        raise TooLarge("too deeply nested to compare")
    if not isinstance(a, dict) or not isinstance(b, dict):
        return None if type(a) is type(b) and a == b else Difference(encode(list(path)), None, a, b)
    ours, theirs = form_types(a), form_types(b)
    if ours != theirs and ours is not None and theirs is not None:
        return Difference(encode(list(path)), "type", _one(ours), _one(theirs))
    for key in sorted(set(a) | set(b), key=lambda k: (k != "type", k)):
        if key not in a or key not in b:
            return Difference(encode(list(path)), key, a.get(key), b.get(key))
        found = _keyword_difference(key, a[key], b[key], path)
        if found is not None:
            return found
    return None


def _one(types: list[str]) -> str | list[str]:
    return types[0] if len(types) == 1 else types


def _keyword_difference(key: str, a: Any, b: Any, path: tuple[str | int, ...]) -> Difference | None:
    """Where two values of `key` first differ: within the schemas it holds, else as wholes."""
    if key in _HOLDERS and isinstance(a, dict) and isinstance(b, dict) and key in EITHER.maps | EITHER.mixed_maps:
        for name in sorted(set(a) | set(b)):
            if name not in a or name not in b:
                return Difference(encode([*path, key, name]), None, a.get(name), b.get(name))
            found = first_difference(a[name], b[name], (*path, key, name))
            if found is not None:
                return found
        return None
    if key in _HOLDERS and isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, (*path, key, index))
            if found is not None:
                return found
        return None
    if key in _HOLDERS and not isinstance(a, list) and not isinstance(b, list):
        return first_difference(a, b, (*path, key))
    return None if same(a, b) else Difference(encode(list(path)), key, a, b)


def same(a: Any, b: Any) -> bool:
    """Whether two values of a keyword are one JSON value (numbers are normal already)."""
    return json_key(a) == json_key(b)


def schema_difference(contract: Any, server: Any) -> Difference | None:
    """Where the server's schema first says something else than the contract's, or None;
    TooLarge when either cannot be brought to its normal form."""
    return first_difference(normal_form(contract), normal_form(server))
