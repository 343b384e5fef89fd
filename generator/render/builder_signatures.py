"""The keyword parameters of a contract's builders, as the builders template places them.

A parameter takes the JSON a member holds (an object is a `dict`, whatever class the view
gives it), typed by the view, which is never stricter than the schema. Its default says
what the builder does when the caller gives nothing: none (a required parameter), `None`
(the schema accepts null and requires the member) or `MISSING` (the member is left out,
or made by the builder when it puts something inside it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..model import Contract, Shape, View, ViewType
from ..schema.pointer import decode
from .escape import py


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    hint: str
    default: str | None  # a Python expression, or None for a required parameter


_SIMPLE = {"any": "Any", "string": "str", "integer": "int", "number": "int | float", "boolean": "bool", "null": "None"}


def _hint(view: View, node: ViewType, needs: set[str]) -> str:
    """The Python type of the JSON a value of `node` holds."""
    kind = node.kind
    simple = _SIMPLE
    if kind in simple:
        if kind == "any":
            needs.add("Any")
        return simple[kind]
    if kind == "literal":
        needs.add("Literal")
        return "Literal[" + ", ".join(py(v) for v in node.values) + "]"
    if kind == "list":
        return f"list[{_hint(view, node.items[0], needs)}]"
    if kind == "dict":
        return f"dict[str, {_hint(view, node.items[0], needs)}]"
    needs.add("Any")
    if kind == "class":
        model = next(c for c in view.classes if c.name == node.name)
        return "dict[str, Any]" if model.root is None else "Any"
    parts = list(dict.fromkeys(_union_parts(view, node.items, needs)))
    return "Any" if "Any" in parts else " | ".join(parts)


def _union_parts(view: View, members: Sequence[ViewType], needs: set[str]) -> list[str]:
    """The hints of a union's members, its literals merged into one `Literal[...]` where the
    first stands (`Literal["a", "b"]`, not `Literal["a"] | Literal["b"]`), each value once."""
    parts: list[str | None] = []
    values: list[Any] = []
    for member in members:
        if member.kind != "literal":
            parts.append(_hint(view, member, needs))
            continue
        if not values:
            parts.append(None)  # the merged literal's place
        values += [v for v in member.values if not any(type(v) is type(w) and v == w for w in values)]
    if values:
        needs.add("Literal")
    merged = "Literal[" + ", ".join(py(v) for v in values) + "]"
    return [merged if part is None else part for part in parts]


def parameters(view: View, shape: Shape, needs: set[str]) -> list[Parameter]:
    """The keyword parameters of a builder of `shape`; `needs` collects the names of
    `typing` (and `MISSING`) that their hints use."""
    found = []
    for field in shape.fields or ():
        hint = _hint(view, field.type, needs)
        if field.filled and hint != "None":  # the builder makes it an object or an array
            hint = " | ".join(part for part in hint.split(" | ") if part != "None")
        if field.required and not field.filled and not field.nullable:
            default = None
        elif field.required and not field.filled:
            default = "None"
            if hint != "Any" and "None" not in hint.split(" | "):
                hint = f"{hint} | None"
        else:
            needs.add("MISSING")
            default, hint = "MISSING", f"{hint} | MISSING"
        found.append(Parameter(field.name, hint, default))
    return found


def builder_literals(contract: Contract) -> dict[str, object]:
    """What the builders template places: the constants, the code, the message and the
    derived fields at their paths (each pointer split into its tokens here, once), the
    keyword parameters and the names of `typing` they use."""
    assert contract.builders is not None
    builders = contract.builders
    needs: set[str] = {"Any", "Final"}
    success = parameters(contract.view, builders.success, needs)
    error = parameters(contract.view, builders.error, needs)
    if builders.message and not (builders.message_required and "message" not in contract.catalogue.error_columns):
        needs.add("MISSING")  # an error builder leaves out a message that is None
    return {
        "success_constants": py(tuple((decode(p), v) for p, v in builders.success_constants)),
        "error_constants": py(tuple((decode(p), v) for p, v in builders.error_constants)),
        "code_at": py(decode(builders.code)),
        "message_at": py(decode(builders.message)) if builders.message else None,
        "derived": py(tuple((decode(p), column) for p, column in builders.derived)),
        "error_defaults": py(tuple((decode(p), v) for p, v in builders.error_defaults)),
        "message_column": "message" in contract.catalogue.error_columns,
        "success_parameters": success,
        "error_parameters": error,
        "needs": needs,
        "typing_names": sorted(needs - {"MISSING"}),
    }
