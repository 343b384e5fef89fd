"""A server author's road with the generated Python package, end to end: `init`, `generate`,
`pip install` of `generated/python` into a fresh environment beside the MCP SDK (from the
package index), a server on the SDK's MCPServer that returns what the installed builders
make, and `conform` holding that server to the contract: nothing to say.

Under `slow`: pip installs from the package index."""

from __future__ import annotations

from pathlib import Path

import pytest
from conform_json import conform_report
from conftest import run_cli
from fresh_env import fresh_environment, pip_run

pytestmark = pytest.mark.slow

SERVER = """\
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from billing_api_contracts.billing_api import Envelope, success_response

app = MCPServer("billing")


@app.tool(
    name="example_tool",
    title="Example tool",
    description="Replace this entry with your first tool.",
    annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False),
)
def example_tool(text: str = "") -> Envelope:
    return success_response(data={"echo": text})


if __name__ == "__main__":
    app.run()
"""


def test_an_sdk_server_on_the_installed_package_conforms(tmp_path: Path) -> None:
    project = tmp_path / "billing-server"
    project.mkdir()
    assert run_cli("init", "billing-api", cwd=project).returncode == 0
    assert run_cli("generate", cwd=project).returncode == 0
    python = fresh_environment(tmp_path / "venv")
    installed = pip_run(python, "install", project / "generated" / "python", "mcp>=2.3,<3")
    assert installed.returncode == 0, installed.stderr
    (project / "server.py").write_text(SERVER, encoding="utf-8")
    options = ("--format", "json", "--timeout", "60")
    result = run_cli("conform", "--contract", "billing-api", *options, "--", str(python), "server.py", cwd=project)
    report = conform_report(result.stdout)
    assert result.returncode == 0, report
    assert (report["conforms"], report["findings"], report["tools_listed"]) == (True, [], 1)
    assert run_cli("check", "--full", cwd=project).returncode == 0  # nothing written into the output
