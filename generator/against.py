"""The sources `breaking` compares with: a folder of other sources, or a git revision.

REF is a folder that holds other sources, or a git revision of the repository (read with
`git archive`, never checked out over the work tree).
"""

from __future__ import annotations

import io
import subprocess
import tarfile
from dataclasses import replace
from pathlib import Path

from .diagnostics import Diagnostic, display_path


def old_sources(reference: str, schemas_dir: Path, work: Path) -> Path | Diagnostic:
    """The sources as they were at `reference`: a folder, or a git revision of this repository."""
    folder = Path(reference)
    if folder.is_dir():
        return folder / "schemas" if (folder / "schemas" / "contracts").is_dir() else folder
    if reference.startswith("-"):  # git would read it as an option (`--output=...`, `--remote=...`)
        return Diagnostic(reference, None, None, "neither a folder nor a revision: a revision never starts with '-'")
    top = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], cwd=schemas_dir, capture_output=True, text=True, check=False
    )
    if top.returncode != 0:
        return Diagnostic(reference, None, None, "neither a folder nor a revision: not in a git repository")
    root = Path(top.stdout.strip())
    inside = schemas_dir.resolve().relative_to(root.resolve()).as_posix()
    archive = subprocess.run(["git", "archive", reference, inside], cwd=root, capture_output=True, check=False)
    if archive.returncode != 0:
        message = archive.stderr.decode("utf-8", "replace").strip().splitlines()
        return Diagnostic(reference, None, None, f"git cannot read it: {message[-1] if message else 'unknown'}")
    try:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(work, filter="data")
    except tarfile.FilterError as exc:  # what the sources folder may not hold, said as `check` says it
        return Diagnostic(f"{reference}:{exc.tarinfo.name}", None, None, _unextracted(exc))
    except tarfile.TarError as exc:
        return Diagnostic(reference, None, None, f"git gave no readable archive: {exc}")
    return work / inside


def _unextracted(exc: tarfile.FilterError) -> str:
    """Why a member of a revision is not read (the filter's own message names the temporary folder)."""
    if isinstance(exc, tarfile.LinkOutsideDestinationError | tarfile.AbsoluteLinkError):
        return "a symlink that leads out of the sources folder: not read"
    return "not a regular file inside the sources folder: not read"



def old_refused(reference: str, diagnostics: list[Diagnostic], work: Path) -> Diagnostic:
    """Why the sources at `reference` are not compared: the first problem they load with.
    A file of a revision is named `REF:path` (as git names it), not by the temporary
    folder it was read from, so that the message is the same on every run."""
    first = diagnostics[0]
    extracted = work.as_posix() + "/"
    if first.file.startswith(extracted):
        first = replace(first, file=f"{reference}:{first.file.removeprefix(extracted)}")
    where = display_path(Path(reference)) if Path(reference).exists() else reference
    return Diagnostic(where, None, None, "the sources there do not load: " + str(first))
