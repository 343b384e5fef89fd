"""The one rule registry of `lint`, `breaking`, `conform`, `check` and `validate` (buf's rule
spec is the model).

Each rule has a stable ID, the commands that report it, a default level, a category (what
it is about, or for `breaking`, which clients it breaks), a purpose of one sentence, and for
`breaking` the version bump its change needs. The docs page of the rules, the SARIF rule
table, the JUnit test cases and the level settings all read this registry; no finding is
made with an ID it lacks (`tests/test_rules.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ("error", "warning", "note")
SETTINGS = (*LEVELS, "off")  # what `rules:` may set a rule to
BUMPS = ("patch", "minor", "major")


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    commands: tuple[str, ...]  # lint, breaking, conform, check, validate; the first is where the docs list it
    level: str  # error, warning or note: the default
    category: str
    purpose: str
    profile: str | None = None  # lint: the rule runs only where `lint.profiles` turns it on
    bump: str | None = None  # breaking: the version bump the change needs (patch, minor, major)

    @property
    def command(self) -> str:
        return self.commands[0]


def _all() -> tuple[Rule, ...]:
    from .breaking import BREAKING_RULES
    from .common import COMMON_RULES
    from .conform import CONFORM_RULES
    from .lint import LINT_RULES

    return (*COMMON_RULES, *LINT_RULES, *BREAKING_RULES, *CONFORM_RULES)


RULES: tuple[Rule, ...] = _all()
BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}


def rule(rule_id: str) -> Rule:
    """The rule of this ID; KeyError names an ID the registry lacks (a bug, not an input)."""
    return BY_ID[rule_id]


def of_command(command: str) -> tuple[Rule, ...]:
    """The rules `command` reports, in the registry's order."""
    return tuple(r for r in RULES if command in r.commands)
