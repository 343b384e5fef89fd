"""The keyword parameters of a contract's builders, as the builders template places them.

A parameter takes the JSON a member holds, typed by the view, which is never stricter than
the schema. Where the view has a class, it takes that model as well as its JSON (a `dict`):
`models.UpgradeHint | dict[str, Any]`, in a `Sequence` or `Mapping` (which, unlike `list` and
`dict`, take a `list[UpgradeHint]`); the builder dumps the models it is given
(`Filling`'s `models`). Its default says what the builder does when the caller gives
nothing: none (a required parameter), `None` (the schema accepts null and requires the
member) or `ABSENT` (the member is left out, or made by the builder when it puts something
inside it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..model import Contract, Shape
from ..model.schemas import View, ViewType
from ..schema.pointer import decode
from .escape import py, py_tuple


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    hint: str
    default: str | None  # a Python expression, or None for a required parameter
    model: bool  # whether the value may hold models, which the builder dumps


@dataclass(slots=True)
class HintNeeds:
    """The names a module imports for its hints (builders.py, and tools.py's Client): of `typing` and
    `collections.abc`, the runtime's `ABSENT`, and the models module (whose classes a hint
    names as `models.UpgradeHint`, so that no class name meets one of the module's own);
    `model` says whether the hint made last has a class in it."""

    typing: set[str] = field(default_factory=lambda: {"Any", "Final"})
    abc: set[str] = field(default_factory=lambda: {"Mapping"})
    absent: bool = False
    models: bool = False
    model: bool = False
    prefix: str = "models"  # the module a hint names the view's classes by


_SIMPLE = {"any": "Any", "string": "str", "integer": "int", "number": "int | float", "boolean": "bool", "null": "None"}


def _hint(view: View, node: ViewType, needs: HintNeeds) -> str:
    """The Python type of the JSON a value of `node` holds, or of its model."""
    kind = node.kind
    if kind in _SIMPLE:
        if kind == "any":
            needs.typing.add("Any")
        return _SIMPLE[kind]
    if kind == "literal":
        needs.typing.add("Literal")
        return "Literal[" + ", ".join(py(v) for v in node.values) + "]"
    if kind in ("list", "dict"):
        had, needs.model = needs.model, False
        item = _hint(view, node.items[0], needs)
        holds_models, needs.model = needs.model, had or needs.model
        if kind == "list":
            needs.abc.update(("Sequence",) if holds_models else ())
            return f"Sequence[{item}]" if holds_models else f"list[{item}]"
        return f"Mapping[str, {item}]" if holds_models else f"dict[str, {item}]"
    needs.typing.add("Any")
    if kind == "class":
        needs.model = True
        model = next(c for c in view.classes if c.name == node.name)
        if model.root is not None:
            return "Any"
        needs.models = True
        return f"{needs.prefix}.{model.name} | dict[str, Any]"
    parts = list(dict.fromkeys(part for hint in _union_parts(view, node.items, needs) for part in _top(hint)))
    return "Any" if "Any" in parts else " | ".join(parts)


def _top(hint: str) -> list[str]:
    """The members of a union hint, those inside brackets kept whole."""
    parts, depth, start = [], 0, 0
    for at, char in enumerate(hint):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth == 0 and hint.startswith(" | ", at):
            parts.append(hint[start:at])
            start = at + 3
    return [*parts, hint[start:]]


def _union_parts(view: View, members: Sequence[ViewType], needs: HintNeeds) -> list[str]:
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
        needs.typing.add("Literal")
    merged = "Literal[" + ", ".join(py(v) for v in values) + "]"
    return [merged if part is None else part for part in parts]


def parameters(view: View, shape: Shape, needs: HintNeeds) -> list[Parameter]:
    """The keyword parameters of a builder of `shape`; `needs` collects the names their
    hints use."""
    found = []
    for member in shape.fields or ():
        needs.model = False
        parts = _top(_hint(view, member.type, needs))
        if member.filled and parts != ["None"]:  # the builder makes it an object or an array
            parts = [part for part in parts if part != "None"]
        if member.required and not member.filled and not member.nullable:
            default = None
        elif member.required and not member.filled:
            default = "None"
            if parts != ["Any"] and "None" not in parts:
                parts.append("None")
        else:
            needs.absent = True
            default = "ABSENT"
            parts.append("ABSENT")
        found.append(Parameter(member.name, " | ".join(parts), default, needs.model))
    return found


def builder_literals(contract: Contract) -> dict[str, object]:
    """What the builders template places: the constants, the code, the message and the
    derived fields at their paths (each pointer split into its tokens here, once), the
    keyword parameters, the members that may hold models, and the names the module imports."""
    assert contract.builders is not None
    builders = contract.builders
    needs = HintNeeds()
    success = parameters(contract.view, builders.success, needs)
    error = parameters(contract.view, builders.error, needs)
    if builders.message and not builders.callers_message(contract.catalogue):
        needs.absent = True  # an error builder leaves out a message that is None
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
        "success_given": _given(success, builders.success.open),
        "error_given": _given(error, builders.error.open),
        "success_members": py(tuple(p.name for p in success)),
        "error_members": py(tuple(p.name for p in error)),
        "success_models": py(tuple(p.name for p in success if p.model)),
        "error_models": py(tuple(p.name for p in error if p.model)),
        "typing_names": sorted(needs.typing),
        "abc_names": sorted(needs.abc),
        "runtime_names": ["ABSENT"] * needs.absent + ["Filling", "Path", "Placements", "catalogue_values"],
        "models_module": needs.models,
    }


def _given(parameters: list[Parameter], open_shape: bool) -> str:
    """What a builder passes on of its parameters: a tuple of their values (Python names the
    view made), then `extra` where its shape takes other members."""
    return py_tuple([p.name for p in parameters]) + (", extra" if open_shape else "")


def hint_parts(view: View, node: ViewType, needs: HintNeeds) -> list[str]:
    """The members of the Python type of a value of `node`, or of its model (see `_hint`)."""
    return _top(_hint(view, node, needs))
