"""Row 8: the size of `generated/` for the built-in contracts, and of each `mcp/*.tools.json`.

No anchor: the goal is qualitative (each tool carries only what its schema reaches), so
these rows report bytes and judge nothing.
"""

from __future__ import annotations

import json

from harness import GENERATED, Row


def measure() -> list[Row]:
    files = sorted(p for p in GENERATED.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    rows = [
        Row("8.0", "`generated/` of the built-ins, every file", sum(p.stat().st_size for p in files), "bytes", None)
    ]
    tools = sorted((GENERATED / "mcp").glob("*.tools.json"))
    rows.append(
        Row("8.1", "`generated/mcp/*.tools.json`, together", sum(p.stat().st_size for p in tools), "bytes", None)
    )
    for index, path in enumerate(tools, start=2):
        size = path.stat().st_size
        count = len(json.loads(path.read_bytes()).get("tools", []))
        note = f"{count} tool{'s' * (count != 1)}, {size / count:,.0f} B per tool" if count else "no tools"
        rows.append(Row(f"8.{index}", f"`generated/mcp/{path.name}`", size, "bytes", None, note=note))
    return rows
