"""Documents made from a schema, for a `mock` tool that has no example to answer with.

`candidates` yields instances of a schema, simplest first: its `examples`, `default`,
`const` or `enum`, then the least value of each type its keywords allow (the required
properties of an object, the fewest items of an array, the shortest string). Each branch of
a `oneOf` or `anyOf` is tried with the keywords beside it. Nothing here is trusted: the
caller keeps the first candidate the judge accepts, and a schema with nothing acceptable
among its candidates (a `pattern` the placeholder does not match...) gets no document.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
from collections.abc import Callable, Iterator
from typing import Any

from .resolver import Resolver, absolute_references

# The parser of `re` (`re._parser` since CPython 3.11): private to the standard library, so
# where it is missing (another Python, a release that moves it) no pattern is followed and a
# patterned string is the placeholder, which the judge may refuse.
try:
    from re import _parser as re_parser  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # pragma: no cover - CPython 3.11 to 3.14 have it
    re_parser = None

_MAX_DEPTH = 24
_PER_NODE = 32  # candidates tried per schema node
_LONGEST = 4096  # characters of a made string, at most
_VARIANTS = 4  # values tried per required property...
_VARIED_DEPTH = 3  # ...of the objects this near the root
_FORMATS = {
    "date-time": "2026-01-01T00:00:00Z",
    "date": "2026-01-01",
    "time": "00:00:00Z",
    "email": "user@example.com",
    "uri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "hostname": "example.com",
}


class _Document:
    """The schema being made an instance of, with its references made context-free."""

    def __init__(self, schema: Any, budget: int = 20_000) -> None:
        self.schema = absolute_references(schema)
        self._resolver = Resolver.of_document(self.schema)
        self.budget = budget  # schema nodes visited, at most: nested variants multiply

    def spend(self) -> bool:
        self.budget -= 1
        return self.budget >= 0

    def resolve(self, reference: str) -> Any:
        found = self._resolver.resolve(reference, self._resolver.root_uri)
        return found.node if found is not None else None


def _merge(base: dict[str, Any], extra: Any) -> dict[str, Any]:
    """`base` with the keywords of `extra` added: properties merged, `required` joined."""
    if not isinstance(extra, dict):
        return base
    merged = dict(base)
    for key, value in extra.items():
        if key == "properties" and isinstance(merged.get(key), dict) and isinstance(value, dict):
            merged[key] = {**merged[key], **value}
        elif key == "required" and isinstance(merged.get(key), list) and isinstance(value, list):
            merged[key] = list(dict.fromkeys([*merged[key], *value]))
        else:
            merged.setdefault(key, value)
    return merged


def _flatten(root: _Document, schema: Any, depth: int) -> Iterator[dict[str, Any]]:
    """The schema with `$ref` and `allOf` folded in, once per `oneOf`/`anyOf` branch."""
    if depth > _MAX_DEPTH or not isinstance(schema, dict) or not root.spend():
        return
    schema = dict(schema)
    reference = schema.pop("$ref", None)
    if isinstance(reference, str):
        target = root.resolve(reference)
        if target is None or target is False:
            return
        for flat in _flatten(root, target if isinstance(target, dict) else {}, depth + 1):
            yield from _flatten(root, _merge(schema, flat), depth + 1)
        return
    for part in schema.pop("allOf", None) or ():
        first = list(itertools.islice(_flatten(root, part, depth + 1), 1))
        if not first:
            return
        schema = _merge(schema, first[0])
    branches = schema.pop("oneOf", None) or schema.pop("anyOf", None)
    if not branches:
        yield from _conditionals(root, schema, depth)
        return
    for branch in branches:
        for flat in _flatten(root, branch, depth + 1):
            yield from _flatten(root, _merge(schema, flat), depth + 1)


def _conditionals(root: _Document, schema: dict[str, Any], depth: int) -> Iterator[dict[str, Any]]:
    """An `if` met, with its `then`; then its `else` (the judge tells whether `if` held)."""
    condition, then, otherwise = schema.pop("if", None), schema.pop("then", None), schema.pop("else", None)
    if condition is None:
        yield schema
        return
    for flat in _flatten(root, _merge(_merge(schema, then if then is not None else {}), condition), depth + 1):
        yield flat
    for flat in _flatten(root, _merge(schema, otherwise) if otherwise is not None else schema, depth + 1):
        yield flat


def _types(schema: dict[str, Any]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [t for t in declared if isinstance(t, str)]
    if "properties" in schema or "required" in schema:
        return ["object"]
    if "items" in schema or "prefixItems" in schema:
        return ["array"]
    if "minLength" in schema or "pattern" in schema or "format" in schema:
        return ["string"]
    if "minimum" in schema or "maximum" in schema:
        return ["number"]
    return ["null", "object"]


def _numeric(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _number(schema: dict[str, Any], integral: bool) -> Any:
    low, high = _numeric(schema.get("minimum")), _numeric(schema.get("maximum"))
    exclusive, step = _numeric(schema.get("exclusiveMinimum")), _numeric(schema.get("multipleOf"))
    value: float = low if low is not None else 0
    if high is not None and value > high:
        value = high
    if exclusive is not None and value <= exclusive:
        value = exclusive + 1
    if step is not None and step > 0 and value % step:
        value = (value // step + 1) * step
    if not math.isfinite(value):
        return 0
    return int(value) if integral and value == int(value) else value


def _string(schema: dict[str, Any]) -> str:
    if schema.get("format") in _FORMATS:
        return _FORMATS[schema["format"]]
    length = schema.get("minLength", 0)
    least = min(length, _LONGEST) if isinstance(length, int) and length > 0 else 1  # the judge has the last word
    pattern = schema.get("pattern")
    made = _matching(pattern) if isinstance(pattern, str) else None
    if made is not None:
        return made + "x" * max(0, least - len(made))
    return "x" * least


_CATEGORY_CHARS = {"CATEGORY_DIGIT": "0", "CATEGORY_WORD": "a", "CATEGORY_SPACE": " "}


def _matching(pattern: str) -> str | None:
    """A short string the regular expression matches (its least repetitions, first
    branches and first characters of classes), or None for what this does not follow.
    Python's parser reads it: ECMA-262 differs at the edges, and the judge has the last word."""
    if re_parser is None:
        return None
    try:
        parsed = re_parser.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return None
    try:
        return _emit(list(parsed), 0)
    except (_Unfollowed, RecursionError):
        return None


class _Unfollowed(Exception):
    pass


def _emit(items: list[Any], depth: int) -> str:
    if depth > 32:
        raise _Unfollowed
    out = []
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(value))
        elif name == "ANY":
            out.append("a")
        elif name == "IN":
            out.append(_first_of_class(value))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            least, _, body = value
            out.append(_emit(list(body), depth + 1) * min(least, _LONGEST))
        elif name == "SUBPATTERN":
            out.append(_emit(list(value[-1]), depth + 1))
        elif name == "ATOMIC_GROUP":
            out.append(_emit(list(value), depth + 1))
        elif name == "BRANCH":
            out.append(_emit(list(value[1][0]), depth + 1))
        elif name == "AT":
            continue
        else:  # lookarounds, backreferences, ...: not followed
            raise _Unfollowed
        if sum(map(len, out)) > _LONGEST:
            raise _Unfollowed
    return "".join(out)


def _first_of_class(items: list[Any]) -> str:
    for op, value in items:
        name = str(op)
        if name == "NEGATE":
            raise _Unfollowed
        if name == "LITERAL":
            return chr(value)
        if name == "RANGE":
            return chr(value[0])
        if name == "CATEGORY" and str(value) in _CATEGORY_CHARS:
            return _CATEGORY_CHARS[str(value)]
    raise _Unfollowed


def _typed(root: _Document, schema: dict[str, Any], kind: str, depth: int) -> Iterator[Any]:
    if kind == "null":
        yield None
    elif kind == "boolean":
        yield False
        yield True
    elif kind in ("integer", "number"):
        yield _number(schema, kind == "integer")
    elif kind == "string":
        yield _string(schema)
    elif kind == "array":
        yield from _array(root, schema, depth)
    elif kind == "object":
        yield from _object(root, schema, depth)


def _array(root: _Document, schema: dict[str, Any], depth: int) -> Iterator[Any]:
    items: list[Any] = []
    for prefix in schema.get("prefixItems") or ():
        value = next(candidates(prefix, root, depth + 1), _NONE)
        if value is _NONE:
            return
        items.append(value)
    least = schema.get("minItems", 0)
    while isinstance(least, int) and len(items) < least:
        value = next(candidates(schema.get("items", {}), root, depth + 1), _NONE)
        if value is _NONE:
            return
        items.append(copy.deepcopy(value))
    if "contains" in schema and not items:
        value = next(candidates(schema["contains"], root, depth + 1), _NONE)
        if value is not _NONE:
            items.append(value)
    yield items


def _object(root: _Document, schema: dict[str, Any], depth: int) -> Iterator[Any]:
    found = schema.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    required = [n for n in schema.get("required", []) if isinstance(n, str)]
    dependent = schema.get("dependentRequired")
    for name, needs in (dependent if isinstance(dependent, dict) else {}).items():
        if name in required and isinstance(needs, list):
            required += [n for n in needs if n not in required]
    choices: dict[str, list[Any]] = {}
    for name in required:
        variants = _VARIANTS if depth < _VARIED_DEPTH else 1  # deeper down, the first value only
        choices[name] = list(itertools.islice(candidates(properties.get(name, {}), root, depth + 1), variants))
        if not choices[name]:
            return
    document = {name: values[0] for name, values in choices.items()}
    yield document
    for name, values in choices.items():  # then one property at a time takes its other values
        for value in values[1:]:
            yield {**copy.deepcopy(document), name: value}


_NONE = object()


def candidates(schema: Any, root: _Document | None = None, depth: int = 0) -> Iterator[Any]:
    """Instances `schema` may accept, simplest first; `root` is where its `$ref`s lead."""
    if root is None:
        root = _Document(schema)
        schema = root.schema
    if schema is True:
        yield None
        return
    if depth > _MAX_DEPTH or not isinstance(schema, dict) or not root.spend():
        return
    # Branches take turns, so that each branch's simplest instance comes early.
    branches = [_node(root, flat, depth) for flat in itertools.islice(_flatten(root, schema, depth), _PER_NODE)]
    seen = 0
    while branches and seen < _PER_NODE:
        for branch in list(branches):
            value = next(branch, _NONE)
            if value is _NONE:
                branches.remove(branch)
                continue
            yield value
            seen += 1


def _node(root: _Document, schema: dict[str, Any], depth: int) -> Iterator[Any]:
    for example in schema.get("examples") or ():
        yield copy.deepcopy(example)
    if "default" in schema:
        yield copy.deepcopy(schema["default"])
    if "const" in schema:
        yield copy.deepcopy(schema["const"])
        return
    if isinstance(schema.get("enum"), list):
        yield from (copy.deepcopy(v) for v in schema["enum"])
        return
    for kind in _types(schema):
        yield from _typed(root, schema, kind, depth)


def synthesize(schema: Any, accepts: Callable[[Any], bool], limit: int = 64) -> tuple[bool, Any]:
    """(True, the first candidate of `schema` that `accepts`), or (False, None) among `limit`."""
    for value in itertools.islice(candidates(schema), limit):
        if accepts(value):
            return True, value
    return False, None
