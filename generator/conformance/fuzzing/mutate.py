"""Arguments that break a tool's input schema, made from arguments it accepts (`conform --fuzz`).

`mutants` changes one place of an accepted value at a time, at the root or down its
properties and first items: a required property dropped, one added where
`additionalProperties` is false, a value of a wrong type, outside an `enum` or `const`, just
past a bound (`minimum`, `exclusiveMaximum`, `minLength`, `maxItems`...), off its
`pattern` or `multipleOf`, an array with a duplicate where `uniqueItems` holds, a property
named against `propertyNames`, a value its `not` schema accepts, one the `if` schema accepts
(so that `then` must hold); `then`, `else`, each `allOf` member, `patternProperties` and
`additionalProperties` are broken as the keywords beside them are. Nothing here
is trusted: the caller keeps a mutant only when the judge refuses it by exactly one keyword,
and names the keyword and pointer the judge gives.
"""

from __future__ import annotations

import copy
import json
import math
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain, islice
from typing import Any

from ...schema.resolver import Resolver
from ...schema.synthesize import candidates
from ...schema.values import json_types
from ...schema.vocabulary import COMBINATIONS, IN_PLACE, OPENINGS

_DEPTH = 4  # how far below the root values are changed
_MOST = 256  # mutants of one value, at most
_LONGEST = 4096  # characters or items a mutant adds, at most
_ABSENT = object()  # a property the value leaves out
# One value of each JSON type, for `type`: each whose type the schema does not allow.
_OF_EACH_TYPE: tuple[Any, ...] = ("fuzz", 0.5, 7, True, None, [], {})
_OFF_PATTERN = ("", "!", " 0", "\u00e9")  # strings some pattern refuses (the judge says which)
_ACCEPTED = 4  # values of a `not` or `if` schema tried, at most
_CONDITIONAL = IN_PLACE - set(COMBINATIONS)  # `not`, `if`, `then`, `else`, dependent schemas
# An integer of 4301 digits: past the 4300 Python's `int` reads from text by default, which an
# SDK in Python may refuse in the message it reads, and then answer nothing at all.
HUGE = 10**4300
_DIGITS = 5000  # the digits Python reads and writes while fuzzing: HUGE's, and a hard cap


@contextmanager
def long_integers() -> Iterator[None]:
    """Python's limit on the digits of an integer read or written as text raised to `_DIGITS`
    (never removed) for the block, that HUGE be judged, keyed and shown; restored after."""
    before = sys.get_int_max_str_digits()
    if before == 0 or before >= _DIGITS:
        yield
        return
    sys.set_int_max_str_digits(_DIGITS)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def _key(value: Any) -> str:
    """`value` as JSON, to tell values apart (HUGE among them, wherever this is called from)."""
    with long_integers():
        return json.dumps(value, sort_keys=True)


def _set(document: Any, at: tuple[Any, ...], value: Any) -> Any:
    """A copy of `document` with `value` at `at` (a property added when it is missing)."""
    if not at:
        return copy.deepcopy(value)
    result = copy.deepcopy(document)
    node = result
    for token in at[:-1]:
        node = node[token]
    node[at[-1]] = copy.deepcopy(value)
    return result


def _without(document: Any, at: tuple[Any, ...], name: str) -> Any:
    """A copy of `document` without property `name` of the object at `at`."""
    result = copy.deepcopy(document)
    node = result
    for token in at:
        node = node[token]
    del node[name]
    return result


def _resolved(refs: Resolver, schema: Any) -> Any:
    """`schema` with its `$ref`s followed as the schema core resolves them, the keywords
    beside each `$ref` kept beside the target's."""
    chain = refs.chain(schema)
    merged = chain[-1]
    for step in reversed(chain[:-1]):
        siblings = {k: v for k, v in step.items() if k != "$ref"}
        merged = {**merged, **siblings} if isinstance(merged, dict) else merged
    return merged


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _types(schema: dict[str, Any]) -> list[str]:
    """The types `schema` allows, by its `type`, else by the `type` of each of its branches."""
    declared = schema.get("type")
    if isinstance(declared, str | list):
        return [declared] if isinstance(declared, str) else [t for t in declared if isinstance(t, str)]
    branches = schema.get("anyOf") or schema.get("oneOf")
    if not isinstance(branches, list) or not all(isinstance(b, dict) and "type" in b for b in branches):
        return []
    return [t for branch in branches for t in _types(branch)]


def _wrong_type(schema: dict[str, Any]) -> Iterator[Any]:
    allowed = set(_types(schema))
    if not allowed:
        return
    yield from (value for value in _OF_EACH_TYPE if not json_types(value) & allowed)


def _outside(members: list[Any]) -> Iterator[Any]:
    """A value of the members' own type that is none of them."""
    strings = [m for m in members if isinstance(m, str)]
    numbers = [n for n in map(_number, members) if n is not None]
    if strings or not numbers:
        yield "fuzz-" + "-".join(sorted(strings))[:64]
    if numbers:
        yield int(max(numbers)) + 1
    if any(isinstance(m, bool) for m in members) and not all(m in members for m in (True, False)):
        yield not next(m for m in members if isinstance(m, bool))


def _bounds(schema: dict[str, Any]) -> Iterator[Any]:
    """Numbers just past each bound (an integer where the schema wants one)."""
    integral = "integer" in _types(schema)
    low, high = _number(schema.get("minimum")), _number(schema.get("maximum"))
    exclusive_low, exclusive_high = _number(schema.get("exclusiveMinimum")), _number(schema.get("exclusiveMaximum"))
    if low is not None and math.isfinite(low):
        yield math.ceil(low) - 1 if integral else low - 1
    if high is not None and math.isfinite(high):
        yield math.floor(high) + 1 if integral else high + 1
    if exclusive_low is not None and math.isfinite(exclusive_low):
        yield math.floor(exclusive_low) if integral else exclusive_low
    if exclusive_high is not None and math.isfinite(exclusive_high):
        yield math.ceil(exclusive_high) if integral else exclusive_high


def _off_step(schema: dict[str, Any], value: Any) -> Iterator[Any]:
    step = _number(schema.get("multipleOf"))
    if step is None or step <= 0 or not math.isfinite(step):
        return
    base = _number(value)
    base = base if base is not None and abs(base) < 2**53 else step  # HUGE has no float
    yield base + 1 if isinstance(step, int) and step > 1 else base + step / 2


def _strings(schema: dict[str, Any], value: Any) -> Iterator[str]:
    text = value if isinstance(value, str) else ""
    shortest, longest = schema.get("minLength"), schema.get("maxLength")
    if isinstance(shortest, int) and 0 < shortest <= _LONGEST:
        yield (text + "x" * shortest)[: shortest - 1]
    if isinstance(longest, int) and 0 <= longest < _LONGEST:
        yield text[: longest + 1] + "x" * max(0, longest + 1 - len(text))
    if isinstance(schema.get("pattern"), str):
        yield from _OFF_PATTERN


def _arrays(schema: dict[str, Any], value: Any) -> Iterator[list[Any]]:
    items = value if isinstance(value, list) else []
    fewest, most = schema.get("minItems"), schema.get("maxItems")
    if isinstance(fewest, int) and 0 < fewest <= _LONGEST:
        yield items[: fewest - 1] if len(items) >= fewest - 1 else []
    if isinstance(most, int) and 0 <= most < _LONGEST and items:
        yield items + [items[-1]] * (most + 1 - len(items))
    if schema.get("uniqueItems") is True and items:
        yield [*items, items[0]]


def _replacements(schema: dict[str, Any], value: Any) -> Iterator[Any]:
    """Values to put where `value` is (or where a property is absent) that break one keyword."""
    yield from _wrong_type(schema)
    if isinstance(schema.get("enum"), list):
        yield from _outside(schema["enum"])
    if "const" in schema:
        yield from _outside([schema["const"]])
    yield from _bounds(schema)
    yield from _off_step(schema, value)
    yield from _strings(schema, value)
    yield from _arrays(schema, value)


def _object(root: Any, schema: dict[str, Any], value: dict[str, Any], at: tuple[Any, ...], depth: int) -> Iterator[Any]:
    """Mutants of the arguments made at the object `value` (at `at`): its own keywords, then
    each property's."""
    arguments = root["arguments"]
    for name in schema.get("required") or ():
        if isinstance(name, str) and name in value:
            yield _without(arguments, at, name)
    found = schema.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    extra = "fuzz_extra"
    closed = any(schema.get(key) is False for key in OPENINGS)  # additionalProperties, unevaluatedProperties
    if closed or schema.get("maxProperties") == len(value):
        while extra in properties or extra in value:
            extra += "_"
        yield _set(arguments, (*at, extra), "fuzz")
    fewest = schema.get("minProperties")
    if isinstance(fewest, int) and fewest > 0 and value:
        for name in sorted(value)[: max(0, len(value) - fewest + 1)]:
            yield _without(arguments, at, name)
    dependent = schema.get("dependentRequired")
    for name, needs in sorted((dependent if isinstance(dependent, dict) else {}).items()):
        for need in needs if name in value and isinstance(needs, list) else ():
            if isinstance(need, str) and need in value:
                yield _without(arguments, at, need)
        if name not in value and isinstance(needs, list) and any(n not in value for n in needs):
            yield from (_set(arguments, (*at, name), v) for v in _accepted(properties.get(name, True), 1))
    yield from _names(schema, value, at, arguments)
    for name, sub in sorted(properties.items()):
        yield from _visit(root, sub, value.get(name, _ABSENT), (*at, name), depth + 1)
    yield from _other_properties(root, schema, value, at, depth, properties)


def _names(schema: dict[str, Any], value: dict[str, Any], at: tuple[Any, ...], arguments: Any) -> Iterator[Any]:
    """A property added with a name `propertyNames` refuses (with the value of one already there)."""
    names = schema.get("propertyNames")
    if not isinstance(names, dict):
        return
    given = [value[k] for k in sorted(value)[:1]] or ["fuzz"]
    for name in _replacements({"type": "string", **names}, ""):
        if isinstance(name, str) and name not in value:
            yield _set(arguments, (*at, name), given[0])


def _other_properties(
    root: Any, schema: dict[str, Any], value: dict[str, Any], at: tuple[Any, ...], depth: int, known: dict[str, Any]
) -> Iterator[Any]:
    """Each property `properties` does not name, broken by the `patternProperties` its name
    matches, else by `additionalProperties`."""
    found, rest = schema.get("patternProperties"), schema.get("additionalProperties")
    patterns = found if isinstance(found, dict) else {}
    for name in sorted(value):
        matched = [sub for pattern, sub in sorted(patterns.items()) if _matches(pattern, name)]
        if name not in known and not matched and isinstance(rest, dict):
            matched = [rest]
        for sub in matched:
            yield from _visit(root, sub, value[name], (*at, name), depth + 1)
    for pattern, sub in sorted(patterns.items()):  # a property each pattern matches, where none is
        if isinstance(pattern, str) and not any(_matches(pattern, name) for name in value):
            for name in _accepted({"type": "string", "pattern": pattern}, 1):
                if isinstance(name, str) and _matches(pattern, name) and name not in known:
                    yield from _visit(root, sub, _ABSENT, (*at, name), depth + 1)


def _accepted(schema: Any, most: int) -> list[Any]:
    """A few values `schema` may accept (the synthesiser's, simplest first)."""
    return list(islice(candidates(schema), most))


def _matches(pattern: str, name: str) -> bool:
    try:
        return re.search(pattern, name) is not None
    except (re.error, TypeError):
        return False


def _applicators(root: Any, schema: dict[str, Any], value: Any, at: tuple[Any, ...], depth: int) -> Iterator[Any]:
    """Values its `not` schema accepts, and values its `if` schema accepts (that `then` must
    hold for), each as the keywords beside it allow and merged into the value's own
    properties; the mutants of `then`, `else` and each `allOf` member."""
    beside = {k: v for k, v in schema.items() if k not in _CONDITIONAL}
    for sub in [schema.get("not"), schema.get("if") if "then" in schema else None]:
        if not isinstance(sub, dict | bool):
            continue
        for accepted in islice(candidates({"allOf": [beside, sub]}), _ACCEPTED):
            if isinstance(accepted, dict) and isinstance(value, dict):
                yield _set(root["arguments"], at, {**value, **accepted})
            if at or isinstance(accepted, dict):  # the arguments themselves are an object
                yield _set(root["arguments"], at, accepted)
    members = schema.get("allOf")
    for sub in [schema.get("then"), schema.get("else"), *(members if isinstance(members, list) else ())]:
        if isinstance(sub, dict):
            yield from _visit(root, sub, value, at, depth + 1)


def _visit(root: Any, schema: Any, value: Any, at: tuple[Any, ...], depth: int) -> Iterator[Any]:
    schema = _resolved(root["refs"], schema)
    if depth > _DEPTH or not isinstance(schema, dict):
        return
    for replacement in _replacements(schema, value):
        yield _set(root["arguments"], at, replacement)
    yield from _applicators(root, schema, value, at, depth)
    if isinstance(value, dict):
        yield from _object(root, schema, value, at, depth)
    elif isinstance(value, list) and value:
        prefix = schema.get("prefixItems")
        first = prefix[0] if isinstance(prefix, list) and prefix else schema.get("items")
        if isinstance(first, dict):
            yield from _visit(root, first, value[0], (*at, 0), depth + 1)


def mutants(schema: Any, arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """Arguments like `arguments` (which `schema` accepts) but for one change meant to break
    one keyword of `schema`, in a fixed order, without repeats; at most a few hundred."""
    if not isinstance(schema, dict):
        return []
    refs = Resolver.of_document(schema)
    root = {"refs": refs, "arguments": arguments}
    schema = _resolved(refs, schema)
    if not isinstance(schema, dict):
        return []
    found: dict[str, dict[str, Any]] = {}
    for mutant in chain(_applicators(root, schema, arguments, (), 0), _object(root, schema, arguments, (), 0)):
        if isinstance(mutant, dict):
            found.setdefault(_key(mutant), mutant)
        if len(found) >= _MOST:
            break
    return list(found.values())


def _edge_values(schema: dict[str, Any]) -> Iterator[Any]:
    """The values at the edges of what `schema` allows: its bounds (HUGE past the end an
    integer has no bound at), the shortest and longest strings and arrays, each `enum` member,
    both booleans (the judge keeps those it accepts)."""
    integral = "integer" in _types(schema)
    for key, exclusive, outer in (("minimum", "exclusiveMinimum", -HUGE), ("maximum", "exclusiveMaximum", HUGE)):
        bound = _number(schema.get(key))
        if bound is not None and math.isfinite(bound):
            yield (math.ceil(bound) if key == "minimum" else math.floor(bound)) if integral else bound
        elif integral and _number(schema.get(exclusive)) is None:
            yield outer
    for key, step in (("exclusiveMinimum", 1), ("exclusiveMaximum", -1)):
        bound = _number(schema.get(key))
        if bound is not None and math.isfinite(bound) and integral:
            yield (math.floor(bound) + 1) if step > 0 else (math.ceil(bound) - 1)
    for key in ("minLength", "maxLength"):
        length = schema.get(key)
        if isinstance(length, int) and 0 <= length <= _LONGEST:
            yield "x" * length
    if isinstance(schema.get("enum"), list):
        yield from schema["enum"]
    if "boolean" in _types(schema):
        yield from (False, True)


def edges(schema: Any, arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """Arguments like `arguments` with one property at an edge of its schema (the maximum
    of an integer, the longest string...), where servers' own bounds tend to be off by one."""
    if not isinstance(schema, dict):
        return []
    refs = Resolver.of_document(schema)
    root = _resolved(refs, schema)
    found = root.get("properties") if isinstance(root, dict) else None
    made: dict[str, dict[str, Any]] = {}
    for name, sub in sorted((found if isinstance(found, dict) else {}).items()):
        resolved = _resolved(refs, sub)
        for value in _edge_values(resolved) if isinstance(resolved, dict) else ():
            edge = _set(arguments, (name,), value)
            made.setdefault(_key(edge), edge)
    return list(made.values())[:_MOST]
