"""The TypeScript toolchain of the tests: node, and tests/ts/node_modules (`npm ci` there: the
TypeScript, zod and MCP SDK that tests/ts/package.json pins), to compile a generated
TypeScript package and run what tsc emitted. The fixtures `node` and `built` (the built-ins'
package, compiled) are in conftest.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "tests" / "ts"
PACKAGE = ROOT / "generated" / "typescript" / "mcp_contracts"


def node_or_skip() -> str:
    """The `node` command; skip (fail in CI) without it or without tests/ts/node_modules."""
    found = shutil.which("node")
    installed = all((TS / "node_modules" / name / "package.json").is_file() for name in ("typescript", "zod"))
    if found and installed:
        return found
    missing = "node is not on PATH" if not found else f"{TS / 'node_modules'} lacks typescript or zod"
    reason = f"the TypeScript package tests need node and its packages: {missing} (run npm ci in tests/ts)"
    if os.environ.get("MCP_CONTRACTS_REQUIRE_SHARED") == "1":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def compile_package(package: Path, into: Path) -> subprocess.CompletedProcess[str]:
    """Copy a generated TypeScript package into `into`, beside a link to the tests' node_modules,
    and compile it with `tsc --strict` (its tsconfig is strict already: this says it again)."""
    shutil.copytree(package, into)
    (into / "node_modules").symlink_to(TS / "node_modules", target_is_directory=True)
    tsc = TS / "node_modules" / ".bin" / "tsc"
    return subprocess.run(
        [str(tsc), "-p", str(into), "--strict"], capture_output=True, text=True, timeout=300, check=False
    )


def call(node: str, module: Path, calls: list[dict[str, Any]], work: Path) -> list[dict[str, Any]]:
    """What each call of `calls` (see tests/ts/call.mjs) gave in the compiled `module`."""
    spec = work / "calls.json"
    spec.write_text(json.dumps(calls), encoding="utf-8")
    done = subprocess.run(
        [node, str(TS / "call.mjs"), str(module), str(spec)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    outcomes: list[dict[str, Any]] = json.loads(done.stdout)
    return outcomes
