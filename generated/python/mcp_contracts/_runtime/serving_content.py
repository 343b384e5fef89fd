# Copied by mcp-contracts from its generator/runtime/serving_content.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""A content tool's answer (`result.structured: false` in tools.yaml): what its handler may
return beside the envelope, and how the generated server judges it.

A content tool's success is content blocks, not a document: its handler returns text (a
`str`, one text block) or a sequence of the SDK's content blocks (or their JSON). Each block
must be of a type the tool declares (`results.content`; any type where it declares none) and
the JSON of each text block must meet its `text_schema`, where it has one; else the answer is
logged and never sent, as an envelope the contract refuses is not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .json_text import NotJson, parse_json

if TYPE_CHECKING:
    import mcp.types as types

Judged = Callable[[Any], list[str]]


def is_content(facts: Mapping[str, Any], answer: Any) -> bool:
    """Whether `answer` of a tool with these `results` facts is content, not an envelope."""
    if facts["structured"]:
        return False
    if isinstance(answer, str):
        return True
    return (
        isinstance(answer, Sequence)
        and not isinstance(answer, (bytes, bytearray))
        and bool(answer)
    )


def content_blocks(answer: Any) -> list[types.ContentBlock]:
    """The blocks of a content answer: one text block for a `str`; else each block (a model
    or its JSON) read by the SDK's model. ValueError for what is no content block."""
    import mcp.types as types
    from pydantic import TypeAdapter

    if isinstance(answer, str):
        return [types.TextContent(type="text", text=answer)]
    adapter: TypeAdapter[types.ContentBlock] = TypeAdapter(types.ContentBlock)
    # A block given as a model is read again from its JSON: the adapter takes both alike.
    return [adapter.validate_python(_json_of(block)) for block in answer]


def _json_of(block: Any) -> Any:
    dump = getattr(block, "model_dump", None)
    return (
        dump(mode="json", by_alias=True, exclude_none=True) if callable(dump) else block
    )


def content_violations(
    facts: Mapping[str, Any], blocks: list[types.ContentBlock], text_judged: Judged
) -> list[str]:
    """Every way `blocks` break what the tool declares: a type it does not list, the JSON of a
    text block its `text_schema` refuses (`text_judged` judges a document by it)."""
    declared = facts["content"]
    found: list[str] = []
    for index, block in enumerate(blocks):
        if declared is not None and block.type not in declared:
            found.append(
                f"/content/{index}: a {block.type} block, where the tool answers {', '.join(declared)}"
            )
        if block.type == "text" and facts["text_schema"] is not None:
            try:
                document = parse_json(block.text)
            except NotJson:
                found.append(
                    f"/content/{index}: its text is no JSON, where the tool's text_schema asks for it"
                )
                continue
            found += [
                f"/content/{index}{violation}" for violation in text_judged(document)
            ]
    return found
