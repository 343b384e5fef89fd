"""Writing a report file (`--report FORMAT:PATH`) whole or not at all, and only over a file.

A PATH that names a FIFO, a device, a socket or a folder is refused, and so is any symlink,
whatever it leads to: a rename over a symlink replaces the link with a file (never writing
where it leads), which is not what whoever made the link meant, and a link to `/dev/stdout`
or to a FIFO would otherwise be replaced by a regular file. `-` is standard output, which
the CLI writes itself.

Nor does a report replace a file of the project that is no report's: its settings file, its
sources, its output, its templates, git's files (`guarded_problem`), as `--out` and `--site`
never take those folders either.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

from ..config import DEFAULT_PACKAGE, PYPROJECT, SECTION, Settings, find_config, guarded_folders, project_root
from ..diagnostics import display_path
from ..files import not_regular, write_whole

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
    try:
        write_whole(path, text.encode("utf-8"), 0o644)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


_GUARDED = "a report never replaces the project's settings, sources, templates, output or git's files"


def guarded_problem(path: Path, chosen: Settings) -> str | None:
    """Why `path` is a place of the project no report is written to, or None: the settings
    file (the one the settings came from, and the root's pyproject.toml), anything in a `.git`
    folder, or in a folder `config.guarded_folders` names (sources, output, templates). The
    path is compared as named and with its folders resolved, so a symlink on the way leads
    where it leads; `-` (standard output) is never refused."""
    if str(path) == STDOUT:
        return None
    named = Path(os.path.abspath(path))
    target = named.parent.resolve() / named.name
    if any(part.casefold() == ".git" for part in (*named.parts, *target.parts)):
        return f"in a .git folder: {_GUARDED}"
    settings_files = {chosen.root / PYPROJECT} | ({chosen.config} if chosen.config is not None else set())
    if any(_within(target, file) for file in settings_files):
        return f"the project's settings file: {_GUARDED}"
    for label, folder in guarded_folders(chosen):
        if _within(target, folder):
            return f"in {label} {display_path(folder)}: {_GUARDED}"
    return None


def _within(target: Path, place: Path) -> bool:
    """Whether `target` (its folders resolved) is `place` or lies inside it: by their paths,
    or, where both exist, by the file system's identity of an entry on the way (a file
    system that ignores case, a bind mount)."""
    resolved = place.resolve()
    if target == resolved or resolved in target.parents:
        return True
    try:
        identity = os.stat(place)
    except OSError:
        return False
    for entry in (target, *target.parents):
        try:
            if os.path.samestat(os.stat(entry), identity):
                return True
        except OSError:
            continue
    return False


def known_project(schemas: Path | None, out: Path | None, templates: Path | None) -> Settings:
    """The project as far as it is known when its settings do not load, for `guarded_problem`:
    the root and settings file found from the working folder; the folders the flags name, else
    those the file names (where it is TOML), else the defaults."""
    here = Path.cwd()
    config = find_config(here)
    root = config.parent if config is not None else project_root(here)
    named = _folders_named(config) if config is not None else {}
    templates_named = root / named["templates"] if "templates" in named else None
    guessed = Settings(
        root,
        root / named.get("schemas", "schemas"),
        root / named.get("output", "generated"),
        DEFAULT_PACKAGE,
        templates_named,
        config,
    )
    absolute = [path.absolute() if path is not None else None for path in (schemas, out, templates)]
    return guessed.with_flags(schemas=absolute[0], output=absolute[1], templates=absolute[2])


def _folders_named(config: Path) -> dict[str, str]:
    """The folders (`schemas`, `output`, `templates`) a settings file that does not load names
    as strings, where it is TOML."""
    try:
        section = tomllib.loads(config.read_text(encoding="utf-8"))["tool"][SECTION]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError):
        return {}
    if not isinstance(section, dict):
        return {}
    folders = ((key, section.get(key)) for key in ("schemas", "output", "templates"))
    return {key: value for key, value in folders if isinstance(value, str) and value}
