"""mcp-contracts: schema-first code generator for the response contracts of MCP tools.

Stages, each in its own place: `load` reads and validates `schemas/` into the frozen
model of `model`; `render` turns the model into a plan of files; `write` writes the
plan or compares it with the disk. `api` strings them together and `cli` exposes it.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mcp-contracts")
except PackageNotFoundError:  # a checkout on sys.path without an install
    __version__ = "0+unknown"
