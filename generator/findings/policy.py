"""Which rules run, and at what level: the registry's default, then the project's
`[tool.mcp-contracts.rules]`, then the contract's `rules:` (and `lint.rules`) in contract.yaml."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from ..rules import Level, of_command, rule
from ..rules.common import FIXED
from .finding import Finding


@dataclass(frozen=True)
class Policy:
    project: Mapping[str, str] = field(default_factory=dict)
    contracts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # contract name -> its settings

    def setting(self, rule_id: str, contract: str | None) -> str | None:
        """What the project or the contract sets `rule_id` to, or None where neither does."""
        own = self.contracts.get(contract, {}) if contract is not None else {}
        return own.get(rule_id) or self.project.get(rule_id)

    def level(self, rule_id: str, contract: str | None) -> Level | None:
        """The level `rule_id` is reported at for `contract`; None when it is off."""
        if rule_id in FIXED:  # sources that do not load, an output that drifted: never a warning
            return Level.ERROR
        chosen = self.setting(rule_id, contract) or rule(rule_id).level
        return None if chosen == "off" else Level(chosen)

    def ran(self, command: str, contract: str | None = None) -> tuple[str, ...]:
        """The IDs of the rules of `command` that are not off (for `contract`)."""
        return tuple(r.id for r in of_command(command) if self.level(r.id, contract) is not None)

    def apply(self, findings: Iterable[Finding]) -> list[Finding]:
        """Each finding at its rule's level (an accepted break keeps the level it was given),
        those of rules that are off left out, in one order."""
        kept = []
        for finding in findings:
            level = self.level(finding.rule, finding.contract)
            if level is None:
                continue
            kept.append(finding if finding.accepted is not None else replace(finding, level=level))
        return sorted(kept, key=Finding.sort_key)
