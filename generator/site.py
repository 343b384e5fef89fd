"""Where `docs` may build its HTML site: a folder of its own, which mkdocs empties first.

mkdocs removes every entry of its site folder that does not start with a dot before it
builds, so `docs --site schemas` would erase the sources. A site folder is taken only when it
is missing, empty, or holds the marker `docs` writes into every site it builds (as `generate`
takes an output folder by its README's first line); never the sources, the output or the
templates folder, anything inside or above them, the project root or a folder above it; never
a symlink, and never a folder where mkdocs would meet a symlink or a special file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .config import Settings, guarded_folders
from .diagnostics import display_path
from .files import entry_kind, not_regular

# Hidden, so mkdocs keeps it when it empties the folder: a build that fails midway leaves a
# site that the next run still knows as its own.
# What `docs` needs beyond the tool, as pyproject.toml's `docs` extra names it (tests/test_wording.py
# holds them equal): the requirement itself installs from the index, the tool's extra may not.
MKDOCS = "mkdocs>=1.6.1,<2"
SITE_MARKER = ".mcp-contracts-site"
SITE_MARKER_LINE = b"# A site built by `mcp-contracts docs`: docs empties and rebuilds this folder.\n"


def site_problem(site: Path, settings: Settings) -> str | None:
    """Why `docs` may not build into `site`, or None."""
    try:
        if site.is_symlink():
            return f"{display_path(site)} is a symlink: the site is built only into a folder of its own"
        return _overlap(site, settings) or _not_ours(site)
    except OSError as exc:  # a name too long, a folder this user may not read
        return f"{display_path(site)}: cannot be looked at: {exc.strerror}"


def _overlap(site: Path, settings: Settings) -> str | None:
    """Which folder of the project `site` would empty (or lie inside, where a build would be
    read as a source or an output), or None. Inside the project root is the default (`site/`)."""
    resolved = site.resolve()
    folders = [(label, folder, False) for label, folder in guarded_folders(settings)]
    for label, folder, inside_allowed in [*folders, ("the project root", settings.root, True)]:
        other = folder.resolve()
        inside = other in resolved.parents and not inside_allowed
        if resolved == other or inside or resolved in other.parents:
            where = display_path(site)
            return f"{where} overlaps {label} {display_path(folder)}: docs empties the folder it builds the site in"
    return None


def _not_ours(site: Path) -> str | None:
    """Why `site` is not a folder `docs` may empty: not a folder, or not empty and without
    the marker, or holding a symlink or special file where mkdocs writes."""
    try:
        mode = os.lstat(site).st_mode
    except FileNotFoundError:
        return None
    where = display_path(site)
    if not stat.S_ISDIR(mode):
        return f"{where} is {not_regular(mode) or 'a file'}, not a folder: the site is built only into a folder"
    if not os.listdir(site):
        return None
    if not _marked(site / SITE_MARKER):
        return f"{where} has no {SITE_MARKER} of mcp-contracts docs: not emptying a folder it did not build"
    strange = _strange_entry(site)
    if strange is not None:
        return f"{display_path(strange)} is {_kind(strange)}: not followed, so the site is not rebuilt there"
    return None


def _marked(marker: Path) -> bool:
    """Whether `marker` is a regular file (not a symlink) that starts with the marker line."""
    try:
        if not stat.S_ISREG(os.lstat(marker).st_mode):
            return False
        with marker.open("rb") as file:
            return file.read(len(SITE_MARKER_LINE)) == SITE_MARKER_LINE
    except OSError:
        return False


def _strange_entry(site: Path) -> Path | None:
    """The first symlink or special file under `site`, hidden entries (which mkdocs leaves)
    aside; None when there is none."""
    stack = [site]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if folder == site and entry.name.startswith("."):
                    continue
                if entry.is_symlink() or not (entry.is_dir(follow_symlinks=False) or entry.is_file()):
                    return Path(entry.path)
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
    return None


def _kind(path: Path) -> str:
    return entry_kind(os.lstat(path).st_mode) or "not a file"


def mark(site: Path) -> None:
    """Make `site` a folder `docs` knows as its own (before mkdocs builds into it)."""
    site.mkdir(parents=True, exist_ok=True)
    (site / SITE_MARKER).write_bytes(SITE_MARKER_LINE)
