"""Breaks accepted on purpose: a contract's `accepted-breaks.yaml` applied to `breaking`'s findings.

An entry (rule, subject, reason, version) applies while the contract is at its `version`:
each finding of that contract with the entry's rule and subject (matched exactly, as
`breaking` prints them) is kept, as a note that carries the reason, so `breaking` passes
for exactly those. Only with the bump: while the contract has a `version-not-bumped`
finding, the findings an entry matches keep their level and say that the entry waits for
the bump. An entry of the current version that matches nothing is `accepted-break-unused`
(unless the old sources already had that version: the break it records is in them);
entries of earlier versions are history, neither matched nor warned about. An entry of a
later version (the file says 2.0.0, contract.yaml still 1.4.0) accepts nothing yet: the
findings it matches stay and say which version it waits for.
"""

from __future__ import annotations

import difflib
from dataclasses import replace

from ..findings.finding import Finding
from ..model import AcceptedBreak, Contract, Project
from ..rules import Level
from ..rules import breaking as rules
from .version import Precedence, precedence

ACCEPTED_LEVEL = Level.NOTE

Key = tuple[str, str, str]  # contract, rule, subject


def accept(findings: list[Finding], new: Project, old: Project | None = None) -> list[Finding]:
    """`findings` with those the new sources accept marked so, and a finding per entry of a
    contract's current version that matches none, in the findings' one order.

    When the old sources already had that version (`old`: a pull request after the one that
    shipped the break, compared with a base that holds it), its entries record breaks made
    before the base: matching nothing is what they should do, and no warning is given.

    Called after the policy re-levelled the findings and the version findings were added;
    `accepted-break-unused` comes at its registry level, so the caller applies the policy
    once more (it keeps the level of an accepted finding)."""
    shipped = {(c.name, _version(c.version)) for c in old.contracts} if old is not None else set()
    entries = _current_entries(new.contracts)
    later = _later_entries(new.contracts)
    short = {f.contract for f in findings if f.rule == rules.VERSION_NOT_BUMPED.id}
    used: set[Key] = set()
    kept = []
    for finding in findings:
        key = (finding.contract or "", finding.rule, finding.subject or "")  # an entry's subject is never ""
        entry = entries.get(key)
        if entry is not None:
            used.add(key)
            kept.append(_waiting(finding, entry) if finding.contract in short else _accepted(finding, entry))
        elif key in later:
            kept.append(_early(finding, later[key]))
        else:
            kept.append(finding)
    for key, entry in entries.items():
        if key not in used and (key[0], _version(entry.version)) not in shipped:
            kept.append(_unused(key[0], entry, findings))
    return sorted(kept, key=Finding.sort_key)


def _version(text: str) -> Precedence | None:
    """A version as compared: a semantic version by its precedence (`1.0.0+b.5` is `1.0.0`);
    None for any other text (which loading refuses), which no entry applies to."""
    return precedence(text)


def _current_entries(contracts: tuple[Contract, ...]) -> dict[Key, AcceptedBreak]:
    """The entries that apply: those of each contract's current version, by what they match."""
    return {
        (contract.name, entry.rule, entry.subject): entry
        for contract in contracts
        for entry in contract.accepted
        if _version(entry.version) is not None and _version(entry.version) == _version(contract.version)
    }


def _later_entries(contracts: tuple[Contract, ...]) -> dict[Key, AcceptedBreak]:
    """The entries of a version above each contract's current one (the lowest such entry of
    a break), which wait for contract.yaml to reach it; versions that are not semantic never wait."""
    later: dict[Key, AcceptedBreak] = {}
    for contract in contracts:
        now = _version(contract.version)
        waiting = [(v, e) for e in contract.accepted if (v := _version(e.version)) is not None]
        for version, entry in sorted(waiting, key=lambda pair: pair[0], reverse=True):
            if now is not None and version > now:
                later[(contract.name, entry.rule, entry.subject)] = entry
    return later


def _accepted(finding: Finding, entry: AcceptedBreak) -> Finding:
    return replace(finding, level=ACCEPTED_LEVEL, accepted=entry.reason)


def _waiting(finding: Finding, entry: AcceptedBreak) -> Finding:
    """A finding an entry matches while the version is not raised enough: it stands."""
    note = (
        f"; {_where(entry)} accepts it for version {entry.version} only once the version is raised"
        " as much as the changes need (see version-not-bumped)"
    )
    return replace(finding, message=finding.message + note)


def _early(finding: Finding, entry: AcceptedBreak) -> Finding:
    """A finding an entry of a later version matches: contract.yaml has not reached it yet."""
    note = f"; {_where(entry)} accepts it for version {entry.version}, which contract.yaml's `version` is not yet"
    return replace(finding, message=finding.message + note)


def _unused(contract: str, entry: AcceptedBreak, findings: list[Finding]) -> Finding:
    """The finding of an entry that matches nothing, with the nearest subject `breaking`
    reports under the same rule, when one is close (a typo, a path that moved)."""
    reported = sorted({f.subject for f in findings if f.contract == contract and f.rule == entry.rule and f.subject})
    close = difflib.get_close_matches(entry.subject, reported, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    message = (
        f"accepts {entry.rule} of {entry.subject!r} for version {entry.version}, but `breaking` reports"
        f" no such finding{hint}: correct the entry or remove it"
    )
    return Finding.of(rules.ACCEPTED_BREAK_UNUSED, entry.place, message, contract=contract)


def _where(entry: AcceptedBreak) -> str:
    place = entry.place
    return f"{place.file}:{place.line}" if place.line is not None else place.file
