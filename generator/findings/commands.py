"""The outcomes of `check`, `generate`, `init`, `docs` and `validate`, for the printers.

Each command's own result becomes one `Outcome`, as `lint` and `breaking` make theirs: a
drifted file is a finding of `output-drift` (buf reports build errors, lint and breaking as
one kind of annotation), sources that do not load are `source-invalid` findings, a
document that breaks its schema is a `document-invalid` one; what else the command knows
(the paths, the diffs, the files made) is its facts, from which the text format says it in
the words users know (`facts.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, display_path, printable, working_folder
from ..rules import Level
from ..rules.common import DOCUMENT_INVALID, OUTPUT_DRIFT
from .finding import Finding, Note, Outcome
from .outcome_facts import CheckFacts, DocsFacts, GenerateFacts, InitFacts, ValidateFacts

if TYPE_CHECKING:
    from ..drift import Drift
    from ..scaffold import Scaffolded
    from ..validate import Verdict

# What each kind of drift is, and what repairs it.
_DRIFT_KINDS = {
    "changed": "changed: the file differs from what the sources produce",
    "missing": "missing: the sources produce this file",
    "extra": "extra: the sources do not produce this file",
}
_REPAIR = "; run `mcp-contracts generate` and commit"


def drift_findings(drift: Drift, shown: str) -> tuple[Finding, ...]:
    """One `output-drift` finding per path that differs, named as the user sees it (`shown`
    is the output folder as displayed)."""
    found = [
        Finding.in_file(OUTPUT_DRIFT, f"{shown}/{printable(path)}", _drift_message(drift, kind, path))
        for kind in _DRIFT_KINDS
        for path in getattr(drift, kind)
    ]
    return tuple(sorted(found, key=Finding.sort_key))


def _drift_message(drift: Drift, kind: str, path: str) -> str:
    """What differs at `path` and what repairs it; an entry that is not a regular file is
    named by what it is (it was not read)."""
    what = drift.irregular.get(path)
    said = _DRIFT_KINDS[kind] + (f" (it is {what}, not read)" if what else "")
    return said + _REPAIR


def checked(drift: Drift | Sequence[Diagnostic], answered: str | None, shown: str) -> Outcome:
    """`check`'s outcome: drift as findings, and as facts (`clean`, `changed`, `missing`,
    `extra`, `diffs`, `answered`) for the JSON report and the text format; or its problems."""
    if isinstance(drift, Sequence):
        return Outcome.refused("check", drift, CheckFacts(shown, answered))
    paths = (list(drift.changed), list(drift.missing), list(drift.extra))
    facts = CheckFacts(shown, answered, drift.clean, *paths, dict(drift.diffs))
    summary = (
        f"{shown} is up to date."
        if drift.clean
        else f"{shown} has drifted from the sources: run `mcp-contracts generate`."
    )
    return Outcome("check", drift_findings(drift, shown), (OUTPUT_DRIFT.id,), facts=facts, summary=summary)


def generated(drift: Drift | Sequence[Diagnostic], shown: str) -> Outcome:
    """`generate`'s outcome: the files it created, updated and removed (paths in the output
    folder), or the problems that kept it from writing anything."""
    if isinstance(drift, Sequence):
        return Outcome.refused("generate", drift, GenerateFacts(shown))
    facts = GenerateFacts(shown, list(drift.missing), list(drift.changed), list(drift.extra))
    count = len(drift.changed) + len(drift.missing) + len(drift.extra)
    summary = f"{count} file(s) changed in {shown}." if count else f"{shown} is up to date."
    notes: list[Note] = []
    if drift.left_behind is not None:  # the new tree is in; the old one could not go
        problem = drift.left_behind
        where = display_path(Path(problem.filename)) if problem.filename else shown
        said = f"{where}: the old tree could not be removed ({problem.strerror or problem})"
        notes.append(Note(Level.WARNING, f"{said}: the next `mcp-contracts generate` removes it"))
    if working_folder() is None:
        notes.append(Note(Level.NOTE, f"{shown} held the working folder and was replaced: `cd .` to see the new files"))
    return Outcome("generate", (), (), facts=facts, summary=summary, notes=tuple(notes))


def initialised(done: Scaffolded | Diagnostic) -> Outcome:
    """`init`'s outcome: the files of the new contract (and the pyproject.toml it appended the
    settings section to), or why none were made."""
    if isinstance(done, Diagnostic):
        return Outcome.refused("init", [done])
    appended = display_path(done.appended) if done.appended is not None else None
    facts = InitFacts([display_path(path) for path in done.created], appended)
    return Outcome("init", (), (), facts=facts, summary="Edit them, then run `mcp-contracts generate`.")


def built_site(site: Path, problem: str | None, output: str) -> Outcome:
    """`docs`'s outcome: where the site is, or why mkdocs did not build it (its own output
    then goes to standard error before the problem)."""
    facts = DocsFacts(display_path(site))
    if problem is not None:
        notes = (Note(Level.NOTE, "mkdocs said:\n" + output.rstrip("\n")),) if output.strip() else ()
        return Outcome("docs", (), (), facts=facts, problem=problem, notes=notes)
    return Outcome("docs", (), (), facts=facts, summary=f"Site written to {display_path(site)}/index.html")


def validated(
    contract: str, verdicts: Sequence[Verdict], problem: str | None, diagnostics: Sequence[Diagnostic]
) -> Outcome:
    """`validate`'s outcome: each violation of each document a `document-invalid` finding at
    its pointer, the verdicts as facts; a document that cannot be judged (unreadable, not
    JSON) makes the outcome's problem (exit 2) while the others are still judged."""
    facts = ValidateFacts(contract, [_document(v) for v in verdicts])
    if diagnostics:
        return Outcome.refused("validate", diagnostics, facts)
    if problem is not None:
        return Outcome("validate", (), (), facts=facts, problem=problem)
    found = tuple(
        Finding.in_file(DOCUMENT_INVALID, printable(verdict.path), violation.message, violation.pointer)
        for verdict in verdicts
        for violation in verdict.errors
    )
    unjudged = sum(v.problem is not None for v in verdicts)
    refused = f"{unjudged} document(s) could not be judged" if unjudged else None
    return Outcome("validate", found, (DOCUMENT_INVALID.id,), facts=facts, problem=refused)


def _document(verdict: Verdict) -> dict[str, Any]:
    """A verdict in the facts of `validate`: its violations, or why it could not be judged."""
    errors = [{"pointer": v.pointer, "message": v.message} for v in verdict.errors]
    return {"path": verdict.path, "valid": verdict.valid, "errors": errors, "problem": verdict.problem}
