"""A server written as the SDK's users write one, for `import`: MCPServer derives each tool's
schemas from Python types. Its shape is chosen by the first argument:

- `shared`: `get_item` and `find_item` return the same model (import makes it the envelope);
- `many`: `stats` too, with a shape of its own (the envelope is the union of the two);
- `hostile`: names, titles and descriptions with quotes, newlines, YAML and Markdown in them.

Every server also has `echo` (text only) and `bump`, which is not read-only: each call of it
appends a line to the file `IMPORT_SERVER_CALLS` names, so a test sees whether it was called.
Answers are fixed (no clock, no randomness).
"""

from __future__ import annotations

import os
import sys
from typing import Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
HOSTILE = 'He said "hi" \'there\'\n# not a comment\n"""\n{{ x }} {% y %} | a | b |\n---\n- [x]: *z &a !tag'
SHAPE = sys.argv[1] if len(sys.argv) > 1 else "shared"


class Item(BaseModel):
    """An item of the shop."""

    name: str
    price: float = Field(ge=0)
    tags: list[str] = []


class Stats(BaseModel):
    count: int
    kind: Literal["book", "pen"]


name = "shop" if SHAPE != "hostile" else HOSTILE
app = MCPServer(name, instructions="Items of a shop, read by name or number." if SHAPE != "hostile" else HOSTILE)


@app.tool(description="An item by its number.", annotations=READ_ONLY)
def get_item(item_id: int = Field(description="The number, such as '7'.", ge=0)) -> Item:
    return Item(name="pen", price=1.5, tags=[str(item_id)])


@app.tool(description="An item by its name.", annotations=READ_ONLY)
def find_item(name: str = Field(description="A name: 'pen' or 'book'.")) -> Item:
    if name not in ("pen", "book"):
        raise ValueError(f"no item named {name!r}")
    return Item(name=name, price=2.0)


if SHAPE == "many":

    @app.tool(description="How many items of a kind.", annotations=READ_ONLY)
    def stats(kind: Literal["book", "pen"] = "pen") -> Stats:
        return Stats(count=3, kind=kind)


if SHAPE == "hostile":

    @app.tool(name="odd", title=HOSTILE, description=HOSTILE, annotations=READ_ONLY)
    def odd(text: str = Field(description=HOSTILE)) -> Item:
        return Item(name=text, price=0)


@app.tool(description="The text it is given.", annotations=READ_ONLY, structured_output=False)
def echo(text: str = "hello") -> str:
    return text


@app.tool(description="Counts one more.", annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False))
def bump() -> Item:
    with open(os.environ["IMPORT_SERVER_CALLS"], "a") as calls:
        calls.write("bump\n")
    return Item(name="bump", price=0)


if __name__ == "__main__":
    app.run()
