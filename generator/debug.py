"""`MCP_CONTRACTS_DEBUG=1` (or the CLI's `--debug`): the traceback behind a broad `except`.

Each broad `except` of the tool (tests/test_debug.py holds them to it) calls `handled`, which
prints the exception it turns into a verdict or a message to standard error, once, saying
where; the output and the exit code stay what they are.
"""

from __future__ import annotations

import inspect
import os
import sys

VARIABLE = "MCP_CONTRACTS_DEBUG"
_SHOWN = "__mcp_contracts_shown__"


def start() -> None:
    """When debugging is on, the generated runtime's log (why a fast path was left) is shown too."""
    if os.environ.get(VARIABLE, "") in ("", "0"):
        return
    import logging

    runtime = logging.getLogger("mcp_contracts")
    runtime.setLevel(logging.DEBUG)
    if not runtime.handlers:
        runtime.addHandler(logging.StreamHandler(sys.stderr))


def handled(exc: BaseException) -> None:
    """Print `exc` with its traceback to standard error, when debugging is on."""
    if os.environ.get(VARIABLE, "") in ("", "0") or getattr(exc, _SHOWN, False):
        return
    import traceback

    frame = inspect.currentframe()
    caller = frame.f_back if frame is not None else None
    where = f"{caller.f_globals.get('__name__')}:{caller.f_lineno}" if caller is not None else "?"
    print(f"mcp-contracts debug: handled at {where}:", file=sys.stderr)
    traceback.print_exception(exc, file=sys.stderr)
    setattr(exc, _SHOWN, True)  # every exception has a __dict__
