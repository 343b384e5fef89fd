"""Reading YAML and JSON sources so that any value can be traced back to its line."""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError

from .. import debug
from ..config import Limits
from ..diagnostics import Diagnostic, display_path, json_pointer
from ..files import Linked, NotRegular, entry_beneath, listing_beneath, names, read_beneath
from ..schema.values import unheld
from . import fast_yaml
from .flow_depth import flow_depth


class Files(Protocol):
    """Where one load's files come from: the disk (`Disk`), or the tree of a git revision
    (`generator.breaking.git_tree.GitTree`, for `breaking`). The paths are the loader's: a tree
    mounts its files under a folder of its own, and names each as the user should read it."""

    def name(self, path: Path) -> str:
        """The file as messages name it."""
        ...

    def is_dir(self, path: Path) -> bool: ...

    def is_file(self, path: Path) -> bool:
        """Whether a file is there to read (or to refuse, saying why, when it is read)."""
        ...

    def folders(self, folder: Path) -> list[Path]:
        """The folders in `folder`, sorted."""
        ...

    def glob(self, folder: Path, pattern: str, *, recursive: bool) -> list[Path]:
        """The files whose names match `pattern` in `folder` (or anywhere under it), sorted."""
        ...

    def inside(self, base: Path, relative: str) -> Path | None:
        """`base/relative` when it stays inside `base` and is a file."""
        ...

    def data(self, path: Path, reading: Reading) -> bytes | Diagnostic:
        """The bytes of a source file, or why they are not read."""
        ...

    def text(self, path: Path, reading: Reading) -> str | Diagnostic:
        """The text of a source file, or why it is not read."""
        ...


@dataclass(frozen=True)
class Disk:
    """The files of the disk below `root`, the sources folder as named (`real`, the same
    resolved), read and listed by the walker of `files`: nothing below the folder is read or
    listed through a symlink. A file of a folder that `references:` names outside it is found
    by `inside`, which walks below that folder alike."""

    root: Path  # absolute, normalized, not resolved
    real: Path

    @classmethod
    def below(cls, folder: Path) -> Disk:
        return cls(Path(os.path.normpath(folder.absolute())), folder.resolve())

    def _located(self, path: Path) -> tuple[Path, tuple[str, ...]] | None:
        """`path` as a folder to start from and the names below it; None outside the sources."""
        lexical = Path(os.path.normpath(path.absolute()))
        for root in (self.root, self.real):
            if lexical == root or root in lexical.parents:
                return root, lexical.relative_to(root).parts
        return None

    def name(self, path: Path) -> str:
        return display_path(path)

    def _mode(self, path: Path) -> int | Linked | None:
        """The entry's own mode, Linked when a folder on the way is a symlink, None if none."""
        located = self._located(path)
        try:
            if located is None:
                return os.lstat(path).st_mode
            return entry_beneath(*located)
        except Linked as exc:
            return exc
        except OSError:
            return None

    def is_dir(self, path: Path) -> bool:
        """A folder, or a path that a symlink stops (listing it says why, as reading in it does)."""
        mode = self._mode(path)
        return isinstance(mode, Linked) or (mode is not None and (stat.S_ISDIR(mode) or stat.S_ISLNK(mode)))

    def is_file(self, path: Path) -> bool:
        mode = self._mode(path)
        return isinstance(mode, Linked) or (mode is not None and not stat.S_ISDIR(mode))

    def _listing(self, folder: Path) -> list[tuple[str, int]] | None:
        """The entries of `folder`, nothing followed; None when a symlink stops it."""
        located = self._located(folder)
        try:
            return listing_beneath(*located) if located is not None else listing_beneath(folder, ())
        except Linked:
            return None
        except OSError:
            return []

    def folders(self, folder: Path) -> list[Path]:
        """The folders in `folder`, and its symlinks (reading in one says why); `folder` alone
        when a symlink stops it."""
        listing = self._listing(folder)
        if listing is None:
            return [folder]
        return [folder / name for name, mode in listing if stat.S_ISDIR(mode) or stat.S_ISLNK(mode)]

    def glob(self, folder: Path, pattern: str, *, recursive: bool) -> list[Path]:
        """The entries whose names match (a symlink among them, refused when read), in each
        folder below too when `recursive`; `folder` alone when a symlink stops it."""
        listing = self._listing(folder)
        if listing is None:
            return [folder]
        found: list[Path] = []
        for name, mode in listing:
            if stat.S_ISDIR(mode):
                found += self.glob(folder / name, pattern, recursive=True) if recursive else []
            elif fnmatch.fnmatchcase(name, pattern):
                found.append(folder / name)
        return sorted(found)

    def inside(self, base: Path, relative: str) -> Path | None:
        """`base/relative` when `relative` stays in `base` and names an entry there (below
        the sources, a symlink on the way counts: reading it says why); below a folder outside
        the sources, only a regular file reached without a symlink."""
        parts = names(relative)
        if parts is None:
            return None
        candidate = base.joinpath(*parts)
        if self._located(base) is not None:
            return candidate if self.is_file(candidate) else None
        try:
            mode = entry_beneath(base, parts)
        except OSError:
            return None
        return candidate if mode is not None and stat.S_ISREG(mode) else None

    def data(self, path: Path, reading: Reading) -> bytes | Diagnostic:
        """Refused: a symlink anywhere below the sources folder, not a regular file (a FIFO,
        a device), over `limits.source_bytes`."""
        where = display_path(path)
        located = self._located(path) or (path.parent, (path.name,))
        limit = reading.limits.source_bytes
        try:
            data = read_beneath(*located, limit)
        except Linked as exc:
            whole = exc.link == "/".join(located[1])
            return Diagnostic(where, None, None, NOT_FOLLOWED if whole else linked(display_path(located[0] / exc.link)))
        except NotRegular as exc:
            return Diagnostic(where, None, None, f"{exc}: not read")
        except OSError as exc:
            return Diagnostic(where, None, None, f"cannot read: {exc.strerror or exc}")
        if len(data) > limit:
            with contextlib.suppress(OSError):
                limit_hit = max(len(data), os.lstat(path).st_size)  # the walk found it a regular file
                return Diagnostic(where, None, None, over_limit(limit_hit, limit))
            return Diagnostic(where, None, None, over_limit(len(data), limit))
        return data

    def text(self, path: Path, reading: Reading) -> str | Diagnostic:
        """`data`, refused too when it is not UTF-8."""
        return decoded(self.name(path), self.data(path, reading))


NOT_FOLLOWED = "a symlink: not followed"


def linked(shown: str) -> str:
    """Why a file behind the symlink `shown` (a folder on the way to it) is not read."""
    return f"{shown} is a symlink: not followed, so nothing in it is read"


def over_limit(size: int, limit: int) -> str:
    """Why a source of `size` bytes is not read."""
    return f"{size:,} bytes, over limits.source_bytes ({limit:,})"


def source_text(data: bytes) -> str:
    """The text of a source's bytes, lines ended as `read_text` ends them (UnicodeDecodeError
    when they are not UTF-8)."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def decoded(where: str, data: bytes | Diagnostic) -> str | Diagnostic:
    """The text of a source's bytes (`source_text`), or why it is not read."""
    if isinstance(data, Diagnostic):
        return data
    try:
        return source_text(data)
    except UnicodeDecodeError as exc:
        return Diagnostic(where, None, None, f"cannot read: {exc}")


@dataclass(frozen=True)
class Reading:
    """How one load reads its sources: within these limits, inside `root` (a resolved
    folder), from `files` (the disk, or a git tree). A value handed down every call that
    reads a file, so that no command can read sources without the project's limits and the
    symlink guard; `api` makes it from the settings, and nothing below it has a default."""

    limits: Limits
    root: Path
    files: Files
    project: Path | None = None  # the project's folder, resolved: `references:` stay inside it
    contracts: Path | None = None  # where a relative `references:` is read from (`import`'s copy)

    @classmethod
    def within(
        cls, folder: Path, limits: Limits, project: Path | None = None, contracts: Path | None = None
    ) -> Reading:
        """Reading the sources of `folder` on disk within `limits`, the folders `references:`
        names inside `project` (none: anywhere, as an old revision's folder is read), a relative
        one from the contract's folder in `contracts` when given (else the one read)."""
        resolved = project.resolve() if project is not None else None
        return cls(limits, folder.resolve(), Disk.below(folder), resolved, contracts)

    def within_project(self, path: Path) -> bool:
        """Whether `path`, resolved, is inside the project (no project: yes)."""
        if self.project is None:
            return True
        resolved = path.resolve()
        return resolved == self.project or self.project in resolved.parents

    def name(self, path: Path) -> str:
        """`path` as messages name it."""
        return self.files.name(path)


def read_source(path: Path, reading: Reading) -> str | Diagnostic:
    """The text of a source file, or why it is not read (see `Files.text`)."""
    return reading.files.text(path, reading)


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


def _too_deep(name: str, data: Any, limit: int) -> Diagnostic | None:
    depth = depth_of(data)
    if depth > limit:
        return Diagnostic(name, None, None, f"nested {depth} deep, over limits.source_depth ({limit})")
    return None


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
    limit = reading.limits.source_depth
    quick = fast_yaml.load(text)  # most sources: the same values, read by libyaml (no aliases)
    if quick is not None and quick.depth <= limit:  # deeper: refused below, in the same words
        if quick.nodes > reading.limits.yaml_nodes:
            message = f"over limits.yaml_nodes ({reading.limits.yaml_nodes:,}) with its aliases expanded"
            return Diagnostic(reading.name(path), None, None, message)
        return Document(path, quick.data, _text=text, shown=reading.name(path), _yaml=True)  # no surrogate
    nested = flow_depth(text)  # at least this deep: refused before the parser spends seconds on it
    if nested > limit:
        message = f"nested {nested} deep or more, over limits.source_depth ({limit})"
        return Diagnostic(reading.name(path), None, None, message)
    try:
        reader = YAML(typ="rt", pure=True)
        reader.Constructor = _Constructor
        tree = reader.load(text)
    except RecursionError:
        return Diagnostic(reading.name(path), None, None, "nested too deeply to read")
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        return Diagnostic(reading.name(path), line, None, f"invalid YAML: {problem}")
    except Exception as exc:  # ruamel raises several unrelated classes for bad input
        debug.handled(exc)
        return Diagnostic(reading.name(path), None, None, f"invalid YAML: {exc}")
    limit = reading.limits.yaml_nodes
    try:
        if _expanded_size(tree, limit) > limit:
            message = f"over limits.yaml_nodes ({limit:,}) with its aliases expanded"
            return Diagnostic(reading.name(path), None, None, message)
        plain = _plain(tree)
        document = Document(path, plain, tree, shown=reading.name(path))
        return _too_deep(document.name, plain, reading.limits.source_depth) or _unfit(document) or document
    except RecursionError:
        return Diagnostic(reading.name(path), None, None, "nested too deeply to read")


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
        document = Document(path, data, _text=text, shown=reading.name(path))
        return _too_deep(document.name, data, reading.limits.source_depth) or _unfit(document) or document
    except json.JSONDecodeError as exc:
        return Diagnostic(reading.name(path), exc.lineno, None, f"invalid JSON: {exc.msg} (column {exc.colno})")
    except RecursionError:
        return Diagnostic(reading.name(path), None, None, "nested too deeply to read")
    except DuplicateKeyError as exc:
        return Diagnostic(reading.name(path), None, None, f"invalid JSON: the key {exc} appears twice in one object")
