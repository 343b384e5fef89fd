"""The version each contract needs: the largest bump its findings' rules ask for.

Called after the policy re-levels the findings and drops the rules that are off (a rule
that is off needs no bump); an accepted break still needs its bump. Versions are semantic
versions (semver.org 2.0.0): the loader refuses any other, in contract.yaml and in
accepted-breaks.yaml, and reads an old revision's as one (`load.project`).
"""

from __future__ import annotations

from ..findings.finding import Finding
from ..load.meta import semver
from ..model import Project
from ..rules import BUMPS, rule
from ..rules import breaking as rules
from .report import Report

# How semver.org orders versions: a release after its pre-releases, and a pre-release's
# identifiers one by one, numbers before words, a longer list after its own beginning.
Precedence = tuple[int, int, int, int, tuple[tuple[int, int, str], ...]]


def parsed(text: str) -> tuple[int, int, int] | None:
    """MAJOR, MINOR and PATCH of a semantic version; None for any other text."""
    found = semver().fullmatch(text)
    return None if found is None else (int(found[1]), int(found[2]), int(found[3]))


def precedence(text: str) -> Precedence | None:
    """A semantic version as semver.org orders it (build metadata aside: `1.0.0+b.5` is
    `1.0.0`); None for any other text."""
    found = semver().fullmatch(text)
    if found is None:
        return None
    identifiers = tuple((0, int(i), "") if i.isdigit() else (1, 0, i) for i in (found[4] or "").split(".") if i)
    return (int(found[1]), int(found[2]), int(found[3]), 0 if found[4] else 1, identifiers)


def made(was: tuple[int, int, int], now: tuple[int, int, int]) -> int:
    """The bump from `was` to `now` as an index of BUMPS; -1 for none (or a lower version)."""
    if now[0] > was[0]:
        return 2
    if now[0] == was[0] and now[1] > was[1]:
        return 1
    return 0 if now > was else -1


def version_findings(old: Project, new: Project, findings: list[Finding]) -> list[Finding]:
    """A `version-not-bumped` finding per contract whose `version` was not raised as much as
    its findings need (a rule without a bump needs none). A version that is not semantic
    (which loading refuses) has made no bump."""
    before = {c.name: c for c in old.contracts}
    found: list[Finding] = []
    for contract in new.contracts:
        bumps = [rule(f.rule).bump for f in findings if f.contract == contract.name]
        needs = [BUMPS.index(b) for b in bumps if b is not None]
        previous = before.get(contract.name)
        if not needs or previous is None:
            continue
        need = max(needs)
        was, now = parsed(previous.version), parsed(contract.version)
        if was is not None and now is not None and made(was, now) >= need:
            continue
        text = f"{previous.version!r} to {contract.version!r}: the changes need a {BUMPS[need]} bump"
        report = Report(previous, contract)
        at = ("contract.yaml", ("version",))
        report.add(rules.VERSION_NOT_BUMPED, "version", at, at, text)
        found += report.findings
    return found
