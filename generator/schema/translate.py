"""A draft-07 schema said in draft 2020-12, the dialect MCP's `outputSchema` is read in.

The two drafts differ in spelling and in a few rules; the translation keeps what a
draft-07 validator accepts:

- `definitions` becomes `$defs` (a bundle embeds other files there, by their `$id`),
  unless the node has a `$defs` of its own (draft-07 ignores it, a pointer may reach it);
- an array `items` becomes `prefixItems`, and `additionalItems` then becomes `items`
  (without an array `items` both drafts ignore `additionalItems`: it stays as it is);
- `dependencies` splits into `dependentRequired` (arrays) and `dependentSchemas`;
- `$id` with a fragment (`#name`, `other.json#name`) becomes `$id` and `$anchor`;
- beside a `$ref`, draft-07 ignores every other keyword: they are dropped;
- keywords draft-07 does not know but 2020-12 applies (`prefixItems`, `unevaluated*`,
  `minContains`, `$dynamicRef`...) are dropped, as draft-07 ignores them (`dependencies`
  is translated, since jsonschema-rs still applies it in 2020-12);
- each `$ref` pointer is rewritten along the renamed keywords;
- a value under a keyword neither draft knows is data, kept as it is, but for a schema a
  `$ref` pointer reaches inside it (`#/definitions/group/list`, where `list` is such a
  keyword): that one is a schema, translated, and pointers through it renamed as through one.

The JSON Schema Test Suite's draft-07 files are the judge: every instance keeps its
verdict through `bundle` and this translation (tests/test_dialect.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .pointer import PointerError, follow, written_tokens
from .uri import defrag, join
from .vocabulary import DRAFT_07, DRAFT_2020_12, UNKNOWN_TO_07
from .walk import walk

# Where draft-07 holds schemas; `definitions`, `$defs`, `items`, `additionalItems` and
# `dependencies` are placed by hand.
_SCHEMA_MAPS = DRAFT_07.maps - {DRAFT_07.definitions}
_SCHEMA_LISTS = DRAFT_07.lists
_SCHEMAS = DRAFT_07.one - {"additionalItems"}
_CONTAINERS = (DRAFT_07.definitions, DRAFT_2020_12.definitions)


def _definitions_name(node: dict[str, Any]) -> str:
    """What `definitions` is called in 2020-12: `$defs`, unless the node has a `$defs` too
    (draft-07 ignores it, but a pointer may reach it): then `definitions` stays."""
    return "definitions" if "$defs" in node else "$defs"


# For each resource (by absolute URI): the paths (its draft-07 tokens) of the schemas a `$ref`
# pointer reaches in it.
Reached = dict[str, set[tuple[str, ...]]]


def _reached(resources: dict[str, Any]) -> Reached:
    """The schemas `$ref` pointers reach, in every resource: those under keywords a walk
    does not descend into (a draft-07 walk visits schemas only) are walked in turn, for the
    pointers they hold."""
    found: Reached = {}
    pending: list[tuple[Any, str, tuple[str, ...]]] = [(document, uri, ()) for uri, document in resources.items()]
    while pending:
        document, uri, at = pending.pop()
        for visit in walk(document, uri, DRAFT_07, at=at):
            reference = visit.node.get("$ref") if isinstance(visit.node, dict) else None
            if not isinstance(reference, str):
                continue
            head, _, fragment = reference.partition("#")
            target_uri = defrag(join(visit.base, head))[0] if head else visit.base
            if not fragment.startswith("/") or target_uri not in resources:
                continue
            tokens = tuple(token for _, token in written_tokens(fragment))
            if tokens in found.setdefault(target_uri, set()):
                continue
            found[target_uri].add(tokens)
            try:
                pending.append((follow(resources[target_uri], tokens), target_uri, tokens))
            except PointerError:
                continue
    return found


def _resources(document: Any, base: str, found: dict[str, Any]) -> None:
    """Every schema resource (by absolute URI) of a draft-07 document, before translation."""
    for visit in walk(document, base, DRAFT_07):
        if not visit.pointer:
            found.setdefault(visit.base, visit.node)


def _pointer(node: Any, tokens: list[str], reached: set[tuple[str, ...]]) -> list[str] | None:
    """The tokens of a draft-07 pointer into `node`, renamed as the translation renames;
    `reached` are the paths of the schemas pointers reach in it (a value they reach is one)."""
    renamed: list[str] = []
    position = "schema"  # what `node` is: a schema, a map of schemas, a list, or a value
    for index, token in enumerate(tokens):
        if position == "value" and isinstance(node, dict) and tuple(tokens[:index]) in reached:
            position = "schema"
        if position == "schema" and isinstance(node, dict):
            value = node.get(token)
            if token == "definitions":
                renamed.append(_definitions_name(node))
                position = "map"
            elif token == "$defs":
                renamed.append(token)
                position = "map"
            elif token == "items" and isinstance(value, list):
                renamed.append("prefixItems")
                position = "list"
            elif token == "items":
                renamed.append("items")
                position = "schema"
            elif token == "additionalItems":  # it became `items` only beside an array `items`
                renamed.append("items" if isinstance(node.get("items"), list) else token)
                position = "schema"
            elif token == "dependencies":
                renamed.append(token)  # fixed at the next token, by the value's kind
                position = "dependencies"
            elif token in _SCHEMA_MAPS:
                renamed.append(token)
                position = "map"
            elif token in _SCHEMA_LISTS:
                renamed.append(token)
                position = "list"
            elif token in _SCHEMAS:
                renamed.append(token)
                position = "schema"
            else:
                renamed.append(token)
                position = "value"
            node = value
            continue
        if position == "dependencies" and isinstance(node, dict):
            value = node.get(token)
            renamed[-1] = "dependentRequired" if isinstance(value, list) else "dependentSchemas"
            renamed.append(token)
            node, position = value, ("value" if isinstance(value, list) else "schema")
            continue
        if position == "map" and isinstance(node, dict):
            node, position = node.get(token), "schema"
        elif position == "list" and isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node, position = node[int(token)], "schema"
        elif isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
        renamed.append(token)
        if node is None:
            return None
    return renamed


def _reference(reference: str, base: str, context: _Context) -> str:
    """`reference` with its pointer fragment renamed as its target is translated."""
    head, _, fragment = reference.partition("#")
    if not fragment.startswith("/"):
        return reference
    target_uri = defrag(join(base, head))[0] if head else base
    target = context.resources.get(target_uri)
    if target is None:
        return reference
    pairs = written_tokens(fragment)  # as written: percent-encoded, as a URI fragment is
    raw, tokens = [w for w, _ in pairs], [t for _, t in pairs]
    renamed = _pointer(target, tokens, context.reached.get(target_uri, set()))
    if renamed is None:
        return reference
    written = [r if r != t else w for r, t, w in zip(renamed, tokens, raw, strict=True)]
    return f"{head}#/" + "/".join(written) if written else f"{head}#"


@dataclass(frozen=True, slots=True)
class _Context:
    """What the translation of one document reads: every draft-07 resource its pointers may
    reach, by URI, and the paths those pointers reach in each (`_reached`)."""

    resources: dict[str, Any]
    reached: Reached
    # For each resource: every path a reached schema lies below (its proper prefixes).
    above: Reached = field(default_factory=dict)

    @classmethod
    def of(cls, resources: dict[str, Any]) -> _Context:
        reached = _reached(resources)
        above = {uri: {path[:i] for path in paths for i in range(len(path))} for uri, paths in reached.items()}
        return cls(resources, reached, above)


def _containers(node: dict[str, Any], base: str, context: _Context, at: tuple[str, ...]) -> dict[str, Any]:
    """`definitions` and `$defs` of a node, translated and named as in 2020-12."""
    found = {}
    for key in _CONTAINERS:
        value = node.get(key)
        if isinstance(value, dict):
            name = _definitions_name(node) if key == "definitions" else key
            found[name] = {entry: _translate(sub, base, context, (*at, key, entry)) for entry, sub in value.items()}
    return found


def _data(value: Any, base: str, context: _Context, at: tuple[str, ...]) -> Any:
    """A value under a keyword neither draft knows, at `at`: kept as it is, but for the
    schemas pointers reach inside it, which are translated."""
    if at in context.reached.get(base, ()) and isinstance(value, dict):
        return _translate(value, base, context, at)
    if at not in context.above.get(base, ()):
        return value
    if isinstance(value, dict):
        return {key: _data(sub, base, context, (*at, key)) for key, sub in value.items()}
    if isinstance(value, list):
        return [_data(sub, base, context, (*at, str(index))) for index, sub in enumerate(value)]
    return value


def _translate(node: Any, base: str, context: _Context, at: tuple[str, ...] = ()) -> Any:
    """`node`, a draft-07 schema at `at` in the resource `base`, said in 2020-12."""
    if not isinstance(node, dict):
        return node
    if "$ref" in node:  # draft-07 ignores what is beside it, but a pointer may reach a container
        reference = node["$ref"]
        rewritten = _reference(reference, base, context) if isinstance(reference, str) else reference
        return {"$ref": rewritten, **_containers(node, base, context, at)}
    identifier = node.get("$id")
    result: dict[str, Any] = {}
    if isinstance(identifier, str):
        absolute, anchor = defrag(join(base, identifier))
        head = identifier.partition("#")[0]
        if head:
            result["$id"] = head
            base, at = absolute, ()
        if anchor and not anchor.startswith("/"):
            result["$anchor"] = anchor
    result.update(_containers(node, base, context, at))
    for key, value in node.items():
        if key in ("$id", "$ref") or key in UNKNOWN_TO_07 or key in _CONTAINERS:
            continue
        if key == "$schema":
            result[key] = DRAFT_2020_12.uri
        elif key == "items" and isinstance(value, list):
            result["prefixItems"] = [_translate(sub, base, context, (*at, key, str(i))) for i, sub in enumerate(value)]
            if "additionalItems" in node:
                result["items"] = _translate(node["additionalItems"], base, context, (*at, "additionalItems"))
        elif key == "additionalItems":
            if not isinstance(node.get("items"), list):  # inert in both drafts; a pointer may reach it
                result[key] = _translate(value, base, context, (*at, key))
        elif key == "items":
            result["items"] = _translate(value, base, context, (*at, key))
        elif key == "dependencies" and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, list):
                    result.setdefault("dependentRequired", {})[name] = sub
                else:
                    translated = _translate(sub, base, context, (*at, key, name))
                    result.setdefault("dependentSchemas", {})[name] = translated
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            result[key] = {name: _translate(sub, base, context, (*at, key, name)) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            result[key] = [_translate(sub, base, context, (*at, key, str(i))) for i, sub in enumerate(value)]
        elif key in _SCHEMAS:
            result[key] = _translate(value, base, context, (*at, key))
        else:
            result[key] = _data(value, base, context, (*at, key))
    return result


def to_2020_12(schema: Any, base: str = "", others: Mapping[str, Any] | None = None) -> Any:
    """A draft-07 schema document in draft 2020-12; `base` is the URI it was read at, and
    `others` the other draft-07 documents its references may point into, by URI."""
    return Translator(others or {}).translate(schema, base)


class Translator:
    """Translates each of several draft-07 documents whose references may point into the
    `others` (see `to_2020_12`), reading each document and the paths its pointers reach once.

    A compound document translates every one of its draft-07 resources against all the
    others: read anew for each, that is the square of the resources."""

    def __init__(self, others: Mapping[str, Any]) -> None:
        self._others = others
        # By (URI, id of the document): the document (kept, so that its id is not reused) and
        # the resources inside it.
        self._embedded: dict[tuple[str, int], tuple[Any, list[tuple[str, Any]]]] = {}
        self._contexts: dict[frozenset[tuple[str, int]], _Context] = {}  # its resources keep the ids

    def _resources(self, document: Any, base: str, found: dict[str, Any]) -> None:
        """`_resources` of one document, walked once whatever the number of translations."""
        key = (base, id(document))
        if key not in self._embedded:
            inside: dict[str, Any] = {}
            _resources(document, base, inside)
            self._embedded[key] = (document, list(inside.items()))
        for uri, node in self._embedded[key][1]:
            found.setdefault(uri, node)

    def _context(self, resources: dict[str, Any]) -> _Context:
        key = frozenset((uri, id(document)) for uri, document in resources.items())
        if key not in self._contexts:
            self._contexts[key] = _Context.of(resources)
        return self._contexts[key]

    def translate(self, schema: Any, base: str = "") -> Any:
        """`schema`, read at `base`, in draft 2020-12: what `to_2020_12` returns."""
        # A document that `others` holds under its URI as another copy, equal (one file read
        # by its path and by its `$id`), is read as that one: the same resources, one context.
        known = self._others.get(base)
        read = known if known is not schema and known == schema else schema
        resources: dict[str, Any] = {base: read}
        self._resources(read, base, resources)
        for uri, document in self._others.items():
            if uri not in resources:
                resources[uri] = document
                self._resources(document, uri, resources)
        translated = _translate(schema, base, self._context(resources))
        if isinstance(translated, dict):
            translated["$schema"] = DRAFT_2020_12.uri
            if base and "$id" not in translated:  # the base the root was read at (beside a `$ref` too)
                translated["$id"] = base
        return translated
