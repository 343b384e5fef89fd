"""A tool's own schemas and its `examples:` in tools.yaml: what MCP clients are given.

Each `inputSchema` and `outputSchema` is published as it is (in `mcp/<name>.tools.json`),
so each must compile alone: no reference leaves it, no value JSON cannot hold. Each example
call's arguments must meet the tool's `inputSchema`; its `result`, when given, names a file
of `examples/` that the tool's own `outputSchema` accepts (the envelope accepts every
example already). A result that carries an error code must carry one the tool declares.
`conform` makes these calls; `mock` answers them.
"""

from __future__ import annotations

import json
from typing import Any

from ..diagnostics import Diagnostic
from ..keywords import first_refusal, not_json, standalone_validator
from ..model import Builders, Example, Manifest
from .documents import Document


def check_tool_schemas(document: Document, manifest: Manifest) -> list[Diagnostic]:
    """Each tool schema that does not compile on its own, at its line."""
    problems = []
    for index, tool in enumerate(manifest.tools.entries):
        for key in ("inputSchema", "outputSchema"):
            schema = tool.get(key)
            if schema is None:
                continue
            where = ["tools", index, key]
            odd = not_json(schema)
            if odd is not None:
                problems.append(document.diagnostic([*where, *odd[0]], f"{odd[1]} is not a JSON value"))
                continue
            try:
                standalone_validator(schema)
            except ValueError as exc:
                problems.append(document.diagnostic(where, f"it does not compile on its own: {exc}"))
    return problems


def _refusal(schema: Any, instance: Any) -> str | None:
    return first_refusal(standalone_validator(schema), instance)


def check_tool_examples(
    document: Document, manifest: Manifest, examples: tuple[Example, ...], builders: Builders | None
) -> list[Diagnostic]:
    """Every tool example whose arguments or result the contract does not accept (the tool
    schemas compile: `check_tool_schemas` found no problem)."""
    by_file = {e.file_name: json.loads(e.text) for e in examples}
    problems = []
    for index, tool in enumerate(manifest.tools.entries):
        declared = tool.get("possible_error_codes")
        for position, example in enumerate(tool.get("examples") or ()):
            where: list[str | int] = ["tools", index, "examples", position]
            schema = tool.get("inputSchema") or {"type": "object"}
            refusal = _refusal(schema, example["arguments"])
            if refusal is not None:
                problems.append(document.diagnostic([*where, "arguments"], f"the inputSchema refuses it: {refusal}"))
            name = example.get("result")
            if name is None:
                continue
            if name not in by_file:
                known = ", ".join(sorted(by_file)) or "none"
                problems.append(document.diagnostic([*where, "result"], f"no {name!r} in examples/ (it has: {known})"))
                continue
            result = by_file[name]
            if tool.get("outputSchema"):
                refusal = _refusal(tool.get("outputSchema"), result)
                if refusal is not None:
                    message = f"the tool's outputSchema refuses {name}: {refusal}"
                    problems.append(document.diagnostic([*where, "result"], message))
            code = builders.code_in(result) if builders is not None else None
            if code is not None and declared is not None and code not in declared:
                message = f"{name} carries error code {code!r}, which the tool does not declare"
                problems.append(document.diagnostic([*where, "result"], message))
    return problems
