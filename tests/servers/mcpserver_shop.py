"""A shop server written as the MCP SDK's users write one: MCPServer derives each tool's input
and output schemas from Python types (titles, defaults, `anyOf` for Optional, `enum` with
`type` for Literal). `conform` holds it to the contract `tests/test_mcp_conform.py` writes,
whose schemas are spelt by hand: they say the same, and `search` takes `None` too."""

from __future__ import annotations

from typing import Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel


class Item(BaseModel):
    name: str
    price: float
    tags: list[str] = []
    note: str | None = None


app = MCPServer("shop")


@app.tool(description="An item.", annotations=ToolAnnotations(readOnlyHint=True))
def get_item(item_id: int, verbose: bool = False, kind: Literal["book", "pen"] = "pen") -> Item:
    return Item(name="pen", price=1.5)


@app.tool(description="Items that match.", annotations=ToolAnnotations(readOnlyHint=True))
def search(text: str | None = None) -> Item:
    return Item(name=text or "any", price=2.0, note="found")


if __name__ == "__main__":
    app.run()
