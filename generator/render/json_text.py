"""The JSON text of generated files, written in one place from the model's parsed values.

The model holds JSON as values; this is where they become text, always the same way:
two-space indents, non-ASCII kept as it is (`ensure_ascii=False`) but for DEL and the C1
controls, written as `\\u` escapes as JSON writes the C0 ones (`escape.json_controls`: no raw
control character in any generated file), keys in the model's
order unless a file sorts them. Files end with one newline; a block shown inside a page
(an example) does not. No number JSON cannot hold is written (`allow_nan=False`): the loader
refuses them, and were one to reach here, its ValueError is the contract's problem, exit 2.
"""

from __future__ import annotations

import json
from typing import Any

from ..model import Manifest
from ..model.schemas import Bundle
from ..schema.patterns import judged
from .escape import json_controls


def json_block(value: Any, *, sort_keys: bool = False) -> str:
    """A JSON value as an indented block, without a final newline."""
    return json_controls(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=sort_keys, allow_nan=False))


def json_line(value: Any, *, sort_keys: bool = False, separators: tuple[str, str] = (", ", ": ")) -> str:
    """A JSON value on one line (`COMPACT` separators for a file read by programs)."""
    return json_controls(
        json.dumps(value, ensure_ascii=False, sort_keys=sort_keys, separators=separators, allow_nan=False)
    )


COMPACT = (",", ":")


class CompactTexts:
    """`json_line(value, sort_keys=True, separators=COMPACT)`, written once for each object
    asked again (the envelope every tool of a contract lists). Known by identity, each object
    is held here as long as its text, so no other can take its id."""

    def __init__(self) -> None:
        self._texts: dict[int, tuple[Any, str]] = {}

    def __call__(self, value: Any) -> str:
        found = self._texts.get(id(value))
        if found is None:
            found = self._texts[id(value)] = (value, json_line(value, sort_keys=True, separators=COMPACT))
        return found[1]


def json_file(value: Any, *, sort_keys: bool = False) -> str:
    """A JSON file's text: the block and one newline."""
    return json_block(value, sort_keys=sort_keys) + "\n"


def bundle_file(bundle: Bundle) -> str:
    """`schema.json` of a contract package: what `runtime.Judge.from_bundle` reads, each
    pattern as its engine reads ECMA-262 (`schema.patterns`); the published schemas keep theirs."""
    return json_file({"root": bundle.root, "formats": bundle.formats, "resources": judged(bundle.resources)})


def manifest_text(manifest: Manifest) -> str:
    """The manifest file's text: two-space indents; a tool's name, then its set columns in order."""
    document: dict[str, Any] = {}
    if manifest.version is not None:
        document["version"] = manifest.version
    document["tools"] = [
        {
            "name": tool.code,
            **{c.name: tool.get(c.name) for c in manifest.tools.columns if tool.get(c.name) is not None},
        }
        for tool in manifest.tools.entries
    ]
    return json_block(document)
