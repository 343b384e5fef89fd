"""`--format markdown`: a step summary for GitHub (`$GITHUB_STEP_SUMMARY`).

A heading, the counts, then a table of the findings. Every string from a finding passes
through `render.escape.md`, the one Markdown escaping of the project (after `printable` has
made control characters visible), so no message, file name or rule ends a cell, starts
markup or writes HTML; none sits in a code span, where its escapes would show.
"""

from __future__ import annotations

from ...diagnostics import printable
from ...render.escape import md
from ..finding import Finding, Outcome
from .common import counts


def cell(value: object) -> str:
    """A value as table text: control characters made visible (`printable`), then Markdown-escaped."""
    return "" if value is None else md(printable(str(value)))


def _place(finding: Finding) -> str:
    where = finding.file + (f":{finding.line}" if finding.line is not None else "")
    where += f":{finding.column}" if finding.line is not None and finding.column is not None else ""
    return cell(where)


def _row(finding: Finding) -> str:
    extra = "; ".join(finding.context())
    message = cell(finding.message) + (f" ({cell(extra)})" if extra else "")
    cells = (cell(finding.level), cell(finding.rule), cell(finding.contract), _place(finding), message)
    return "| " + " | ".join(cells) + " |"


def printed(outcome: Outcome) -> str:
    number = counts(outcome)
    verdict = "sources do not load" if not outcome.loaded else "passed" if outcome.exit_code == 0 else "failed"
    lines = [f"### mcp-contracts {cell(outcome.command)}: {verdict}", ""]
    if outcome.problem is not None:
        lines += [f"**error:** {cell(outcome.problem)}", ""]
    lines += [
        "| errors | warnings | notes | rules run |",
        "|---:|---:|---:|---:|",
        f"| {number['error']} | {number['warning']} | {number['note']} | {len(outcome.rules)} |",
        "",
    ]
    if outcome.findings:
        lines += ["| level | rule | contract | place | message |", "|---|---|---|---|---|"]
        lines += [_row(finding) for finding in outcome.findings]
        lines.append("")
    if outcome.summary:
        lines.append(cell(outcome.summary))
    return "\n".join(lines).rstrip("\n") + "\n"
