"""The anchor of row 7: a bare MCP SDK `MCPServer` with one tool, served over stdio.

Its one tool, `x_post_tweet`, answers every call with tuitbot's `api-success.json` example
as structured content: the result `mcp-contracts mock --contract tuitbot` gives the same call.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer

RESULT: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "schemas/contracts/tuitbot/examples/api-success.json").read_text("utf-8")
)

app = MCPServer("bare")


@app.tool()
def x_post_tweet(text: str) -> dict[str, Any]:
    """Posts a tweet."""
    return RESULT


if __name__ == "__main__":
    app.run()
