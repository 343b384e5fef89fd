"""The arguments a published input schema leaves out of those the contract's declares: one
it does not name, or does not require where the contract requires it (`argument_gaps`), and the
contract's schema without them (`without_gaps`), which `listing` compares with the server's.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from ..breaking.shape import Loc, Shape, Side, shape_of
from ..schema.pointer import Token, encode, value_at

_GAPS_VISITED = 2_000  # pairs of schemas compared: past it, the arguments further down are not
_ARGUMENT_DEPTH = 16  # objects within objects


@dataclass(frozen=True)
class ArgumentGap:
    """An argument of the contract's input schema that the server's does not name (`named`
    False), or names but does not require where the contract requires it."""

    path: tuple[Token, ...]  # where the contract's input schema declares it (or requires it)
    name: str
    label: str  # its name from the top: `filter.size`, `tags[].name`
    named: bool
    holders: tuple[tuple[Token, ...], ...]  # the schemas whose `properties` or `required` `without_gaps` drops it from

    def said(self) -> str:
        if not self.named:
            return (
                f"the server's input schema does not name the argument {self.label!r}:"
                " clients that read the listing never send it"
            )
        return (
            f"the server's input schema does not require the argument {self.label!r}, which the contract"
            " requires: clients that read the listing may leave it out"
        )


@dataclass(frozen=True)
class _Pair:
    """Two schemas to compare: the contract's and the server's, each with its place, the label
    of the argument they declare and how deep it is. `names_only` when the server's is not
    the contract's alternative's own (no branch of the server's was found to be it): what it
    requires is then unknown. `place`: the server's schema at the place compared (whose
    alternatives `theirs` is one of), when it is not `theirs`."""

    ours: Any
    ours_at: Loc
    theirs: Any
    theirs_at: Loc
    label: str
    depth: int
    names_only: bool = False
    place: tuple[Any, Loc] | None = None


@dataclass(frozen=True)
class _Listed:
    """The arguments one object of the server's input schema names, and those it requires."""

    props: dict[str, tuple[Any, Loc]]
    required: frozenset[str]
    items: tuple[Any, Loc] | None  # its `items` schema, when an object one


def argument_gaps(ours: Any, theirs: Any) -> list[ArgumentGap]:
    """Each argument the contract's input schema declares (its `properties`, with `$ref`s and
    `allOf`s followed) or requires that the server's does not name or require, in the
    contract's order, down the objects within objects both declare (an object's properties,
    an array's `items`; the contract's alternatives each: against the server's alternative
    that names the same arguments, else against the server's merged, by name only)."""
    sides = Side.of({"": ours}), Side.of({"": theirs})
    server = _Server(sides[1])
    gaps: dict[tuple[Token, ...], ArgumentGap] = {}
    pending: deque[_Pair] = deque([_Pair(ours, ("", ()), theirs, ("", ()), "", 0)])
    seen: set[tuple[int, int, bool]] = set()
    while pending and len(seen) < _GAPS_VISITED:
        pair = pending.popleft()
        key = (id(pair.ours), id(pair.theirs), pair.names_only)
        if pair.depth > _ARGUMENT_DEPTH or key in seen:
            continue
        seen.add(key)
        a, listed = shape_of(sides[0], pair.ours, pair.ours_at), server.listed(pair.theirs, pair.theirs_at)
        there = server.there(*(pair.place or (pair.theirs, pair.theirs_at)))
        for gap in _gaps_of(a, listed, pair, there):
            gaps.setdefault(gap.path, gap)
        label, depth = pair.label, pair.depth + 1
        for name, (sub, at) in a.props.items():
            if name in listed.props:
                pending.append(_Pair(sub, at, *listed.props[name], _joined(label, name), depth))
        pending += _within_each(sides, a, pair)
        items = a.words.get("items")
        if isinstance(items, dict) and listed.items is not None:
            pending.append(_Pair(items, a.child("items"), *listed.items, f"{label}[]", depth))
    return list(gaps.values())


class _Server:
    """The server's input schema, each object of it read once (many alternatives of the
    contract's may be compared with the same one)."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self._listed: dict[int, _Listed] = {}
        self._there: dict[int, frozenset[str] | None] = {}

    def listed(self, node: Any, at: Loc) -> _Listed:
        if id(node) not in self._listed:
            self._listed[id(node)] = _listed(self.side, node, at)
        return self._listed[id(node)]

    def there(self, node: Any, at: Loc) -> frozenset[str] | None:
        if id(node) not in self._there:
            self._there[id(node)] = _required_there(self.side, node, at)
        return self._there[id(node)]


def _gaps_of(a: Shape, listed: _Listed, pair: _Pair, there: frozenset[str] | None) -> list[ArgumentGap]:
    """The gaps among the arguments of one object of the contract's (`a`); a property it
    forbids (`false`) is no argument. Each says where the copy `without_gaps` drops it: from
    `required` only when no object of the server's there requires it (`there`, None when not
    known), else the copy would read as the server's requiring more."""
    required_at = a.child("required")[1][:-1]
    found: list[ArgumentGap] = []
    for name, (sub, at) in a.props.items():
        holder, unrequired = at[1][:-2], _unrequired(name, there, required_at)
        if sub is False:
            continue
        if name not in listed.props:
            holders = (holder, *unrequired) if name in a.required else (holder,)
            found.append(ArgumentGap(at[1], name, _joined(pair.label, name), False, holders))
        elif name in a.required and name not in listed.required and not pair.names_only:
            found.append(ArgumentGap(at[1], name, _joined(pair.label, name), True, unrequired))
    for name in sorted(a.required - set(a.props) - listed.required):
        named = name in listed.props
        if named and pair.names_only:
            continue
        unrequired = _unrequired(name, there, required_at)
        found.append(ArgumentGap(a.child("required")[1], name, _joined(pair.label, name), named, unrequired))
    return found


def _unrequired(
    name: str, there: frozenset[str] | None, required_at: tuple[Token, ...]
) -> tuple[tuple[Token, ...], ...]:
    """The `required` `without_gaps` drops `name` from: none when the server's may require it."""
    return (required_at,) if there is not None and name not in there else ()


def _within_each(sides: tuple[Side, Side], a: Shape, pair: _Pair) -> list[_Pair]:
    """Each alternative of the contract's object (an `anyOf` or `oneOf` of objects), to be
    compared with the server's alternative found to be it (`_paired`), else, by name only,
    with the server's object as a whole."""
    alternatives = a.alternatives() if not a.props else None
    if alternatives is None:
        return []
    keyword, branches = alternatives
    ours = [shape_of(sides[0], branch, a.child(keyword, i)) for i, branch in enumerate(branches)]
    theirs = _objects(sides[1], shape_of(sides[1], pair.theirs, pair.theirs_at))
    paired = _paired(ours, theirs)
    place = pair.place or (pair.theirs, pair.theirs_at)
    found: list[_Pair] = []
    for i, branch in enumerate(branches):
        mine = (branch, a.child(keyword, i))
        if i in paired:
            other = theirs[paired[i]]
            found.append(_Pair(*mine, other.node, other.at, pair.label, pair.depth + 1, False, place))
        else:
            found.append(_Pair(*mine, pair.theirs, pair.theirs_at, pair.label, pair.depth + 1, True, place))
    return found


def _paired(ours: list[Shape], theirs: list[Shape]) -> dict[int, int]:
    """The contract's alternatives (by index) each paired with the server's object (by index)
    that names and requires the same arguments, else with the one that names the same; only
    one to one: two alike on either side pair neither."""
    paired: dict[int, int] = {}
    for key in (lambda s: (frozenset(s.props), frozenset(s.required)), lambda s: frozenset(s.props)):
        taken = set(paired.values())
        mine = _by_key(key, {i: shape for i, shape in enumerate(ours) if i not in paired})
        other = _by_key(key, {j: shape for j, shape in enumerate(theirs) if j not in taken})
        for found, indices in mine.items():
            if len(indices) == 1 and len(other.get(found, ())) == 1:
                paired[indices[0]] = other[found][0]
    return paired


def _by_key(key: Callable[[Shape], Any], shapes: dict[int, Shape]) -> dict[Any, list[int]]:
    """The indices of `shapes` grouped by `key`."""
    grouped: dict[Any, list[int]] = {}
    for index, shape in shapes.items():
        grouped.setdefault(key(shape), []).append(index)
    return grouped


def _objects(side: Side, shape: Shape) -> list[Shape]:
    """The objects of the server's input schema at one place that name arguments: itself, or,
    when it names none, those of its alternatives that do."""
    alternatives = shape.alternatives()
    if shape.props or alternatives is None:
        return [shape] if shape.props else []
    keyword, branches = alternatives
    found = [shape_of(side, branch, shape.child(keyword, i)) for i, branch in enumerate(branches)]
    return [branch for branch in found if branch.props]


def _listed(side: Side, node: Any, at: Loc) -> _Listed:
    """What one object of the server's input schema names and requires: its own properties,
    or, when it declares none, those of its alternatives that do (an `Optional` of an object
    is an `anyOf` of it and null): each named by one, required by every one (or by itself)."""
    shape = shape_of(side, node, at)
    items = shape.words.get("items")
    listed_items = (items, shape.child("items")) if isinstance(items, dict) else None
    if shape.props or shape.alternatives() is None:
        return _Listed(dict(shape.props), frozenset(shape.required), listed_items)
    objects = _objects(side, shape)
    props: dict[str, tuple[Any, Loc]] = {}
    for branch in objects:
        for name, value in branch.props.items():
            props.setdefault(name, value)
    every = frozenset.intersection(*(frozenset(o.required) for o in objects)) if objects else frozenset()
    return _Listed(props, every | shape.required, listed_items)


_THERE_VISITED = 200  # schemas `_required_there` reads at one place


def _required_there(side: Side, node: Any, at: Loc) -> frozenset[str] | None:
    """The names the server's schema at one place requires: its own `required`, and that of
    each of its alternatives, down alternatives within alternatives; None past
    `_THERE_VISITED` schemas (any name may be required)."""
    found: set[str] = set()
    pending: list[tuple[Any, Loc]] = [(node, at)]
    seen: set[int] = set()
    while pending and len(seen) < _THERE_VISITED:
        current, where = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        shape = shape_of(side, current, where)
        found |= shape.required
        alternatives = shape.alternatives()
        if alternatives is not None:
            keyword, branches = alternatives
            pending += [(branch, shape.child(keyword, i)) for i, branch in enumerate(branches)]
    return None if pending else frozenset(found)


def _joined(label: str, name: str) -> str:
    return f"{label}.{name}" if label else name


def without_gaps(schema: Any, gaps: list[ArgumentGap]) -> Any:
    """A copy of the contract's input schema without its arguments the server's lacks: one not
    named, gone from `properties` and `required`; one not required, from `required`; each
    only from the schemas the gap holds (`ArgumentGap.holders`): never from a `required`
    where the server's requires it too, which would read as the server's requiring more."""
    copy = deepcopy(schema)
    for gap in gaps:
        name = gap.name
        for holder in gap.holders:
            node = value_at(copy, encode(holder))
            if not isinstance(node, dict):
                continue
            properties = node.get("properties")
            if not gap.named and isinstance(properties, dict):
                properties.pop(name, None)
            if isinstance(node.get("required"), list):
                node["required"] = [n for n in node["required"] if n != name]
    return copy
