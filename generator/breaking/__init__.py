"""`mcp-contracts breaking --against REF`: what an edit of the sources breaks, for which clients.

Direction decides (see `differ`): responses (the envelope, every branch of it, and each
tool's `outputSchema` and text result) are read by clients; tool inputs by servers. Beside
the schemas: the catalogue (`catalogue`), tools and contracts removed or added, resources,
templates and prompts (`surface`), and the
version each contract needs (`version`). Every finding carries a rule of the registry
(generator/rules/breaking.py), the new place and the old one (`before`), and a `subject`
independent of list order and of where a `$ref` points, which accepted breaks match on.

Loading both sides is the caller's (`api`'s `_breaking`); old sources are read from a
folder or a git revision by `generator.against`.
"""

from __future__ import annotations

from typing import Any

from ..findings.finding import Finding
from ..model import Contract, Project
from ..rules import Level, rule
from ..rules import breaking as rules
from ..schema.pointer import encode
from . import catalogue
from .differ import INPUT, RESPONSE, Differ
from .report import Report
from .resource_prompt_changes import surface
from .shape import Side
from .version import version_findings

__all__ = ["changes_between", "input_narrowings", "version_findings"]


def changes_between(old: Project, new: Project) -> list[Finding]:
    """Every change from `old` to `new`, at the registry's levels (no policy, no version)."""
    before = {c.name: c for c in old.contracts}
    after = {c.name: c for c in new.contracts}
    gone = [(c, rules.CONTRACT_REMOVED, f"the contract {n} is gone") for n, c in before.items() if n not in after]
    added = [(c, rules.CONTRACT_ADDED, f"a new contract {n}") for n, c in after.items() if n not in before]
    findings: list[Finding] = []
    for contract, change, text in gone + added:
        report, here = Report(contract, contract), ("contract.yaml", ())
        report.add(change, f"contract {contract.name}", here, here, text)
        findings += report.findings
    for name, contract in after.items():
        if name in before:
            findings += contract_changes(before[name], contract)
    return sorted(findings, key=Finding.sort_key)


def contract_changes(old: Contract, new: Contract) -> list[Finding]:
    report = Report(old, new)
    catalogue.errors(report)
    catalogue.tools(report)
    surface(report)
    envelope(report)
    return report.findings


def envelope(report: Report) -> None:
    """The envelope, every path and every branch, as clients read it."""
    old, new = report.old.bundle, report.new.bundle
    differ = Differ(Side.of(old.resources), Side.of(new.resources), RESPONSE)
    found = differ.run(old.resources[old.root], new.resources[new.root], (old.root, ()), (new.root, ()))
    report.changes("envelope", found)


def input_narrowings(was: Any, now: Any) -> list[tuple[str, str, str]]:
    """(rule, JSON pointer in `now`, message) of each way the input schema `now` accepts less
    than `was` (the input rules at level error): `conform` judges a published schema so."""
    if not isinstance(was, dict) or not isinstance(now, dict):
        return []
    differ = Differ(Side.of({"": was}), Side.of({"": now}), INPUT)
    found = differ.run(was, now, ("", ()), ("", ()))
    return [
        (change.rule, encode(change.new[1]), change.message)
        for change in found
        if rule(change.rule).level == Level.ERROR
    ]
