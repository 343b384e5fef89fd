"""`--format json`: the report of schemas/meta/findings-report.schema.json (version 2)."""

from __future__ import annotations

import json
from typing import Any

from ..finding import Outcome
from .common import counts

VERSION = 2


def report(outcome: Outcome) -> dict[str, Any]:
    return {
        "version": VERSION,
        "command": outcome.command,
        "loaded": outcome.loaded,
        "problem": outcome.problem,
        "exit_code": outcome.exit_code,
        "counts": counts(outcome),
        "rules": list(outcome.rules),
        "facts": outcome.facts.as_json(),
        "findings": [finding.as_json() for finding in outcome.findings],
        "summary": outcome.summary,
        "notes": [note.as_json() for note in outcome.notes],
    }


def printed(outcome: Outcome) -> str:
    return json.dumps(report(outcome), indent=2, ensure_ascii=False) + "\n"
