"""Reading YAML and JSON sources so that any value can be traced back to its line."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError

from .. import debug
from ..diagnostics import Diagnostic, display_path, json_pointer
from ..schema.values import unheld
from . import fast_yaml
from .flow_depth import flow_depth
from .reading import Reading, read_source


def depth_of(value: Any) -> int:
    """How deep arrays and objects nest in a value (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Unheld:
    """A number of a source that no double holds as written (`schema.values.unheld`): what
    the readers make of it in place of a float, so that `_unfit` can name its place."""

    text: str
    message: str  # why, the text first

    def __str__(self) -> str:  # a mapping key written so is that text
        return self.text


def _number(text: str) -> float | Unheld:
    """A float as JSON and YAML write it, or the `Unheld` it is."""
    value = float(text)
    why = unheld(text, value)
    return value if why is None else Unheld(text, why)


def _constant(text: str) -> Unheld:
    """`NaN`, `Infinity` or `-Infinity`, which Python's JSON reader takes and JSON does not."""
    return Unheld(text, unheld(text, float(text)) or f"{text} is not JSON")


class _Constructor(RoundTripConstructor):
    """ruamel's round-trip constructor, with each float no double holds as written (`1e400`,
    `1e-400`, `.inf`, `.nan`) made an `Unheld`."""

    def construct_yaml_float(self, node: Any) -> Any:
        value = super().construct_yaml_float(node)
        why = unheld(str(node.value), float(value))
        return value if why is None else Unheld(str(node.value), why)


_Constructor.add_constructor("tag:yaml.org,2002:float", _Constructor.construct_yaml_float)


def _unfit(document: Document) -> Diagnostic | None:
    """The first value of the document no output can hold: a string (a key or a value) with
    half of a UTF-16 pair (JSON's `"\\ud800"` and YAML's `"\\ud800"` read as one), or a number
    no double holds as written (`Unheld`)."""
    stack: list[tuple[Any, list[object]]] = [(document.data, [])]
    while stack:
        value, parts = stack.pop()
        if isinstance(value, dict):
            stack.extend((key, [*parts, key]) for key in value)  # a key is judged as a string
            stack.extend((child, [*parts, key]) for key, child in value.items())
        elif isinstance(value, list):
            stack.extend((child, [*parts, index]) for index, child in enumerate(value))
        elif isinstance(value, Unheld):
            return document.diagnostic(parts, value.message)
        found = _SURROGATE.search(value) if isinstance(value, str) else None
        if found is not None:
            message = f"a lone surrogate escape \\u{ord(found.group()):04x}: half of a UTF-16 pair, not a character"
            return document.diagnostic(parts, message)
    return None


def _judged(document: Document, limit: int) -> Document | Diagnostic:
    """`document`, or why no output can hold it: nested deeper than `limit`, or `_unfit`."""
    depth = depth_of(document.data)
    if depth > limit:
        return Diagnostic(document.name, None, None, f"nested {depth} deep, over limits.source_depth ({limit})")
    return _unfit(document) or document


def _expanded_size(node: Any, limit: int) -> int:
    """How many nodes a YAML tree holds with its aliases expanded, counted up to `limit`:
    linear in the tree, however deep the aliases nest (an alias bomb is counted, not built)."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(item: Any) -> int:
        if not isinstance(item, dict | list):
            return 1
        key = id(item)
        if key in active:
            return limit + 1  # an alias inside itself never ends
        if key not in sizes:
            active.add(key)
            total = 1
            for child in item.values() if isinstance(item, dict) else item:
                total += size(child)
                if total > limit:
                    break
            active.discard(key)
            sizes[key] = total
        return sizes[key]

    return size(node)


@dataclass(frozen=True)
class Document:
    """A parsed source file: plain Python data plus what is needed to locate a value.

    A YAML file keeps ruamel's tree, which knows the line and column of every node, or, when
    it was read quickly (`fast_yaml`), its text. A JSON file keeps its text too. The first time
    a place inside either is asked for, libyaml reads the text's marks (`fast_yaml.places`: JSON
    is YAML), or ruamel where libyaml reads a text apart; when neither can read it (a tab where
    YAML wants none), places in it have a pointer and no line.
    """

    path: Path
    data: Any
    _tree: Any = field(default=None, repr=False, compare=False)
    _text: str | None = field(default=None, repr=False, compare=False)
    _positions: list[Any] = field(default_factory=list, repr=False, compare=False)  # [tree] once read
    shown: str | None = None  # how messages name the file (`REF:path` in a git revision)
    _yaml: bool = field(default=False, repr=False, compare=False)  # YAML read by `fast_yaml`: a line per place

    @property
    def name(self) -> str:
        return self.shown if self.shown is not None else display_path(self.path)

    def _located(self) -> Any:
        if self._tree is not None or self._text is None:
            return self._tree
        if not self._positions:
            quick = fast_yaml.places(self._text)  # libyaml's marks (JSON is YAML too)
            if quick is not None:
                self._positions.append(quick)
                return quick
            try:
                self._positions.append(YAML(typ="rt", pure=True).load(self._text))
            except Exception as exc:  # ruamel raises unrelated classes: the place has no line then
                debug.handled(exc)
                self._positions.append(None)
        return self._positions[0]

    def position(self, parts: Sequence[object]) -> tuple[int | None, int | None]:
        """1-based line and column of the value at `parts`: of the deepest part that exists
        (the key of a mapping entry, the item of a sequence), (None, None) when unknown."""
        tree = self._located()
        line, column = _deepest_position(tree, parts)
        if line is None and isinstance(tree, CommentedMap | CommentedSeq | fast_yaml.Places) and not parts:
            return 1, 1
        return line, column

    def line_of(self, parts: Sequence[object]) -> int | None:
        """1-based line of the value at `parts` (YAML only); the deepest known line otherwise."""
        return _deepest_position(self._located() if self._yaml else self._tree, parts)[0]

    def diagnostic(self, parts: Sequence[object], message: str) -> Diagnostic:
        """A diagnostic at `parts`: a line for YAML, a JSON pointer for JSON."""
        if self._tree is not None or self._yaml:
            return Diagnostic(self.name, self.line_of(parts), None, message)
        return Diagnostic(self.name, None, json_pointer(parts), message)


def _deepest_position(tree: Any, parts: Sequence[object]) -> tuple[int | None, int | None]:
    """1-based line and column in ruamel's `tree` of the deepest of `parts` it holds."""
    node, found = tree, None
    for part in parts:
        if isinstance(node, fast_yaml.Places):  # a text libyaml read: its marks, as ruamel's
            member = node.member(part)
            if member is None:
                break
            found, node = member
            continue
        if isinstance(node, CommentedMap) and part in node:
            found = node.lc.key(part)
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and part < len(node):
            found = node.lc.item(part)
        else:
            break
        node = node[part]
    return (found[0] + 1, found[1] + 1) if found is not None else (None, None)


def _plain(node: Any) -> Any:
    """ruamel's round-trip containers and scalars as plain dicts, lists, str, int and float."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    for kind in (bool, str, int, float):
        if isinstance(node, kind):
            return kind(node)
    return node


def read_yaml(path: Path, reading: Reading) -> Document | Diagnostic:
    """Parse a YAML file, keeping line numbers; a syntax error becomes a diagnostic."""
    text = read_source(path, reading)
    if isinstance(text, Diagnostic):
        return text
    name, limit, nodes = reading.name(path), reading.limits.source_depth, reading.limits.yaml_nodes
    aliases = Diagnostic(name, None, None, f"over limits.yaml_nodes ({nodes:,}) with its aliases expanded")
    quick = fast_yaml.load(text)  # most sources: the same values, read by libyaml (no aliases)
    if quick is not None and quick.depth <= limit:  # deeper: refused below, in the same words
        if quick.nodes > nodes:
            return aliases
        return Document(path, quick.data, _text=text, shown=name, _yaml=True)  # no surrogate
    nested = flow_depth(text)  # at least this deep: refused before the parser spends seconds on it
    if nested > limit:
        return Diagnostic(name, None, None, f"nested {nested} deep or more, over limits.source_depth ({limit})")
    try:
        reader = YAML(typ="rt", pure=True)
        reader.Constructor = _Constructor
        tree = reader.load(text)
    except RecursionError:
        return Diagnostic(name, None, None, "nested too deeply to read")
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        return Diagnostic(name, line, None, f"invalid YAML: {problem}")
    except Exception as exc:  # ruamel raises several unrelated classes for bad input
        debug.handled(exc)
        return Diagnostic(name, None, None, f"invalid YAML: {exc}")
    try:
        if _expanded_size(tree, nodes) > nodes:
            return aliases
        return _judged(Document(path, _plain(tree), tree, shown=name), limit)
    except RecursionError:
        return Diagnostic(name, None, None, "nested too deeply to read")


class DuplicateKeyError(ValueError):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """JSON allows repeated keys and keeps the last; in a source that hides a mistake."""
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise DuplicateKeyError(key)
        document[key] = value
    return document


def read_json(path: Path, reading: Reading) -> Document | Diagnostic:
    """Parse a JSON file; a syntax error or a repeated key becomes a diagnostic."""
    text = read_source(path, reading)
    if isinstance(text, Diagnostic):
        return text
    return json_document(path, text, reading)


def json_document(path: Path, text: str, reading: Reading) -> Document | Diagnostic:
    """The JSON text of the source file `path` parsed as `read_json` parses it: a syntax error,
    a repeated key, a number no double holds, a lone surrogate or a depth over the limit is a
    diagnostic."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_float=_number, parse_constant=_constant)
        return _judged(Document(path, data, _text=text, shown=reading.name(path)), reading.limits.source_depth)
    except json.JSONDecodeError as exc:
        return Diagnostic(reading.name(path), exc.lineno, None, f"invalid JSON: {exc.msg} (column {exc.colno})")
    except RecursionError:
        return Diagnostic(reading.name(path), None, None, "nested too deeply to read")
    except DuplicateKeyError as exc:
        return Diagnostic(reading.name(path), None, None, f"invalid JSON: the key {exc} appears twice in one object")
