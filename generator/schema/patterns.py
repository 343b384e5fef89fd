"""Patterns that are not ECMA-262 regular expressions.

JSON Schema's `pattern` and the keys of `patternProperties` are ECMA-262 regular
expressions. The Python judge's engine also compiles some that are not (`^a++$`, `(?i)a`,
`(?P<n>a)`, Rust's syntax), which a JavaScript judge, or any client in another language,
cannot: such a contract would mean one thing to Python and nothing elsewhere. A pattern
is ECMA-262 when regress (an ECMA-262 engine) compiles it with the `u` flag or without it,
as the generated TypeScript judge compiles it.

The Python judge's engine (jsonschema-rs: its own ECMA-262 translation, then fancy-regex)
refuses some ECMA-262 (`\\k<name>`, `\\0`, a surrogate pair `\\ud83d\\ude00`, `[^]`, `[]`,
`[\\b]`): `for_rust_engine` writes those so that it compiles them and reads them alike, for
every schema it compiles (`engine.standalone_validator`, the envelope's judge at load, the
package's `schema.json`); what it cannot read alike is refused at load, named (`unsupported`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import regress

from .vocabulary import Vocabulary
from .walk import Path, walk


def is_ecma_262(pattern: str, flags: tuple[str, ...] = ("u", "")) -> bool:
    """Whether `pattern` is an ECMA-262 regular expression (with the `u` flag or without)."""
    for flag in flags:
        try:
            regress.Regex(pattern, flag)
        except regress.RegressError:
            continue
        return True
    return False


def non_ecma_patterns(document: Any, base: str = "", dialect: Vocabulary | None = None) -> Iterator[tuple[Path, str]]:
    """(path from `document`, message) of each `pattern`, and each key of `patternProperties`,
    that is not ECMA-262, in every subschema of `document`."""
    for visit in walk(document, base, dialect):
        node = visit.node
        if not isinstance(node, dict):
            continue
        pattern = node.get("pattern")
        said = _refusal(pattern) if isinstance(pattern, str) else None
        if said is not None:
            yield (*visit.path, "pattern"), said
        keyed = node.get("patternProperties")
        for key in keyed if isinstance(keyed, dict) else ():
            said = _refusal(key)
            if said is not None:
                yield (*visit.path, "patternProperties", key), said


def _refusal(pattern: str) -> str | None:
    """Why `pattern` is refused: not ECMA-262, or a construct the two judges cannot read alike."""
    if not is_ecma_262(pattern):
        return (
            f"{pattern!r} is not an ECMA-262 regular expression, which JSON Schema's patterns are"
            " (Rust's or Python's syntax, such as `a++`, `(?i)` or `(?P<name>...)`, is not)"
        )
    construct = unsupported(pattern)
    return None if construct is None else f"{pattern!r}: {construct}"


# ECMA-262 (with the `u` flag) written so that jsonschema-rs's engine (fancy-regex, after its
# own ECMA-262 translation) compiles it and reads it alike: what that engine refuses today.
_ANY, _NOTHING = r"[\s\S]", r"[^\s\S]"
_HEX = frozenset("0123456789abcdefABCDEF")
_MODIFIERS = re.compile(r"\(\?(?:[ims]+(?:-[ims]*)?|-[ims]+):")  # `(?i:...)`, `(?-s:...)`; not `(?:`
_QUANTIFIER = re.compile(r"[*+?]|\{[0-9]+(?:,[0-9]*)?\}")


class _Unsupported(Exception):
    """A construct of an ECMA-262 pattern that a judge cannot read alike: the message names it."""


def _hex4(pattern: str, at: int) -> int | None:
    """The value of `\\uHHHH` at `at` (the backslash), or None when none is there."""
    digits = pattern[at + 2 : at + 6]
    return int(digits, 16) if pattern.startswith("\\u", at) and len(digits) == 4 and set(digits) <= _HEX else None


def _groups(pattern: str) -> dict[str, list[int]]:
    """The capturing groups' numbers by name (`(?<name>...)`), in ECMA-262's order of their `(`."""
    names: dict[str, list[int]] = {}
    number, index, in_class = 0, 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if in_class or char == "[":
            closing = pattern.startswith(("[]", "[^]"), index) and not in_class  # a class of its own: no group
            in_class = char != "]" if in_class else not closing
            index += (3 if pattern.startswith("[^]", index) else 2) if closing else 1
            continue
        if char == "(" and (not pattern.startswith("(?", index) or _named_at(pattern, index)):
            number += 1
            if _named_at(pattern, index):
                names.setdefault(pattern[index + 3 : pattern.index(">", index)], []).append(number)
        index += 1
    return names


def _named_at(pattern: str, index: int) -> bool:
    return pattern.startswith("(?<", index) and not pattern.startswith(("(?<=", "(?<!"), index)


@dataclass
class _Frame:
    """A group of a pattern while it is read: the branch it is in (`|` so far), whether it
    holds more than one branch, is quantified (but `{1}`) or is a lookaround."""

    branch: int = 0
    alternatives: bool = False
    quantified: bool = False
    lookaround: bool = False


@dataclass
class _Captures:
    """Where each capturing group stands, to tell whether a backreference finds it set, as
    ECMA-262 and jsonschema-rs's engine both do: only then do they read it alike."""

    stack: list[_Frame] = field(default_factory=lambda: [_Frame()])
    opened: list[int | None] = field(default_factory=list)  # the groups open, by number (None: not capturing)
    frames: dict[int, tuple[tuple[_Frame, int], ...]] = field(default_factory=dict)  # each group's frames, branches
    closed: dict[int, _Frame] = field(default_factory=dict)

    def open(self, number: int | None, lookaround: bool) -> None:
        frame = _Frame(lookaround=lookaround)
        if number is not None:
            self.frames[number] = tuple((outer, outer.branch) for outer in self.stack)
        self.stack.append(frame)
        self.opened.append(number)

    def close(self, quantified: bool) -> None:
        if len(self.stack) > 1:
            frame, number = self.stack.pop(), self.opened.pop()
            frame.quantified = quantified
            if number is not None:
                self.closed[number] = frame

    def certain(self, number: int) -> bool:
        """Whether group `number` has taken part, once, in every match that reaches here: it
        has closed, is not quantified, and no frame around it that is not around here too has
        branches, a quantifier or is a lookaround; those around both have no `|` between.
        (Repeated, the engines part: ECMA-262 refuses an empty iteration past the least
        number, and its captures restart each iteration; jsonschema-rs's engine does neither,
        and leaves splits of `(a+)+` untried.)"""
        own = self.closed.get(number)
        if own is None or own.quantified:
            return False
        here = {id(frame): frame.branch for frame in self.stack}
        for frame, branch in self.frames[number]:
            if id(frame) in here:
                if here[id(frame)] != branch:
                    return False
            elif frame.alternatives or frame.quantified or frame.lookaround:
                return False
        return True


def for_rust(pattern: str) -> str:
    """`pattern` (ECMA-262, `u` flag) as jsonschema-rs's engine reads it alike: `\\0` as `\\x00`,
    a surrogate pair `\\ud83d\\ude00` as `\\u{1f600}`, `[\\b]` as `[\\x08]`, `[]` and `[^]` as
    classes it takes, named groups unnamed and `\\k<name>` as the group's number. _Unsupported
    for what it cannot read alike (see `unsupported`)."""
    names = _groups(pattern)
    out: list[str] = []
    number, index, in_class = 0, 0, False
    captures = _Captures()
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            text, index = _escape(pattern, index, in_class, names, captures)
            out.append(text)
            continue
        if not in_class and pattern.startswith(("[]", "[^]"), index):
            empty = pattern.startswith("[]", index)
            out.append(_NOTHING if empty else _ANY)
            index += 2 if empty else 3
            continue
        if in_class or char == "[":
            in_class = char != "]" if in_class else True
        elif char == "(":
            modifiers = _MODIFIERS.match(pattern, index)
            if modifiers is not None:
                raise _Unsupported(
                    f"the modifier group {modifiers[0]}...) is not supported: ECMAScript 2025, which node before 23"
                    " refuses"
                )
            capturing = not pattern.startswith("(?", index) or _named_at(pattern, index)
            number += capturing
            looking = pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), index)
            captures.open(number if capturing else None, looking)
            if _named_at(pattern, index):
                out.append("(")
                index = pattern.index(">", index) + 1
                continue
        elif char == ")":
            quantifier = _QUANTIFIER.match(pattern, index + 1)
            captures.close(quantifier is not None and quantifier[0] not in ("{1}", "{1,1}"))
        elif char == "|":
            captures.stack[-1].branch += 1
            captures.stack[-1].alternatives = True
        out.append(char)
        index += 1
    return "".join(out)


def _escape(
    pattern: str, index: int, in_class: bool, names: dict[str, list[int]], captures: _Captures
) -> tuple[str, int]:
    """The escape at `index` as the engine reads it alike, and the index after it."""
    follower = pattern[index + 1 : index + 2]
    if follower == "0" and not pattern[index + 2 : index + 3].isdigit():
        return "\\x00", index + 2
    if follower == "b" and in_class:
        return "\\x08", index + 2
    if follower == "u":
        return _unicode(pattern, index)
    if follower == "k" and not in_class:
        name = pattern[index + 3 : pattern.index(">", index)]
        numbers = names.get(name, [])
        if len(numbers) != 1:
            raise _Unsupported(f"the named backreference \\k<{name}> to a group name written twice is not supported")
        return _backreference(numbers[0], f"\\k<{name}>", captures), pattern.index(">", index) + 1
    if follower.isdigit() and not in_class:
        end = index + 1
        while end < len(pattern) and pattern[end].isdigit():
            end += 1
        return _backreference(int(pattern[index + 1 : end]), pattern[index:end], captures), end
    return pattern[index : index + 2], index + 2


def _backreference(number: int, written: str, captures: _Captures) -> str:
    """A backreference to a group every match reaching it has set. Elsewhere ECMA-262 matches
    the empty string where jsonschema-rs's engine matches nothing (a group not closed yet,
    optional, in another branch) or keeps an earlier iteration's capture (a quantified group)."""
    if not captures.certain(number):
        raise _Unsupported(
            f"the backreference {written} to a group a match may not have set there is not supported:"
            " ECMA-262 and the Python judge's engine read it apart (the empty string or nothing, one"
            " iteration's capture or another)"
        )
    return f"(?:\\{number})"


def _unicode(pattern: str, index: int) -> tuple[str, int]:
    """`\\uHHHH` or `\\u{H...}` at `index`: a surrogate pair as one code point; a lone
    surrogate, which no judge reads alike (JSON text gives JavaScript one, Python none), refused."""
    high = _hex4(pattern, index)
    if high is None:
        end = pattern.find("}", index)
        value = int(pattern[index + 3 : end], 16) if pattern.startswith("\\u{", index) and end > 0 else None
        if value is not None and 0xD800 <= value <= 0xDFFF:
            raise _Unsupported(_lone(pattern[index : end + 1]))
        return pattern[index : index + 2], index + 2
    low = _hex4(pattern, index + 6)
    if 0xD800 <= high <= 0xDBFF and low is not None and 0xDC00 <= low <= 0xDFFF:
        return f"\\u{{{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):x}}}", index + 12
    if 0xD800 <= high <= 0xDFFF:
        raise _Unsupported(_lone(pattern[index : index + 6]))
    return pattern[index : index + 6], index + 6


def _lone(escape: str) -> str:
    return f"the lone surrogate escape {escape} is not supported: half of a UTF-16 pair, which no Unicode text holds"


def unsupported(pattern: str) -> str | None:
    """The construct of an ECMA-262 pattern (`u` flag) that the judges cannot read alike,
    named; None when both read it (and for a pattern that is ECMA-262 only without `u`):
    a backreference to a group a match may not have set there (`\\1(a)`, `(a\\1)`, `(a)?\\1`,
    `(?:(a)|b)\\1`, `(a)*\\1`: ECMA-262 matches the empty string, jsonschema-rs's engine
    nothing or an earlier iteration's capture), a group name written twice or a modifier
    group `(?i:...)` (ECMAScript 2025: node before 23 refuses them), a lone surrogate escape
    (`\\ud800`: JavaScript's strings hold half of a UTF-16 pair, Python's none)."""
    if not is_ecma_262(pattern, ("u",)):
        return None
    names = _groups(pattern)
    twice = next((name for name, numbers in names.items() if len(numbers) > 1), None)
    if twice is not None:
        return f"the group name <{twice}> written twice is not supported: ECMAScript 2025, which node before 23 refuses"
    try:
        for_rust(pattern)
    except _Unsupported as exc:
        return str(exc)
    return None


def for_rust_engine(document: Any, base: str = "") -> Any:
    """A copy of `document` whose patterns (`pattern`, `patternProperties` keys) jsonschema-rs
    reads as ECMA-262 does (`for_rust`); `document` itself when it has none to change."""
    changes: list[tuple[Path, str]] = []
    for visit in walk(document, base):
        node = visit.node if isinstance(visit.node, dict) else {}
        pattern, keyed = node.get("pattern"), node.get("patternProperties")
        if isinstance(pattern, str) and _translated(pattern) != pattern:
            changes.append((visit.path, "pattern"))
        if isinstance(keyed, dict) and any(_translated(key) != key for key in keyed):
            changes.append((visit.path, "patternProperties"))
    if not changes:
        return document
    result = copy.deepcopy(document)
    for path, keyword in sorted(changes, key=lambda change: len(change[0]), reverse=True):  # the deepest first
        node = result
        for part in path:
            node = node[part]
        if keyword == "pattern":
            node[keyword] = _translated(node[keyword])
        else:
            node[keyword] = {_translated(key): value for key, value in node[keyword].items()}
    return result


def _translated(pattern: str) -> str:
    """`for_rust(pattern)` of a pattern with the `u` flag; any other as written (refused at
    load, or read by both judges without the flag)."""
    return for_rust(pattern) if is_ecma_262(pattern, ("u",)) and unsupported(pattern) is None else pattern


def judged(resources: Mapping[str, Any]) -> dict[str, Any]:
    """The resources of a bundle (by URI) as the Python judge compiles them: each one's
    patterns written for its engine (`for_rust_engine`)."""
    return {uri: for_rust_engine(resource, uri) for uri, resource in resources.items()}
