"""An example call's answer held to what its example says.

The example's `result` file decides. An error document expects an error answer
(`example-not-error`) with its code (`example-code-differs`, whether the other code is
declared or not), in the error envelope where the contract's errors are structured
(`example-error-unstructured`: a crash's text, such as the Python SDK's "Error executing
tool", is not the error the example names). A success document, or none, expects no error
(`example-is-error`). That is the default: same branch, same code, and the contract's judge
(`results.judge_result`) for the rest. `match:` asks for more: the whole document (`exact`)
or the values at chosen JSON pointers (`example-document-differs`).

One fault is one finding: the findings of judging the result that the example's verdict
says more precisely (`EXPLAINED`) are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mcp.types as types

from ..client.bounded import AsWritten
from ..client.report import shown
from ..rules import Rule
from ..rules import conform as rules
from ..schema.pointer import encode, value_at
from ..serving.served import Call, ServedContract, ServedTool, same_json
from .results import answered_code, document_of, texts_of

# An example verdict -> the rules of `judge_result` that say the same fault less precisely.
EXPLAINED: Mapping[Rule, frozenset[Rule]] = {
    rules.EXAMPLE_IS_ERROR: frozenset({rules.IS_ERROR_MISMATCH, rules.ERROR_NOT_STRUCTURED}),
    rules.EXAMPLE_NOT_ERROR: frozenset({rules.IS_ERROR_MISMATCH}),
    rules.EXAMPLE_CODE_DIFFERS: frozenset({rules.UNKNOWN_ERROR_CODE, rules.UNDECLARED_ERROR_CODE}),
    rules.EXAMPLE_ERROR_UNSTRUCTURED: frozenset({rules.ERROR_NOT_STRUCTURED, rules.ERROR_CODE_MISSING}),
    rules.EXAMPLE_DOCUMENT_DIFFERS: frozenset(),
}
_ABSENT = object()


def example_verdict(
    contract: ServedContract, tool: ServedTool, call: Call, result: types.CallToolResult
) -> list[tuple[Rule, str]]:
    """(rule, message) of each way `result` departs from what the example `call` says.

    Without `builders:` nothing says which documents are errors: an example with a `result`
    is then held to nothing of its branch (the judge still judges the answer), one without
    one expects no `isError`."""
    if not contract.knows_errors() and call.result is not None:
        return _matched(call, document_of(result)[0]) if not result.is_error else []
    expected = contract.error_code(call.result) if call.result is not None else None
    code = answered_code(contract, result)
    document, source = document_of(result)
    as_error = bool(result.is_error) or code is not None or contract.is_error_document(document)
    named = f" (examples/{call.result_name})" if call.result_name else ""
    if expected is None:
        if not as_error:
            return _matched(call, document)
        if code is not None:
            return [(rules.EXAMPLE_IS_ERROR, f"the error {code!r}, though the example call expects a success{named}")]
        if not result.is_error:  # `success: false` without its code: the judge says where
            return [(rules.EXAMPLE_IS_ERROR, f"an error envelope, though the example call expects a success{named}")]
        said = f"isError: true, though the example call expects a success{named}: {_said(result)}"
        return [(rules.EXAMPLE_IS_ERROR, said)]
    if not as_error:
        return [(rules.EXAMPLE_NOT_ERROR, f"a success, though the example expects the error {expected!r}{named}")]
    if code is not None and code != expected:
        return [(rules.EXAMPLE_CODE_DIFFERS, _other_code(contract, tool, code, expected, named))]
    unstructured = _unstructured(contract, tool, result, expected, named, source, code)
    return unstructured or ([] if code is None else _matched(call, document))


def _unstructured(
    contract: ServedContract,
    tool: ServedTool,
    result: types.CallToolResult,
    expected: str,
    named: str,
    source: str | None,
    code: str | None,
) -> list[tuple[Rule, str]]:
    """An error answer that is not the envelope the example names: text that holds no envelope
    (a crash's message; with a `code_pattern`, `error-code-missing` says it), or the envelope in
    text only where the tool publishes an output schema and the contract's errors are
    structured (clients look in `structuredContent`). An envelope whose code is missing is the
    judge's (`invalid-result` says where)."""
    errors = contract.error_results
    if code is None and source is None and errors.code_pattern is None:
        text = f"an error without the envelope of {expected!r} that the example names{named}: {_said(result)}"
        return [(rules.EXAMPLE_ERROR_UNSTRUCTURED, text)]
    carried = errors.structured and tool.structured and "outputSchema" in tool.listing
    if code is not None and carried and result.structured_content is None:
        text = (
            f"the envelope of {code!r} in text content only, though the contract's errors are structured"
            f" (no structuredContent){named}"
        )
        return [(rules.EXAMPLE_ERROR_UNSTRUCTURED, text)]
    return []


def _other_code(contract: ServedContract, tool: ServedTool, code: str, expected: str, named: str) -> str:
    if contract.entry(code) is None:
        what = ", not a code of the catalogue"
    elif not tool.declares(code):
        what = ", which the tool does not declare"
    else:
        what = ""
    return f"the error {code!r}{what}, though the example expects {expected!r}{named}"


def _matched(call: Call, document: Any) -> list[tuple[Rule, str]]:
    """`example-document-differs` for each value `match:` asks for that the answer lacks."""
    if call.match is None or call.result is None:
        return []
    pointers = [""] if call.match == "exact" else list(call.match)
    differ = [p for p in pointers if not _same(value_at(document, p, _ABSENT), value_at(call.result, p, _ABSENT))]
    if not differ:
        return []
    first = _first_difference(value_at(document, differ[0], _ABSENT), value_at(call.result, differ[0], _ABSENT))
    first = differ[0] + first
    found, wanted = value_at(document, first, _ABSENT), value_at(call.result, first, _ABSENT)
    at = f" at {first}" if first else ""
    said = "nothing" if found is _ABSENT else found.text if isinstance(found, AsWritten) else shown(found, 120)
    more = f" (and {len(differ) - 1} more of match:)" if len(differ) > 1 else ""
    name = f"examples/{call.result_name}" if call.result_name else "the example"
    return [(rules.EXAMPLE_DOCUMENT_DIFFERS, f"{said}{at}, where {name} has {shown(wanted, 120)}{more}")]


def _first_difference(found: Any, wanted: Any) -> str:
    """The pointer, relative to where both are, of the first value in which `found` departs
    from `wanted` (keys in sorted order): "" when they differ as a whole."""
    if isinstance(found, dict) and isinstance(wanted, dict):
        for key in sorted(found.keys() | wanted.keys()):
            inner, other = found.get(key, _ABSENT), wanted.get(key, _ABSENT)
            if not _same(inner, other):
                return encode([key]) + _first_difference(inner, other)
    elif isinstance(found, list) and isinstance(wanted, list) and len(found) == len(wanted):
        for index, (inner, other) in enumerate(zip(found, wanted, strict=True)):
            if not _same(inner, other):
                return encode([str(index)]) + _first_difference(inner, other)
    return ""


def _same(found: Any, wanted: Any) -> bool:
    if found is _ABSENT or wanted is _ABSENT:
        return found is wanted
    return same_json(found, wanted)


def _said(result: types.CallToolResult) -> str:
    """What a result says in its text content, cut short (or that it has none)."""
    texts = texts_of(result)
    return shown(" ".join(texts), 160) if texts else "no text content"


def explained(verdict: list[tuple[Rule, str]]) -> frozenset[Rule]:
    """The rules of `judge_result` the verdict's findings explain."""
    return frozenset().union(*(EXPLAINED[rule] for rule, _ in verdict))
