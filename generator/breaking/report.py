"""Findings of `breaking` for one contract: each at the new place, with the old one beside it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..findings.finding import Finding
from ..model import Contract
from ..rules import Rule, rule
from .differ import Change, path_text
from .shape import Loc


@dataclass
class Report:
    """The findings of one pair of contracts (`old` may be the same as `new` for an addition)."""

    old: Contract
    new: Contract
    findings: list[Finding] = field(default_factory=list)

    def add(self, rule: Rule, subject: str, new: Loc, old: Loc, message: str) -> None:
        """A finding of `rule` at the registry's level, placed on both sides."""
        place = self.new.places.at(new[0], new[1])
        before = self.old.places.at(old[0], old[1])
        self.findings.append(Finding.of(rule, place, message, contract=self.new.name, before=before, subject=subject))

    def changes(self, prefix: str, changes: list[Change]) -> None:
        """The schema differences of one comparison, their subjects led by `prefix`."""
        for change in changes:
            self.add(rule(change.rule), f"{prefix} {path_text(change.path)}", change.new, change.old, change.message)


def shown(value: Any) -> str:
    """A value in a message: as JSON, so that `true` reads as the sources write it."""
    return json.dumps(value, sort_keys=True)
