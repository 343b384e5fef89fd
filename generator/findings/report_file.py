"""Writing a report file (`--report FORMAT:PATH`) whole or not at all, and only over a file.

A PATH that names a FIFO, a device, a socket or a folder is refused, and so is any symlink,
whatever it leads to: a rename over a symlink replaces the link with a file (never writing
where it leads), which is not what whoever made the link meant, and a link to `/dev/stdout`
or to a FIFO would otherwise be replaced by a regular file. `-` is standard output, which
the CLI writes itself.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from ..files import not_regular

STDOUT = "-"


def report_problem(path: Path) -> str | None:
    """Why a report cannot be written to `path` (looked at without following a symlink), or
    None when it names a regular file or nothing yet, in a folder that exists."""
    if str(path) == STDOUT:
        return None
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        return exc.strerror or str(exc)
    if mode is not None and stat.S_ISLNK(mode):
        return "a symlink: a report replaces only a regular file"
    kind = not_regular(mode) if mode is not None else None
    if kind is not None:
        return f"{kind}, not a regular file: a report replaces only a regular file"
    if not path.parent.is_dir():
        return f"no folder {path.parent.as_posix()}"
    return None


def write_report(path: Path, text: str) -> str | None:
    """Write `text` to `path` atomically: into a temporary file beside it, then renamed over
    it, so a reader (a CI step, code scanning) never sees half a report. None when written,
    else why not (`report_problem` is asked again: the path may have changed since)."""
    problem = report_problem(path)
    if problem is not None:
        return problem
    folder = path.parent
    try:
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        return exc.strerror or str(exc)
    return None
