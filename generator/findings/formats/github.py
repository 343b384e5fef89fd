"""`--format github`: workflow commands that annotate the lines of a pull request.

Every annotation names its file and line (line 1 when a finding knows only its file), so
GitHub places it in the diff; notes are `::notice`. Property values escape `%`, CR, LF, `:`
and `,`; messages escape `%`, CR and LF (GitHub's toolkit does the same), and show any other
control character (ESC, NUL, DEL, C1) as its `\\u` escape: the CI log holds none raw.
"""

from __future__ import annotations

import re

from ...rules import Level
from ..finding import Finding, Outcome

COMMANDS = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "notice"}


# The control characters a log shows raw (an ESC starts a terminal sequence): each is written
# as its `\u` escape, tab aside, and CR and LF, which GitHub's encoding carries.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def message_value(text: str) -> str:
    shown = _CONTROL.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def property_value(text: str) -> str:
    return message_value(text).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding) -> str:
    where = f"file={property_value(finding.file)},line={finding.line or 1}"
    if finding.column is not None:
        where += f",col={finding.column}"
    title = property_value(finding.rule)
    return f"::{COMMANDS[finding.level]} {where},title={title}::{message_value(finding.described())}"


def printed(outcome: Outcome) -> str:
    lines = [annotation(finding) for finding in outcome.findings]
    if outcome.problem is not None:
        lines.append(f"::error title=mcp-contracts {outcome.command}::{message_value(outcome.problem)}")
    return "".join(line + "\n" for line in lines)
