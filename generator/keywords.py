"""Where a JSON Schema holds other schemas: the applicator keywords of draft-07 and 2020-12.

Only these places hold schemas; anywhere else (`const`, `enum`, `examples`, `default`...) a
`{"$ref": ...}` is a value, not a reference. Walkers that rewrite or compare schemas read
this one table, resolve references with one `Resolver` (a self-contained document, its
embedded resources by `$id`, URIs joined as RFC 3986 says, `urn:` bases too), and compile a
schema that must stand alone (an MCP tool's) with `standalone_validator`: nothing fetched.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote, urljoin

import jsonschema_rs

# One schema: `items` is one here in 2020-12 (a list in draft-07 is handled below).
ONE = frozenset(
    {
        "additionalItems",
        "additionalProperties",
        "contains",
        "contentSchema",
        "else",
        "if",
        "not",
        "propertyNames",
        "then",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
MAPS = frozenset({"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"})
LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})


def subschemas(node: Any) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """(path from `node`, subschema) of each schema `node` holds directly."""
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key in ONE or (key == "items" and not isinstance(value, list)):
            yield (key,), value
        elif key in MAPS and isinstance(value, dict):
            yield from (((key, name), sub) for name, sub in value.items())
        elif (key in LISTS or key == "items") and isinstance(value, list):
            yield from (((key, index), sub) for index, sub in enumerate(value))
        elif key == "dependencies" and isinstance(value, dict):  # draft-07: arrays or schemas
            yield from (((key, name), sub) for name, sub in value.items() if not isinstance(sub, list))


def replaced(node: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    """Put `value` at `path` (as `subschemas` gives it) in `node`, in place."""
    if len(path) == 1:
        node[path[0]] = value  # type: ignore[index]
    else:
        node[path[0]][path[1]] = value  # type: ignore[index]


def copied(node: dict[str, Any]) -> dict[str, Any]:
    """A copy of `node` that `replaced` may write into: its maps and lists copied too, so
    that the schema it came from is never changed."""
    return {key: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v for key, v in node.items()}


def defrag(uri: str) -> tuple[str, str]:
    """(the URI without its fragment, the fragment): never an error, whatever the text."""
    head, _, fragment = uri.partition("#")
    return head, fragment


def join(base: str, reference: str) -> str:
    """`reference` resolved against `base` (RFC 3986 for the cases schemas use): a fragment
    keeps the base, which `urljoin` forgets for schemes it does not know (`urn:`, `tag:`)."""
    if not base:
        return reference
    if reference.startswith("#"):
        return defrag(base)[0] + reference
    try:
        return urljoin(base, reference)
    except ValueError:  # not a URI (`http://[`): it names nothing
        return reference


class Resolver:
    """`$ref`s of one self-contained document (a compound one: resources under `$defs`,
    each with its `$id`), resolved without the network. A reference resolves against the
    resource it is written in; the root's URI is its `$id`, or "" without one."""

    def __init__(self, document: Any) -> None:
        self.root_uri = _identifier(document, "")
        self._resources: dict[str, Any] = {}
        self._anchors: dict[tuple[str, str], Any] = {}
        self._collect(document, self.root_uri)

    def _collect(self, document: Any, base: str) -> None:
        pending = [(document, base)]  # a loop, not recursion: a schema may nest deeply
        while pending:
            node, base = pending.pop()
            if not isinstance(node, dict):
                continue
            base = _identifier(node, base)
            if "$id" in node or not self._resources:
                self._resources.setdefault(base, node)
            anchor = node.get("$anchor")
            if isinstance(anchor, str):
                self._anchors.setdefault((base, anchor), node)
            pending.extend((sub, base) for _, sub in reversed(list(subschemas(node))))

    def base_of(self, node: Any, base: str) -> str:
        """The base URI inside `node`, read at `base`."""
        return _identifier(node, base)

    def resolve(self, reference: str, base: str) -> tuple[Any, str] | None:
        """(the schema `reference` names, its base URI), or None when it is not in the document."""
        target, fragment = defrag(join(base, reference))
        target = target or base
        node = self._resources.get(target)
        if node is None:
            return None
        if fragment and not fragment.startswith("/"):
            found = self._anchors.get((target, fragment))
            return (found, target) if found is not None else None
        base = target
        for token in fragment.split("/")[1:] if fragment else ():
            token = unquote(token).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                return None
            base = _identifier(node, base)
        return node, base


def _identifier(node: Any, base: str) -> str:
    identifier = node.get("$id") if isinstance(node, dict) else None
    if not isinstance(identifier, str):
        return base
    return defrag(join(base, identifier))[0]


def absolute_references(schema: Any, base: str = "") -> Any:
    """A copy of `schema` whose every `$ref` is written against the base it was read at,
    so that each resolves the same wherever it is followed from (see `Resolver`)."""
    if not isinstance(schema, dict):
        return schema
    node = copied(schema)
    base = _identifier(node, base)
    reference = node.get("$ref")
    if isinstance(reference, str) and base:
        node["$ref"] = join(base, reference)
    for path, sub in list(subschemas(node)):
        replaced(node, path, absolute_references(sub, base))
    return node


def _no_fetch(uri: str) -> Any:
    raise ValueError(f"{uri} is not fetched: the schema must stand alone")


def standalone_validator(schema: Any) -> Any:
    """jsonschema-rs's validator of a schema that must stand alone (an MCP tool's input or
    output schema: nothing is fetched); ValueError, with the reason, when it cannot compile."""
    try:
        return jsonschema_rs.validator_for(schema, retriever=_no_fetch)
    except (ValueError, TypeError, OverflowError, jsonschema_rs.ValidationError) as exc:
        raise ValueError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None


def first_refusal(validator: Any, instance: Any) -> str | None:
    """Why `validator` refuses `instance` (its first error, at its JSON pointer), or None."""
    error = next(iter(validator.iter_errors(instance)), None)
    if error is None:
        return None
    if not error.instance_path:
        return str(error.message)
    return f"at /{'/'.join(str(p) for p in error.instance_path)}: {error.message}"


def not_json(value: Any, path: tuple[str | int, ...] = ()) -> tuple[tuple[str | int, ...], str] | None:
    """The first number JSON cannot hold (YAML's `.inf`, a server's NaN), with its path, or None."""
    pending = [(value, path)]  # a loop, not recursion: a value may nest deeply
    while pending:
        node, at = pending.pop()
        if isinstance(node, float) and not math.isfinite(node):
            return at, repr(node)
        if isinstance(node, dict):
            pending.extend(((item, (*at, key)) for key, item in reversed(node.items())))
        elif isinstance(node, list | tuple):
            pending.extend(((item, (*at, index)) for index, item in reversed(list(enumerate(node)))))
    return None


def json_types(value: Any) -> set[str]:
    """The JSON Schema types a value is of (`1.0` is an integer too)."""
    if value is None:
        return {"null"}
    if isinstance(value, bool):
        return {"boolean"}
    if isinstance(value, int):
        return {"integer", "number"}
    if isinstance(value, float):
        return {"integer", "number"} if value.is_integer() else {"number"}
    if isinstance(value, str):
        return {"string"}
    return {"array"} if isinstance(value, list) else {"object"}


_PROOF_DEPTH = 64


def always_object(document: Any) -> bool:
    """Whether every instance a self-contained schema accepts is a JSON object: its root says
    `"type": "object"`, or every branch of its `oneOf`/`anyOf` (or one `allOf` member, a
    `$ref`'s target, both of `then` and `else`) is so; `const` and `enum` by their values.

    A proof, not a guess: where one cannot be made (a cycle, `not`, a depth past 64) the
    answer is False. So `"type": "object"` beside the root keeps every verdict when True.
    """
    resolver = Resolver(document)

    def proves(node: Any, base: str, depth: int) -> bool:
        if node is False:
            return True  # accepts nothing: no instance that is not an object
        if not isinstance(node, dict) or depth > _PROOF_DEPTH:
            return False
        base = resolver.base_of(node, base)
        kind = node.get("type")
        if kind == "object" or kind == ["object"]:
            return True
        if "const" in node:
            return isinstance(node["const"], dict)
        if isinstance(node.get("enum"), list):
            return all(isinstance(value, dict) for value in node["enum"])
        reference = node.get("$ref")
        if isinstance(reference, str):
            target = resolver.resolve(reference, base)
            if target is not None and proves(target[0], target[1], depth + 1):
                return True
        members = node.get("allOf")
        if isinstance(members, list) and any(proves(m, base, depth + 1) for m in members):
            return True
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if isinstance(branches, list) and branches and all(proves(b, base, depth + 1) for b in branches):
                return True
        conditional = all(k in node for k in ("if", "then", "else"))  # without `if`, they say nothing
        return conditional and all(proves(node[k], base, depth + 1) for k in ("then", "else"))

    return proves(document, resolver.root_uri, 0)
