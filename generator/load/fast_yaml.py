"""A quick reading of the plain YAML most sources are, with ruamel's verdict on every value.

ruamel's round-trip loader (what `documents.read_yaml` keeps for line numbers) is written
in Python and reads about 2,500 catalogue entries a second: 15 s for 10,000 error codes.
libyaml (through PyYAML's C parser) reads the same file's events in a tenth of a second.
This module builds the plain data from those events and resolves each plain scalar the way
ruamel reads YAML 1.2 (its own resolver and round-trip constructor, once per distinct text),
so the values are exactly those `read_yaml` made from ruamel's tree.

It answers only for what it can read as ruamel would: one document with no `%YAML` or `%TAG`
directive, no anchor, alias or explicit tag, no merge key or timestamp, no key that is not a
string or that repeats, no number no double holds as written (`1e400`, `.inf`), no tab and no
character YAML 1.1 and 1.2 read differently (NEL, LS, PS). For
anything else, and for any error, it answers None and the caller reads the file with ruamel,
whose messages name the line. Line numbers are not kept with the data: the first time a
document needs one (`Document.position`), `places` reads the text's marks with libyaml again,
the same lines and columns ruamel's tree gives, in a tenth of its time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from .. import debug
from ..schema.values import unheld

_PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "int", "float", "str"))
_STRING = "tag:yaml.org,2002:str"
# Characters YAML 1.1 (libyaml) reads as line breaks and YAML 1.2 (ruamel) does not, and the
# tab, which ruamel refuses in places libyaml takes it.
_LEFT_TO_RUAMEL = ("\x85", "\u2028", "\u2029", "\t")


# Texts libyaml takes and ruamel refuses: a line of spaces only (in a block scalar, less
# indented than what follows it) and a quoted key with no space after its colon (`["a":b]`).
_READ_APART = re.compile(r"""^ +$|['"]:[^\s:]""", re.MULTILINE)


class _Unusual(Exception):
    """Something this reading leaves to ruamel."""


def _parser() -> Any:
    """libyaml's event parser, or None where PyYAML was built without it."""
    try:
        from yaml.cyaml import CParser  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - PyYAML's wheels carry libyaml
        return None
    return CParser


_T = TypeVar("_T")


def _quickly(text: str, read: Callable[[Any, _Scalars], _T]) -> _T | None:
    """`read` of libyaml's parser of `text`, or None where ruamel must read it (no libyaml, a
    character or a text the two read apart, libyaml's refusal, `_Unusual`): ruamel then says why."""
    parser = _parser()
    if parser is None or any(char in text for char in _LEFT_TO_RUAMEL) or _READ_APART.search(text):
        return None
    try:
        return read(parser(text), _Scalars())
    except Exception as exc:
        debug.handled(exc)
        return None


class _Scalars:
    """Plain scalars resolved and built by ruamel (YAML 1.2), once per distinct text."""

    def __init__(self) -> None:
        from ruamel.yaml import YAML

        reader = YAML(typ="rt", pure=True)
        self._resolver = reader.resolver
        self._constructor = reader.constructor
        first = set(self._resolver.versioned_resolver)  # characters a resolver may match first
        # A resolver filed under None may match any text: then every scalar is resolved.
        self._first: frozenset[str] | None = None if None in first else frozenset(first)
        self._built: dict[str, Any] = {}

    def plain(self, text: str) -> Any:
        """The value of a plain scalar, as `documents._plain` makes ruamel's."""
        if text and self._first is not None and text[0] not in self._first:
            return text
        if text not in self._built:
            self._built[text] = self._build(text)
        value = self._built[text]
        for kind in (bool, int, float):
            if isinstance(value, kind):
                return kind(value)
        return value

    def key(self, text: str) -> str:
        """A plain scalar as a mapping key: a string only (ruamel compares `1` and `true` as
        keys by Python's equality; that is left to it)."""
        if text and self._first is not None and text[0] not in self._first:
            return text
        if text not in self._built:
            self._built[text] = self._build(text)
        if not isinstance(self._built[text], str):
            raise _Unusual("a key that is not a string")
        return text

    def _build(self, text: str) -> Any:
        from ruamel.yaml.nodes import ScalarNode

        tag = self._resolver.resolve(ScalarNode, text, (True, False))
        if str(tag) not in _PLAIN_TAGS:
            raise _Unusual(str(tag))
        if str(tag) == _STRING:
            return text
        value = self._constructor.construct_object(ScalarNode(tag, text), deep=True)
        if isinstance(value, float) and unheld(text, float(value)) is not None:
            raise _Unusual("a number no double holds")  # ruamel's reading names its line
        return value


class Read(NamedTuple):
    """The plain data of a text, how deep its arrays and objects nest (`documents.depth_of`)
    and how many nodes it holds (keys aside, as `documents` counts them: no alias here)."""

    data: Any
    depth: int
    nodes: int


def load(text: str) -> Read | None:
    """The data as ruamel's tree made plain would be, or None when ruamel must read `text`.

    libyaml refuses every surrogate escape (`"\\ud800"`), so the data holds no lone surrogate.
    """
    return _quickly(text, _read)


def _read(parser: Any, scalars: _Scalars) -> Read:
    from yaml.events import (  # type: ignore[import-untyped]
        DocumentEndEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
        StreamStartEvent,
    )

    try:
        documents = depth = nodes = 0
        root: list[Any] = []
        # Each open container: the list or dict, and for a dict the key read and not yet placed.
        stack: list[list[Any]] = [[root, None]]
        while parser.check_event():
            event = parser.get_event()
            kind = type(event)
            if kind is ScalarEvent:
                if event.anchor is not None or event.tag is not None:
                    raise _Unusual("anchor or tag")
                top = stack[-1]
                if isinstance(top[0], dict) and top[1] is _NO_KEY:  # a key
                    key = scalars.key(event.value) if not event.style else event.value
                    if key in top[0]:
                        raise _Unusual("a repeated key")  # ruamel refuses it, naming the line
                    top[1] = key
                else:
                    _place(stack, scalars.plain(event.value) if not event.style else event.value)
                    nodes += 1
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if event.anchor is not None or event.tag is not None:
                    raise _Unusual("anchor or tag")
                container: Any = {} if kind is MappingStartEvent else []
                if isinstance(stack[-1][0], dict) and stack[-1][1] is _NO_KEY:
                    raise _Unusual("a key that is not a scalar")
                _place(stack, container)
                stack.append([container, _NO_KEY])
                nodes += 1
                depth = max(depth, len(stack) - 1)
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                stack.pop()
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1 or event.version is not None or event.tags:
                    raise _Unusual("directive or a second document")
            elif kind is StreamStartEvent or kind is StreamEndEvent or kind is DocumentEndEvent:
                continue
            else:  # an alias
                raise _Unusual(kind.__name__)
    finally:
        parser.dispose()
    return Read(root[0] if root else None, depth, max(nodes, 1))


_NO_KEY = object()


def _place(stack: list[list[Any]], value: Any) -> None:
    """`value` into the open container: appended to a list, or under the key a dict read last."""
    top = stack[-1]
    if isinstance(top[0], list):
        top[0].append(value)
    else:
        top[0][top[1]] = value
        top[1] = _NO_KEY


class Places(NamedTuple):
    """Where a container's members start (0-based line and column, as ruamel's `lc` says):
    a dict of key -> (the key's place, the value's Places or None), or a list of (the item's
    place, its Places or None)."""

    members: dict[Any, tuple[tuple[int, int], Places | None]] | list[tuple[tuple[int, int], Places | None]]

    def member(self, part: object) -> tuple[tuple[int, int], Places | None] | None:
        """The place of key or index `part` and its own places; None where there is none."""
        if isinstance(self.members, dict):
            return self.members.get(part)
        if isinstance(part, int) and 0 <= part < len(self.members):
            return self.members[part]
        return None


def places(text: str) -> Places | None:
    """The places of a text (libyaml's marks, a tenth of ruamel's time), or None where they
    might not be ruamel's (what `load` leaves to ruamel: an anchor, alias or tag, a key that is
    not a scalar, a directive, a second document, ...): ruamel then reads the text."""
    return _quickly(text, _places)


def _places(parser: Any, scalars: _Scalars) -> Places | None:
    from yaml.events import (
        AliasEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
    )

    try:
        root: list[Any] = []
        # Each open container: its members, and for a mapping the key read and its place.
        stack: list[list[Any]] = [[root, None, None]]
        while parser.check_event():
            event = parser.get_event()
            kind = type(event)
            top = stack[-1]
            mark = (event.start_mark.line, event.start_mark.column)
            if kind is AliasEvent or getattr(event, "anchor", None) is not None or getattr(event, "tag", None):
                raise _Unusual("anchor, alias or tag")  # as `load`: ruamel's lines
            if kind is ScalarEvent and isinstance(top[0], dict) and top[1] is _NO_KEY:
                top[1] = scalars.key(event.value) if not event.style else event.value
                top[2] = mark
            elif kind is ScalarEvent:
                _put(top, mark, None)
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if isinstance(top[0], dict) and top[1] is _NO_KEY:
                    raise _Unusual("a key that is not a scalar")
                container = Places({} if kind is MappingStartEvent else [])
                _put(top, mark, container)
                stack.append([container.members, _NO_KEY, None])
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                stack.pop()
            elif kind is DocumentStartEvent and (root or event.version is not None or event.tags):
                raise _Unusual("directive or a second document")
    finally:
        parser.dispose()
    return root[0][1] if root else None


def _put(top: list[Any], mark: tuple[int, int], value: Places | None) -> None:
    """A member's place into the open container (a mapping's under the place of its key)."""
    if isinstance(top[0], list):
        top[0].append((mark, value))
    else:
        top[0][top[1]] = (top[2], value)
        top[1] = _NO_KEY
