"""One `tools/call` result judged against the contract.

A tool with structured results: the document is `structuredContent`, or the JSON of the text
content when there is none; it must meet the tool's judge, and carry an error code, with
`isError`, exactly when it is an error: a code of the catalogue that the tool declares, with
what the catalogue derives.

A tool whose results are content (`result.structured: false`): each block is of a type the
tool declares, and the JSON of each text block meets its `text_schema`, if it has one.

An `isError` result is an error of the tool, and each finding about it says so. Its envelope
(`structuredContent`, or a JSON object in its text) is judged as above; plain text is judged
by the code `error_results.code_pattern` finds in it. Strict clients (the TypeScript SDK)
judge the `structuredContent` of every result, errors too, by the output schema the server
lists: one it refuses makes them fail the call.

One fault is one finding: the findings of a result that a more precise one explains are left
out (`EXPLAINED_BY`): a document the contract refuses is not also said to be outside the
output schema it publishes, and the caller (an example call) may name the findings its own
verdict explains. A document is an error by its code, or by the values the error builder
writes (`success: false`), so none is called "a success" for a missing code.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import mcp.types as types

from ..client.bounded import json_as_written
from ..client.report import Report, shown
from ..rules import Rule
from ..rules import conform as rules
from ..runtime import NotJson, Violation, parse_json
from ..schema.pointer import encode
from ..schema.values import first_unheld, not_json, unheld
from ..serving.served import ServedContract, ServedTool, published_check
from .echoes import echo_at, echoes

_SHOWN_VIOLATIONS = 3
# What strict clients (the TypeScript SDK) say when they refuse a result.
_STRICT_CLIENTS = "strict clients fail the call: structured content does not match the tool's output schema"


def document_of(result: types.CallToolResult) -> tuple[Any, str | None]:
    """The result's document and where it came from, or (None, None)."""
    if result.structured_content is not None:
        return result.structured_content, "structuredContent"
    for block in result.content:
        if isinstance(block, types.TextContent):
            try:
                return _as_sent(block.text), "text"
            except NotJson:
                continue
    return None, None


def _as_sent(text: str) -> Any:
    """The JSON document in a text block, each number as the server wrote it where no double
    holds it (`1e-400` is not the 0 a parser makes of it: `client.bounded.AsWritten`)."""
    if first_unheld(text.encode("utf-8", "surrogatepass")) is not None:  # a parser would read another number
        try:
            return json_as_written(text)
        except (ValueError, RecursionError):
            pass  # the parser below says why it is no JSON
    return parse_json(text)


# rule -> the rules whose finding at the same call says the same fault more precisely.
EXPLAINED_BY: Mapping[Rule, frozenset[Rule]] = {
    rules.ERROR_RESULT_OUTSIDE_SCHEMA: frozenset({rules.INVALID_RESULT}),
    rules.UNKNOWN_ERROR_CODE: frozenset({rules.INVALID_RESULT}),  # the schema's enum of codes said it
}


def texts_of(result: types.CallToolResult) -> list[str]:
    """The text of each text block of a result, in order."""
    return [block.text for block in result.content if isinstance(block, types.TextContent)]


def answered_code(contract: ServedContract, result: types.CallToolResult) -> str | None:
    """The error code a result carries: in its document, else (an error) in its text by
    `error_results.code_pattern`."""
    document, source = document_of(result)
    code = contract.error_code(document) if source is not None else None
    if code is None and result.is_error and contract.error_results.code_pattern is not None:
        code = next((c for c in map(contract.code_in_text, texts_of(result)) if c is not None), None)
    return code


@dataclass
class _Call:
    """Where findings about one result go: its tool, the call, and whether it is an error;
    they are kept until `flush`, which leaves out those another explains (and `explained`)."""

    report: Report
    tool: ServedTool
    where: str
    is_error: bool
    at: tuple[Any, ...] = ()  # where the call was written in the tool's entry
    explained: Collection[Rule] = ()  # rules the caller's own finding explains
    found: list[tuple[Rule, str]] = field(default_factory=list)

    def add(self, rule: Rule, message: str) -> None:
        prefix = "isError result: " if self.is_error else ""
        self.found.append((rule, prefix + message))

    def flush(self) -> None:
        said = {rule for rule, _ in self.found}
        for rule, message in self.found:
            if rule not in self.explained and not EXPLAINED_BY.get(rule, frozenset()) & said:
                self.report.add(rule, self.where, message, tool=self.tool.name, at=self.at)


def judge_result(
    contract: ServedContract,
    tool: ServedTool,
    result: types.CallToolResult,
    where: str,
    report: Report,
    at: tuple[Any, ...] = (),
    arguments: Mapping[str, Any] | None = None,
    explained: Collection[Rule] = (),
) -> None:
    """Each way `result` departs from the contract, a finding about `where` (the call, as
    the report names it), placed at `at` in the tool's entry (the example call made); an
    error that echoes a secret one of `arguments` (the call's) too. The rules in `explained`
    are left out: the caller said the fault they would say."""
    call = _Call(report, tool, where, bool(result.is_error), at, explained)
    try:
        _judge(contract, tool, result, call, arguments)
    finally:
        call.flush()


def _judge(
    contract: ServedContract,
    tool: ServedTool,
    result: types.CallToolResult,
    call: _Call,
    arguments: Mapping[str, Any] | None,
) -> None:
    report, where = call.report, call.where
    if arguments is not None and (result.is_error or contract.error_code(document_of(result)[0]) is not None):
        for name, text in echoes(tool, arguments, result):
            report.add(rules.ERROR_ECHOES_ARGUMENT, where, text, tool=tool.name, at=echo_at(tool, name, call.at))
    if not tool.structured and result.structured_content is not None:
        call.add(rules.STRUCTURED_CONTENT_UNEXPECTED, "structuredContent, though the tool's results are content")
    if result.is_error:
        _judge_error(contract, tool, result, call)
    elif tool.structured:
        _judge_structured(contract, tool, result, call)
    else:
        _judge_content(contract, tool, result, call)


def _judge_structured(contract: ServedContract, tool: ServedTool, result: types.CallToolResult, call: _Call) -> None:
    document, source = document_of(result)
    if source is None:
        call.add(rules.NO_DOCUMENT, "neither structuredContent nor JSON text content")
        return
    if source == "text" and "outputSchema" in tool.listing:  # not listed: text at this revision
        text = "no structuredContent, though the tool has an output schema (the text content was judged)"
        call.add(rules.NO_STRUCTURED_CONTENT, text)
    _judge_document(contract, tool, document, call)


def _judge_content(contract: ServedContract, tool: ServedTool, result: types.CallToolResult, call: _Call) -> None:
    """A success of a tool whose results are content: its block types (any, when it declares
    none), its text's JSON."""
    for index, block in enumerate(result.content):
        if tool.content_types is not None and block.type not in tool.content_types:
            declared = ", ".join(sorted(tool.content_types))
            text = f"content[{index}] is {block.type!r}, a type the tool does not declare ({declared})"
            call.add(rules.CONTENT_TYPE_UNDECLARED, text)
    texts = [(i, b.text) for i, b in enumerate(result.content) if isinstance(b, types.TextContent)]
    for index, text in texts:
        try:
            document = parse_json(text)
        except NotJson:
            if tool.text_check is not None:
                call.add(rules.INVALID_TEXT, f"content[{index}] is not JSON, which the tool's text_schema wants")
            continue
        if contract.knows_errors() and contract.error_code(document) is not None:
            said = f"content[{index}] holds the error envelope of {contract.error_code(document)!r}"
            call.add(rules.IS_ERROR_MISMATCH, f"isError is {shown(result.is_error)}, but {said}")
            continue
        if tool.text_check is None:
            continue
        odd = not_json(document)
        violations = tool.text_check(document) if odd is None else [Violation(odd[0], _number_said(odd[1]))]
        if violations:
            call.add(rules.INVALID_TEXT, f"the text_schema refuses content[{index}]: {_listed(violations)}")


def _judge_error(contract: ServedContract, tool: ServedTool, result: types.CallToolResult, call: _Call) -> None:
    """An `isError` result: its envelope judged as a document, else the code its text holds."""
    errors = contract.error_results
    carried = "outputSchema" in tool.listing  # not at every revision (see `revisions.tool_at`)
    if tool.structured and carried and errors.structured and result.structured_content is None:
        text = "no structuredContent, though the contract's errors are structured (error_results.structured)"
        call.add(rules.ERROR_NOT_STRUCTURED, text)
    published = published_check(tool)
    if result.structured_content is not None and published is not None:
        violations = published(result.structured_content)
        if violations:
            call.add(rules.ERROR_RESULT_OUTSIDE_SCHEMA, f"{_STRICT_CLIENTS}: {_listed(violations)}")
    document, source = document_of(result)
    if source == "structuredContent" or isinstance(document, dict | list):
        _judge_document(contract, tool, document, call)
        return
    if errors.code_pattern is None:
        return  # plain text, and the contract does not say where a code is in it
    texts = texts_of(result)
    code = next((c for c in map(contract.code_in_text, texts) if c is not None), None)
    if code is None:
        text = f"no error code in its text (error_results.code_pattern): {shown(' '.join(texts), 120)}"
        call.add(rules.ERROR_CODE_MISSING, text)
        return
    _judge_code(contract, tool, code, call)


def _judge_document(contract: ServedContract, tool: ServedTool, document: Any, call: _Call) -> None:
    odd = not_json(document)
    if odd is not None:  # JSON has no such number: a parser let it through
        text = f"the contract refuses the result: {encode(odd[0]) or '/'}: {_number_said(odd[1])}"
        call.add(rules.INVALID_RESULT, text)
        return
    violations = tool.check(document)
    if violations:
        call.add(rules.INVALID_RESULT, f"the contract refuses the result: {_listed(violations)}")
    if not contract.knows_errors():
        return
    code = contract.error_code(document)
    if contract.is_error_document(document) != call.is_error:
        said = "an error envelope" if code is None else f"the error envelope of {code!r}"
        said = said if not call.is_error else "a success"
        call.add(rules.IS_ERROR_MISMATCH, f"isError is {shown(call.is_error)}, but the document is {said}")
    if code is None:
        return
    if _judge_code(contract, tool, code, call):
        for mismatch in contract.mismatches(document, code):
            text = (
                f"{mismatch.pointer} is {shown(mismatch.found)}, but the catalogue gives {code!r} "
                f"{mismatch.column}: {shown(mismatch.expected)}"
            )
            call.add(rules.CATALOGUE_CONTRADICTED, text)


def _judge_code(contract: ServedContract, tool: ServedTool, code: str, call: _Call) -> bool:
    """Whether `code` is a code of the catalogue (that the tool should declare)."""
    if contract.entry(code) is None:
        call.add(rules.UNKNOWN_ERROR_CODE, f"{code!r} is not a code of the catalogue")
        return False
    if not tool.declares(code):
        declared = ", ".join(sorted(tool.declared_codes or ())) or "none"
        call.add(rules.UNDECLARED_ERROR_CODE, f"{code!r} is not among the codes the tool declares ({declared})")
    return True


def _number_said(text: str) -> str:
    """Why a number as the server wrote it (`1e-400`, `NaN`) stands in no document."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    return unheld(text, value) or f"{text} is not a JSON number"


def _listed(violations: list[Violation]) -> str:
    first = "; ".join(f"{v.pointer or '/'}: {v.message}" for v in violations[:_SHOWN_VIOLATIONS])
    more = f" (and {len(violations) - _SHOWN_VIOLATIONS} more)" if len(violations) > _SHOWN_VIOLATIONS else ""
    return first + more
