"""The envelope of an imported contract: what every structured result of the server shares.

Every file of `examples/` must meet the envelope, and a tool without an `outputSchema` of
its own answers with the envelope. So:

- no tool lists an output schema: a plain object schema (nothing structured to share);
- every structured tool lists the same one: that schema is the envelope, and the tools
  reference it by leaving their own out;
- several shapes: the envelope is the `anyOf` of them, each under `$defs` (so each gets
  its own model class), and each tool keeps the schema it lists.

Moving a listed schema under `$defs` keeps what its references mean: a reference into its
own root (`#`, `#/properties/...`) gains the new prefix; its own `$defs` (or draft-07
`definitions`) move up beside it, shared with another shape only when listed the same and
free of references (whose targets may differ), renamed otherwise. A shape that cannot be
moved so (an `$id`, an anchor, another dialect, a reference outside itself) leaves the
envelope accepting any result: each tool's own outputSchema stays its contract.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..naming import camel
from ..schema.pointer import fragment, from_fragment
from ..schema.vocabulary import DEFINITIONS, named
from ..schema.vocabulary import DRAFT_2020_12 as DRAFT_2020_12_VOCABULARY
from ..schema.walk import children, walk

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# Keywords whose targets are not JSON pointers: a shape with them stays where it was listed.
_PLACE_BOUND = frozenset({"$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$dynamicRef", "$recursiveRef"})


@dataclass(frozen=True)
class Envelope:
    """The envelope schema, and the tools that leave their `outputSchema` out (it is theirs)."""

    schema: dict[str, Any]
    referencing: frozenset[str]


def canonical(schema: Any) -> str:
    """One text per schema, whatever the order of its keys."""
    return json.dumps(schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def envelope_of(title: str, outputs: Sequence[tuple[str, dict[str, Any]]]) -> Envelope:
    """The envelope of the listed `(tool, outputSchema)` pairs, in listing order."""
    shapes: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for tool, schema in outputs:
        shapes.setdefault(canonical(schema), (schema, []))[1].append(tool)
    if not shapes:
        description = "The server lists no output schema: its tools answer with content, which tools.yaml describes."
        return Envelope(
            {"$schema": DRAFT_2020_12, "title": title, "description": description, "type": "object"}, frozenset()
        )
    if len(shapes) == 1:
        ((schema, tools),) = shapes.values()
        return Envelope(
            {"$schema": DRAFT_2020_12, **schema} if "$schema" not in schema else dict(schema), frozenset(tools)
        )
    if not all(_movable(schema) for schema, _ in shapes.values()):
        description = (
            "The tools list output shapes that cannot be joined into one schema here (one declares `$id`, an"
            " anchor, another dialect or a reference outside itself): each tool's own outputSchema in tools.yaml"
            " is its contract, and this envelope accepts any result."
        )
        return Envelope({"$schema": DRAFT_2020_12, "title": title, "description": description}, frozenset())
    union = _union(title, [(schema, tools) for schema, tools in shapes.values()])
    declared = {schema.get("$schema") for schema, _ in shapes.values()}
    if len(declared) == 1 and isinstance(next(iter(declared)), str):  # one dialect, named: keep it
        union["$schema"] = next(iter(declared))
    return Envelope(union, frozenset())


def _union(title: str, shapes: list[tuple[dict[str, Any], list[str]]]) -> dict[str, Any]:
    definitions: dict[str, Any] = {}
    originals: dict[str, str] = {}  # name -> the canonical text of the definition as listed
    branches = []
    for schema, tools in shapes:
        body = {key: value for key, value in schema.items() if key not in (*DEFINITIONS, "$schema")}
        renamed: dict[tuple[str, str], str] = {}
        placed = []
        for kind in DEFINITIONS:
            for name, definition in (schema.get(kind) or {}).items():
                shared = _shared(originals, name, definition)
                renamed[kind, name] = shared or _free(definitions, name)
                if shared is None:
                    originals[renamed[kind, name]] = canonical(definition)
                    placed.append((renamed[kind, name], definition))
        name = _shared(originals, _shape_name(body, tools[0]), body)
        if name is None:
            name = _free(definitions, _shape_name(body, tools[0]))
            originals[name] = canonical(body)
            placed.append((name, body))
        for new, definition in placed:
            definitions[new] = _moved_references(definition, (name,), renamed)
        description = "The result of " + ", ".join(f"`{tool}`" for tool in tools) + "."
        branches.append({"$ref": "#" + fragment(("$defs", name)), "description": description})
    description = "Every structured result of the server: one branch per output shape its tools list."
    return {
        "$schema": DRAFT_2020_12,
        "title": title,
        "description": description,
        "anyOf": branches,
        "$defs": definitions,
    }


def _shape_name(body: dict[str, Any], tool: str) -> str:
    """The class name of a shape: its title's words, else the tool's and `Result`."""
    title = body.get("title")
    return camel(title if isinstance(title, str) and title.strip() else f"{tool} result")


def _shared(originals: dict[str, str], name: str, definition: Any) -> str | None:
    """`name` when a definition of that name is already in the envelope, listed the same and
    free of local references (whose targets could differ between shapes)."""
    text = canonical(definition)
    return name if originals.get(name) == text and '"$ref":"#' not in text else None


def _free(definitions: dict[str, Any], name: str) -> str:
    """`name`, or the first `name2`, `name3`... no definition has yet; reserved."""
    chosen, number = name, 2
    while chosen in definitions:
        chosen, number = f"{name}{number}", number + 1
    definitions[chosen] = None
    return chosen


def _movable(schema: dict[str, Any]) -> bool:
    """Whether `schema` keeps its meaning under another's `$defs` once its references are
    rewritten: written in 2020-12 (or naming no dialect), without identifiers or dynamic
    references (their targets are not pointers), every reference a pointer inside itself."""
    if schema.get("$schema") is not None and named(schema) is not DRAFT_2020_12_VOCABULARY:
        return False
    for visit in walk(schema, dialect=DRAFT_2020_12_VOCABULARY):
        node = visit.node
        if not isinstance(node, dict):
            continue
        if _PLACE_BOUND & node.keys():
            return False
        reference = node.get("$ref")
        if reference is not None and not (isinstance(reference, str) and reference.startswith("#")):
            return False
    return True


def _moved_references(node: Any, root: tuple[str, ...], renamed: dict[tuple[str, str], str]) -> Any:
    """`node` (the shape, or one of its definitions: their references were written against the
    shape's root) with each `$ref` of its subschemas rewritten for the new places: into the
    shape's root, gaining `/$defs/<root>`; into its definitions, to where they moved."""
    if not isinstance(node, dict):
        return node
    moved = dict(node)
    if isinstance(node.get("$ref"), str):
        moved["$ref"] = _moved(node["$ref"], root, renamed)
    copied: set[str | int] = set()
    for path, child in children(node, DRAFT_2020_12_VOCABULARY):
        key = path[0]
        if len(path) == 1:
            moved[key] = _moved_references(child, root, renamed)
            continue
        if key not in copied:  # the map or list the keyword holds, copied before it changes
            moved[key] = dict(moved[key]) if isinstance(moved[key], dict) else list(moved[key])
            copied.add(key)
        moved[key][path[1]] = _moved_references(child, root, renamed)
    return moved


def _moved(reference: str, root: tuple[str, ...], renamed: dict[tuple[str, str], str]) -> str:
    try:
        tokens = from_fragment(reference[1:]) if reference != "#" else ()
    except (KeyError, ValueError):
        return reference
    if not reference[1:].startswith("/") and reference != "#":
        return reference  # an anchor: it names the same place wherever the shape is
    if len(tokens) >= 2 and (tokens[0], tokens[1]) in renamed:
        return "#" + fragment(("$defs", renamed[tokens[0], tokens[1]], *tokens[2:]))
    return "#" + fragment(("$defs", *root, *tokens))
