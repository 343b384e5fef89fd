"""mcp-contracts: schema-first code generator for the response contracts of MCP tools.

Stages, each in its own place: `load` reads and validates `schemas/` into the frozen
model of `model`; `render` turns the model into a plan of files; `write` writes the
plan or compares it with the disk. `api` strings them together and `cli` exposes it.
"""

from __future__ import annotations

# The one place the version is written: setuptools reads it (`[tool.setuptools.dynamic]`),
# and `--version` prints it without importing `importlib.metadata`.
__version__ = "0.1.0"
