"""The contract folder `import` reads and writes in place, under the loader's guard.

A contract that exists is read without following anything: a symlink or a special file (a
FIFO, a device, a socket) anywhere in it is refused by name before anything is read or
written, as the loader refuses them (`files.read_beneath`), and a file over
`limits.source_bytes` too. Writing changes only the files whose bytes change, each replaced
in one step (a new file beside it, renamed over it): every other file and folder stays as
it is, and those an import takes out (an example the server's schemas now refuse) are the
only ones removed.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Limits
from ..diagnostics import Diagnostic, display_path
from ..files import Linked, NotRegular, entry_beneath, listing_beneath, not_regular, read_beneath, write_whole
from ..load.reading import over_limit

# Python's own, never read nor written (as `generate` leaves it in the output folder).
_IGNORED = "__pycache__"


@dataclass
class Changed:
    """The files one import wrote (created or changed) and removed, in sorted order."""

    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)


def guarded_folder(folder: Path, limits: Limits) -> dict[str, bytes] | Diagnostic | None:
    """The files of the contract folder (relative path -> bytes); None when there is none;
    a Diagnostic naming the first entry that is not read (a symlink, a special file, one
    over the limit, one that cannot be read). Read by the walker of `files`: nothing followed."""
    try:
        for place in (folder.parent, folder):
            refused = _refused_entry(place)
            if refused is not None:
                return refused
        return _files(folder, limits) if entry_beneath(folder.parent, (folder.name,)) is not None else None
    except OSError as exc:  # a folder this user may not read
        return Diagnostic(display_path(Path(exc.filename or folder)), None, None, f"cannot read: {exc.strerror}")


def _files(folder: Path, limits: Limits) -> dict[str, bytes] | Diagnostic:
    """Every file under `folder` (but `__pycache__`), or why one is not read."""
    files: dict[str, bytes] = {}
    stack: list[tuple[str, ...]] = [()]
    while stack:
        current = stack.pop()
        for name, mode in listing_beneath(folder, current):
            parts = (*current, name)
            if stat.S_ISDIR(mode):
                if name != _IGNORED:
                    stack.append(parts)
                continue
            content = _read(folder, parts, limits)
            if isinstance(content, Diagnostic):
                return content
            files["/".join(parts)] = content
    return dict(sorted(files.items()))


def _refused_entry(path: Path) -> Diagnostic | None:
    """Why `path` (the contract folder, or the folder of contracts) is not a folder to read
    or write in, or None (it may be missing)."""
    mode = entry_beneath(path.parent, (path.name,))
    if mode is None:
        return None
    if stat.S_ISLNK(mode):
        return Diagnostic(display_path(path), None, None, "a symlink: import writes only into a folder of its own")
    if not stat.S_ISDIR(mode):
        return Diagnostic(display_path(path), None, None, f"{not_regular(mode) or 'a file'}, not a folder")
    return None


def _read(folder: Path, parts: tuple[str, ...], limits: Limits) -> bytes | Diagnostic:
    """The bytes of one regular file of the folder, or why it is not read."""
    where = display_path(folder.joinpath(*parts))
    try:
        data = read_beneath(folder, parts, limits.source_bytes)
    except Linked:
        return Diagnostic(where, None, None, "a symlink: not followed, so the contract is not written")
    except NotRegular as exc:
        return Diagnostic(where, None, None, f"{exc}: not read, so the contract is not written")
    except OSError as exc:
        return Diagnostic(where, None, None, f"cannot read: {exc.strerror}")
    if len(data) > limits.source_bytes:
        return Diagnostic(where, None, None, over_limit(len(data), limits.source_bytes))
    return data


class Tree(Mapping[str, bytes]):
    """The files of an import (relative path -> bytes): those held in memory, and those
    staged on disk (the contents read from a server), whose bytes are read only when one is
    asked for, so that a thousand large contents files never sit in memory together."""

    def __init__(self, held: Mapping[str, bytes], staged: Mapping[str, Path]) -> None:
        self._held = held
        self._staged = {path: place for path, place in staged.items() if path not in held}

    def __getitem__(self, relative: str) -> bytes:
        place = self._staged.get(relative)
        return place.read_bytes() if place is not None else self._held[relative]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({*self._held, *self._staged}))

    def __len__(self) -> int:
        return len(self._held) + len(self._staged)

    def __contains__(self, relative: object) -> bool:
        return relative in self._held or relative in self._staged

    def copy_to(self, relative: str, path: Path) -> None:
        """Write file `relative` at `path`: a staged one linked (or copied) there, not read."""
        place = self._staged.get(relative)
        if place is None:
            path.write_bytes(self._held[relative])
            return
        try:
            os.link(place, path)
        except OSError:  # another file system, or no hard links there
            shutil.copyfile(place, path)


class WriteFailed(Exception):
    """A file of the import could not be written or removed: `path`, and what was `changed`
    before it (each of those whole)."""

    def __init__(self, path: Path, error: OSError, changed: Changed) -> None:
        super().__init__(error.strerror or str(error))
        self.path, self.changed = path, changed


def write_changes(folder: Path, files: Mapping[str, bytes], existing: Mapping[str, bytes]) -> Changed:
    """Make the files of `folder` that an import owns hold `files`: each one whose bytes
    change replaced in one step, each of `existing` that `files` lacks removed; nothing else
    touched. WriteFailed at the first file that cannot be."""
    changed = Changed()
    path = folder
    try:
        for relative in sorted(files):
            content = files[relative]  # one at a time: a staged file is read when it is written
            if existing.get(relative) != content:
                path = folder / relative
                _replace_file(path, content)
                changed.written.append(path)
        for relative in sorted(set(existing) - set(files)):
            path = folder / relative
            path.unlink(missing_ok=True)
            changed.removed.append(path)
    except OSError as exc:
        raise WriteFailed(path, exc, changed) from exc
    return changed


def _replace_file(path: Path, content: bytes) -> None:
    """Write `path` whole or not at all: a new file beside it, renamed over it (a file
    there keeps its mode; a new one gets the mode the umask gives)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.lstat(path).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    write_whole(path, content, mode, ".import")


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
