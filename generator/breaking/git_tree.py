"""The sources folder of a git revision, read from git's objects: nothing is checked out or
extracted, so no file of the revision ever reaches the disk.

`git ls-tree -r -z` lists the folder once; `git cat-file --batch-check` gives the size of
every blob at once, so that a file over `limits.source_bytes` is refused before it is read;
one `git cat-file --batch` process reads the blobs the loader asks for. A symlink (mode
120000) is never followed, as on the disk (`load.reading.Disk`), and a submodule (160000)
is not read: each is a diagnostic when the loader reads it or a file behind it, said as
`check` says it on the disk. Every file is named `REF:path`, as git names it.
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import IO

from ..config import Limits
from ..diagnostics import Diagnostic, Refused, printable
from ..files import names
from ..load.reading import NOT_FOLLOWED, Reading, decoded, linked, over_limit

SYMLINK = "120000"
SUBMODULE = "160000"

Parts = tuple[str, ...]


class GitFailed(Exception):
    """A git command that did not do what was asked; the message is git's last line."""


def git(root: Path, *args: str, stdin: bytes = b"") -> bytes:
    """The output of `git ARGS` in `root`; GitFailed with git's own message otherwise."""
    try:
        done = subprocess.run(["git", *args], cwd=root, input=stdin, capture_output=True, check=False)
    except OSError as exc:
        raise GitFailed(f"git cannot run: {exc}") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitFailed(lines[-1] if lines else f"git {args[0]} failed")
    return done.stdout


@dataclass(frozen=True)
class Entry:
    """One entry of `git ls-tree`: its mode (100644, 120000, 160000...), type and object."""

    mode: str
    kind: str
    oid: str


FOLDER = "folder"


def list_tree(root: Path, commit: str, prefix: str) -> dict[Parts, Entry]:
    """Every entry under `prefix` (a folder of the repository, "" for all) at `commit`, by its
    path relative to `prefix`. A prefix the revision does not hold lists nothing."""
    spec = f"{commit}:{prefix}" if prefix else f"{commit}^{{tree}}"
    try:
        kind = git(root, "cat-file", "-t", spec).strip()
    except GitFailed:
        return {}  # the sources folder is not in that revision
    if kind != b"tree":
        return {}
    entries: dict[Parts, Entry] = {}
    for record in git(root, "ls-tree", "-r", "-z", spec).split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, kind_, oid = meta.decode("ascii").split(" ")
        entries[tuple(os.fsdecode(name).split("/"))] = Entry(mode, kind_, oid)
    return entries


def blob_sizes(root: Path, oids: set[str]) -> dict[str, int]:
    """The size of each blob, from one `git cat-file --batch-check`."""
    if not oids:
        return {}
    ordered = sorted(oids)
    sizes = {}
    answer = git(root, "cat-file", "--batch-check", stdin="".join(f"{oid}\n" for oid in ordered).encode())
    for line in answer.decode("ascii", "replace").splitlines():
        fields = line.split(" ")  # `OID blob SIZE`, or `OID missing` in a shallow or partial clone
        if len(fields) == 3 and fields[1] == "blob" and fields[2].isdigit():
            sizes[fields[0]] = int(fields[2])
    return sizes


@dataclass
class BlobReader:
    """One `git cat-file --batch` process that reads blobs on demand."""

    root: Path
    _process: subprocess.Popen[bytes] | None = None

    def read(self, oid: str) -> bytes:
        if self._process is None:
            self._process = subprocess.Popen(
                ["git", "cat-file", "--batch"],
                cwd=self.root,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        stdin, stdout = self._pipes()
        stdin.write(oid.encode("ascii") + b"\n")
        stdin.flush()
        header = stdout.readline().decode("ascii").split(" ")
        if len(header) != 3:
            raise GitFailed(f"git cat-file gave no object {oid}")
        data = stdout.read(int(header[2]))
        stdout.read(1)  # the newline after each object
        return data

    def _pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        assert self._process is not None and self._process.stdin is not None and self._process.stdout is not None
        return self._process.stdin, self._process.stdout

    def close(self) -> None:
        if self._process is not None:
            stdin, stdout = self._pipes()
            stdin.close()
            stdout.close()
            self._process.wait()
            self._process = None


@dataclass
class GitTree:
    """The sources folder of one revision, mounted at `mount` for the loader (see `Files` in
    `load.documents`). A context manager: leaving it ends the `cat-file` process."""

    label: str  # the revision as the user named it: files are `label:prefix/path`
    prefix: str  # the sources folder, relative to the repository's top folder
    mount: Path
    entries: dict[Parts, Entry]
    sizes: dict[str, int]
    reader: BlobReader
    _listing: dict[Parts, set[str]] = field(default_factory=dict)  # the names in each folder

    @classmethod
    def open(cls, root: Path, commit: str, label: str, prefix: str, mount: Path) -> GitTree:
        """The tree of `prefix` at `commit` (a verified commit) of the repository at `root`;
        GitFailed when git cannot list it."""
        entries = list_tree(root, commit, prefix)
        sizes = blob_sizes(root, {e.oid for e in entries.values() if e.kind == "blob"})
        listing: dict[Parts, set[str]] = {}
        for parts in entries:
            for end in range(len(parts)):
                listing.setdefault(parts[:end], set()).add(parts[end])
        return cls(label, prefix, mount, entries, sizes, BlobReader(root), listing)

    def __enter__(self) -> GitTree:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.reader.close()

    def reading(self, limits: Limits) -> Reading:
        """Reading the files of this tree within `limits`, guarded at its mount."""
        return Reading(limits, self.mount, self)

    # -- Files

    def name(self, path: Path) -> str:
        inside = os.path.relpath(os.path.normpath(path), self.mount)  # absolute both: no disk
        return printable(f"{self.label}:{os.path.normpath(os.path.join(self.prefix, inside))}")

    def is_dir(self, path: Path) -> bool:
        found = self._find(path)
        return found == FOLDER or isinstance(found, Refused)

    def is_file(self, path: Path) -> bool:
        found = self._find(path)
        return isinstance(found, Entry | Refused)

    def folders(self, folder: Path) -> list[Path]:
        """The folders in `folder`; a folder not read (a symlink, which is never followed)
        lists itself, so that reading in it says why, as the disk would for each of its files."""
        if isinstance(self._find(folder), Refused):
            return [folder]
        return [path for path in self._children(folder) if self.is_dir(path)]

    def glob(self, folder: Path, pattern: str, *, recursive: bool) -> list[Path]:
        """The matching files; a folder not read lists itself, as in `folders`."""
        if isinstance(self._find(folder), Refused):
            return [folder]
        found: list[Path] = []
        for path in self._children(folder):
            kind = self._find(path)
            if kind == FOLDER and recursive:
                found += self.glob(path, pattern, recursive=True)
            elif kind != FOLDER and fnmatch.fnmatchcase(path.name, pattern):
                found.append(path)
        return sorted(found)

    def inside(self, base: Path, relative: str) -> Path | None:
        """`base/relative` when `relative` stays in `base` and names a file of the tree, or
        one behind a symlink (reading it says why, as on the disk)."""
        parts = names(relative)
        if parts is None or self._relative(base) is None:
            return None
        candidate = base.joinpath(*parts)
        found = self._find(candidate)
        return candidate if isinstance(found, Entry | Refused) else None

    def text(self, path: Path, reading: Reading) -> str | Diagnostic:
        return decoded(self.name(path), self.data(path, reading))

    def data(self, path: Path, reading: Reading) -> bytes | Diagnostic:
        where = self.name(path)
        found = self._find(path)
        if isinstance(found, Refused):
            return Diagnostic(where, None, None, found.message)
        if found is None:
            return Diagnostic(where, None, None, "cannot read: no such file in the revision")
        if not isinstance(found, Entry):
            return Diagnostic(where, None, None, "a folder, not a regular file: not read")
        size, limit = self.sizes.get(found.oid), reading.limits.source_bytes
        if size is None:
            return Diagnostic(where, None, None, "git cannot read it: the object is not in the repository")
        if size > limit:
            return Diagnostic(where, None, None, over_limit(size, limit))
        try:
            return self.reader.read(found.oid)
        except (OSError, GitFailed, ValueError) as exc:
            return Diagnostic(where, None, None, f"git cannot read it: {exc}")

    # -- the tree

    def _relative(self, path: Path) -> Parts | None:
        """`path` as parts under the mount, lexically ('..' taken back); None outside it."""
        try:
            tail = PurePosixPath(path).relative_to(PurePosixPath(self.mount))
        except ValueError:
            return None
        parts: list[str] = []
        for part in tail.parts:
            if part == "..":
                if not parts:
                    return None
                parts.pop()
            elif part != ".":
                parts.append(part)
        return tuple(parts)

    def _children(self, folder: Path) -> list[Path]:
        parts = self._relative(folder)
        resolved = self._resolve(parts) if parts is not None else Refused("")
        if isinstance(resolved, Refused):
            return []
        return [folder / name for name in sorted(self._listing.get(resolved, ()))]

    def _find(self, path: Path) -> Entry | Refused | str | None:
        """What `path` is: a file's entry, FOLDER, Refused (why not read), or None (nothing)."""
        parts = self._relative(path)
        if parts is None:
            return None
        resolved = self._resolve(parts)
        if isinstance(resolved, Refused):
            return resolved
        if resolved in self._listing:
            return FOLDER
        entry = self.entries.get(resolved)
        if entry is not None and (entry.kind != "blob" or entry.mode == SUBMODULE):
            return Refused("a submodule, not a regular file: not read")
        return entry

    def _resolve(self, parts: Parts) -> Parts | Refused:
        """`parts` as they are, or Refused at the first symlink on the way: none is followed."""
        done: list[str] = []
        for part in parts:
            if part in ("", "."):
                continue
            entry = self.entries.get((*done, part))
            done.append(part)
            if entry is not None and entry.mode == SYMLINK:
                whole = len(done) == len([p for p in parts if p not in ("", ".")])
                return Refused(NOT_FOLLOWED if whole else linked(self.name(self.mount.joinpath(*done))))
        return tuple(done)
