"""A server written with the SDK's `MCPServer` whose read-only tools `conform --fuzz` may not
call unless `--call-tool` names them, and one it cannot draw arguments for with hypothesis:

- `look`: read-only and closed-world (`openWorldHint` false): fuzzed;
- `fetch`: read-only, `openWorldHint` true (it would reach other hosts);
- `peek`: read-only, `openWorldHint` not given (MCP's default for it is true);
- `wipe`: `readOnlyHint` and `destructiveHint` both true, closed-world;
- `count_nodes`: read-only and closed-world, its argument a recursive model (a `$ref` to
  itself, which hypothesis-jsonschema does not draw from).

Each call appends the tool's name to the file `OPEN_WORLD_CALLS` names, one a line, so a
test sees which tools were called. Nothing here reaches the network.

    python open_world.py
"""

from __future__ import annotations

import os

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel


class Seen(BaseModel):
    text: str


class Node(BaseModel):
    name: str
    children: list[Node] = []


class Count(BaseModel):
    nodes: int


def _called(name: str) -> None:
    with open(os.environ["OPEN_WORLD_CALLS"], "a", encoding="utf-8") as calls:
        calls.write(name + "\n")


def _hints(**given: bool) -> ToolAnnotations:
    return ToolAnnotations(readOnlyHint=True, **given)  # type: ignore[arg-type]


app = MCPServer("open-world")


@app.tool(description="Looks at a text.", annotations=_hints(openWorldHint=False))
def look(text: str) -> Seen:
    _called("look")
    return Seen(text=text)


@app.tool(description="Fetches a URL.", annotations=_hints(openWorldHint=True))
def fetch(url: str) -> Seen:
    _called("fetch")
    return Seen(text=url)


@app.tool(description="Peeks at a text.", annotations=_hints())
def peek(text: str) -> Seen:
    _called("peek")
    return Seen(text=text)


@app.tool(description="Wipes a text.", annotations=_hints(destructiveHint=True, openWorldHint=False))
def wipe(text: str) -> Seen:
    _called("wipe")
    return Seen(text=text)


@app.tool(description="Counts the nodes of a tree.", annotations=_hints(openWorldHint=False))
def count_nodes(root: Node) -> Count:
    _called("count_nodes")

    def size(node: Node) -> int:
        return 1 + sum(size(child) for child in node.children)

    return Count(nodes=size(root))


if __name__ == "__main__":
    app.run()
