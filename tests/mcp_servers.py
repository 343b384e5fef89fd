"""MCP servers and contracts the `mock` and `conform` tests share: `mock` over HTTP, the raw
server (tests/servers/raw_server.py) and the answer it gives by default, the shop contract's
tools written as the SDK's MCPServer serves them, and how many calls `conform` makes."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import ROOT, SCHEMAS
from forkserver import python
from ruamel.yaml import YAML

MOCK = [*python("-m", "mcp_contracts_generator", "mock")]


def read_url(process: subprocess.Popen[str], deadline: float) -> str:
    assert process.stderr is not None
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if "serving at " in line:
            return line.split("serving at ", 1)[1].strip()
        if not line and process.poll() is not None:
            break
    raise AssertionError(f"the server did not announce its URL (exit {process.poll()})")


@contextmanager
def http_mock(contract: str, cwd: Path = ROOT) -> Iterator[str]:
    """A `mock --transport http --port 0` process (of the project at `cwd`) for the time of
    a block; its URL."""
    process = subprocess.Popen(
        [*MOCK, "--contract", contract, "--transport", "http", "--port", "0"],
        cwd=cwd,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        yield read_url(process, time.monotonic() + 30)
    finally:
        process.terminate()
        process.communicate(timeout=10)


def expected_calls(contract: str, folder: Path = SCHEMAS) -> int:
    """Example calls, and with --probe-errors one call per code each tool with examples may
    return (contracts with builders only: the others have no place for a code)."""
    folder = folder / "contracts" / contract
    tools = YAML(typ="safe").load((folder / "tools.yaml").read_text(encoding="utf-8"))["tools"]
    codes = [e["code"] for e in YAML(typ="safe").load((folder / "errors.yaml").read_text(encoding="utf-8"))["errors"]]
    has_builders = "builders" in YAML(typ="safe").load((folder / "contract.yaml").read_text(encoding="utf-8"))
    calls = 0
    for tool in tools:
        examples = tool.get("examples", [])
        calls += len(examples)
        if examples and has_builders:
            calls += len(tool.get("possible_error_codes", codes))
    return calls


SHOP_TOOLS = """\
tools:
  - name: get_item
    description: An item.
    mutation: false
    inputSchema:
      type: object
      required: [item_id]
      properties:
        item_id: {type: integer}
        verbose: {type: boolean}
        kind: {enum: [book, pen]}
    outputSchema: &item
      type: object
      required: [name, price]
      properties:
        name: {type: string}
        price: {type: number}
        tags: {type: array, items: {type: string}}
        note: {type: [string, "null"]}
    examples:
      - arguments: {item_id: 1, kind: book}
  - name: search
    description: Items that match.
    mutation: false
    inputSchema:
      type: object
      properties:
        text: {type: string}
    outputSchema: *item
    examples:
      - arguments: {text: pen}
"""


RAW = python(str(ROOT / "tests" / "servers" / "raw_server.py"))
# The one tool raw_server.py lists, as a contract's tools.yaml.
RAW_TOOLS = """\
tools:
  - name: get_item
    description: An item.
    mutation: false
    inputSchema:
      type: object
      required: [item_id]
      properties:
        item_id: {type: integer}
        verbose: {type: boolean}
        kind: {enum: [book, pen]}
    outputSchema:
      type: object
      required: [name, price]
      properties:
        name: {type: string}
        price: {type: number}
        tags: {type: array, items: {type: string}}
        note: {type: [string, "null"]}
    examples:
      - arguments: {item_id: 1, kind: book}
"""
GOOD_ITEM = '{"content": [], "structuredContent": {"name": "pen", "price": 1.5}}'
