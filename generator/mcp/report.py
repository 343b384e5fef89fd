"""What `conform` reports: findings, each with a rule ID, a level and a place."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Finding:
    """One way the server departs from the contract. `level` is error, warning or note;
    `revision` the protocol revision the session that found it spoke (None: before any)."""

    rule: str
    level: str
    tool: str | None
    where: str
    message: str
    revision: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "level": self.level,
            "revision": self.revision,
            "tool": self.tool,
            "where": self.where,
            "message": self.message,
        }

    def __str__(self) -> str:
        at = f" @{self.revision}" if self.revision is not None else ""
        return f"{self.rule} [{self.level}]{at} {self.where}: {self.message}"


@dataclass
class Report:
    contract: str
    target: str
    findings: list[Finding] = field(default_factory=list)
    listed: int = 0  # the most tools one revision's listing gave
    calls: int = 0  # over every revision
    problem: str | None = None  # why the server could not be checked at all
    revisions: list[str] = field(default_factory=list)  # those checked (or begun), in order
    revision: str | None = None  # the one being checked: each finding carries it

    @property
    def conforms(self) -> bool:
        return self.problem is None and not any(f.level == "error" for f in self.findings)

    def add(self, rule: str, level: str, tool: str | None, where: str, message: str) -> None:
        self.findings.append(Finding(rule, level, tool, where, message, self.revision))

    def as_json(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "target": self.target,
            "conforms": self.conforms,
            "problem": self.problem,
            "revisions": list(self.revisions),
            "tools_listed": self.listed,
            "calls": self.calls,
            "findings": [f.as_json() for f in self.findings],
        }


def shown(value: Any, limit: int = 200) -> str:
    """A value as a report shows it: JSON, cut at `limit` characters."""
    text = "(nothing)" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"
