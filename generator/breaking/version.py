"""The version each contract needs: the largest bump its findings' rules ask for.

Called after the policy re-levels the findings and drops the rules that are off (a rule
that is off needs no bump); an accepted break still needs its bump.
"""

from __future__ import annotations

import re

from ..findings.finding import Finding
from ..model import Project
from ..rules import BUMPS, rule
from .report import Report


def parsed(text: str) -> tuple[int, int, int] | None:
    found = re.search(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
    if found is None:
        return None
    return (int(found.group(1)), int(found.group(2) or 0), int(found.group(3) or 0))


def made(was: tuple[int, int, int], now: tuple[int, int, int]) -> int:
    """The bump from `was` to `now` as an index of BUMPS; -1 for none (or a lower version)."""
    if now[0] > was[0]:
        return 2
    if now[0] == was[0] and now[1] > was[1]:
        return 1
    return 0 if now > was else -1


def version_findings(old: Project, new: Project, findings: list[Finding]) -> list[Finding]:
    """A `version-not-bumped` finding per contract whose `version` was not raised as much as
    its findings need (a rule without a bump needs none)."""
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
        if was is None or now is None or made(was, now) >= need:
            continue
        text = f"{previous.version!r} to {contract.version!r}: the changes need a {BUMPS[need]} bump"
        report = Report(previous, contract)
        at = ("contract.yaml", ("version",))
        report.add("version-not-bumped", "version", at, at, text)
        found += report.findings
    return found
