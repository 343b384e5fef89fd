"""ruamel's round-trip tree of a YAML text, scanned by libyaml: the same tree, sooner.

ruamel's pure-Python scanner and parser spend nine tenths of loading the sources (a
tools.yaml of 65 tools: 0.1 s). libyaml, through PyYAML's C parser, makes the same events
in a hundredth of that; ruamel's own composer, resolver (YAML 1.2) and round-trip
constructor then build the tree from them, so every value, every line and column of
`CommentedMap.lc`, each duplicate key, merge key and scalar type is decided by the same
code as before. Only the scanning differs, and only where the two scanners agree is it
used: a text with what the YAML 1.1 scanner of libyaml reads otherwise than ruamel's 1.2
one (tabs, `\\r`, the line breaks and byte order mark of 1.1, directives), or whose events
hold a tag, an anchor, an alias or an empty plain scalar (`key:` with no value: ruamel marks
it at the next token, libyaml after the colon), is read by ruamel alone, and so is any text that either
side refuses: its error is ruamel's, as it always was. `tests/test_fast_yaml.py` compares
both readings, value and position, on every YAML source of the repository and on texts
made to tell them apart.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml import events as ruamel_events
from ruamel.yaml.error import StreamMark

try:  # PyYAML built with libyaml; without it every text is read by ruamel alone
    import yaml as _pyyaml  # type: ignore[import-untyped,unused-ignore]
    from yaml._yaml import CParser as _CParser  # type: ignore[import-untyped,unused-ignore]
except ImportError:  # pragma: no cover - PyYAML comes with libyaml on every supported platform
    _CParser = None

# Characters the two scanners read differently: a tab (YAML 1.2 allows it in more places),
# a carriage return, YAML 1.1's line breaks (NEL, LS, PS) and a byte order mark.
_DIFFERENT = ("\t", "\r", "\x85", "\u2028", "\u2029", "\ufeff")


class _Unusual(Exception):
    """What the fast reading leaves to ruamel: a directive, a tag, an anchor or an alias."""


def load(text: str) -> Any:
    """What `YAML(typ="rt", pure=True).load(text)` returns (and raises)."""
    if _CParser is not None and not any(char in text for char in _DIFFERENT):
        try:
            events = _events(text)
            yaml = YAML(typ="rt", pure=True)
            yaml.Parser = partial(_Replay, events)
            return yaml.load(text)
        except Exception:
            pass
    return YAML(typ="rt", pure=True).load(text)


def _mark(mark: Any) -> StreamMark:
    return StreamMark("<unicode string>", mark.index, mark.line, mark.column)


def _events(text: str) -> list[Any]:
    """libyaml's events of `text` as ruamel's parser makes them (without comments)."""
    parser = _CParser(text)
    made: list[Any] = []
    try:
        while True:
            event = parser.get_event()
            if event is None:
                return made
            made.append(_converted(event))
    finally:
        parser.dispose()


def _converted(event: Any) -> Any:
    start, end = _mark(event.start_mark), _mark(event.end_mark)
    kind = type(event)
    if kind is _pyyaml.ScalarEvent:
        if event.tag is not None or event.anchor is not None:
            raise _Unusual("a tag or an anchor")
        style = event.style or None  # PyYAML says a plain scalar's style is "", ruamel None
        if not event.value and style is None:  # ruamel places an empty value elsewhere
            raise _Unusual("an empty plain scalar")
        return ruamel_events.ScalarEvent(None, None, event.implicit, event.value, start, end, style=style)
    if kind is _pyyaml.MappingStartEvent or kind is _pyyaml.SequenceStartEvent:
        if event.tag is not None or event.anchor is not None:
            raise _Unusual("a tag or an anchor")
        made = (
            ruamel_events.MappingStartEvent if kind is _pyyaml.MappingStartEvent else ruamel_events.SequenceStartEvent
        )
        return made(None, None, event.implicit, start, end, flow_style=event.flow_style)
    if kind is _pyyaml.MappingEndEvent:
        return ruamel_events.MappingEndEvent(start, end)
    if kind is _pyyaml.SequenceEndEvent:
        return ruamel_events.SequenceEndEvent(start, end)
    if kind is _pyyaml.DocumentStartEvent:
        if event.version is not None or event.tags:
            raise _Unusual("a directive")
        return ruamel_events.DocumentStartEvent(start, end, explicit=event.explicit)
    if kind is _pyyaml.DocumentEndEvent:
        return ruamel_events.DocumentEndEvent(start, end, explicit=event.explicit)
    if kind is _pyyaml.StreamStartEvent:
        return ruamel_events.StreamStartEvent(start, end, encoding=None)
    if kind is _pyyaml.StreamEndEvent:
        return ruamel_events.StreamEndEvent(start, end)
    raise _Unusual(kind.__name__)  # an alias


class _Replay:
    """ruamel's `Parser` interface over events made already (see `YAML.Parser`)."""

    def __init__(self, events: list[Any], loader: Any = None) -> None:
        self._events = events
        self._next = 0

    def check_event(self, *choices: Any) -> bool:
        if self._next >= len(self._events):
            return False
        return not choices or isinstance(self._events[self._next], choices)

    def peek_event(self) -> Any:
        return self._events[self._next] if self._next < len(self._events) else None

    def get_event(self) -> Any:
        event = self.peek_event()
        self._next += 1
        return event

    def dispose(self) -> None:
        self._events = []

    def reset_parser(self) -> None:
        self.dispose()
