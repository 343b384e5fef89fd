"""An output folder as `check` and `generate` see it (`scan`: nothing followed, only regular
files read) and how it differs from a plan (`compare`, a `Drift`). Apart from the swap
(`write.py`) because `check` reads and never writes: it needs none of the locking."""

from __future__ import annotations

import difflib
import errno
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Refused, printable
from .files import READ_OWN, entry_kind

# Files that Python itself leaves in the output when the generated package is imported.
_IGNORED_DIRS = {"__pycache__"}
_IGNORED_SUFFIXES = (".pyc",)
# What npm and tsc write beside a package.json of the plan when its package is built where it
# is, as its README says (`npm install`, `npx tsc`, `npm pack`): the user's build state.
# `check` does not count it, and `generate` carries it into the new tree.
BUILD_STATE_NAMES = frozenset({"node_modules", "dist", "package-lock.json"})
BUILD_STATE_SUFFIXES = (".tgz",)


def build_state_folders(paths: Iterable[str]) -> frozenset[str]:
    """The folders of the plan's paths that hold a package.json: `typescript/pkg/` (with
    its `/`; `""` for the top)."""
    return frozenset(p.removesuffix("package.json") for p in paths if p.rpartition("/")[2] == "package.json")


def is_build_state(prefix: str, name: str, folders: frozenset[str]) -> bool:
    """Whether the entry `name` of the folder `prefix` is build state (see `BUILD_STATE_NAMES`)."""
    return prefix in folders and (name in BUILD_STATE_NAMES or name.endswith(BUILD_STATE_SUFFIXES))


@dataclass(frozen=True)
class Drift:
    """How the disk differs from a plan: paths relative to the output folder."""

    changed: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    diffs: dict[str, str] = field(default_factory=dict)
    # Entries that are not regular files (a symlink, a FIFO...), by path, with what each is:
    # never read, always drift (each is changed or extra too), and replaced by `generate`.
    irregular: dict[str, str] = field(default_factory=dict)
    # `generate` wrote the new tree, but could not remove the old one (the next run does).
    left_behind: OSError | None = None

    @property
    def clean(self) -> bool:
        return not (self.changed or self.missing or self.extra)


@dataclass(frozen=True)
class Tree:
    """An output folder as `check` and `generate` see it, nothing followed: the bytes of each
    regular file, and what every other entry is, both by relative POSIX path."""

    files: dict[str, bytes]
    irregular: dict[str, str]


def _ignored(name: str, mode: int) -> bool:
    """What Python leaves in the output when the generated package is imported."""
    return name in _IGNORED_DIRS if stat.S_ISDIR(mode) else name.endswith(_IGNORED_SUFFIXES)


def scan(out_dir: Path, largest: int | None = None, build: frozenset[str] = frozenset()) -> Tree:
    """Every entry under `out_dir` that the generator could have written, each taken with
    `lstat`: a symlink is not followed (not even to a folder), and only a regular file is
    opened, without following a link that replaced it meanwhile and without blocking (a FIFO
    put in its place is found by `fstat`). A regular file of more than `largest` bytes (the
    size of the largest file the sources produce: it can be none of them) is not read either,
    and is irregular as "a file of N bytes". The build state in the `build` folders (see
    `BUILD_STATE_NAMES`) is not entered. Empty when `out_dir` is not a folder; `OSError`
    for one that cannot be listed."""
    files: dict[str, bytes] = {}
    irregular: dict[str, str] = {}
    if not out_dir.is_dir():
        return Tree(files, irregular)
    stack = [("", os.fspath(out_dir))]
    while stack:
        prefix, folder = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                mode = entry.stat(follow_symlinks=False).st_mode
                relative = prefix + entry.name
                if _ignored(entry.name, mode) or is_build_state(prefix, entry.name, build):
                    continue
                if stat.S_ISDIR(mode):
                    stack.append((relative + "/", entry.path))
                    continue
                content = read_regular(entry.path, largest) if stat.S_ISREG(mode) else None
                if isinstance(content, bytes):
                    files[relative] = content
                else:  # a regular file raced away ("not a regular file"), or one too large to be ours
                    irregular[relative] = str(content or entry_kind(mode) or "not a regular file")
    order = sorted(files)
    return Tree({path: files[path] for path in order}, dict(sorted(irregular.items())))


def read_regular(path: str | Path, largest: int | None = None) -> bytes | Refused | None:
    """The bytes of the regular file at `path`; None when it is not one (any more): a symlink
    is not followed, a FIFO or device not read. A file of more than `largest` bytes is not
    read: `Refused`, what it is in words ("a file of 3,000,000,000 bytes")."""
    try:
        handle = os.open(path, READ_OWN)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.ENOENT):  # a symlink, a socket, gone
            return None
        raise
    with os.fdopen(handle, "rb") as file:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            return None
        if largest is not None and status.st_size > largest:
            return Refused(f"a file of {status.st_size:,} bytes, more than any the sources produce")
        return file.read() if largest is None else file.read(largest + 1)


def read_tree(out_dir: Path) -> dict[str, bytes]:
    """The regular files under `out_dir` that the generator could have written (see `scan`)."""
    return scan(out_dir).files


def _diff(path: str, old: bytes | None, new: bytes | None, out_name: str) -> str:
    path, out_name = printable(path), printable(out_name)  # a header is one line
    try:
        before = (old or b"").decode("utf-8").splitlines(keepends=True)
        after = (new or b"").decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return f"Binary files a/{out_name}/{path} and b/{out_name}/{path} differ\n"
    lines = difflib.unified_diff(
        before,
        after,
        fromfile=f"a/{out_name}/{path}" if old is not None else "/dev/null",
        tofile=f"b/{out_name}/{path}" if new is not None else "/dev/null",
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def _not_read(path: str, what: str, out_name: str) -> str:
    """What `check` shows for an entry it did not read (not a regular file, or a file larger
    than any the sources produce), in place of a diff."""
    return f"Not read: {printable(out_name)}/{printable(path)} is {what}\n"


def compare(plan: Mapping[str, bytes], out_dir: Path, *, diffs: bool = True) -> Drift:
    """What `generate` would change in `out_dir`, with a unified diff per file unless
    `diffs` is false (`generate` names the files; only `check` shows how they differ). An
    entry that is not a regular file is drift wherever it is, shown by what it is."""
    tree = scan(out_dir, largest=max(map(len, plan.values()), default=0), build=build_state_folders(plan))
    disk, irregular = tree.files, tree.irregular
    differs = [p for p in plan if disk.get(p) != plan[p]]
    changed = tuple(p for p in differs if p in disk or p in irregular)
    missing = tuple(p for p in differs if p not in disk and p not in irregular)
    extra = tuple(sorted(p for p in (*disk, *irregular) if p not in plan))
    shown = sorted((*changed, *missing, *extra)) if diffs else []
    name = out_dir.name
    texts = {
        p: _not_read(p, irregular[p], name) if p in irregular else _diff(p, disk.get(p), plan.get(p), name)
        for p in shown
    }
    return Drift(changed, missing, extra, texts, dict(irregular))
