"""Reading a file that a user names, without ever blocking on something that is not one.

`open()` on a FIFO waits for a writer, and on some devices it waits or has effects of its
own; a folder opens on Linux and fails only at `read`. So the path is looked at first and
only a regular file is opened, without blocking (`O_NONBLOCK`), and looked at again
through its descriptor: a FIFO swapped in between is refused, not waited on.
"""

from __future__ import annotations

import os
import stat

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


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


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """Up to `limit + 1` bytes of the regular file at `path` (the caller judges the size).

    NotRegular for a folder, FIFO, device or socket, which is never read; OSError when the
    file cannot be opened or read.
    """
    kind = not_regular(os.stat(path).st_mode)
    if kind is not None:
        raise NotRegular(f"{kind}, not a regular file")
    handle = os.open(path, _FLAGS)
    with os.fdopen(handle, "rb") as file:
        kind = not_regular(os.fstat(handle).st_mode)
        if kind is not None:
            raise NotRegular(f"{kind}, not a regular file")
        os.set_blocking(handle, True)
        return file.read(limit + 1)
