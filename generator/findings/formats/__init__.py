"""One printer per output format of `lint`, `breaking` and `conform`.

Each printer is a pure function of an `Outcome` to the text of that format: the same
outcome gives the same bytes, so reports can be compared and committed. The CLI prints
one of them to standard output (`--format`) and writes any of them to files (`--report`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..finding import Outcome
from . import github, json_report, junit, markdown, sarif, text

Printer = Callable[[Outcome], str]

PRINTERS: dict[str, Printer] = {
    "text": text.printed,
    "json": json_report.printed,
    "github": github.printed,
    "sarif": sarif.printed,
    "junit": junit.printed,
    "markdown": markdown.printed,
}
FORMATS = tuple(PRINTERS)


def printed(output_format: str, outcome: Outcome) -> str:
    """`outcome` in `output_format` (one of `FORMATS`), ending with a newline."""
    return PRINTERS[output_format](outcome)
