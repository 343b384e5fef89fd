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
Each pair of schemas is compared once, at the first instance path that reaches it (a
definition shared by two paths is reported at the first, in document order; a cycle is not
entered again); the walk is bounded in depth and in size, and says so with a note where it
stops.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..rules import Rule
from ..rules import breaking as rules
from ..schema.pointer import encode
from ..schema.vocabulary import FORMS, ITEMS, LOWER_BOUNDS, PREFIXES, UPPER_BOUNDS
from .shape import Loc, Shape, Side, encoded, reach_text, shape_of

RESPONSE, INPUT = "response", "input"
MAX_DEPTH = 48  # schemas within schemas along one instance path
MAX_PAIRS = 20_000  # pairs of schemas compared in one comparison
MAX_NESTING = 256  # comparisons within comparisons (a union of one branch adds no path)


@dataclass(frozen=True)
class Change:
    """One difference: its rule, the instance path (segments as `path_text` joins them),
    where it is in the new sources and in the old, and what it is."""

    rule: str  # the rule's ID
    path: tuple[str, ...]
    new: Loc
    old: Loc
    message: str


Branches = tuple[str, Shape | None, Shape | None]  # a union branch's key, old and new


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
    max_pairs: int = MAX_PAIRS
    changes: list[Change] = field(default_factory=list)
    _active: set[tuple[int, int]] = field(default_factory=set)
    _done: set[tuple[int, int]] = field(default_factory=set)
    _pairs: int = 0
    _nesting: int = 0
    _cut: bool = False

    @property
    def response(self) -> bool:
        return self.direction == RESPONSE

    def run(self, old: Any, new: Any, old_at: Loc, new_at: Loc) -> list[Change]:
        """The changes from `old` (at `old_at`) to `new`; none when both sides are the same
        documents (the comparison of what did not change is not made)."""
        try:
            if encoded(self.old.documents) == encoded(self.new.documents) and encoded(old) == encoded(new):
                return []
            self.compare(shape_of(self.old, old, old_at), shape_of(self.new, new, new_at), ())
        except RecursionError:  # a document nested deeper than Python encodes (a server may publish one)
            self.add(rules.COMPARISON_CUT_SHORT, (), new_at, old_at, "not compared: nested too deep")
        return self.changes

    def add(self, rule: Rule, path: tuple[str, ...], new: Loc, old: Loc, message: str) -> None:
        self.changes.append(Change(rule.id, path, new, old, message))

    def loosened(self, path: tuple[str, ...], new: Loc, old: Loc, message: str, rule: Rule) -> None:
        """The new side accepts more: `rule` for responses, a note for inputs."""
        self.add(rule if self.response else rules.INPUT_WIDENED, path, new, old, message)

    def tightened(self, path: tuple[str, ...], new: Loc, old: Loc, message: str, rule: Rule) -> None:
        """The new side accepts less: `rule` for inputs, a note for responses."""
        self.add(rule if not self.response else rules.RESPONSE_NARROWED, path, new, old, message)

    def compare(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        pair = (id(a.node), id(b.node))
        if pair in self._active or pair in self._done:
            return
        if len(path) > MAX_DEPTH or self._nesting > MAX_NESTING or self._pairs >= self.max_pairs:
            unchanged = reach_text(self.old, a.node)
            if not self._cut and (unchanged is None or unchanged != reach_text(self.new, b.node)):
                self._cut = True
                limit = (
                    f"{self.max_pairs} pairs of schemas"
                    if self._pairs >= self.max_pairs
                    else f"{MAX_DEPTH} levels deep"
                )
                self.add(rules.COMPARISON_CUT_SHORT, path, b.at, a.at, f"not compared below here: past {limit}")
            return
        self._pairs += 1
        self._nesting += 1
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
        self._done.add(pair)
        self._nesting -= 1

    def sub(self, old: tuple[Any, Loc], new: tuple[Any, Loc], path: tuple[str, ...]) -> None:
        """Two subschemas (each with its place) at `path`."""
        self.compare(shape_of(self.old, old[0], old[1]), shape_of(self.new, new[0], new[1]), path)

    # Kinds of value ----------------------------------------------------------------------

    def types(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        was, now = a.types(), b.types()
        if now - was:
            text = f"may now be {_names(now - was)} (was {_names(was)})"
            self.loosened(path, b.child("type") if "type" in b.words else b.at, a.at, text, rules.RESPONSE_TYPE_WIDENED)
        if was - now:
            text = f"may no longer be {_names(was - now)} (is {_names(now)})"
            self.tightened(path, b.child("type") if "type" in b.words else b.at, a.at, text, rules.INPUT_TYPE_NARROWED)

    def values(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        was, now = a.values(), b.values()
        where = b.child("const" if "const" in b.words else "enum") if now is not None else b.at
        if was is not None and (now is None or now - was):
            text = "any value now" if now is None else f"new values {_values(now - was)}"
            self.loosened(path, where, a.at, text, rules.RESPONSE_ENUM_WIDENED)
        if now is not None and (was is None or was - now):
            text = f"only {_values(now)} now" if was is None else f"no longer {_values(was - now)}"
            self.tightened(path, where, a.at, text, rules.INPUT_ENUM_NARROWED)

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
                self.loosened(path, where, old, text, rules.RESPONSE_BOUND_LOOSENED)
            if tighter:
                self.tightened(path, where, old, text, rules.INPUT_BOUND_TIGHTENED)

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
                self.add(rules.PROPERTY_OPTIONAL, at, new[1], old[1], f"{name!r} is no longer always present")
            self.sub(old, new, at)
        for name, new in b.props.items():
            if name not in a.props:
                at = (*path, _step(name))
                if self.response:
                    self.add(rules.PROPERTY_ADDED, at, new[1], a.at, f"a new property {name!r}")
                elif name not in b.required:
                    self.add(rules.INPUT_WIDENED, at, new[1], a.at, f"a new optional argument {name!r}")
        self.required(a, b, path)
        self.openness(a, b, path)

    def property_gone(self, a: Shape, b: Shape, name: str, at: tuple[str, ...]) -> None:
        old = a.props[name][1]
        where = b.child("properties") if "properties" in b.words else b.at
        if self.response:
            self.add(rules.PROPERTY_REMOVED, at, where, old, f"{name!r} is gone")
        elif b.extra() is False:
            self.add(rules.INPUT_PROPERTY_REMOVED, at, where, old, f"{name!r} is gone and other arguments are refused")
        else:
            self.add(rules.INPUT_WIDENED, at, where, old, f"{name!r} is no longer declared")

    def required(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        for name in sorted(b.required - a.required):
            at = (*path, _step(name))
            where = b.child("required", name)
            if self.response:
                self.add(rules.RESPONSE_NARROWED, at, where, a.at, f"{name!r} is now always present")
            else:
                self.add(rules.INPUT_REQUIRED, at, where, a.at, f"{name!r} is now required")
        for name in sorted(a.required - b.required):
            at, old = (*path, _step(name)), a.child("required", name)
            if not self.response:
                self.add(rules.INPUT_WIDENED, at, b.at, old, f"{name!r} is now optional")
            elif name not in a.props:  # a declared property is judged with its schema (`objects`)
                self.add(rules.PROPERTY_OPTIONAL, at, b.at, old, f"{name!r} is no longer always present")

    def openness(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        was, now = a.extra(), b.extra()
        where, old = b.extra_at(), a.extra_at()
        if was is False and now is not False:
            self.loosened(path, where, old, "other properties are now allowed", rules.OBJECT_OPENED)
        elif now is False and was is not False:
            self.tightened(path, where, old, "other properties are now refused", rules.INPUT_CLOSED)
        elif isinstance(was, dict) or isinstance(now, dict):
            self.sub((was, old), (now, where), (*path, "/*"))

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
            self.sub((was, old), (now, new), (*path, "/*"))
        was_items, now_items = _prefix(a), _prefix(b)
        for index in range(min(len(was_items), len(now_items))):
            old_item, new_item = was_items[index], now_items[index]
            self.sub(old_item, new_item, (*path, f"/{index}"))

    # Unions ------------------------------------------------------------------------------

    def branches(self, a: Shape, b: Shape, path: tuple[str, ...]) -> None:
        was, now = self.members(self.old, a), self.members(self.new, b)
        union = len(was) > 1 or len(now) > 1
        tag = _tag(a, b, was, now)
        mark = len(self.changes)
        if tag is not None:
            olds = {_branch(tag, s): s for s in was}
            news = {_branch(tag, s): s for s in now}
            pairs = [(key, olds.get(key), news.get(key)) for key in dict.fromkeys([*news, *olds])]
            by_position = False
        else:
            pairs, by_position = self.matched(was, now)
        for key, old, new in pairs:
            at = (*path, key) if union else path
            if old is not None and new is not None:
                self.compare(old, new, at)
            elif old is not None:
                rule = rules.RESPONSE_NARROWED if self.response else rules.INPUT_BRANCH_REMOVED
                self.add(rule, at, b.at, old.at, f"the branch {key} is gone")
            elif new is not None:
                self.loosened(at, new.at, a.at, f"a new branch {key}", rules.RESPONSE_BRANCH_ADDED)
        if by_position and len(self.changes) > mark:
            text = "union branches matched by position (no property is a const in every branch): the changes below"
            self.changes.insert(
                mark, Change(rules.UNION_BY_POSITION.id, path, b.at, a.at, text + " may be a reordering")
            )

    def matched(self, was: list[Shape], now: list[Shape]) -> tuple[list[Branches], bool]:
        """Branches without a tag, paired: the same text first, then the one branch of each
        kind of value (a string, a null...), then what is left by position (True when that
        paired any). Keys are `[#N]`, N the position on the new side (the old, if removed)."""
        old_texts = [reach_text(self.old, s.node) for s in was]
        new_texts = [reach_text(self.new, s.node) for s in now]
        paired: dict[int, int] = {}  # new position -> old position
        for j, text in enumerate(new_texts):
            same = [i for i, t in enumerate(old_texts) if t == text and t is not None and i not in paired.values()]
            if same:
                paired[j] = same[0]
        left = [i for i in range(len(was)) if i not in paired.values()]
        right = [j for j in range(len(now)) if j not in paired]
        for j in right:
            kind = now[j].types()
            olds = [i for i in left if was[i].types() == kind]
            if len(olds) == 1 and [k for k in right if now[k].types() == kind] == [j]:
                paired[j] = olds[0]
        left = [i for i in range(len(was)) if i not in paired.values()]
        right = [j for j in range(len(now)) if j not in paired]
        by_position = bool(left and right) and (len(was) > 1 or len(now) > 1)
        paired.update(zip(right, left, strict=False))
        pairs: list[Branches] = [(f"[#{j}]", was[paired[j]] if j in paired else None, now[j]) for j in range(len(now))]
        pairs += [(f"[#{i}]", was[i], None) for i in range(len(was)) if i not in paired.values()]
        return pairs, by_position

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
    candidates: list[str] = []
    for shape in (b, a):  # a discriminator names it, when its branches say it as a const each
        named = shape.words.get("discriminator")
        if isinstance(named, dict) and isinstance(named.get("propertyName"), str):
            candidates.append(str(named["propertyName"]))
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
