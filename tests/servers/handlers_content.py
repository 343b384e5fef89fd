"""handlers_builtin.py's server (a contract's generated `Handlers` answering its examples), with
each tool whose results are content of other types than text answering content blocks: a 1x1
PNG, an empty WAV, an embedded text resource (issue 48: a content tool's handler may return
blocks, which the server judges by the types the tool declares).

    python handlers_content.py PACKAGE CONTRACT_FOLDER
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import mcp.types as types

sys.path.insert(0, str(Path(__file__).resolve().parent))
import handlers_builtin

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="
BLOCKS: dict[str, Any] = {
    "image": types.ImageContent(type="image", data=PNG, mime_type="image/png"),
    "audio": types.AudioContent(type="audio", data=WAV, mime_type="audio/wav"),
    "resource": {"type": "resource", "resource": {"uri": "test://done", "mimeType": "text/plain", "text": "done"}},
}
serving = json.loads((Path(handlers_builtin.tools.__file__).parent / "serving.json").read_text(encoding="utf-8"))


def _blocks(kind: str) -> Any:
    async def answer(self: Any, arguments: Any) -> list[Any]:
        return [BLOCKS[kind]]

    return answer


for tool, facts in serving["results"].items():
    kinds = facts["content"] or []
    if not facts["structured"] and kinds and "text" not in kinds:
        setattr(handlers_builtin.Examples, handlers_builtin.tools.BINDING.methods[tool], _blocks(kinds[0]))

if __name__ == "__main__":
    handlers_builtin.tools.server(handlers_builtin.Examples(), name="content").run()
