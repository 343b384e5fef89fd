"""Reading YAML and JSON sources so that any value can be traced back to its line."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from ..diagnostics import Diagnostic, display_path, json_pointer


@dataclass(frozen=True)
class Document:
    """A parsed source file: plain Python data plus what is needed to locate a value."""

    path: Path
    data: Any
    _tree: Any = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return display_path(self.path)

    def line_of(self, parts: Sequence[object]) -> int | None:
        """1-based line of the value at `parts` (YAML only); the deepest known line otherwise."""
        node, line = self._tree, None
        for part in parts:
            if isinstance(node, CommentedMap) and part in node:
                line = node.lc.key(part)[0] + 1
                node = node[part]
            elif isinstance(node, CommentedSeq) and isinstance(part, int) and part < len(node):
                line = node.lc.item(part)[0] + 1
                node = node[part]
            else:
                break
        return line

    def diagnostic(self, parts: Sequence[object], message: str) -> Diagnostic:
        """A diagnostic at `parts`: a line for YAML, a JSON pointer for JSON."""
        if self._tree is not None:
            return Diagnostic(self.name, self.line_of(parts), None, message)
        return Diagnostic(self.name, None, json_pointer(parts), message)


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


def read_yaml(path: Path) -> Document | Diagnostic:
    """Parse a YAML file, keeping line numbers; a syntax error becomes a diagnostic."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return Diagnostic(display_path(path), None, None, f"cannot read: {exc}")
    try:
        tree = YAML(typ="rt", pure=True).load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        return Diagnostic(display_path(path), line, None, f"invalid YAML: {problem}")
    except Exception as exc:  # ruamel raises several unrelated classes for bad input
        return Diagnostic(display_path(path), None, None, f"invalid YAML: {exc}")
    return Document(path, _plain(tree), tree)


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


def read_json(path: Path) -> Document | Diagnostic:
    """Parse a JSON file; a syntax error or a repeated key becomes a diagnostic."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return Diagnostic(display_path(path), None, None, f"cannot read: {exc}")
    try:
        return Document(path, json.loads(text, object_pairs_hook=_no_duplicate_keys))
    except json.JSONDecodeError as exc:
        return Diagnostic(display_path(path), exc.lineno, None, f"invalid JSON: {exc.msg} (column {exc.colno})")
    except DuplicateKeyError as exc:
        return Diagnostic(display_path(path), None, None, f"invalid JSON: the key {exc} appears twice in one object")
