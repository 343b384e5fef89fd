"""The envelope of an imported contract: what every structured result of the server shares.

Every file of `examples/` must meet the envelope, and a tool without an `outputSchema` of
its own answers with the envelope. So:

- no tool lists an output schema: a plain object schema (nothing structured to share);
- every structured tool lists the same one: that schema is the envelope, and the tools
  reference it by leaving their own out;
- several shapes: the envelope is the `anyOf` of them, each under `$defs` (so each gets
  its own model class), and each tool keeps the schema it lists.

The shapes are joined in the dialect they all declare (draft-07 ones, as zod-to-json-schema
writes them, under `definitions`; 2020-12 ones, or ones that declare none, under `$defs`).
Moving a listed schema there keeps what its references mean: a reference into its own root
(`#`, `#/properties/...`) gains the new prefix; its own `$defs` (or draft-07 `definitions`)
move up beside it, shared with another shape only when listed the same and free of
references (whose targets may differ), renamed otherwise. Shapes that cannot be moved so
(an `$id`, an anchor, a dialect not read, a reference outside itself) or that do not agree
on a dialect leave the envelope accepting any result, and a note says why: each tool's own
outputSchema stays its contract.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..naming import camel
from ..schema.pointer import fragment, from_fragment
from ..schema.vocabulary import DEFINITIONS, DRAFT_07, Vocabulary, named
from ..schema.vocabulary import DRAFT_2020_12 as DRAFT_2020_12_VOCABULARY
from ..schema.walk import children, walk

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# Keywords whose targets are not JSON pointers: a shape with them stays where it was listed.
_PLACE_BOUND = frozenset({"$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$dynamicRef", "$recursiveRef"})


@dataclass(frozen=True)
class Envelope:
    """The envelope schema, the tools that leave their `outputSchema` out (it is theirs), and
    what people should know of it (why it accepts any result)."""

    schema: dict[str, Any]
    referencing: frozenset[str]
    note: str | None = None


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
    dialects = {_dialect(schema) for schema, _ in shapes.values()}
    if len(dialects) > 1:
        return _any_result(title, "declare different dialects (" + _dialects_said(shapes) + ")")
    (dialect,) = dialects
    if dialect is None or not all(_movable(schema, dialect) for schema, _ in shapes.values()):
        return _any_result(title, "cannot be joined into one schema here (one declares `$id`, an anchor, a dialect"
                           " not read or a reference outside itself)")  # fmt: skip
    union = _union(title, [(schema, tools) for schema, tools in shapes.values()], dialect)
    declared = {schema.get("$schema") for schema, _ in shapes.values()}
    if len(declared) == 1 and isinstance(next(iter(declared)), str):  # one dialect, named: keep it
        union["$schema"] = next(iter(declared))
    elif dialect is DRAFT_07:  # named in several spellings
        union["$schema"] = DRAFT_07.uris[0] + "#"
    return Envelope(union, frozenset())


def _any_result(title: str, why: str) -> Envelope:
    """An envelope that accepts any result, since the shapes listed `why` (said in a note too)."""
    said = f"The tools list output shapes that {why}: each tool's own outputSchema in tools.yaml is its contract"
    description = said + ", and this envelope accepts any result."
    note = f"envelope.schema.json accepts any result: the tools' outputSchemas {why.replace('`', '')}"
    note += "; each tool's own outputSchema in tools.yaml is its contract"
    return Envelope({"$schema": DRAFT_2020_12, "title": title, "description": description}, frozenset(), note)


def _dialect(schema: dict[str, Any]) -> Vocabulary | None:
    """The dialect a shape is written in: the one it names (None for one not read), 2020-12
    (MCP's default) when it names none."""
    return named(schema) if schema.get("$schema") is not None else DRAFT_2020_12_VOCABULARY


def _dialects_said(shapes: dict[str, tuple[dict[str, Any], list[str]]]) -> str:
    """Which tools declare which dialect: `draft-07: read_text, list_folder; draft 2020-12: read_graph`."""
    tools: dict[str, list[str]] = {}
    for schema, names in shapes.values():
        dialect = _dialect(schema)
        said = dialect.name if dialect is not None else str(schema.get("$schema"))
        tools.setdefault(said, []).extend(names)
    return "; ".join(f"{said}: {', '.join(names)}" for said, names in tools.items())


def _union(title: str, shapes: list[tuple[dict[str, Any], list[str]]], dialect: Vocabulary) -> dict[str, Any]:
    """The `anyOf` of `shapes`, each under the dialect's definitions (`$defs`, `definitions`)."""
    home = dialect.definitions
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
            definitions[new] = _moved_references(definition, (home, name), renamed, dialect)
        description = "The result of " + ", ".join(f"`{tool}`" for tool in tools) + "."
        branches.append({"$ref": "#" + fragment((home, name)), "description": description})
    description = "Every structured result of the server: one branch per output shape its tools list."
    return {
        "$schema": DRAFT_2020_12,
        "title": title,
        "description": description,
        "anyOf": branches,
        home: definitions,
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


def _movable(schema: dict[str, Any], dialect: Vocabulary) -> bool:
    """Whether `schema` (in `dialect`) keeps its meaning under another's definitions once its
    references are rewritten: without identifiers or dynamic references (their targets are not
    pointers), every reference a pointer inside itself."""
    for visit in walk(schema, dialect=dialect):
        node = visit.node
        if not isinstance(node, dict):
            continue
        if _PLACE_BOUND & node.keys():
            return False
        reference = node.get("$ref")
        if reference is not None and not (isinstance(reference, str) and reference.startswith("#")):
            return False
    return True


def _moved_references(
    node: Any, root: tuple[str, ...], renamed: dict[tuple[str, str], str], dialect: Vocabulary
) -> Any:
    """`node` (the shape, or one of its definitions: their references were written against the
    shape's root) with each `$ref` of its subschemas rewritten for the new places: into the
    shape's root, gaining the `root` prefix (`/$defs/<name>`); into its definitions, to where
    they moved."""
    if not isinstance(node, dict):
        return node
    moved = dict(node)
    if isinstance(node.get("$ref"), str):
        moved["$ref"] = _moved(node["$ref"], root, renamed)
    copied: set[str | int] = set()
    for path, child in children(node, dialect):
        key = path[0]
        if len(path) == 1:
            moved[key] = _moved_references(child, root, renamed, dialect)
            continue
        if key not in copied:  # the map or list the keyword holds, copied before it changes
            moved[key] = dict(moved[key]) if isinstance(moved[key], dict) else list(moved[key])
            copied.add(key)
        moved[key][path[1]] = _moved_references(child, root, renamed, dialect)
    return moved


def _moved(reference: str, root: tuple[str, ...], renamed: dict[tuple[str, str], str]) -> str:
    try:
        tokens = from_fragment(reference[1:]) if reference != "#" else ()
    except (KeyError, ValueError):
        return reference
    if not reference[1:].startswith("/") and reference != "#":
        return reference  # an anchor: it names the same place wherever the shape is
    if len(tokens) >= 2 and (tokens[0], tokens[1]) in renamed:
        return "#" + fragment((root[0], renamed[tokens[0], tokens[1]], *tokens[2:]))
    return "#" + fragment((*root, *tokens))
