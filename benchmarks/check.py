"""Row 2: `mcp-contracts check` on this repository's five built-in contracts, nothing changed,
against `datamodel-codegen --check` of one schema (tuitbot's envelope) whose output was
generated once with the same flags. Wall seconds of each new process, best of N, in turn.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from harness import COMMAND, PYTHON, ROOT, SCHEMAS, Goal, Row, Settings, interleaved, run_child

ENVELOPE = SCHEMAS / "contracts" / "tuitbot" / "envelope.schema.json"


def datamodel_codegen(output: Path) -> list[str]:
    return [
        str(Path(PYTHON).with_name("datamodel-codegen")),
        "--input",
        str(ENVELOPE),
        "--input-file-type",
        "jsonschema",
        "--output",
        str(output),
        "--disable-timestamp",
        "--formatters",
        "black",
        "isort",
    ]


def measure(settings: Settings) -> list[Row]:
    repeat = settings.repeats(5)
    with tempfile.TemporaryDirectory(prefix="mcp-contracts-bench-") as work:
        anchor_argv = datamodel_codegen(Path(work) / "m.py")
        made = run_child(anchor_argv, cwd=ROOT)  # the same settings (pyproject.toml) as the check
        ours, anchor = interleaved([[COMMAND, "check"], [*anchor_argv, "--check"]], repeat, cwd=ROOT)
    problems = [
        text
        for text, failed in (
            ("`mcp-contracts check` **FAILED** (drift, or an error)", ours.returncode != 0),
            ("the anchor **FAILED**", made.returncode != 0 or anchor.returncode != 0),
        )
        if failed
    ]
    return [
        Row(
            "2",
            f"`mcp-contracts check`, 5 built-ins, nothing changed: wall (best of {repeat})",
            ours.wall,
            "s",
            Goal("<=", 0.5),
            "`datamodel-codegen --check` of tuitbot's envelope",
            anchor.wall,
            "; ".join(problems),
        )
    ]
