"""Write stage: a plan written all or nothing (`generate`), in one swap of the output folder
under a lock, with what an interrupted run left behind undone first. What `check` compares
is `drift.py`'s."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import shutil
import stat
import sys
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .drift import BUILD_STATE_NAMES, Drift, build_state_folders, compare, is_build_state, read_regular
from .interrupt import commit

if TYPE_CHECKING:  # `check` answered from the cache imports no renderer
    from .render.plan import Plan

_MARKER_BYTES = 1 << 20


class UnsafeOutput(Exception):
    """The output folder holds something `generate` did not write: it is not replaced."""


def check_replaceable(out_dir: Path) -> None:
    """Refuse a non-empty folder without our README: `--out .` must not erase a project."""
    from .files import OUTPUT_README, OUTPUT_README_LINE

    if not out_dir.exists() or (out_dir.is_dir() and not any(out_dir.iterdir())):
        return
    # Never a link or a FIFO, nor a file larger than any README `generate` writes.
    marker = read_regular(out_dir / OUTPUT_README, _MARKER_BYTES) if out_dir.is_dir() else None
    if not isinstance(marker, bytes) or not marker.startswith(OUTPUT_README_LINE):
        raise UnsafeOutput(
            f"{out_dir.as_posix()} has no {OUTPUT_README} of mcp-contracts: not replacing a folder it did not write"
        )


def write_plan(plan: Plan, out_dir: Path) -> Drift:
    """Make `out_dir` hold exactly the plan, in one swap; return what changed."""
    drift = compare(plan, out_dir, diffs=False)
    if not drift.clean:
        check_replaceable(out_dir)
        try:
            replace_tree(plan, out_dir)
        except OldTreeLeft as exc:
            return replace(drift, left_behind=exc)
    else:
        remove_leftovers(out_dir)
    return drift


class FileSystem:
    """The file-system calls of the swap, in one place, so that a test can make each fail."""

    def mkdir(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)

    def mkdtemp(self, prefix: str, parent: Path) -> Path:
        """A new folder of a name no other has, with the mode the umask gives (as `mkdir`
        makes it): it becomes the output folder. (`tempfile.mkdtemp` makes it 0700.)"""
        for _ in range(100):
            path = parent / f"{prefix}{secrets.token_hex(4)}"
            try:
                path.mkdir(0o777)
            except FileExistsError:
                continue
            return path
        raise FileExistsError(errno.EEXIST, "no unused name for a staging folder", str(parent / prefix))

    def write(self, path: Path, content: bytes) -> None:
        # No fsync: a killed process loses nothing the kernel holds; the swap is the
        # commit point. (A power loss may still lose the new tree, not the old one's name.)
        path.write_bytes(content)

    def lock(self, folder: Path) -> int | Path:
        """An exclusive lock on `folder` (the output's parent), held until `unlock`: `flock`
        on the folder where there is one (POSIX), else the creation of `LOCK_FILE` in it."""
        try:
            import fcntl
        except ImportError:  # Windows
            return _create_alone(folder / LOCK_FILE)
        handle = os.open(folder, os.O_RDONLY)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
        except BaseException:
            os.close(handle)
            raise
        return handle

    def unlock(self, held: int | Path) -> None:
        if isinstance(held, Path):
            held.unlink()
        else:
            os.close(held)  # closing releases the lock

    def exchange(self, first: Path, second: Path) -> None:
        """Swap two paths in one step (Linux `renameat2` with `RENAME_EXCHANGE`)."""
        if _renameat2 is None:
            raise OSError(errno.ENOSYS, "renameat2 is not available")
        if _renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) != 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code), str(first))

    def rename(self, source: Path, target: Path) -> None:
        os.rename(source, target)

    def remove_tree(self, path: Path) -> None:
        shutil.rmtree(path)

    def listdir(self, folder: Path) -> list[str]:
        return sorted(os.listdir(folder))


# Where `fcntl` is missing, runs take turns by creating this file in the output's parent
# (`O_EXCL`); one killed meanwhile leaves it: the next waits `LOCK_WAIT` s, then names it.
LOCK_FILE = ".mcp-contracts.lock"
LOCK_WAIT = 60.0


def _create_alone(path: Path) -> Path:
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            return path
        except OSError as exc:  # Windows refuses a file being removed with EACCES
            if not isinstance(exc, FileExistsError) and not os.path.lexists(path):
                raise
        if time.monotonic() > deadline:
            held = f"another run has held the lock for {LOCK_WAIT:.0f} s; remove it if no run is writing"
            raise OSError(errno.EEXIST, held, str(path))
        time.sleep(0.05)


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
_renameat2 = getattr(_libc, "renameat2", None)
FS = FileSystem()


def replace_tree(files: Mapping[str, bytes], target: Path, fs: FileSystem | None = None) -> None:
    """Make `target` a folder holding exactly `files` (relative path -> bytes).

    The new tree is written in a sibling folder, then the two are exchanged in one step
    (`renameat2` with `RENAME_EXCHANGE`): after a fault at any point, `target` holds the old
    tree or the new one, never neither nor a mix. Runs on one output folder take turns on
    a lock of its parent folder; each first removes what an interrupted run left behind.
    Where the exchange is not available (another system, a file system without it), the old
    tree is renamed aside and the new one in: a run that finds the target missing restores
    the old tree before anything else. A symlinked `target` is resolved: its target is swapped.
    """
    fs = fs or FS
    target = target.resolve() if target.is_symlink() else target
    parent = target.parent
    fs.mkdir(parent)
    held = fs.lock(parent)
    try:
        _recover(target, fs)
        stuck = _unremovable_folder(target) if target.is_dir() else None
        if stuck is not None:  # the old tree would stay beside the new one: change nothing
            raise OSError(errno.EACCES, READ_ONLY, str(stuck))
        staging = fs.mkdtemp(f".{target.name}.new-", parent)
        try:
            for relative, content in files.items():
                path = staging / relative
                fs.mkdir(path.parent)
                fs.write(path, content)
        except BaseException:
            _remove_quietly(staging, fs)  # the next run removes it when this cannot
            raise
        commit()  # a signal from now on waits: the swap is seen through, and reported
        if not target.exists():
            fs.rename(staging, target)
            return
        moved = _carry_build_state(target, staging, build_state_folders(files), fs)
        try:
            fs.exchange(staging, target)
        except OSError as exc:
            if exc.errno not in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
                for relative in reversed(moved):  # the old tree stays, with its build state
                    fs.rename(staging / relative, target / relative)
                raise
            retired = fs.mkdtemp(f".{target.name}.old-", parent)
            fs.rename(target, retired / "tree")
            fs.rename(staging, target)
            staging = retired
        try:
            fs.remove_tree(staging)  # the old tree, now under the staging name
        except OSError as exc:
            raise OldTreeLeft(exc.errno, exc.strerror, exc.filename or str(staging)) from exc
    finally:
        fs.unlock(held)


def _carry_build_state(old: Path, new: Path, folders: frozenset[str], fs: FileSystem) -> list[str]:
    """Move the build state (see `BUILD_STATE_NAMES`) of the old tree's `folders` into the
    new tree, each entry as it is (a symlink stays a symlink, never followed), where the new
    tree has that folder and nothing of that name; the relative paths moved."""
    moved = []
    for folder in sorted(folders):
        if not (new / folder).is_dir() or not _real_folder(old, folder):
            continue
        for name in sorted(fs.listdir(old / folder)):
            relative = folder + name
            if is_build_state(folder, name, folders) and not os.path.lexists(new / relative):
                fs.rename(old / relative, new / relative)
                moved.append(relative)
    return moved


def _package_folders(root: Path) -> frozenset[str]:
    """The folders under `root` that hold a package.json, as `build_state_folders` gives
    them; no symlink followed, no build state entered."""
    found = []
    for folder, dirs, files in os.walk(root):
        relative = Path(folder).relative_to(root).as_posix()
        prefix = "" if relative == "." else relative + "/"
        dirs[:] = sorted(d for d in dirs if d not in BUILD_STATE_NAMES)
        found += [prefix + "package.json"] if "package.json" in files else []
    return build_state_folders(found)


def _real_folder(root: Path, folder: str) -> bool:
    """Whether `root/folder` is a folder with no symlink on the way from `root`."""
    path = root
    for part in folder.split("/"):
        if part:
            path = path / part
            if not os.path.lexists(path) or not stat.S_ISDIR(os.lstat(path).st_mode):
                return False
    return True


READ_ONLY = "this user cannot remove what the folder holds (read-only?), so the output is not replaced"


class OldTreeLeft(OSError):
    """The new tree is in place, but the old one (beside it, under a staging name) could
    not be removed: the next run removes it."""


def _unremovable_folder(tree: Path) -> Path | None:
    """The first folder of `tree` whose entries this process may not remove (it needs to
    read, search and write each), or None. Checked before the swap: after it, a tree that
    cannot be removed would be left beside the new one."""
    effective = os.access in os.supports_effective_ids
    stack = [tree]
    while stack:
        folder = stack.pop()
        if not os.access(folder, os.R_OK | os.W_OK | os.X_OK, effective_ids=effective):
            return folder
        with os.scandir(folder) as entries:
            stack.extend(Path(entry.path) for entry in entries if entry.is_dir(follow_symlinks=False))
    return None


def remove_leftovers(target: Path, fs: FileSystem | None = None) -> None:
    """Remove what an interrupted run left beside `target` (see `replace_tree`), under the
    lock: a run that finds nothing to change cleans up too. `check` never calls it."""
    fs = fs or FS
    target = target.resolve() if target.is_symlink() else target
    if not target.parent.is_dir() or not _leftovers(target, fs):
        return
    held = fs.lock(target.parent)
    try:
        _recover(target, fs)
    finally:
        fs.unlock(held)


def _leftovers(target: Path, fs: FileSystem) -> list[Path]:
    """The staging (`.NAME.new-*`) and retired (`.NAME.old-*`) folders beside `target`."""
    prefixes = (f".{target.name}.new-", f".{target.name}.old-")
    return [target.parent / name for name in fs.listdir(target.parent) if name.startswith(prefixes)]


def _remove_quietly(path: Path, fs: FileSystem) -> None:
    with contextlib.suppress(OSError):
        fs.remove_tree(path)


def _recover(target: Path, fs: FileSystem) -> None:
    """Undo what an interrupted run left beside `target`: restore a retired tree when the
    target is missing, then remove every staging and retired folder."""
    leftovers = _leftovers(target, fs)
    if not target.exists():
        retired = [p / "tree" for p in leftovers if p.name.startswith(f".{target.name}.old-") and (p / "tree").is_dir()]
        if retired:
            fs.rename(retired[0], target)
    for leftover in leftovers:
        if leftover.name.startswith(f".{target.name}.new-") and target.is_dir():
            # a run stopped before its swap: the build state it carried goes back
            _carry_build_state(leftover, target, _package_folders(leftover), fs)
        fs.remove_tree(leftover)
