"""`import` from facts to files: the contract written, or, for one that exists, what an
import would change, as `breaking` findings.

Either way the files are loaded as `generate` loads them before anything is written (from a
folder of their own, in a temporary place): a contract that would not load is nothing
written and every problem said, so the sources stay as they were.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from ruamel.yaml.error import YAMLError

from ..config import Settings, project_root
from ..diagnostics import Diagnostic, display_path
from ..findings.finding import Finding
from ..load.project import load_project
from ..load.reading import Reading
from ..model import Contract
from ..scaffold import add_section
from ..write import replace_tree
from .facts import ServerFacts
from .files import contract_files
from .folder import Tree, WriteFailed, guarded_folder, write_changes

_TEMPORARY_PREFIX = "mcp-contracts-import-"


@dataclass
class Imported:
    """What `import` did: the files written (none for an existing contract without `write`),
    what changed from the contract that was there, and the problems that stopped it."""

    folder: Path
    created: bool = False
    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)  # files an import took out (examples now refused)
    changes: list[Finding] = field(default_factory=list)
    changed: bool = False
    changed_files: list[str] = field(default_factory=list)  # relative to the folder: what differs
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def import_contract(settings: Settings, name: str, facts: ServerFacts, *, write: bool) -> Imported:
    """Write contract `name` from `facts` (a new one), or compare with the one there and write
    only when `write` says so (its own files only: see `importing.folder`)."""
    folder = settings.schemas / "contracts" / name
    existing = guarded_folder(folder, settings.limits)
    imported = Imported(folder, created=existing is None)
    if isinstance(existing, Diagnostic):
        imported.diagnostics = [existing]
        return imported
    try:
        made = contract_files(name, facts, existing, settings.limits.source_bytes)
    except (YAMLError, AttributeError, KeyError, TypeError, ValueError) as exc:  # a source no merge can read
        message = f"the contract there cannot be merged with the server's listing: {exc}".splitlines()[0]
        imported.diagnostics = [Diagnostic(display_path(folder), None, None, message)]
        return imported
    files, imported.notes = Tree(made.files, made.staged), made.notes
    new, problems = _loaded(name, files, settings)
    if new is None:
        imported.diagnostics = [replace(d, file=_placed(d.file, folder)) for d in problems]
        return imported
    if existing is not None:
        from ..breaking import contract_changes

        old, _ = _loaded(name, Tree(existing, {}), settings)
        imported.changed_files = sorted(p for p in {*files, *existing} if files.get(p) != existing.get(p))
        imported.changed = bool(imported.changed_files)
        changes = contract_changes(old, new) if old is not None else []
        imported.changes = [_finding_placed(finding, folder) for finding in changes]
        if not write or not imported.changed:
            return imported
        try:
            changed = write_changes(folder, files, existing)
        except WriteFailed as exc:
            imported.written, imported.removed = exc.changed.written, exc.changed.removed
            imported.diagnostics = [Diagnostic(display_path(exc.path), None, None, f"cannot be written: {exc}")]
            return imported
        imported.written, imported.removed = changed.written, changed.removed
        return imported
    replace_tree(files, folder)
    imported.written = sorted(folder / path for path in files)
    if settings.config is None:
        imported.written.append(add_section(settings))
    return imported


def _loaded(name: str, files: Tree, settings: Settings) -> tuple[Contract | None, list[Diagnostic]]:
    """Contract `name` of `files`, loaded as `generate` loads it, in a folder of its own; the
    places of its facts are in a temporary folder, which `_placed` recognises."""
    with tempfile.TemporaryDirectory(prefix=_TEMPORARY_PREFIX) as place:
        schemas = Path(place)
        folder = schemas / "contracts" / name
        for relative in files:
            try:
                (folder / relative).parent.mkdir(parents=True, exist_ok=True)
                files.copy_to(relative, folder / relative)
            except OSError as exc:  # a name this file system cannot hold...
                return None, [Diagnostic(str(folder / relative), None, None, f"cannot be written: {exc.strerror}")]
        result = load_project(
            schemas,
            Reading.within(
                schemas,
                settings.limits,
                project_root(settings.schemas.absolute()),
                contracts=settings.schemas / "contracts",  # a relative `references:` as the project has it
            ),
        )
        problems = list(result.diagnostics)
        if result.project is None:
            return None, problems
        return next(c for c in result.project.contracts if c.name == name), problems


def _placed(path: str, folder: Path) -> str:
    """A path of the temporary copies (`_loaded`), named where their files are (or would be
    written) in `folder`; any other path as it is."""
    _, marker, rest = path.partition("/" + _TEMPORARY_PREFIX)
    inside = rest.partition("/contracts/")[2] if marker else ""
    return display_path(folder.parent / inside) if inside else path


def _finding_placed(finding: Finding, folder: Path) -> Finding:
    """A finding of the temporary copies, placed where their files are."""
    before = None if finding.before is None else replace(finding.before, file=_placed(finding.before.file, folder))
    return replace(finding, file=_placed(finding.file, folder), before=before)
