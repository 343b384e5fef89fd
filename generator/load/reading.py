"""Where one load's files come from and within what: `Reading` (the limits, the sources
folder, the project) and its `Files` seam, the disk below the sources folder (`Disk`, on the
walker of `files.py`) or a git revision's tree. Apart from `documents.py`, which parses what
this reads: a load reads, lists and probes files only through `Reading.files` (tests/test_layout.py)."""

from __future__ import annotations

import contextlib
import fnmatch
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..config import Limits
from ..diagnostics import Diagnostic, display_path
from ..files import Linked, NotRegular, entry_beneath, listing_beneath, names, read_beneath


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


def decoded(where: str, data: bytes | Diagnostic) -> str | Diagnostic:
    """The text of a source's bytes, lines ended as `read_text` ends them, or why it is not
    read (not UTF-8)."""
    if isinstance(data, Diagnostic):
        return data
    try:
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
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
