"""What several printers say the same way: the rules of a report, the counts of its findings."""

from __future__ import annotations

from ...rules import BY_ID, RULES, Level, Rule
from ..finding import Outcome


def rules_reported(outcome: Outcome) -> tuple[Rule, ...]:
    """The rules that ran, and any rule a finding names beside them (`source-invalid`), in the
    registry's order: the rule table of SARIF and the test cases of JUnit."""
    named = set(outcome.rules) | {f.rule for f in outcome.findings}
    return tuple(r for r in RULES if r.id in named) + tuple(
        Rule(i, (outcome.command,), Level.ERROR, "unknown", i) for i in sorted(named - set(BY_ID))
    )


def counts(outcome: Outcome) -> dict[str, int]:
    """How many findings there are at each level."""
    return {level: sum(f.level == level for f in outcome.findings) for level in Level}
