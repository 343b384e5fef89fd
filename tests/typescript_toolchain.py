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
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "tests" / "ts"
PACKAGE = ROOT / "generated" / "typescript" / "mcp_contracts"


def node_or_skip(*packages: str) -> str:
    """The `node` command; skip (fail in CI) without it or without the `packages` of
    tests/ts/node_modules it needs (default: typescript and zod)."""
    needed = packages or ("typescript", "zod")
    found = shutil.which("node")
    installed = all((TS / "node_modules" / name / "package.json").is_file() for name in needed)
    if found and installed:
        return found
    missing = "node is not on PATH" if not found else f"{TS / 'node_modules'} lacks {' or '.join(needed)}"
    _unavailable(f"the TypeScript tests need node and their packages: {missing} (run npm ci in tests/ts)")


def npm_or_skip(*packages: str) -> str:
    """The `npm` command; skip (fail in CI) without it, or without node and the `packages` of
    tests/ts/node_modules (whose `npm ci` left them in npm's cache, for an offline install)."""
    node_or_skip(*packages)
    found = shutil.which("npm")
    if found:
        return found
    _unavailable("the TypeScript tests need npm: it is not on PATH")


def _unavailable(reason: str) -> NoReturn:
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


def run_script(script: str, *arguments: Path, spec: Path, data: Any = None, options: Sequence[str] = ()) -> Any:
    """What the node script `tests/ts/<script>` printed as JSON, given `options` (its first
    arguments), `arguments` and `spec` (its last argument), a JSON file that `data` is written
    to unless it is None."""
    if data is not None:
        spec.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(
        [node_or_skip(), str(TS / script), *options, *map(str, arguments), str(spec)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout)


def call(node: str, module: Path, calls: list[dict[str, Any]], work: Path) -> list[dict[str, Any]]:
    """What each call of `calls` (see tests/ts/call.mjs) gave in the compiled `module`."""
    outcomes: list[dict[str, Any]] = run_script("call.mjs", module, spec=work / "calls.json", data=calls)
    return outcomes
