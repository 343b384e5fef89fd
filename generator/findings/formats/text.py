"""`--format text`: `file:line:col: RULE [level] message`, one a line, then the summary.

Sources that do not load are errors, not findings of a judgement: each `source-invalid`
finding is printed as `check` and `generate` print a problem (`error: file:line#pointer:
message`) and goes to standard error, so every command that loads the sources refuses them
in the same words. A server that cannot be judged at all (`Outcome.problem`) is the CLI's
to say, on standard error too.
"""

from __future__ import annotations

from ...diagnostics import Diagnostic
from ..finding import Finding, Outcome
from .own_text import BODIES

LOAD_RULE = "source-invalid"
# Commands that write files (or would have): sources that do not load leave them unwritten.
WRITERS = ("check", "generate", "init", "import", "docs")


def load_error(finding: Finding) -> str:
    """A problem of sources that do not load, in the words of `check` (`Diagnostic`)."""
    return f"error: {Diagnostic(finding.file, finding.line, finding.pointer, finding.message)}"


def streams(outcome: Outcome) -> tuple[str, str]:
    """The text for standard output (the findings, or the command's own words for them,
    and the summary) and for standard error (the problems of sources that do not load)."""
    refused = [load_error(f) for f in outcome.findings if f.rule == LOAD_RULE]
    if refused:
        written = "; nothing was written." if outcome.command in WRITERS else " in the sources."
        refused.append(f"{len(refused)} problem(s){written}")
    if outcome.loaded and outcome.command in BODIES:
        body = BODIES[outcome.command](outcome)
    else:
        body = "".join(str(f) + "\n" for f in outcome.findings if f.rule != LOAD_RULE)
    out = body + (outcome.summary + "\n" if outcome.summary else "")
    return out, "".join(line + "\n" for line in refused)


def printed(outcome: Outcome) -> str:
    out, err = streams(outcome)
    return err + out
