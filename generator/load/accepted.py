"""Reading a contract's `accepted-breaks.yaml`: the breaks reviewed and accepted on purpose.

The file is optional. Each entry meets `schemas/meta/accepted-breaks.schema.json`, names a
rule of `breaking` that an edit can break (one with a version bump in the registry: a
missing bump itself cannot be accepted), and accepts a break once per version; every
problem is a diagnostic at the line of the value.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic
from ..model import AcceptedBreak, Places
from ..rules import of_command
from .documents import Document, read_yaml
from .meta import check_against_meta
from .reading import Reading

ACCEPTED_FILE = "accepted-breaks.yaml"


def acceptable_rules() -> tuple[str, ...]:
    """The rules an entry may name: those of `breaking` whose change needs a version bump."""
    return tuple(r.id for r in of_command("breaking") if r.bump is not None)


def load_accepted(folder: Path, reading: Reading) -> tuple[tuple[AcceptedBreak, ...], list[Diagnostic]]:
    """The entries of `folder/accepted-breaks.yaml` in the file's order (none when there is no
    such file), or every problem of the file."""
    path = folder / ACCEPTED_FILE
    if not reading.files.is_file(path):  # a symlink is there to refuse
        return (), []
    document = read_yaml(path, reading)
    if isinstance(document, Diagnostic):
        return (), [document]
    problems = check_against_meta(document, "accepted-breaks")
    if problems:
        return (), problems
    entries: list[dict[str, Any]] = document.data["accepted"]
    problems = _unknown_rules(document, entries) + _repeated(document, entries)
    if problems:
        return (), problems
    places = Places({ACCEPTED_FILE: document})
    accepted = tuple(
        AcceptedBreak(e["rule"], e["subject"], e["reason"], e["version"], ACCEPTED_FILE, i, places)
        for i, e in enumerate(entries)
    )
    return accepted, []


def _unknown_rules(document: Document, entries: list[dict[str, Any]]) -> list[Diagnostic]:
    known = acceptable_rules()
    problems = []
    for index, entry in enumerate(entries):
        rule_id = entry["rule"]
        if rule_id in known:
            continue
        if rule_id in {r.id for r in of_command("breaking")}:
            message = f"{rule_id} cannot be accepted: it reports no change of its own (raise the version instead)"
        else:
            close = difflib.get_close_matches(rule_id, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            message = f"{rule_id!r} is not a rule of `breaking` that a change breaks{hint}"
        problems.append(document.diagnostic(["accepted", index, "rule"], message))
    return problems


def _repeated(document: Document, entries: list[dict[str, Any]]) -> list[Diagnostic]:
    """An entry that accepts what an earlier one already accepts, for the same version."""
    first: dict[tuple[str, str, str], int] = {}
    problems = []
    for index, entry in enumerate(entries):
        key = (entry["rule"], entry["subject"], entry["version"])
        if key in first:
            line = document.line_of(["accepted", first[key]])
            message = f"accepts the same break for the same version as the entry at line {line}"
            problems.append(document.diagnostic(["accepted", index], message))
        first.setdefault(key, index)
    return problems
