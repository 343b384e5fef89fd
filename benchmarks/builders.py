"""Row 5: building and serialising one envelope with the generated builders, in process.

`error_response(code, message, ...)` (code: the first of the contract's `ERRORS`) +
`model_dump_json()`, against the same envelope written as a dict literal, built inside the
timed call, + `orjson.dumps`; likewise `success_response(...)`: context, the model's path.
The goal is the documented fastest path to the wire, `dump_json(error_document(...))` and
`dump_json(success_document(...))`: the same arguments, judged alike, no model built;
against the literal of the envelope it writes. A builder's required keyword arguments (they
differ by contract) take the first value of a member of that name found in the contract's
examples; a contract without builders has no row.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import orjson
from harness import CONTRACTS, SCHEMAS, Goal, Row, Settings, fastest, module_of

MESSAGE = "The benchmark's failure."


def _members(contract: str) -> dict[str, Any]:
    """Every member name in the contract's examples with its first value (examples in name
    order, each walked breadth first)."""
    found: dict[str, Any] = {}
    for path in sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json")):
        queue = [orjson.loads(path.read_bytes())]
        while queue:
            value = queue.pop(0)
            if isinstance(value, dict):
                for key in sorted(value):
                    found.setdefault(key, value[key])
                    queue.append(value[key])
            elif isinstance(value, list):
                queue.extend(value)
    return found


def _required(builder: Callable[..., Any], members: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments `builder` cannot do without, from the examples' members."""
    return {
        name: members[name]
        for name, parameter in inspect.signature(builder).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is inspect.Parameter.empty
    }


def _literal(document: Any) -> Callable[[], bytes]:
    """A function that builds `document` as a dict literal and dumps it with orjson: the
    literal is compiled, so every call builds the dicts anew, as hand-written code would."""
    code = compile(f"lambda: dumps({document!r})", "<benchmark literal>", "eval")
    function: Callable[[], bytes] = eval(code, {"dumps": orjson.dumps})
    return function


def _error(package: Any, code: Any, arguments: dict[str, Any]) -> str:
    dumped: str = package.error_response(code, MESSAGE, **arguments).model_dump_json()
    return dumped


def _success(package: Any, arguments: dict[str, Any]) -> str:
    dumped: str = package.success_response(**arguments).model_dump_json()
    return dumped


def _error_wire(package: Any, code: Any, arguments: dict[str, Any]) -> bytes:
    dumped: bytes = package.dump_json(package.error_document(code, MESSAGE, **arguments))
    return dumped


def _success_wire(package: Any, arguments: dict[str, Any]) -> bytes:
    dumped: bytes = package.dump_json(package.success_document(**arguments))
    return dumped


def measure(settings: Settings) -> list[Row]:
    """Rows 5.1 to 5.n: the model's path (context), then 5.n+1 on: the wire's path (the goal),
    each contract's error then its success."""
    models: list[Row] = []
    wire: list[Row] = []
    for contract in CONTRACTS:
        package = importlib.import_module(module_of(contract))
        if not hasattr(package, "error_response"):
            continue
        members = _members(contract)
        code = next(iter(package.ERRORS))
        error_args = _required(package.error_response, members)
        success_args = _required(package.success_response, members)
        calls: list[tuple[list[Row], str, dict[str, Any], Callable[[], object]]] = [
            (
                models,
                f"`error_response({code.value!r}, message)` + `model_dump_json()`",
                error_args,
                partial(_error, package, code, error_args),
            ),
            (
                models,
                "`success_response(...)` + `model_dump_json()`",
                success_args,
                partial(_success, package, success_args),
            ),
            (
                wire,
                f"`dump_json(error_document({code.value!r}, message))`",
                error_args,
                partial(_error_wire, package, code, error_args),
            ),
            (wire, "`dump_json(success_document(...))`", success_args, partial(_success_wire, package, success_args)),
        ]
        for rows, label, arguments, call in calls:
            literal = _literal(orjson.loads(call()))  # type: ignore[arg-type]
            ours = fastest(call, settings)
            anchor = fastest(literal, settings)
            note = f"arguments from the examples: {', '.join(sorted(arguments))}" if arguments else ""
            if rows is models:
                note = "context (the goal is the wire's path, below)" + (f"; {note}" if note else "")
            rows.append(
                Row(
                    "",
                    f"{contract}: {label}",
                    ours * 1e6,
                    "µs",
                    Goal("<=", 3.0) if rows is wire else None,
                    "the same envelope as a dict literal + `orjson.dumps`",
                    anchor * 1e6,
                    note,
                )
            )
    return [replace(row, key=f"5.{index}") for index, row in enumerate(models + wire, start=1)]
