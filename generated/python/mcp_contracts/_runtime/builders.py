# Copied by mcp-contracts from its generator/runtime/builders.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""The builders' part of the runtime: a `Filling` puts, at paths compiled once, the constants,
the values of each call and the defaults a builder adds to the members its caller gave; the
catalogue's values are looked up once per code."""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Mapping, Sequence
from enum import Enum
from functools import partial
from typing import Any, Protocol

from pydantic import BaseModel

from .absent import ABSENT
from .json_text import json_pointer

_NOT_THERE: Any = object()  # a member that is not in the document the builder fills

Path = tuple[str, ...]
"""The reference tokens of a JSON pointer, unescaped: `("errors", "0", "code")` is
`/errors/0/code`. The generated builders hold their pointers split once, as paths."""

Placements = tuple[tuple[Path, Any], ...]
"""(path, value): what a builder puts where, in order."""

_CONTAINERS = (dict, list)  # a value of these types is copied into each document
_SCALARS = frozenset({str, int, float, bool, type(None)})  # `json_form` returns them
# What a token of a `Filling` leads to: a container on the way, a value, a slot, a default.
_NODE, _VALUE, _SLOT, _DEFAULT = range(4)


def json_form(value: Any) -> Any:
    """What a builder's caller gave, as JSON has it: a model (of any contract) dumped by its
    schema's names, and the models inside sequences and mappings too (as the `Sequence` and
    `Mapping` of a builder's hint take them: any sequence but text becomes a list, any
    mapping a dict). A list or dict with no model inside is returned itself, not a copy.
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is dict:
        copied: Any = None
        for key, item in enumerate(value) if kind is list else value.items():
            found = json_form(item)
            if found is not item:  # a model inside: a copy of the container
                if copied is None:
                    copied = kind(value)
                copied[key] = found
        return value if copied is None else copied
    if isinstance(value, BaseModel):  # after the plain types: an ABC's costs more
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, Mapping):
        return {key: json_form(item) for key, item in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray)):
        return [json_form(item) for item in value]
    return value


def plain(value: Any) -> Any:
    """A catalogue value as JSON has it: an enum member's value, anything else as it is."""
    return value.value if isinstance(value, Enum) else value


def catalogue_values(
    catalogue: Mapping[Any, Any], derived: tuple[tuple[Path, str], ...]
) -> dict[str, tuple[Any, ...]]:
    """For each code of a catalogue (`ERRORS`): its value, then the value of each column of
    `derived` (path, column) for it, as JSON has them. Made once, at import, so that an
    error builder's call looks its code up once; the keys are the codes' values, which
    their enum members (`StrEnum`) find too."""
    return {
        plain(code): (
            plain(code),
            *(plain(getattr(info, column)) for _, column in derived),
        )
        for code, info in catalogue.items()
    }


class Filling:
    """What a builder puts into the members its caller gave, compiled once from paths.

    `placements` are (path, value); `slots` are paths whose values each call gives, in
    order (one given as `ABSENT` is left out); `defaults` are (path, value) put where
    nothing is, inside an object that is there. Of two at the same path, the later is
    kept (a slot for the code replaces the constant a schema of one code has there). The
    paths are compiled into a tree of the objects and arrays on the way, so that a call
    walks each once. `models` are the members whose values may hold models, dumped to
    their JSON first (`json_form`); no other member is walked.

    `put` is `fill` for a builder whose keyword parameters are `members`, given in their
    order. Most calls give none of the members the paths begin with, and plain values
    (none `ABSENT`, none a dict or list, which would be copied): `put` then makes the
    document in one function written once from the tree (what the paths make is one
    literal); any other call is `fill`'s.

    `document` is `put`, then `judged(model, ...)`, in the same function: the `*_document`
    builders' whole call, a server's path to the wire, where each call of a Python
    function costs about as much as writing the document's JSON.
    """

    __slots__ = ("_models", "_root", "document", "put")

    def __init__(
        self,
        placements: Placements = (),
        slots: tuple[Path, ...] = (),
        defaults: Placements = (),
        *,
        models: tuple[str, ...] = (),
        members: tuple[str, ...] = (),
        model: type[BaseModel] | None = None,
    ) -> None:
        self._models = models
        root: dict[str, Any] = {}
        leaves = [
            *((path, _VALUE, value) for path, value in placements),
            *((path, _SLOT, index) for index, path in enumerate(slots)),
            *((path, _DEFAULT, value) for path, value in defaults),
        ]
        for path, kind, payload in leaves:
            if not path:
                raise ValueError("a builder puts nothing at the whole document's place")
            node = root
            for token in path[:-1]:
                node = node.setdefault(token, {})
                if not isinstance(node, dict):
                    raise ValueError(
                        f"{json_pointer(path)} is inside a value the builder puts"
                    )
            if isinstance(node.get(path[-1]), dict):
                raise ValueError(f"{json_pointer(path)} holds values the builder puts")
            node[path[-1]] = (kind, payload)  # a later one replaces an earlier
        self._root = _compiled(root)
        # Written on first use, not at import (each is a compile): then in place of these.
        self.put: _Put = self._written("put", members, len(slots), None)
        self.document: _Put = self._written("document", members, len(slots), model)

    def _written(
        self,
        name: str,
        members: tuple[str, ...],
        count: int,
        model: type[BaseModel] | None,
    ) -> _Put:
        """A stand-in for `put` or `document` (`name`) that writes it (`_put`) when first called,
        puts it in its own place and answers the call with it."""

        def first(
            values: tuple[Any, ...],
            given: tuple[Any, ...],
            extra: Mapping[str, Any] | None = None,
        ) -> Any:
            if name == "document" and model is None:  # nothing would judge it
                raise TypeError(
                    "this Filling has no model to judge its documents: pass `model=`"
                )
            written = _put(self._root, self._models, members, count, self._put, model)
            setattr(self, name, written)
            return written(values, given, extra)

        return first

    def fill(
        self,
        members: Mapping[str, Any],
        *values: Any,
        extra: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The document of the members a builder's caller gave, with every value put at
        its path, a value for each slot.

        `members` are the builder's keyword parameters (those left at `ABSENT` are left
        out); `extra` the members that are not. Only the objects and arrays on the paths
        are copied, or made where they are missing (an array where the next token is an
        index, an object otherwise): nothing the caller gave is changed, and nothing off
        the paths is copied. A value already there that differs is a ValueError naming
        its pointer, not overwritten.
        """
        if extra:
            members = {**extra, **members}
        document = {key: value for key, value in members.items() if value is not ABSENT}
        for key in self._models:
            if key in document:
                document[key] = json_form(document[key])
        _merge(document, self._root, values)
        return document

    def _put(
        self,
        names: tuple[str, ...],
        values: tuple[Any, ...],
        given: tuple[Any, ...],
        extra: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """`put` where it takes `fill`'s way."""
        return self.fill(dict(zip(names, given, strict=True)), *values, extra=extra)


_Items = tuple[tuple[str, int, Any, Path], ...]


class _Put(Protocol):
    """`Filling.put` and `Filling.document`: a call's slot values, its members given in
    order, and its extra members."""

    def __call__(
        self,
        values: tuple[Any, ...],
        given: tuple[Any, ...],
        extra: Mapping[str, Any] | None = None,
        /,
    ) -> dict[str, Any]: ...


def _compiled(tree: dict[str, Any], path: Path = ()) -> _Items:
    """(token, kind, payload, path) of each entry of a tree; a container's payload is (its
    items, whether a value or slot is inside it (not only defaults), and None for an object,
    or for an array whether the builder can make it: its indexes are 0, 1... in turn).
    """
    items = []
    for token, entry in tree.items():
        at = (*path, token)
        if isinstance(entry, dict):
            inside = _compiled(entry, at)
            placed = any(
                kind != _DEFAULT if kind != _NODE else payload[1]
                for _, kind, payload, _ in inside
            )
            array = _in_turn(entry) if _is_index(next(iter(entry))) else None
            items.append((token, _NODE, (inside, placed, array), at))
        else:
            items.append((token, *entry, at))
    return tuple(items)


def _put(
    items: _Items,
    models: tuple[str, ...],
    names: tuple[str, ...],
    count: int,
    fill: Callable[
        [tuple[str, ...], tuple[Any, ...], tuple[Any, ...], Mapping[str, Any] | None],
        dict[str, Any],
    ],
    model: type[BaseModel] | None = None,
) -> _Put:
    """`Filling.put` (with a `model`, `Filling.document`), written once from the tree (see
    `Filling`): one literal, its constants made anew in each call as `_made` copies them;
    a call it does not take goes to `fill` (`fill(names, values, given, extra)`)."""
    from .models import _FAST, judged  # not at import (pydantic's machinery)

    namespace: dict[str, Any] = {
        "ABSENT": ABSENT,
        "json_form": json_form,
        "SCALARS": _SCALARS,
        "CONTAINERS": _CONTAINERS,
        "slow": partial(fill, names),
        "FAST": _FAST,
        "MODEL": model,
        "judged": judged,
    }

    def constant(value: Any) -> str:
        if type(value) is dict:
            return (
                "{"
                + ", ".join(
                    f"{constant(key)}: {constant(item)}" for key, item in value.items()
                )
                + "}"
            )
        if type(value) is list:
            return "[" + ", ".join(constant(item) for item in value) + "]"
        name = f"c{len(namespace)}"
        namespace[name] = value
        return name

    def literal(entries: _Items, array: bool | None) -> str | None:
        parts: list[tuple[str, str]] = []
        for token, kind, payload, _ in entries:
            if kind == _NODE:
                inside, placed, inner = payload
                if not placed:
                    continue  # only defaults: nothing is made there
                made = literal(inside, inner)
                if made is None:
                    return None
            else:
                made = f"v{payload}" if kind == _SLOT else constant(payload)
            parts.append((token, made))
        if array is None:
            return (
                "{"
                + ", ".join(f"{constant(token)}: {made}" for token, made in parts)
                + "}"
            )
        if not array or not _in_turn([token for token, _ in parts]):
            return None  # `_made` refuses it: `fill` says why
        return "[" + ", ".join(made for _, made in parts) + "]"

    made = literal(items, None)
    tops = {token for token, *_ in items}
    slow = (
        "return slow(values, given, extra)"
        if model is None
        else "return judged(MODEL, slow(values, given, extra))"
    )
    if made is None:
        body = [slow]
    else:
        body = ["if extra:", f"    {slow}"]
        unpack = []
        if names:
            unpack.append(
                f"{''.join(f'm{index}, ' for index in range(len(names)))}= given"
            )
        if count:
            unpack.append(f"{''.join(f'v{index}, ' for index in range(count))}= values")
        body += [
            "try:",
            *(f"    {line}" for line in unpack or ["pass"]),
            "except ValueError:",
            f"    {slow}",
        ]
        # a member the tree begins with is given as a parameter (or as `extra`, above)
        checks = [
            f"m{index} is not ABSENT"
            for index, name in enumerate(names)
            if name in tops
        ]
        checks += [
            f"v{index} is ABSENT or type(v{index}) in CONTAINERS"
            for index in range(count)
        ]
        if checks:
            body += [f"if {' or '.join(checks)}:", f"    {slow}"]
        # One literal: the members given, in order, then what the tree makes; then the
        # members left at `ABSENT` are taken out again (the others keep their order).
        entries, absent = [], []
        for index, name in enumerate(names):
            if name in tops:
                continue  # not given: `ABSENT`
            value = f"m{index}"
            if name in models:
                value = f"(m{index} if m{index} is ABSENT or type(m{index}) in SCALARS else json_form(m{index}))"
            entries.append(f"{constant(name)}: {value}")
            absent += [f"if m{index} is ABSENT:", f"    del d[{constant(name)}]"]
        if made != "{}":
            entries.append(made[1:-1])
        body += [f"d = {{{', '.join(entries)}}}", *absent]
        if model is None:
            body.append("return d")
        else:  # the hot path of `judged`, which refuses what the validator does not accept
            body += [
                "try:",
                "    if (FAST.get(MODEL) or MODEL._fast())[0](d):",
                "        return d",
                "except ValueError:",
                "    pass",
                "return judged(MODEL, d)",
            ]
    source = "def put(values, given, extra=None):\n" + "".join(
        f"    {line}\n" for line in body
    )
    exec(compile(source, "<mcp-contracts filling>", "exec"), namespace)
    put: _Put = namespace["put"]
    return put


def _merge(node: Any, items: _Items, values: tuple[Any, ...]) -> None:
    """Put `items` into `node`, a container of the document's own (made or copied here)."""
    in_object = type(node) is dict
    for token, kind, payload, path in items:
        if in_object:
            key: Any = token
            found = node.get(token, _NOT_THERE)
        elif kind == _DEFAULT or (kind == _NODE and not payload[1]):  # only defaults
            key = int(token) if _is_index(token) else len(node)
            if key >= len(node):
                continue
            found = node[key]
        else:
            key = _index(node, path)
            found = node[key] if key < len(node) else _NOT_THERE
        if kind == _NODE:
            inside, placed, array = payload
            if found is _NOT_THERE:
                if not placed:
                    continue  # defaults go only into an object that is there
                value = _made(inside, values, array)
                if not value:
                    continue  # every slot inside was left out
            else:
                if isinstance(found, Mapping):
                    value = dict(found)
                elif isinstance(found, (list, tuple)):
                    value = list(found)
                elif placed:
                    raise ValueError(
                        f"{json_pointer(path)} is {found!r}: the builder puts values inside it,"
                        " in an object or an array"
                    )
                else:
                    continue
                _merge(value, inside, values)
        else:
            value = values[payload] if kind == _SLOT else payload
            if value is ABSENT:
                continue
            if found is not _NOT_THERE:
                if kind != _DEFAULT and (
                    found != value or type(found) is not type(value)
                ):
                    raise ValueError(
                        f"{json_pointer(path)} is {value!r} in this contract, not {found!r}"
                    )
                continue
            if type(value) in _CONTAINERS:
                value = copy.deepcopy(value)
        if in_object or key < len(node):
            node[key] = value
        else:
            node.append(value)


def _made(items: _Items, values: tuple[Any, ...], array: bool | None) -> Any:
    """A new container of `items`, where nothing was: an array (when `array` is not None)
    only of the indexes 0, 1... in turn."""
    made: Any = {}
    for token, kind, payload, _ in items:
        if kind == _NODE:
            inside, placed, inner = payload
            if not placed:
                continue
            value = _made(inside, values, inner)
            if not value:
                continue
        else:
            value = values[payload] if kind == _SLOT else payload
            if value is ABSENT:
                continue
            if type(value) in _CONTAINERS:
                value = copy.deepcopy(value)
        made[token] = value
    if array is None:
        return made
    if not array or (len(made) < len(items) and not _in_turn(made)):
        raise ValueError(
            f"{json_pointer(items[0][3][:-1])} cannot be made: the indexes of an array go 0, 1..."
        )
    return list(made.values())


def _index(array: list[Any], path: Path) -> int:
    """The index the last token of `path` names in `array`: at most one past its end."""
    token = path[-1]
    if _is_index(token) and int(token) <= len(array):
        return int(token)
    raise ValueError(
        f"{json_pointer(path)} cannot be filled: {json_pointer(path[:-1])} is an array of {len(array)},"
        f" and {token!r} is not an index of it or the next one"
    )


def _in_turn(tokens: Collection[str]) -> bool:
    """Whether `tokens` are the indexes of an array, 0, 1... in turn."""
    return list(tokens) == [str(index) for index in range(len(tokens))]


def _is_index(token: str) -> bool:
    return token.isascii() and token.isdigit()
