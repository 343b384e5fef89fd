"""`python -m generator` runs the `mcp-contracts` command."""

from .cli import main

main()
