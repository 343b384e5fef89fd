"""Whether each tool's own `outputSchema` admits the error envelopes it would send.

Strict clients judge the `structuredContent` of every result by the tool's `outputSchema`,
an `isError` one too, and refuse the whole result when it does not match ("structured
content does not match the tool's output schema"). For each tool with a schema of its own,
the error envelope of each code it declares is built as `mock` builds it, on the
contract's envelope (`answers.envelope_error`), then judged by that schema.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..model import Contract
from ..render.mcp import structured
from .answers import envelope_error
from .served import served


def refused_errors(contract: Contract) -> Iterator[tuple[int, str, str, str]]:
    """(tool index, tool name, code, why) of the first declared code whose error envelope
    each tool's own `outputSchema` refuses; an envelope that cannot be built is not judged."""
    entries = contract.manifest.tools.entries
    own = [i for i, tool in enumerate(entries) if tool.get("outputSchema") and structured(tool)]
    if not own or contract.builders is None:
        return
    contract_served = served(contract)
    for index in own:
        tool = contract_served.tools[index]
        codes = tool.declared_codes if tool.declared_codes is not None else contract.catalogue.codes()
        for code in sorted(codes):
            answer = envelope_error(contract_served, tool, code)
            violations = tool.check(answer.document) if answer.problem is None else []
            if violations:
                first = violations[0]
                yield index, tool.name, code, f"{first.pointer or '/'}: {first.message}"
                break
