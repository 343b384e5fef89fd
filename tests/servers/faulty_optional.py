"""A search server written with the SDK's `MCPServer`, whose input schema calls `limit`
optional but whose tool fails without it (an `isError` result with no error code): the fault
`conform --fuzz` finds, for its example call, which gives `limit`, conforms.

    python faulty_optional.py
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel


class Found(BaseModel):
    items: list[str]


app = MCPServer("search")


@app.tool(description="Items that match.", annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def search(text: str, limit: int | None = None) -> Found:
    if limit is None:  # the planted fault: optional in the schema, required here
        raise ValueError("limit is required")
    return Found(items=[text] * max(0, min(limit, 3)))


if __name__ == "__main__":
    app.run()
