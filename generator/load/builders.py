"""`builders:` of contract.yaml: what the generated success and error builders fill in.

A builder starts from the constants of its shape, read from the schema: each required
property whose schema allows one value only (a `const`, a one-member `enum`, or
`type: null`), inside required objects too. An error builder then puts the code where
`code` points and each `derived` field from the code's catalogue entry. Nothing here
knows a contract: the contract says where things go, the schema says what is constant.
"""

from __future__ import annotations

import json
from typing import Any

from ..diagnostics import Diagnostic
from ..model import Builders, Catalogue
from ..schema.pointer import encode, follow, from_fragment, resolve
from .documents import Document

_MAX_DEPTH = 8  # constants deeper than this are left to the caller


def _local(schema: Any, node: Any) -> Any:
    """`node` with local `$ref`s followed (a ref to another file is not followed)."""
    seen = 0
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#") and seen < 32:
        try:
            node = follow(schema, from_fragment(node["$ref"][1:]))
        except KeyError:
            return None
        seen += 1
    return node


def _single_value(node: Any) -> tuple[bool, Any]:
    """Whether a schema allows exactly one value, and which."""
    if not isinstance(node, dict):
        return False, None
    if "const" in node:
        return True, node["const"]
    if isinstance(node.get("enum"), list) and len(node["enum"]) == 1:
        return True, node["enum"][0]
    if node.get("type") == "null" or node.get("type") == ["null"]:
        return True, None
    return False, None


def constants(schema: Any, node: Any, path: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(document pointer, JSON of the value) of every constant a shape requires."""
    node = _local(schema, node)
    if not isinstance(node, dict) or len(path) > _MAX_DEPTH:
        return []
    properties = node.get("properties")
    required = node.get("required")
    if not isinstance(properties, dict) or not isinstance(required, list):
        return []
    found = []
    for name in required:
        if name not in properties:
            continue
        sub = _local(schema, properties[name])
        single, value = _single_value(sub)
        if single:
            found.append((encode([*path, name]), json.dumps(value, sort_keys=True)))
        else:
            found += constants(schema, sub, (*path, name))
    return found


def build_builders(identity: Document, schema: Any, catalogue: Catalogue) -> tuple[Builders | None, list[Diagnostic]]:
    """The builders a contract declares, or None; every problem with the declaration."""
    spec = identity.data.get("builders")
    if spec is None:
        return None, []
    problems = []
    shapes: dict[str, Any] = {}
    for role in ("success", "error"):
        pointer = spec.get(role, "")
        try:
            shapes[role] = resolve(schema, pointer)
        except KeyError:
            problems.append(identity.diagnostic(["builders", role], f"{pointer!r} is not in envelope.schema.json"))
    columns = catalogue.error_columns
    derived = spec.get("derived", {})
    for target, column in derived.items():
        if column not in columns:
            known = ", ".join(columns) or "none"
            problems.append(
                identity.diagnostic(
                    ["builders", "derived", target], f"{column!r} is not a column of errors.yaml (it has: {known})"
                )
            )
    if problems:
        return None, problems
    return (
        Builders(
            success_constants=tuple(constants(schema, shapes["success"])),
            error_constants=tuple(constants(schema, shapes["error"])),
            code=spec["code"],
            message=spec.get("message"),
            derived=tuple(sorted(derived.items())),
        ),
        [],
    )
