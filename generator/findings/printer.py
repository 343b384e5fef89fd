"""The one output path of every command: an `Outcome` printed in the `--format` asked for,
written to each `--report FORMAT:PATH`, its notes and its problem said on standard error,
and the exit code the command ends with."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from ..config import Settings
from ..diagnostics import Refused, printable
from .finding import Outcome
from .formats import FORMATS, printed
from .report_file import STDOUT, guarded_problem, report_problem, write_report

EXIT_INVALID = 2

Reports = list[tuple[str, Path]]


def report_targets(given: Sequence[str]) -> Reports | Refused:
    """`--report FORMAT:PATH` values, checked before anything runs, or why one is refused: not
    FORMAT:PATH, or a PATH that is not a regular file or a new one (a FIFO, a device, a
    socket, a folder, any symlink: see `report_file`). `-` is standard output."""
    reports = []
    for value in given:
        name, colon, path = value.partition(":")
        if not colon or name not in FORMATS or not path:
            return Refused(f"--report {value!r} is not FORMAT:PATH with FORMAT one of {', '.join(FORMATS)}")
        problem = report_problem(Path(path))
        if problem is not None:
            return Refused(f"{printable(path)}: cannot write the {name} report: {problem}")
        reports.append((name, Path(path)))
    return reports


def guarded_reports(reports: Reports, chosen: Settings) -> Refused | None:
    """Why one of `reports` would replace a file of the project `chosen` that is no report's
    (its settings, sources, output, templates, git's files: `report_file.guarded_problem`),
    or None; asked once the settings are known, before the command runs."""
    for name, path in reports:
        problem = guarded_problem(path, chosen)
        if problem is not None:
            return Refused(f"{printable(str(path))}: cannot write the {name} report: {problem}")
    return None


def emit(outcome: Outcome, output_format: str, reports: Reports) -> int:
    """Print `outcome` in `output_format`, write each report (`-` to standard output, after
    it), say its notes and its problem on standard error; the exit code: the outcome's, or 2
    when a report cannot be written."""
    if output_format == "text":
        from .formats.text import streams

        out, err = streams(outcome)  # the problems of sources that do not load are errors
        sys.stdout.write(out)
        sys.stderr.write(err)
    else:
        sys.stdout.write(printed(output_format, outcome))
    code = outcome.exit_code
    unwritten = []
    for name, path in reports:
        if str(path) == STDOUT:
            sys.stdout.write(printed(name, outcome))
            continue
        problem = write_report(path, printed(name, outcome))
        if problem is not None:
            unwritten.append(f"error: {printable(str(path))}: cannot write the {name} report: {problem}")
            code = EXIT_INVALID
    sys.stdout.flush()
    said = [*unwritten, *map(str, outcome.notes)]
    if outcome.problem is not None:  # the command could not judge or build at all
        said.append(f"error: {outcome.problem}")
    sys.stderr.write("".join(line + "\n" for line in said))
    sys.stderr.flush()
    return code
