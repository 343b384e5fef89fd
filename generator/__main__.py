"""The `mcp-contracts` script and `python -m mcp_contracts_generator`: `--version` answered
here, from the literal in `__init__.py`, before typer and the commands are imported (they
cost two and a half times the interpreter's own start); anything else runs `cli.main`."""

from __future__ import annotations

import gc
import sys

from . import __version__

# A command makes its objects in large numbers (a catalogue's entries, a bundle's schemas, the
# rendered files) and keeps most of them to its end: with Python's default thresholds the
# collector went through them all again and again, a tenth of `generate`'s CPU for 10,000
# codes and a seventh for a 1.3 MB bundle (2.8 s). Collected every 100,000 objects rather
# than 700, a cycle is still freed, after a bounded number of allocations.
_COLLECT_EVERY = (100_000, 10, 10)


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        sys.stdout.write(f"mcp-contracts {__version__}\n")
        return
    gc.set_threshold(*_COLLECT_EVERY)
    from .cli import main as command

    command()


if __name__ == "__main__":
    main()
