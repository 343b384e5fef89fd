"""Two schemas compared as what one party writes and the other reads.

A response is written by servers and read by clients: it breaks them when it may hold
something it could not before (a property removed or made optional, a type widened, an
object opened, a union branch added, a bound loosened; a const or enum widened is a warning,
clients need a default). An input is written by clients and read by servers: it breaks
callers when it accepts less (a property made required, an enum or a type narrowed, the
object closed, a bound tightened). The other way round is a note.

The two schemas are walked together along the instance paths a client sees: `$ref`s are
followed on both sides, so that a renamed `$defs` entry or an inline object moved to
`$defs` is the same place. Union branches are matched by their tag (a property that is a
`const` in every branch, or `discriminator.propertyName`), else by position, with a note.
A pair already being compared higher up is a cycle and is not entered again; a pair
compared without a change is not compared again; the walk is bounded in depth and in size,
and says so with a note where it stops.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..schema.pointer import encode
from ..schema.vocabulary import FORMS, ITEMS, LOWER_BOUNDS, PREFIXES, UPPER_BOUNDS
from .shape import Loc, Shape, Side, encoded, shape_of

RESPONSE, INPUT = "response", "input"
MAX_DEPTH = 48  # schemas within schemas along one instance path
MAX_PAIRS = 20_000  # pairs of schemas compared in one comparison


@dataclass(frozen=True)
class Change:
    """One difference: its rule, the instance path (segments as `path_text` joins them),
    where it is in the new sources and in the old, and what it is."""

    rule: str
    path: tuple[str, ...]
    new: Loc
    old: Loc
    message: str


def path_text(path: tuple[str, ...]) -> str:
    """The instance path a client sees: `/`-separated tokens, `*` for items and map values,
    a union branch as `[tag=value]` or `[#N]`; `/` for the root."""
    return "".join(path) or "/"


def _step(name: str) -> str:
    return encode([name])


@dataclass
class Differ:
    old: Side
    new: Side
    direction: str
    changes: list[Change] = field(default_factory=list)
    _active: set[tuple[int, int]] = field(default_factory=set)
    _clean: set[tuple[int, int]] = field(default_factory=set)
    _pairs: int = 0
    _cut: bool = False

    @property
    def response(self) -> bool:
        return self.direction == RESPONSE

    def run(self, old: Any, new: Any, old_at: Loc, new_at: Loc) -> list[Change]:
        self.compare(shape_of(self.old, old, old_at), shape_of(self.new, new, new_at), ())
        return self.changes

    def add(self, rule: str, path: tuple[str, ...], new: Loc, old: Loc, message: str) -> None:
        self.changes.append(Change(rule, path, new, old, message))

    def loosened(self, path: tuple[str, ...], new: Loc, old: Loc, message: str, rule: str) -> None:
        """The new side accepts more: `rule` for responses, a note for inputs."""
        self.add(rule if self.response else "input-widened", path, new, old, message)

    def tightened(self, path: tuple[str, ...], new: Loc, old: Loc, message: str, rule: str) -> None:
        """The new side accepts less: `rule` for inputs, a note for responses."""
        self.add(rule if not self.response else "response-narrowed", path, new, old, message)

    def compare(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        pair = (id(a.node), id(b.node))
        if pair in self._active or pair in self._clean:
            return
        if len(path) > MAX_DEPTH or self._pairs >= MAX_PAIRS:
            if not self._cut:
                self._cut = True
                limit = f"{MAX_DEPTH} levels deep" if len(path) > MAX_DEPTH else f"{MAX_PAIRS} pairs of schemas"
                self.add("comparison-cut-short", path, b.at, a.at, f"not compared below here: past {limit}")
            return
        self._pairs += 1
        before = len(self.changes)
        self._active.add(pair)
        if a.alternatives() is not None or b.alternatives() is not None:
            self.branches(a, b, path)
        else:
            self.types(a, b, path)
            self.values(a, b, path)
            self.bounds(a, b, path)
            self.objects(a, b, path)
            self.arrays(a, b, path)
        self._active.discard(pair)
        if len(self.changes) == before:
            self._clean.add(pair)

    def sub(self, a: Shape, b: Shape, old: tuple[Any, Loc], new: tuple[Any, Loc], path: tuple[str, ...]) -> None:
        self.compare(shape_of(self.old, old[0], old[1]), shape_of(self.new, new[0], new[1]), path)

    # Kinds of value ----------------------------------------------------------------------

    def types(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        was, now = a.types(), b.types()
        if now - was:
            text = f"may now be {_names(now - was)} (was {_names(was)})"
            self.loosened(path, b.child("type") if "type" in b.words else b.at, a.at, text, "response-type-widened")
        if was - now:
            text = f"may no longer be {_names(was - now)} (is {_names(now)})"
            self.tightened(path, b.child("type") if "type" in b.words else b.at, a.at, text, "input-type-narrowed")

    def values(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        was, now = a.values(), b.values()
        where = b.child("const" if "const" in b.words else "enum") if now is not None else b.at
        if was is not None and (now is None or now - was):
            text = "any value now" if now is None else f"new values {_values(now - was)}"
            self.loosened(path, where, a.at, text, "response-enum-widened")
        if now is not None and (was is None or was - now):
            text = f"only {_values(now)} now" if was is None else f"no longer {_values(was - now)}"
            self.tightened(path, where, a.at, text, "input-enum-narrowed")

    def bounds(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        for keyword in (*LOWER_BOUNDS, *UPPER_BOUNDS, *FORMS):
            was, now = _bound(a.words.get(keyword)), _bound(b.words.get(keyword))
            if was == now:
                continue
            looser, tighter = _direction(keyword, was, now)
            where = b.child(keyword) if now is not None else b.at
            old = a.child(keyword) if was is not None else a.at
            text = f"{keyword} {_shown(was)} became {_shown(now)}"
            if looser:
                self.loosened(path, where, old, text, "response-bound-loosened")
            if tighter:
                self.tightened(path, where, old, text, "input-bound-tightened")

    # Objects and arrays ------------------------------------------------------------------

    def objects(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        if "object" not in a.types() or "object" not in b.types():
            return
        for name, old in a.props.items():
            at = (*path, _step(name))
            new = b.props.get(name)
            if new is None:
                self.property_gone(a, b, name, at)
                continue
            if self.response and name in a.required and name not in b.required:
                self.add("property-optional", at, new[1], old[1], f"{name!r} is no longer always present")
            self.sub(a, b, old, new, at)
        for name, new in b.props.items():
            if name not in a.props:
                at = (*path, _step(name))
                if self.response:
                    self.add("property-added", at, new[1], a.at, f"a new property {name!r}")
                elif name not in b.required:
                    self.add("input-widened", at, new[1], a.at, f"a new optional argument {name!r}")
        self.required(a, b, path)
        self.openness(a, b, path)

    def property_gone(self, a: Shape, b: Shape, name: str, at: tuple[str, ...]) -> None:
        old = a.props[name][1]
        where = b.child("properties") if "properties" in b.words else b.at
        if self.response:
            self.add("property-removed", at, where, old, f"{name!r} is gone")
        elif b.extra() is False:
            self.add("input-property-removed", at, where, old, f"{name!r} is gone and other arguments are refused")
        else:
            self.add("input-widened", at, where, old, f"{name!r} is no longer declared")

    def required(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        for name in sorted(b.required - a.required):
            at = (*path, _step(name))
            where = b.child("required", name)
            if self.response:
                self.add("response-narrowed", at, where, a.at, f"{name!r} is now always present")
            else:
                self.add("input-required", at, where, a.at, f"{name!r} is now required")
        if not self.response:
            for name in sorted(a.required - b.required):
                self.add("input-widened", (*path, _step(name)), b.at, a.child("required", name), f"{name!r} optional")

    def openness(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        was, now = a.extra(), b.extra()
        where, old = b.extra_at(), a.extra_at()
        if was is False and now is not False:
            self.loosened(path, where, old, "other properties are now allowed", "object-opened")
        elif now is False and was is not False:
            self.tightened(path, where, old, "other properties are now refused", "input-closed")
        elif isinstance(was, dict) or isinstance(now, dict):
            self.sub(a, b, (was, old), (now, where), (*path, "/*"))

    def arrays(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        """Items (`items`, draft-07's `additionalItems`, `unevaluatedItems`) at `*`, then the
        items of a tuple (`prefixItems`, draft-07's `items` as a list) by position."""
        if "array" not in a.types() or "array" not in b.types():
            return
        for keyword in ITEMS:
            was, now = a.words.get(keyword, True), b.words.get(keyword, True)
            if isinstance(was, list) or isinstance(now, list) or (was is True and now is True):
                continue
            old = a.child(keyword) if keyword in a.words else a.at
            new = b.child(keyword) if keyword in b.words else b.at
            self.sub(a, b, (was, old), (now, new), (*path, "/*"))
        was_items, now_items = _prefix(a), _prefix(b)
        for index in range(min(len(was_items), len(now_items))):
            old_item, new_item = was_items[index], now_items[index]
            self.sub(a, b, old_item, new_item, (*path, f"/{index}"))

    # Unions ------------------------------------------------------------------------------

    def branches(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        was, now = self.members(self.old, a), self.members(self.new, b)
        tag = _tag(a, b, was, now)
        mark = len(self.changes)
        if tag is None:
            keyed_was = {f"[#{i}]": s for i, s in enumerate(was)}
            keyed_now = {f"[#{i}]": s for i, s in enumerate(now)}
        else:
            keyed_was = {_branch(tag, s): s for s in was}
            keyed_now = {_branch(tag, s): s for s in now}
        for key, shape in keyed_was.items():
            if key in keyed_now:
                self.compare(shape, keyed_now[key], (*path, key) if len(was) > 1 or len(now) > 1 else path)
            elif self.response:
                self.add("response-narrowed", (*path, key), b.at, shape.at, f"the branch {key} is gone")
            else:
                self.add("input-branch-removed", (*path, key), b.at, shape.at, f"the branch {key} is gone")
        for key, shape in keyed_now.items():
            if key not in keyed_was:
                self.loosened((*path, key), shape.at, a.at, f"a new branch {key}", "response-branch-added")
        if tag is None and len(self.changes) > mark and (len(was) > 1 or len(now) > 1):
            text = "union branches matched by position (no property is a const in every branch): the changes below"
            self.changes.insert(mark, Change("union-by-position", path, b.at, a.at, text + " may be a reordering"))

    def members(self, side: Side, shape: Shape) -> list[Shape]:
        """The branches of a union, each merged with what the union says beside them; a
        schema that is not a union is its own one branch."""
        found = shape.alternatives()
        if found is None:
            return [shape]
        keyword, branches = found
        source, at = shape.origin[keyword]
        members = []
        for index, branch in enumerate(branches):
            member = shape_of(side, branch, (source, (*at, keyword, index)))
            for word, value in shape.words.items():
                if word != keyword and word not in member.words:
                    member.words[word] = value
                    member.origin[word] = shape.origin[word]
            for name, prop in shape.props.items():
                member.props.setdefault(name, prop)
            member.required |= shape.required
            members.append(member)
        return members


def _tag(a: Shape, b: Shape, was: list[Shape], now: list[Shape]) -> str | None:
    """The property that tells the branches apart on both sides: `discriminator.propertyName`,
    else the first property that is a single value in every branch (with distinct values)."""
    for shape in (b, a):
        named = shape.words.get("discriminator")
        if isinstance(named, dict) and isinstance(named.get("propertyName"), str):
            return str(named["propertyName"])
    candidates: list[str] = []
    for member in (*was, *now):
        for name in member.props:
            if name not in candidates:
                candidates.append(name)
    for name in candidates:
        sides = [[_tag_value(m, name) for m in members] for members in (was, now)]
        if all(v is not None for values in sides for v in values) and all(len(set(v)) == len(v) for v in sides):
            return name
    return None


def _tag_value(shape: Shape, name: str) -> str | None:
    prop = shape.props.get(name)
    if prop is None or not isinstance(prop[0], dict):
        return None
    if "const" in prop[0]:
        return encoded(prop[0]["const"])
    enum = prop[0].get("enum")
    return encoded(enum[0]) if isinstance(enum, list) and len(enum) == 1 else None


def _branch(tag: str, shape: Shape) -> str:
    return f"[{tag}={_tag_value(shape, tag)}]"


def _prefix(shape: Shape) -> list[tuple[Any, Loc]]:
    """The schemas of a tuple's items, with their places."""
    for keyword in PREFIXES:
        value = shape.words.get(keyword)
        if isinstance(value, list):
            return [(item, shape.child(keyword, index)) for index, item in enumerate(value)]
    return []


def _bound(value: Any) -> Any:
    """A bound as compared: numbers and strings as they are; `uniqueItems: false` is none."""
    if value is False or value is None:
        return None
    return value if isinstance(value, int | float | str | bool) else encoded(value)


def _direction(keyword: str, was: Any, now: Any) -> tuple[bool, bool]:
    """(looser, tighter) of a bound that changed from `was` to `now` (None: not there)."""
    if was is None:
        return False, True
    if now is None:
        return True, False
    numbers = isinstance(was, int | float) and isinstance(now, int | float) and keyword != "multipleOf"
    if numbers and keyword in LOWER_BOUNDS:
        return now < was, now > was
    if numbers and keyword in UPPER_BOUNDS:
        return now > was, now < was
    if keyword == "multipleOf" and isinstance(was, int | float) and isinstance(now, int | float) and now and was:
        return (was / now).is_integer(), (now / was).is_integer()
    return True, True  # a pattern or a format that changed: it may refuse and admit others


def _names(types: frozenset[str]) -> str:
    shown = sorted(types - {"integer"} if "number" in types else types)
    return ", ".join(shown) or "nothing"


def _values(values: frozenset[str]) -> str:
    return ", ".join(sorted(values)) or "none"


def _shown(value: Any) -> str:
    return "none" if value is None else json.dumps(value)
