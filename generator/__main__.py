"""`python -m generator` runs the `mcp-contracts` command."""

from generator.cli import main

main()
