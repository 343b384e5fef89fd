"""One printer per output format, of every command.

Each printer is a pure function of an `Outcome` to the text of that format: the same
outcome gives the same bytes, so reports can be compared and committed. The CLI prints
one of them to standard output (`--format`) and writes any of them to files (`--report`).
A printer's module is imported when it prints: `check` answered from the cache in
text imports neither the Markdown escaping of the renderer nor the model's places.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..finding import Outcome

# The module of each format's printer (`printed(outcome) -> str`), in the order help lists them.
MODULES = {
    "text": "text",
    "json": "json_report",
    "github": "github",
    "sarif": "sarif",
    "junit": "junit",
    "markdown": "markdown",
}
FORMATS = tuple(MODULES)


def printed(output_format: str, outcome: Outcome) -> str:
    """`outcome` in `output_format` (one of `FORMATS`), ending with a newline."""
    text: str = import_module(f"{__name__}.{MODULES[output_format]}").printed(outcome)
    return text
