"""What `mock` answers a call with: a document the tool's judge accepts, or a reason why none.

A call is answered with the result of the example call with the same arguments; else with a
success: the tool's first example result that is one, the contract's first example that is
one and the tool accepts, or a document synthesised from the tool's output schema. An error for a code is
built on an example of that code, else on the simplest synthesised document that takes it:
the code, its message and what the catalogue derives from it are put where the builders say.
Every answer is judged before it is returned; nothing unjudged leaves.

A tool whose results are content (`result.structured: false`) answers with the JSON of its
example call's result, or of a document synthesised from its `text_schema`, as text; with a
short plain text when it has neither. Its errors are the envelope, as for any tool.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ..schema.pointer import put
from ..schema.synthesize import candidates, synthesize
from .served import ServedContract, ServedTool, same_json


@dataclass(frozen=True)
class Answer:
    """A document to send, and whether it is an error; or `problem`, why there is none."""

    document: Any = None
    is_error: bool = False
    problem: str | None = None
    text: str | None = None  # plain text to send instead of a document (a content tool)


def _accepts(contract: ServedContract, tool: ServedTool, document: Any) -> bool:
    """Whether `tool` may answer with `document`: an error, or a success of a tool with
    structured results, by its judge; a success of a content tool, by its `text_schema`."""
    if not tool.structured and contract.error_code(document) is None:
        return tool.accepts_text(document)
    return not tool.check(document)


def for_call(
    contract: ServedContract,
    tool: ServedTool,
    arguments: dict[str, Any],
    default: Callable[[], Answer] | None = None,
) -> Answer:
    """The answer to a call of `tool`: the result of the example call with these arguments,
    else the tool's default success (from `default`, when the caller keeps it)."""
    for call in tool.calls:
        if call.result is not None and same_json(call.arguments, arguments) and _accepts(contract, tool, call.result):
            return Answer(call.result, is_error=contract.error_code(call.result) is not None)
    return default() if default is not None else success(contract, tool)


def success(contract: ServedContract, tool: ServedTool) -> Answer:
    """The success `tool` answers with when no example call matches."""
    bases = [c.result for c in tool.calls if c.result is not None]
    if tool.structured:  # the contract's examples are envelopes, not a content tool's text
        bases += [d for _, d in contract.examples]
    for document in bases:
        if contract.error_code(document) is None and _accepts(contract, tool, document):
            return Answer(document)
    if not tool.structured and tool.text_schema is None:
        return Answer(text=f"{tool.name}: done")
    schema = tool.judged_by if tool.structured else tool.text_schema
    made, document = synthesize(schema, lambda d: contract.error_code(d) is None and _accepts(contract, tool, d))
    if made:
        return Answer(document)
    said = "output schema" if tool.structured else "text_schema"
    return Answer(problem=f"no example answers {tool.name} and none could be made from its {said}")


def _error_bases(contract: ServedContract, tool: ServedTool, code: str) -> Iterator[Any]:
    """Examples of the same code first, then the simplest documents, then other examples."""
    examples = [c.result for c in tool.calls if c.result is not None] + [d for _, d in contract.examples]
    yield from (d for d in examples if contract.error_code(d) == code)
    yield from islice(candidates(tool.judged_by), 64)
    yield from (d for d in examples if contract.error_code(d) not in (None, code))


def error(contract: ServedContract, tool: ServedTool, code: str) -> Answer:
    """The error envelope of `code` for `tool`: the code a client asked the mock for."""
    builders = contract.contract.builders
    if builders is None:
        return Answer(problem=f"contract {contract.name!r} declares no builders: its errors have no place for a code")
    if contract.entry(code) is None:
        return Answer(problem=f"{code!r} is not an error code of contract {contract.name!r}")
    if not tool.declares(code):
        declared = ", ".join(sorted(tool.declared_codes or ())) or "none"
        return Answer(problem=f"tool {tool.name!r} does not declare error code {code!r} (it declares: {declared})")
    pins: dict[str, Any] = {builders.code: code}
    if builders.message is not None:
        pins[builders.message] = contract.message(code)
    pins.update({pointer: value for pointer, _, value in contract.derived(code)})
    for base in _error_bases(contract, tool, code):
        document = base
        for pointer, value in pins.items():
            document = put(document, pointer, value)
        if contract.error_code(document) == code and _accepts(contract, tool, document):
            return Answer(document, is_error=True)
    return Answer(problem=f"no error envelope of {code!r} that the contract accepts could be made for {tool.name}")


def envelope_error(contract: ServedContract, tool: ServedTool, code: str) -> Answer:
    """The error envelope of `code` for `tool` as the contract's envelope builds it, whatever
    the tool's own `outputSchema` says (`lint` holds that schema to it: strict clients judge
    the `structuredContent` of an error result by the published output schema)."""
    return error(contract, contract.as_envelope(tool), code)
