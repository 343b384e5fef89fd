"""`examples:` of a tool in tools.yaml: calls that `conform` makes and `mock` answers.

Each call's arguments must meet the tool's `inputSchema`; its `result`, when given, names
a file of `examples/` that the tool's own `outputSchema` accepts (the envelope accepts every
example already). A result that carries an error code must carry one the tool declares.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs

from ..diagnostics import Diagnostic
from ..model import Builders, Example, Manifest
from .documents import Document


def _no_fetch(uri: str) -> Any:
    raise ValueError(f"{uri} is not fetched: a tool's schema must be self-contained")


def _refusal(schema: Any, instance: Any) -> str | None:
    """Why `schema` refuses `instance` (None when it accepts it, or is not a schema)."""
    try:
        validator = jsonschema_rs.validator_for(schema, retriever=_no_fetch)
    except (ValueError, jsonschema_rs.ValidationError) as exc:
        return f"the schema cannot be compiled: {str(exc).splitlines()[0]}"
    error = next(iter(validator.iter_errors(instance)), None)
    if error is None:
        return None
    if not error.instance_path:
        return error.message
    return f"at /{'/'.join(str(p) for p in error.instance_path)}: {error.message}"


def check_tool_examples(
    document: Document, manifest: Manifest, examples: tuple[Example, ...], builders: Builders | None
) -> list[Diagnostic]:
    """Every tool example whose arguments or result the contract does not accept."""
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
