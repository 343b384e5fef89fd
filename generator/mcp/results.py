"""One `tools/call` result judged against the contract.

The document is `structuredContent`, or the JSON of the text content when there is none; it
must meet the tool's judge, and carry an error code, with `isError`, exactly when it is an
error: a code of the catalogue that the tool declares, with what the catalogue derives.
"""

from __future__ import annotations

from typing import Any

import mcp.types as types

from ..keywords import not_json
from ..runtime import NotJson, json_pointer, parse_json
from .report import Report, shown
from .served import ServedContract, ServedTool

_SHOWN_VIOLATIONS = 3


def document_of(result: types.CallToolResult) -> tuple[Any, str | None]:
    """The result's document and where it came from, or (None, None)."""
    if result.structured_content is not None:
        return result.structured_content, "structuredContent"
    for block in result.content:
        if isinstance(block, types.TextContent):
            try:
                return parse_json(block.text), "text"
            except NotJson:
                continue
    return None, None


def judge_result(
    contract: ServedContract, tool: ServedTool, result: types.CallToolResult, where: str, report: Report
) -> None:
    document, source = document_of(result)
    if source is None:
        report.add("no-document", "error", tool.name, where, "neither structuredContent nor JSON text content")
        return
    if source == "text" and not result.is_error:
        text = "no structuredContent, though the tool has an output schema (the text content was judged)"
        report.add("no-structured-content", "error", tool.name, where, text)
    odd = not_json(document)
    if odd is not None:  # JSON has no such number: a parser let it through
        text = f"the contract refuses the result: {json_pointer(list(odd[0])) or '/'}: {odd[1]} is not a JSON number"
        report.add("invalid-result", "error", tool.name, where, text)
        return
    violations = tool.check(document)
    if violations:
        first = "; ".join(f"{v.pointer or '/'}: {v.message}" for v in violations[:_SHOWN_VIOLATIONS])
        more = f" (and {len(violations) - _SHOWN_VIOLATIONS} more)" if len(violations) > _SHOWN_VIOLATIONS else ""
        report.add("invalid-result", "error", tool.name, where, f"the contract refuses the result: {first}{more}")
    if not contract.knows_errors():
        return
    code = contract.error_code(document)
    if (code is not None) != result.is_error:
        said = "an error" if code is not None else "a success"
        text = f"isError is {shown(result.is_error)}, but the document is {said}"
        report.add("is-error-mismatch", "error", tool.name, where, text)
    if code is None:
        return
    if contract.entry(code) is None:
        report.add("unknown-error-code", "error", tool.name, where, f"{code!r} is not a code of the catalogue")
        return
    if not tool.declares(code):
        declared = ", ".join(sorted(tool.declared_codes or ())) or "none"
        text = f"{code!r} is not among the codes the tool declares ({declared})"
        report.add("undeclared-error-code", "error", tool.name, where, text)
    for mismatch in contract.mismatches(document, code):
        text = (
            f"{mismatch.pointer} is {shown(mismatch.found)}, but the catalogue gives {code!r} "
            f"{mismatch.column}: {shown(mismatch.expected)}"
        )
        report.add("catalogue-contradicted", "error", tool.name, where, text)
