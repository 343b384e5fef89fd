"""Where the standard error of a server `conform` and `import` start is kept: a file, out of
the report, whose last lines the findings quote (`bounded.ServerLog`).

`--server-log PATH` names it. By default it is a file of this machine's cache folder (the
folder of `check`'s verdicts, `fingerprint.cache_folder`), under `server-logs/`, named by the
command, the contract and a digest of the project's root and the server's command line: the
same run writes the same file again, another never writes into it, and nothing is written into
the project. The folder is the tool's alone, as the cache's is: a real folder (a symlink is not
followed) of this user that no one else may write, made 0700 when missing; when it is not, the
file is a new one of the system's temporary folder (`api`), removed when the server wrote
nothing to it.

The file is emptied once when the run begins (`begin`), then each connection of the run
appends to it (`appender`): one line that says which session it was, then what the server
wrote. It is opened without following a symlink, and only a regular file of one name (no
hard link of another file, which emptying it would empty) is written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..files import READ_OWN, WRITE_OWN
from ..fingerprint import cache_folder, own_folder
from ..naming import slug

FOLDER = "server-logs"
# What every log this module keeps begins with (`connect` writes it before each session's
# part): a file that begins otherwise is no log of ours, and is never emptied.
HEADER = b"=== mcp-contracts: "


def default_path(root: Path, command: str, contract: str, server: list[str]) -> Path | None:
    """The file a run of `command` (`conform`, `import`) for `contract` keeps the standard error
    of `server` (its command line) in, in this machine's cache folder; None when there is no
    folder of this user's own to keep it in."""
    cache = cache_folder()
    if cache is None or not own_folder(cache, make=True) or not own_folder(cache / FOLDER, make=True):
        return None
    named = "\0".join([str(root.resolve()), command, contract, *server])
    digest = hashlib.sha256(os.fsencode(named)).hexdigest()[:16]
    readable = slug(contract)[:60].strip("-") or "contract"
    return cache / FOLDER / f"{command}-{readable}-{digest}.log"


def path_problem(path: Path) -> str | None:
    """Why the server's standard error cannot be kept in `path` (looked at without following a
    symlink), or None: a regular file, or nothing yet in a folder that exists."""
    try:
        mode: int | None = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        return exc.strerror or str(exc)
    if mode is not None and stat.S_ISLNK(mode):
        return "a symlink: the server's standard error is kept only in a regular file"
    if mode is not None and not stat.S_ISREG(mode):
        return "not a regular file: the server's standard error is kept only in a regular file"
    if not path.parent.is_dir():
        return f"no folder {path.parent.as_posix()}"
    return None


def begin(path: Path) -> str | None:
    """Make `path` an empty regular file (without following a symlink), for a run to append
    to; None when it is, else why not."""
    problem = path_problem(path)
    if problem is not None:
        return problem
    try:
        handle = os.open(path, WRITE_OWN | os.O_CREAT, 0o600)
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            return "not a regular file: the server's standard error is kept only in a regular file"
        if status.st_nlink > 1:  # another name of the same file (a source, say) would be emptied too
            linked = "a file with another name (a hard link)"
            return f"{linked}: the server's standard error is kept only in a file of its own"
        if status.st_size and not _ours(path):
            return "a file that is no server log of mcp-contracts: it is not emptied (name a new file, or remove it)"
        os.ftruncate(handle, 0)
    except OSError as exc:
        return exc.strerror or str(exc)
    finally:
        os.close(handle)
    return None


def _ours(path: Path) -> bool:
    """Whether the file at `path` begins as the logs this module keeps do (`HEADER`)."""
    try:
        handle = os.open(path, READ_OWN)
    except OSError:
        return False
    try:
        return os.read(handle, len(HEADER)) == HEADER
    finally:
        os.close(handle)


def kept(path: Path) -> bool:
    """Whether `path` holds anything: a server wrote to its standard error."""
    try:
        status = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(status.st_mode) and status.st_size > 0


@dataclass
class Appender:
    """A connection's part of the file at `path`: opened on the first chunk the server writes
    (none: nothing is added), after a line `header`; given up, silently, when it cannot be
    written (the run goes on; its findings still quote the last lines)."""

    path: Path
    header: str
    _handle: int | None = None
    _failed: bool = False

    def __call__(self, chunk: bytes) -> None:
        if self._failed:
            return
        try:
            if self._handle is None:
                self._handle = self._open()
                self._write(f"{self.header}\n".encode())
            self._write(chunk)
        except OSError:
            self._failed = True
            self.close()

    def _open(self) -> int:
        handle = os.open(self.path, WRITE_OWN | os.O_APPEND | os.O_CREAT, 0o600)
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            os.close(handle)
            raise OSError(f"{self.path} is not a regular file")
        return handle

    def _write(self, data: bytes) -> None:
        assert self._handle is not None
        view = memoryview(data)
        while view:
            view = view[os.write(self._handle, view) :]

    def close(self) -> None:
        if self._handle is not None:
            with contextlib.suppress(OSError):
                os.close(self._handle)
            self._handle = None
