"""Reading a file that a user names, without ever blocking on something that is not one;
reading the files below a folder without ever following a symlink (`read_beneath`); writing
a file whole or not at all (`write_whole`).

`open()` on a FIFO waits for a writer, and on some devices it waits or has effects of its
own; a folder opens on Linux and fails only at `read`. So the path is looked at first and
only a regular file is opened, without blocking (`O_NONBLOCK`), and looked at again
through its descriptor: a FIFO swapped in between is refused, not waited on.

Below a folder a command was given (the sources folder, a contract folder), every name is
opened relative to the descriptor of the folder before it (`dir_fd`) with `O_NOFOLLOW`: a
symlink anywhere on the way, a folder's or the file's own, is refused by name (`Linked`)
before anything behind it is opened, so no byte of its target is read. This walker is the
one way the load stage and `import` read and list the sources (tests/test_layout.py holds
them to it).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
# The flags of `os.open` that POSIX has and Windows lacks: 0 where they are missing.
_NONBLOCK, _NOFOLLOW, _CLOEXEC = (getattr(os, name, 0) for name in ("O_NONBLOCK", "O_NOFOLLOW", "O_CLOEXEC"))
_FLAGS = os.O_RDONLY | _NONBLOCK | getattr(os, "O_NOCTTY", 0) | _CLOEXEC
_FOLDER = os.O_RDONLY | _CLOEXEC | getattr(os, "O_DIRECTORY", 0)
# A file read where a symlink, a FIFO or a device in its place must not be followed or waited on.
READ_OWN = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC
WRITE_OWN = os.O_WRONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC


def owned(status: os.stat_result) -> bool:
    """Whether this user owns what `status` describes (always, where there are no user IDs)."""
    return not hasattr(os, "geteuid") or status.st_uid == os.geteuid()


_CHUNK = 1 << 20  # bytes read at a time: memory grows with the file, never with the limit


class NotRegular(OSError):
    """The path names something other than a regular file; the message says what."""


def not_regular(mode: int) -> str | None:
    """What a file of this `st_mode` is when it is not a regular file ("a FIFO"), else None."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a file")


def entry_kind(mode: int) -> str | None:
    """What an entry of this `st_mode` is, taken without following it, when it is not a
    regular file ("a symlink", "a FIFO"), else None."""
    return "a symlink" if stat.S_ISLNK(mode) else not_regular(mode)


def write_whole(path: Path, content: bytes, mode: int, suffix: str = ".tmp") -> None:
    """Write `path` whole or not at all: a new file of `mode` beside it, renamed over it, so a
    reader (a CI step, the next run) sees the old file or the new one, never a part."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name[:40]}.", suffix=suffix, dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(content)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """Up to `limit + 1` bytes of the regular file at `path` (the caller judges the size).

    NotRegular for a folder, FIFO, device or socket, which is never read; OSError when the
    file cannot be opened or read.
    """
    kind = not_regular(os.stat(path).st_mode)
    if kind is not None:
        raise NotRegular(f"{kind}, not a regular file")
    handle = os.open(path, _FLAGS)
    with os.fdopen(handle, "rb"):
        kind = not_regular(os.fstat(handle).st_mode)
        if kind is not None:
            raise NotRegular(f"{kind}, not a regular file")
        os.set_blocking(handle, True)
        return read_upto(handle, limit)


def read_upto(handle: int, limit: int) -> bytes:
    """Up to `limit + 1` bytes of the open file `handle`, read a chunk at a time: a limit far
    above the file's size allocates nothing for it."""
    chunks: list[bytes] = []
    total = 0
    while total <= limit:
        chunk = os.read(handle, min(_CHUNK, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


class Linked(OSError):
    """A name below the base that is a symlink, which is never followed: `link`, the path
    of that entry relative to the base (the file itself, or a folder on the way to it)."""

    def __init__(self, link: str) -> None:
        super().__init__(f"{link} is a symlink: not followed")
        self.link = link


def names(relative: str) -> tuple[str, ...] | None:
    """The names of a relative path as a contract writes one (`/`-separated); None for one
    that is absolute, empty, or leaves its folder (`..`), or holds a NUL."""
    if not relative or relative.startswith("/") or "\0" in relative:
        return None
    parts = tuple(part for part in relative.split("/") if part not in ("", "."))
    return parts if parts and ".." not in parts else None


def _open_folder(base: Path, parts: tuple[str, ...]) -> int:
    """A descriptor of the folder `base/parts...`, each of `parts` opened without following
    it. `base` itself is opened as named (the user named it). Linked for a symlink on the
    way, NotRegular for a name that is not a folder, FileNotFoundError for a missing one."""
    handle = os.open(base, _FOLDER)
    for index, part in enumerate(parts):
        try:
            mode = os.stat(part, dir_fd=handle, follow_symlinks=False).st_mode
            if stat.S_ISLNK(mode):
                raise Linked("/".join(parts[: index + 1]))
            if not stat.S_ISDIR(mode):
                raise NotRegular(f"{'/'.join(parts[: index + 1])} is {not_regular(mode) or 'a file'}, not a folder")
            inner = os.open(part, _FOLDER | _NOFOLLOW, dir_fd=handle)
        finally:
            os.close(handle)
        handle = inner
    return handle


def entry_beneath(base: Path, parts: tuple[str, ...]) -> int | None:
    """The `st_mode` of the entry `base/parts...`, not followed (a symlink's own mode); None
    when there is none. Linked when a folder on the way is a symlink."""
    try:
        handle = _open_folder(base, parts[:-1])
    except (FileNotFoundError, NotADirectoryError, NotRegular):
        return None
    try:
        return os.stat(parts[-1], dir_fd=handle, follow_symlinks=False).st_mode if parts else os.fstat(handle).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    finally:
        os.close(handle)


def listing_beneath(base: Path, parts: tuple[str, ...]) -> list[tuple[str, int]]:
    """The entries of the folder `base/parts...` with their own modes (nothing followed),
    sorted by name. Linked when the folder or one on the way is a symlink."""
    handle = _open_folder(base, parts)
    try:
        with os.scandir(handle) as entries:
            found = [(entry.name, entry.stat(follow_symlinks=False).st_mode) for entry in entries]
    finally:
        os.close(handle)
    return sorted(found)


def read_beneath(base: Path, parts: tuple[str, ...], limit: int) -> bytes:
    """Up to `limit + 1` bytes of the regular file `base/parts...`, reached without following
    a symlink. Linked for a symlink on the way or at the end; NotRegular for a folder, FIFO,
    device or socket, never opened for reading; OSError when it cannot be read."""
    if not parts:
        raise NotRegular("a folder, not a regular file")
    folder = _open_folder(base, parts[:-1])
    try:
        mode = os.stat(parts[-1], dir_fd=folder, follow_symlinks=False).st_mode
        if stat.S_ISLNK(mode):
            raise Linked("/".join(parts))
        kind = not_regular(mode)
        if kind is not None:
            raise NotRegular(f"{kind}, not a regular file")
        handle = os.open(parts[-1], _FLAGS | _NOFOLLOW, dir_fd=folder)
    finally:
        os.close(folder)
    try:
        kind = not_regular(os.fstat(handle).st_mode)
        if kind is not None:
            raise NotRegular(f"{kind}, not a regular file")
        os.set_blocking(handle, True)
        return read_upto(handle, limit)
    finally:
        os.close(handle)


# The output folder's README and its first line, by which `generate` knows a folder it wrote.
OUTPUT_README = "README.md"
OUTPUT_README_LINE = b"# Generated by mcp-contracts\n"


def is_project_root(folder: Path) -> bool:
    """Whether `folder` holds a project: a `.git`, or a pyproject.toml that is not the one
    `generate` writes into `<output>/python/` (that folder is the generated package's)."""
    if (folder / ".git").exists():
        return True
    return (folder / "pyproject.toml").is_file() and not _written_by_generate(folder.parent)


def _written_by_generate(folder: Path) -> bool:
    """Whether `folder` is an output folder: its README, a regular file, starts with our line."""
    readme = folder / OUTPUT_README
    try:
        if not stat.S_ISREG(os.lstat(readme).st_mode):
            return False
        return read_regular(readme, len(OUTPUT_README_LINE)).startswith(OUTPUT_README_LINE)
    except OSError:
        return False
