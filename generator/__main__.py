"""The `mcp-contracts` script and `python -m mcp_contracts_generator`: `--version` answered
here, from the literal in `__init__.py`, before typer and the commands are imported (they
cost two and a half times the interpreter's own start); anything else runs `cli.main`."""

from __future__ import annotations

import sys

from . import __version__


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        sys.stdout.write(f"mcp-contracts {__version__}\n")
        return
    from .cli import main as command

    command()


if __name__ == "__main__":
    main()
