"""A contract of many error codes whose strings are hostile: what black must leave as rendered."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import SCHEMAS

HOSTILE = [
    'say "hi"',
    "back\\slash \\n not a newline",
    "a real\nnewline and a\ttab",
    "unicode: é 中文 🎉 \u2028 line separator",
    "'single' and \"double\" and '''triple''' and \"\"\"triple\"\"\"",
    "x" * 300,
    " ".join(["a long description that goes on"] * 12),
    "{{ 7*7 }} {% raw %} </script> a|b `x` # h - [x]",
]


def hostile_contract(tmp_path: Path, codes: int) -> Path:
    """The built-in sources with jsonrpc's catalogue made of `codes` codes whose strings are
    hostile (quotes, backslashes, newlines, unicode, long text, long arrays), and tools naming them."""
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, schemas)
    folder = schemas / "contracts" / "jsonrpc"
    contract = (folder / "contract.yaml").read_text(encoding="utf-8")
    columns = (
        "    tags:\n      type: array\n      description: Tags.\n"
        "    retryable:\n      type: boolean\n      description: Whether to retry.\n"
        "    weight:\n      type: number\n      description: A weight.\n"
        "    hint:\n      type: string\n      description: A hint.\n"
    )
    (folder / "contract.yaml").write_text(contract.replace("  errors:\n", "  errors:\n" + columns, 1), encoding="utf-8")
    errors = []
    for index in range(codes):
        text = HOSTILE[index % len(HOSTILE)]
        entry: dict[str, object] = {"code": f"CODE_{index}", "message": text, "http_status": 400 + index % 100}
        if index % 3:
            entry |= {"description": text[::-1], "jsonrpc_code": -32000 - index}
        if index % 2:
            entry |= {"tags": [f"tag-{index}-{HOSTILE[k % len(HOSTILE)][:20]}" for k in range(index % 7)]}
            entry |= {"retryable": index % 4 == 1, "weight": index / 7, "hint": HOSTILE[(index + 3) % len(HOSTILE)]}
        errors.append(entry)
    for length in (39, 40, 41, 60, 78, 79, 80, 95):  # enum members about the width of a line
        errors.append(
            {
                "code": "L" * length,
                "message": "m",
                "http_status": 400,
                "tags": ["中文" * (length // 4), "文" * (length // 2)],
            }
        )
    (folder / "errors.yaml").write_text(json.dumps({"errors": errors}, ensure_ascii=False), encoding="utf-8")
    names = [e["code"] for e in errors]
    tools = [
        {"name": f"tool_{i}", "description": HOSTILE[i % len(HOSTILE)], "possible_error_codes": names[i : i + 3]}
        for i in range(codes // 4)
    ]
    (folder / "tools.yaml").write_text(json.dumps({"tools": tools}, ensure_ascii=False), encoding="utf-8")
    return schemas
