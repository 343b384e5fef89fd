"""A tool's own schemas and its `examples:` in tools.yaml: what MCP clients are given.

Each `inputSchema` and `outputSchema` is published as it is (in `mcp/<name>.tools.json`),
so each must compile alone: no reference leaves it, no value JSON cannot hold. Each example
call's arguments must meet the tool's `inputSchema`; its `result`, when given, names a file
of `examples/` that the tool's own `outputSchema` accepts (the envelope accepts every
example already). A result that carries an error code must carry one the tool declares.
`conform` makes these calls; `mock` answers them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..diagnostics import Diagnostic
from ..model import Builders, Example, Manifest
from ..schema.dialect import refusals
from ..schema.engine import first_refusal, standalone_validator
from ..schema.patterns import non_ecma_patterns
from ..schema.values import not_json
from .documents import Document


@cache
def _any_object() -> Any:
    return standalone_validator({"type": "object"})


# A tool schema compiled, by (tool index, `inputSchema`, `outputSchema` or `text_schema`).
Validators = dict[tuple[int, str], Any]


def compile_tool_schemas(document: Document, manifest: Manifest) -> tuple[Validators, list[Diagnostic]]:
    """Each tool schema compiled on its own; each that does not compile, at its line."""
    validators: Validators = {}
    problems = []
    for index, tool in enumerate(manifest.tools.entries):
        text_schema = (tool.get("result") or {}).get("text_schema")
        for key, schema, where in (
            ("inputSchema", tool.get("inputSchema"), ["tools", index, "inputSchema"]),
            ("outputSchema", tool.get("outputSchema"), ["tools", index, "outputSchema"]),
            ("text_schema", text_schema, ["tools", index, "result", "text_schema"]),
        ):
            if schema is None:
                continue
            odd = not_json(schema)
            if odd is not None:
                problems.append(document.diagnostic([*where, *odd[0]], f"{odd[1]} is not a JSON value"))
                continue
            refused = next(refusals(schema), None)
            if refused is not None:
                problems.append(document.diagnostic([*where, *refused[0]], refused[1].message))
                continue
            pattern = next(non_ecma_patterns(schema), None)
            if pattern is not None:
                problems.append(document.diagnostic([*where, *pattern[0]], pattern[1]))
                continue
            try:
                validators[index, key] = standalone_validator(schema)
            except ValueError as exc:
                problems.append(document.diagnostic(where, f"it does not compile on its own: {exc}"))
    return validators, problems


def check_tool_examples(
    document: Document,
    manifest: Manifest,
    examples: tuple[Example, ...],
    builders: Builders | None,
    validators: Validators,
) -> list[Diagnostic]:
    """Every tool example whose arguments or result the contract does not accept, judged by
    the tool schemas `compile_tool_schemas` compiled (a tool without `inputSchema` takes any
    object)."""
    by_file = {e.file_name: e.value for e in examples}
    problems = []
    for index, tool in enumerate(manifest.tools.entries):
        declared = tool.get("possible_error_codes")
        for position, example in enumerate(tool.get("examples") or ()):
            where: list[str | int] = ["tools", index, "examples", position]
            arguments = validators.get((index, "inputSchema"))
            refusal = first_refusal(arguments if arguments is not None else _any_object(), example["arguments"])
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
            if (index, "outputSchema") in validators:
                refusal = first_refusal(validators[index, "outputSchema"], result)
                if refusal is not None:
                    message = f"the tool's outputSchema refuses {name}: {refusal}"
                    problems.append(document.diagnostic([*where, "result"], message))
            code = builders.code_in(result) if builders is not None else None
            if code is not None and declared is not None and code not in declared:
                message = f"{name} carries error code {code!r}, which the tool does not declare"
                problems.append(document.diagnostic([*where, "result"], message))
    return problems


def check_secret_arguments(document: Document, manifest: Manifest) -> list[Diagnostic]:
    """Each name of a tool's `secret_arguments` that is not a property of its `inputSchema`,
    at its line: a misspelt name would leave the argument it meant unwatched."""
    problems = []
    for index, tool in enumerate(manifest.tools.entries):
        properties = (tool.get("inputSchema") or {}).get("properties")
        known = sorted(properties) if isinstance(properties, dict) else []
        for position, name in enumerate(tool.get("secret_arguments") or ()):
            if name not in known:
                has = ", ".join(known) or "none"
                message = f"{name!r} is not an argument of the tool's inputSchema (its properties: {has})"
                problems.append(document.diagnostic(["tools", index, "secret_arguments", position], message))
    return problems
