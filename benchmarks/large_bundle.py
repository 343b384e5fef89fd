"""A contract whose schema is as large as a large SchemaStore one (row 3.7, and a test's).

`SIZE`: 200 definitions over an envelope and 25 files it refers to, about 1.2 MB in all,
in draft-07 (as most of SchemaStore is written: every resource is translated to 2020-12
where it is published). SchemaStore's `package` schema is 752 KB with its references and
makes 93 classes; `pyproject` is 1.2 MB in 26 files.

Built, not copied (no SchemaStore file is vendored here), in their shape: `definitions` of
objects whose properties carry long descriptions, enums, an `anyOf` of a scalar and a
`$ref`, arrays of references and nested objects; references into the other files by
relative path and by `$id`; the root names every definition, so each is a class.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SIZE = (200, 25, 1_200_000)  # definitions, files besides the envelope, bytes of schema
_DRAFT_07 = "http://json-schema.org/draft-07/schema#"
# The references form levels, as in a real schema: a definition refers to definitions one
# level deeper, and those of the last level to themselves only (a tree of their own kind).
# Denser cycles measure the judge's engine rather than the generator: jsonschema-rs 0.60.3
# ran out of 6 GB compiling 30 definitions that each refer to three others, in cycles.
LEVELS = 4


def _name(index: int) -> str:
    return f"Definition{index}"


def _file(part: int) -> str:
    return f"part-{part}.schema.json"


def _id(part: int) -> str:
    return f"https://mcp-contracts.invalid/large/{_file(part)}"


def _words(index: int, count: int) -> str:
    return " ".join(f"word{(index * 31 + k) % 997}" for k in range(count))


def _deeper(index: int, total: int, step: int) -> int:
    """The definition one level below `index` that its `step`-th reference names."""
    level = index % LEVELS
    if level == LEVELS - 1:
        return index
    target = (index * 7 + step * 13) % total
    target = target - target % LEVELS + level + 1
    return target if target < total else target - LEVELS


def _definition(index: int, total: int, words: int, reference: Any) -> dict[str, Any]:
    """One object definition; `reference(i)` is a `$ref` to definition i as seen from here."""
    return {
        "title": _name(index),
        "description": f"Definition {index}: {_words(index, words)}",
        "type": "object",
        "additionalProperties": False,
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "minLength": 1, "description": _words(index + 1, words)},
            "kind": {"enum": [f"kind-{index}-{k}" for k in range(12)], "description": _words(index + 2, words)},
            "count": {"type": "integer", "minimum": 0, "description": _words(index + 3, words)},
            "next": {**reference(_deeper(index, total, 0)), "description": _words(index + 4, words)},
            "jump": {"anyOf": [{"type": "string"}, reference(_deeper(index, total, 1))]},
            "many": {"type": "array", "items": reference(_deeper(index, total, 2))},
            "nested": {
                "type": "object",
                "description": _words(index + 5, words),
                "properties": {"flag": {"type": "boolean"}, "note": {"type": "string"}},
            },
            "extra": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    }


def write_contract(contracts: Path, definitions: int, files: int, size: int) -> Path:
    """The contract `large` in the folder `contracts`: `definitions` definitions (at least
    `LEVELS`) over its envelope and `files` files, about `size` bytes of schema; its folder."""
    contract = contracts / "large"
    contract.mkdir(parents=True)
    # The first half of the levels in the envelope, the deeper ones spread over the files:
    # no file refers back to the envelope.
    placed = {i: 0 if i % LEVELS < LEVELS // 2 else 1 + (i // LEVELS) % files for i in range(definitions)}

    def reference_from(home: int) -> Any:
        def reference(target: int) -> dict[str, Any]:
            where = placed[target]
            if where == home:
                return {"$ref": f"#/definitions/{_name(target)}"}
            uri = _id(where) if target % 2 or home else _file(where)  # by `$id`, or by the file's path
            return {"$ref": f"{uri}#/definitions/{_name(target)}"}

        return reference

    # Descriptions long enough to reach `size`: six of them a definition, of `words` words.
    sample = json.dumps(_definition(0, definitions, 0, reference_from(0)))
    words = max(1, (size // definitions - len(sample)) // (6 * len(" word123")))
    envelope = {
        "$schema": _DRAFT_07,
        "title": "LargeEnvelope",
        "description": "A structured result as large as a large SchemaStore schema.",
        "type": "object",
        "required": ["root"],
        "properties": {
            "root": reference_from(0)(0),
            **{f"item{i}": reference_from(0)(i) for i in range(1, definitions)},  # each one a class
        },
        "definitions": {},
    }
    documents: dict[int, dict[str, Any]] = {0: envelope}
    for part in range(1, files + 1):
        documents[part] = {"$schema": _DRAFT_07, "$id": _id(part), "definitions": {}}
    for index in range(definitions):
        home = placed[index]
        documents[home]["definitions"][_name(index)] = _definition(index, definitions, words, reference_from(home))
    for part, document in documents.items():
        name = "envelope.schema.json" if part == 0 else _file(part)
        (contract / name).write_text(json.dumps(document, indent=1), encoding="utf-8")
    (contract / "contract.yaml").write_text(
        "name: large\ntitle: Large schema\nversion: 0.1.0\nsummary: A schema as large as SchemaStore's.\n"
        "module: large\n",
        encoding="utf-8",
    )
    errors = 'errors:\n  - {code: failed, message: Failed, description: "It failed."}\n'
    (contract / "errors.yaml").write_text(errors, encoding="utf-8")
    tools = "tools:\n  - {name: large_tool, description: Returns the large result.}\n"
    (contract / "tools.yaml").write_text(tools, encoding="utf-8")
    return contract
