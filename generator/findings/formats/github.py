"""`--format github`: workflow commands that annotate the lines of a pull request.

Every annotation names its file and line (line 1 when a finding knows only its file), so
GitHub places it in the diff; notes are `::notice`. Property values escape `%`, CR, LF, `:`
and `,`; messages escape `%`, CR and LF (GitHub's toolkit does the same).
"""

from __future__ import annotations

from ..finding import Finding, Outcome

COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def message_value(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def property_value(text: str) -> str:
    return message_value(text).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding) -> str:
    where = f"file={property_value(finding.file)},line={finding.line or 1}"
    if finding.column is not None:
        where += f",col={finding.column}"
    title = property_value(finding.rule)
    return f"::{COMMANDS.get(finding.level, 'warning')} {where},title={title}::{message_value(finding.described())}"


def printed(outcome: Outcome) -> str:
    lines = [annotation(finding) for finding in outcome.findings]
    if outcome.problem is not None:
        lines.append(f"::error title=mcp-contracts {outcome.command}::{message_value(outcome.problem)}")
    return "".join(line + "\n" for line in lines)
