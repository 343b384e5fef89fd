"""Write stage: a plan is written all or nothing (`generate`) or compared (`check`)."""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .render.plan import MARKER, MARKER_LINE, Plan

# Files that Python itself leaves in the output when the generated package is imported.
_IGNORED_DIRS = {"__pycache__"}
_IGNORED_SUFFIXES = (".pyc",)


@dataclass(frozen=True)
class Drift:
    """How the disk differs from a plan: paths relative to the output folder."""

    changed: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    diffs: dict[str, str] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not (self.changed or self.missing or self.extra)


def read_tree(out_dir: Path) -> dict[str, bytes]:
    """Every file under `out_dir` that the generator could have written."""
    if not out_dir.is_dir():
        return {}
    tree = {}
    for path in sorted(out_dir.rglob("*")):
        relative = path.relative_to(out_dir)
        if path.is_dir() or _IGNORED_DIRS & set(relative.parts) or path.name.endswith(_IGNORED_SUFFIXES):
            continue
        tree[relative.as_posix()] = path.read_bytes()
    return tree


def _diff(path: str, old: bytes | None, new: bytes | None, out_name: str) -> str:
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


def compare(plan: Plan, out_dir: Path) -> Drift:
    """What `generate` would change in `out_dir`, with a unified diff per file."""
    disk = read_tree(out_dir)
    changed = tuple(p for p in plan if p in disk and disk[p] != plan[p])
    missing = tuple(p for p in plan if p not in disk)
    extra = tuple(p for p in disk if p not in plan)
    diffs = {p: _diff(p, disk.get(p), plan.get(p), out_dir.name) for p in sorted((*changed, *missing, *extra))}
    return Drift(changed, missing, extra, diffs)


class UnsafeOutput(Exception):
    """The output folder holds something `generate` did not write: it is not replaced."""


def check_replaceable(out_dir: Path) -> None:
    """Refuse a non-empty folder without our README: `--out .` must not erase a project."""
    if not out_dir.exists() or (out_dir.is_dir() and not any(out_dir.iterdir())):
        return
    marker = out_dir / MARKER
    if not out_dir.is_dir() or not marker.is_file() or not marker.read_bytes().startswith(MARKER_LINE):
        raise UnsafeOutput(
            f"{out_dir.as_posix()} has no {MARKER} of mcp-contracts: not replacing a folder it did not write"
        )


def write_plan(plan: Plan, out_dir: Path) -> Drift:
    """Make `out_dir` hold exactly the plan, in one swap; return what changed."""
    drift = compare(plan, out_dir)
    if not drift.clean:
        check_replaceable(out_dir)
        replace_tree(plan, out_dir)
    return drift


def replace_tree(files: Mapping[str, bytes], target: Path) -> None:
    """Make `target` a folder holding exactly `files` (relative path -> bytes).

    The new tree is built in a sibling folder and swapped in with two renames, so a
    failure while writing leaves whatever `target` held as it was.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
    try:
        for relative, content in files.items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        if target.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
            os.replace(target, retired / target.name)
            os.replace(staging, target)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.replace(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
