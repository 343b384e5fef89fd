"""The contract folder `import` reads and writes in place, under the loader's guard.

A contract that exists is read without following anything: a symlink or a special file (a
FIFO, a device, a socket) anywhere in it is refused by name before anything is read or
written, as the loader refuses them (`files.read_regular`), and a file over
`limits.source_bytes` too. Writing changes only the files whose bytes change, each replaced
in one step (a new file beside it, renamed over it): every other file and folder stays as
it is, and those an import takes out (an example the server's schemas now refuse) are the
only ones removed.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..config import Limits
from ..diagnostics import Diagnostic, display_path
from ..files import NotRegular, not_regular, read_regular
from ..load.documents import over_limit

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
    over the limit, one that cannot be read)."""
    try:
        for place in (folder.parent, folder):
            refused = _refused_entry(place)
            if refused is not None:
                return refused
        return _files(folder, limits) if folder.exists() else None
    except OSError as exc:  # a folder this user may not read
        return Diagnostic(display_path(Path(exc.filename or folder)), None, None, f"cannot read: {exc.strerror}")


def _files(folder: Path, limits: Limits) -> dict[str, bytes] | Diagnostic:
    """Every file under `folder` (but `__pycache__`), or why one is not read."""
    files: dict[str, bytes] = {}
    stack = [folder]
    while stack:
        current = stack.pop()
        with os.scandir(current) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                path = Path(entry.path)
                if entry.name == _IGNORED and entry.is_dir(follow_symlinks=False):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(path)
                    continue
                content = _read(path, limits)
                if isinstance(content, Diagnostic):
                    return content
                files[path.relative_to(folder).as_posix()] = content
    return dict(sorted(files.items()))


def _refused_entry(path: Path) -> Diagnostic | None:
    """Why `path` (the contract folder, or the folder of contracts) is not a folder to read
    or write in, or None (it may be missing)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return Diagnostic(display_path(path), None, None, "a symlink: import writes only into a folder of its own")
    if not stat.S_ISDIR(mode):
        return Diagnostic(display_path(path), None, None, f"{not_regular(mode) or 'a file'}, not a folder")
    return None


def _read(path: Path, limits: Limits) -> bytes | Diagnostic:
    """The bytes of one regular file of the folder, or why it is not read."""
    where = display_path(path)
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            return Diagnostic(where, None, None, "a symlink: not followed, so the contract is not written")
        data = read_regular(path, limits.source_bytes)
    except NotRegular as exc:
        return Diagnostic(where, None, None, f"{exc}: not read, so the contract is not written")
    except OSError as exc:
        return Diagnostic(where, None, None, f"cannot read: {exc.strerror}")
    if len(data) > limits.source_bytes:
        return Diagnostic(where, None, None, over_limit(os.lstat(path).st_size, limits.source_bytes))
    return data


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
        for relative, content in sorted(files.items()):
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
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name[:40]}.", suffix=".import", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(content)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
