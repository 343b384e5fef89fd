"""`--format text`: `file:line:col: RULE [level] message`, one a line, then the summary.

Sources that do not load are errors, not findings of a judgement: each `source-invalid`
finding is printed as `check` and `generate` print a problem (`error: file:line#pointer:
message`) and goes to standard error, so every command that loads the sources refuses them
in the same words. A server that cannot be judged at all (`Outcome.problem`) is the CLI's
to say, on standard error too.
"""

from __future__ import annotations

from ...diagnostics import Diagnostic
from ...rules.common import SOURCE_INVALID
from ..finding import Finding, Outcome

LOAD_RULE = SOURCE_INVALID.id
# What a command did not do when the sources do not load, after the count of their problems:
# those that write left every file as it was; `check`, which never writes, compared nothing.
NOT_DONE = {
    "check": "; nothing was compared.",
    **dict.fromkeys(("generate", "init", "import", "docs"), "; nothing was written."),
}


def load_error(finding: Finding) -> str:
    """A problem of sources that do not load, in the words of `check` (`Diagnostic`)."""
    return f"error: {Diagnostic(finding.file, finding.line, finding.pointer, finding.message)}"


def streams(outcome: Outcome) -> tuple[str, str]:
    """The text for standard output (the findings, or the command's own words for them,
    and the summary) and for standard error (the problems of sources that do not load)."""
    refused = [load_error(f) for f in outcome.findings if f.rule == LOAD_RULE]
    if refused:
        refused.append(f"{len(refused)} problem(s){NOT_DONE.get(outcome.command, ' in the sources.')}")
    body = outcome.facts.text() if outcome.loaded else None
    if body is None:
        body = "".join(str(f) + "\n" for f in outcome.findings if f.rule != LOAD_RULE)
    # Sources that do not load end the text with their count: no summary of a judgement
    # (lint's counts) before them, as if the command had judged them.
    summary = outcome.summary if outcome.summary and not refused else ""
    out = body + (summary + "\n" if summary else "")
    return out, "".join(line + "\n" for line in refused)


def printed(outcome: Outcome) -> str:
    out, err = streams(outcome)
    return err + out
