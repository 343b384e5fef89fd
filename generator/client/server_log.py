"""What a server `conform` and `import` start over stdio did besides answering (`ServerLog`:
the lines of its standard output that are no message, its exit, the last lines of its standard
error, which the findings quote), and where its standard error is kept: a file, out of the report.

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
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import printable
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


# What a report shows of a server's standard output and error: a few lines, each cut short
# (those of its standard error on one line, cut short again: a finding is one line).
_STRAY_SHOWN = 3
_TAIL_LINES = 3
_LINE_SHOWN = 200
_TAIL_SHOWN = 300
_TAIL_BYTES = 8192  # the end of its standard error kept to find those lines in


@dataclass
class ServerLog:
    """What a server started over stdio did besides answering, over the connections it is
    given to: the lines of its standard output that are no MCP message (the first few,
    printable and cut short, in `stray`; how many in `strays`), and, when its standard output
    ended while it was asked (not when it was stopped), its exit status and the end of its
    standard error. `started`: whether the last connection's process was started at all;
    `heard_bytes`, every byte of standard error heard over every connection (a `mark`)."""

    stray: list[str] = field(default_factory=list)
    strays: int = 0
    status: int | None = None
    stderr: bytearray = field(default_factory=bytearray)
    stopping: bool = False  # the connection is being closed: an exit now is ours
    started: bool = False
    heard_bytes: int = 0

    def not_protocol(self, line: bytes) -> None:
        self.strays += 1
        if len(self.stray) < _STRAY_SHOWN:
            self.stray.append(_shown_line(line))

    def heard(self, chunk: bytes) -> None:
        self.stderr += chunk
        self.heard_bytes += len(chunk)
        del self.stderr[:-_TAIL_BYTES]

    def mark(self) -> int:
        """Where the server's standard error is now, for `last_lines` to say what came after."""
        return self.heard_bytes

    def last_lines(self, since: int | None = None) -> str:
        """The last few lines of the server's standard error (of those heard after `since`, a
        `mark`), printable, on one line and cut short; "" when there are none."""
        tail = bytes(self.stderr)
        if since is not None:
            after = max(self.heard_bytes - since, 0)
            tail = tail[max(len(tail) - after, 0) :]
        said = [line for line in tail.splitlines() if _WORDS.search(line) and not _BOXED.match(line)]
        raised = [line for line in said if _RAISED.match(line)]  # an exception's line says most
        lines = [_shown_line(b" ".join(line.split())) for line in (raised or said)[-_TAIL_LINES:]]
        joined = " | ".join(lines)
        return joined if len(joined) <= _TAIL_SHOWN else "…" + joined[len(joined) - _TAIL_SHOWN + 1 :]

    def exit(self) -> str | None:
        """The server's exit as a message says it, or None while it has not ended."""
        if self.status is None:
            return None
        return f"the server exited with status {self.status}{self.words()}"

    def words(self) -> str:
        """The last lines of the server's standard error, as a message ends with them ("" for none)."""
        lines = self.last_lines()
        return f" (the last lines of its standard error: {lines})" if lines else ""


# A line of standard error worth quoting holds a letter or a digit (not a box's border alone),
# and is no line of a framed traceback (rich's, which the SDK logs with: `│ 214 │ ...`).
_WORDS = re.compile(rb"[A-Za-z0-9]")
_BOXED = re.compile(rb"\s*\xe2[\x94\x95]")  # U+2500..U+257F, the box-drawing characters, in UTF-8
# The line a Python traceback ends with: `KeyError: 404`, `mcp.ToolError: ...`.
_RAISED = re.compile(rb"\s*[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b(?::|$)")


def _shown_line(line: bytes) -> str:
    text = printable(line.decode("utf-8", errors="surrogateescape"))
    return text if len(text) <= _LINE_SHOWN else text[: _LINE_SHOWN - 1] + "…"
