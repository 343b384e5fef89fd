"""The one rule registry of `lint`, `breaking`, `conform`, `check` and `validate` (buf's rule
spec is the model).

Each rule has a stable ID, the commands that report it, a default level, a category (what
it is about, or for `breaking`, which clients it breaks), a purpose of one sentence, and for
`breaking` the version bump its change needs. The docs page of the rules, the SARIF rule
table, the JUnit test cases and the level settings all read this registry, and
`.ci/docs_pages.py` writes the meta-schemas' enums of IDs and levels from it; no finding is
made with an ID it lacks (`tests/test_rules.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class Level(StrEnum):
    """A finding's level: a `str`, so that JSON, SARIF and the text print it as before."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


class Bump(StrEnum):
    """The version bump a change needs, smallest first."""

    PATCH = "patch"
    MINOR = "minor"
    MAJOR = "major"


LEVELS = tuple(Level)
SETTINGS = (*LEVELS, "off")  # what `rules:` may set a rule to
BUMPS = tuple(Bump)


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule, declared once as a constant of its command's module (`rules.lint.CODE_STYLE`):
    the checks report it by that constant, never by its ID typed again."""

    id: str
    commands: tuple[str, ...]  # lint, breaking, conform, check, validate; the first is where the docs list it
    level: Level  # the default
    category: str
    purpose: str
    profile: str | None = None  # lint: the rule runs only where `lint.profiles` turns it on
    bump: Bump | None = None  # breaking: the version bump the change needs

    @property
    def command(self) -> str:
        return self.commands[0]


def declared(namespace: Mapping[str, object]) -> tuple[Rule, ...]:
    """The rules a module binds to names, in the order it declares them: the registry's order."""
    return tuple(value for value in namespace.values() if isinstance(value, Rule))


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
