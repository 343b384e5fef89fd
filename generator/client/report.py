"""What `conform` reports: registry findings, each at its place in the contract's sources.

A finding about a tool is placed at the tool's entry in tools.yaml, as deep as is known
(its `inputSchema` at the pointer that differs, an annotation, the example call that was
made); a finding about the session (a revision refused, a listing that never ends) at
contract.yaml. The rule's level is the registry's (`rules.conform`); the `Policy` re-levels
the findings when the run ends (`outcome`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import without_secrets
from ..findings.finding import Finding, Outcome, merged
from ..findings.outcome_facts import ConformFacts
from ..findings.policy import Policy
from ..model import Contract, Place, Places
from ..rules import Rule
from .server_log import ServerLog

TOOLS = "tools.yaml"
CONTRACT = "contract.yaml"


@dataclass
class Report:
    contract: str
    target: str
    findings: list[Finding] = field(default_factory=list)
    listed: int = 0  # the most tools one revision's listing gave
    calls: int = 0  # over every revision
    failed: int = 0  # calls made for the contract's examples and probes that got no result, or an unexpected isError
    problem: str | None = None  # why the server could not be checked at all
    revisions: list[str] = field(default_factory=list)  # those checked (or begun), in order
    revision: str | None = None  # the one being checked: each finding carries it
    places: Places = field(default_factory=Places)  # where the contract's facts were written
    tools: dict[str, int] = field(default_factory=dict)  # tool name -> its index in tools.yaml
    fuzz: dict[str, Any] | None = None  # `--fuzz`: its seed, examples and what each tool got (`fuzz.py`)
    log: ServerLog | None = None  # what the server over stdio did besides answering, this revision

    @classmethod
    def of(cls, contract: Contract, target: str) -> Report:
        """An empty report of `contract`, that places its findings in the contract's sources."""
        indexes = {entry.code: index for index, entry in enumerate(contract.manifest.tools.entries)}
        return cls(contract.name, target, places=contract.places, tools=indexes)

    def add(
        self,
        rule: Rule,
        subject: str,
        message: str,
        *,
        tool: str | None = None,
        at: Sequence[Any] = (),
        source: str | None = None,
    ) -> None:
        """A finding of `rule` (a constant of `rules.conform`) about what `subject` asked, at
        path `at` inside `tool`'s entry of tools.yaml, or inside contract.yaml when no tool of
        the contract is concerned, or inside `source`, a file of the contract (resources.yaml,
        prompts.yaml), when given."""
        index = self.tools.get(tool) if tool is not None and source is None else None
        if index is not None:
            source, at = TOOLS, ["tools", index, *at]
        elif source is None:
            source = CONTRACT if tool is None else TOOLS
        place = _deepest(self.places, source, list(at))
        # What a server said, or asked for, reaches terminals and reports: one line, no URL's secrets.
        subject, message = without_secrets(subject), without_secrets(message)
        revisions = (self.revision,) if self.revision is not None else ()
        self.findings.append(
            Finding.of(rule, place, message, contract=self.contract, revisions=revisions, subject=subject)
        )

    def outcome(self, policy: Policy) -> Outcome:
        """The findings at the levels of `policy`, the run's facts and its summary line."""
        kept = tuple(policy.apply(merged(self.findings)))
        errors = sum(f.level == "error" for f in kept)
        conforms = self.problem is None and not errors
        facts = ConformFacts(
            self.contract, self.target, conforms, list(self.revisions), self.listed, self.calls, self.failed, self.fuzz
        )
        verdict = "conforms" if conforms else "does not conform"
        summary = (
            f"{self.target} {verdict} to {self.contract} at {', '.join(self.revisions)}: {self.listed} tool(s) listed,"
            f" {self.calls} call(s){f' ({self.failed} failed)' if self.failed else ''}, {errors} error(s),"
            f" {len(kept) - errors} other finding(s)."
        )
        if self.fuzz is not None:
            fuzzed = len(self.fuzz.get("tools", {}))
            counted = [*self.fuzz.get("tools", {}).values(), *self.fuzz.get("surface", {}).values()]
            answers = sum(one.get("domain_answers", 0) for one in counted)  # error answers that are no finding
            again = f"reproduce with --seed {self.fuzz['seed']}"
            summary += f" Fuzzed {fuzzed} tool(s), {answers} domain answer(s): {again}."
            if self.fuzz.get("budget_spent"):
                summary += f" The --fuzz-budget of {self.fuzz['budget']:g} s was spent: the fuzzing stopped early."
        if self.problem is not None:  # not judged (the server not reached, a --tool not in the contract)
            summary = ""  # the problem is the whole answer: no verdict of "0 error(s)" before it
        ran = policy.ran("conform", self.contract)
        return Outcome("conform", kept, ran, facts=facts, summary=summary, problem=self.problem)


def _deepest(places: Places, source: str, parts: list[Any]) -> Place:
    """The place of `parts` in `source`, cut to the deepest part the file holds: a tool that
    leaves its `inputSchema` to the default is placed at its entry, not at a pointer into
    nothing."""
    document = places.documents.get(source)
    data = getattr(document, "data", None)  # a `load.documents.Document`
    if data is None:
        return places.at(source, parts)
    node, kept = data, []
    for part in parts:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and str(part).isdigit() and int(part) < len(node):
            part = int(part)  # a pointer's token names an item
            node = node[part]
        else:
            break
        kept.append(part)
    return places.at(source, kept)


# A JSON string (left as it is), or an integer of more than 40 digits (shown by its first 20).
_STRING_OR_LONG_INTEGER = re.compile(r'"(?:[^"\\]|\\.)*"|(-?)([0-9]{20})([0-9]{21,})')


def _abridged(found: re.Match[str]) -> str:
    sign, first, rest = found.groups()
    return found.group(0) if first is None else f"{sign}{first}…({len(first) + len(rest)} digits)"


def shown(value: Any, limit: int = 200) -> str:
    """A value as a report shows it: JSON, cut at `limit` characters, with an integer of more
    than 40 digits (`conform --fuzz` sends one past 4300) as its first 20 and its length."""
    text = "(nothing)" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)
    text = _STRING_OR_LONG_INTEGER.sub(_abridged, text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
