"""A draft-07 schema said in draft 2020-12, the dialect MCP's `outputSchema` is read in.

The two drafts differ in spelling and in a few rules; the translation keeps what a
draft-07 validator accepts:

- `definitions` becomes `$defs` (a bundle embeds other files there, by their `$id`);
- an array `items` becomes `prefixItems`, and `additionalItems` then becomes `items`
  (without an array `items`, draft-07 ignores `additionalItems`: it is dropped);
- `dependencies` splits into `dependentRequired` (arrays) and `dependentSchemas`;
- `$id` with a fragment (`#name`, `other.json#name`) becomes `$id` and `$anchor`;
- beside a `$ref`, draft-07 ignores every other keyword: they are dropped;
- keywords draft-07 does not know but 2020-12 applies (`prefixItems`, `unevaluated*`,
  `minContains`, `$dynamicRef`...) are dropped, as draft-07 ignores them;
- each `$ref` pointer is rewritten along the renamed keywords.

The JSON Schema Test Suite's draft-07 files are the judge: every instance keeps its
verdict through `bundle` and this translation (tests/test_dialect.py).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
_DRAFT_07_URIS = ("http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema")
# Keywords of 2020-12 that a draft-07 validator ignores, and so must not start to apply.
_UNKNOWN_TO_07 = frozenset(
    {
        "prefixItems",
        "dependentRequired",
        "dependentSchemas",
        "unevaluatedItems",
        "unevaluatedProperties",
        "minContains",
        "maxContains",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
        "$vocabulary",
        "contentSchema",
    }
)
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "definitions"})
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf"})
_SCHEMAS = frozenset(
    {"additionalProperties", "contains", "not", "if", "then", "else", "propertyNames", "additionalItems"}
)


def is_draft_07(schema: Any) -> bool:
    dialect = schema.get("$schema") if isinstance(schema, dict) else None
    return isinstance(dialect, str) and dialect.rstrip("#") in _DRAFT_07_URIS


def _resources(node: Any, base: str, found: dict[str, Any]) -> None:
    """Every schema resource (by absolute URI) of a draft-07 document, before translation."""
    if not isinstance(node, dict):
        return
    if "$ref" in node:  # its other keywords, `$id` too, are ignored; `definitions` stay reachable
        for sub in (node.get("definitions") or {}).values():
            _resources(sub, base, found)
        return
    identifier = node.get("$id")
    if isinstance(identifier, str):
        absolute, _ = urldefrag(urljoin(base, identifier))
        if absolute:
            base = absolute
            found.setdefault(base, node)
    for key, value in node.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            for sub in value.values():
                _resources(sub, base, found)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            for sub in value:
                _resources(sub, base, found)
        elif key == "items":
            for sub in value if isinstance(value, list) else [value]:
                _resources(sub, base, found)
        elif key == "dependencies" and isinstance(value, dict):
            for sub in value.values():
                _resources(sub, base, found)
        elif key in _SCHEMAS:
            _resources(value, base, found)


def _pointer(node: Any, tokens: list[str]) -> list[str] | None:
    """The tokens of a draft-07 pointer into `node`, renamed as the translation renames."""
    renamed: list[str] = []
    position = "schema"  # what `node` is: a schema, a map of schemas, a list, or a value
    for token in tokens:
        if position == "schema" and isinstance(node, dict):
            value = node.get(token)
            if token == "definitions":
                renamed.append("$defs")
                position = "map"
            elif token == "items" and isinstance(value, list):
                renamed.append("prefixItems")
                position = "list"
            elif token == "items" or token == "additionalItems":
                renamed.append("items")
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


def _reference(reference: str, base: str, resources: dict[str, Any]) -> str:
    """`reference` with its pointer fragment renamed as its target is translated."""
    head, _, fragment = reference.partition("#")
    if not fragment.startswith("/"):
        return reference
    target = resources.get(urldefrag(urljoin(base, head))[0] if head else base)
    if target is None:
        return reference
    raw = fragment.split("/")[1:]  # as written: percent-encoded, as a URI fragment is
    tokens = [unquote(t).replace("~1", "/").replace("~0", "~") for t in raw]
    renamed = _pointer(target, tokens)
    if renamed is None:
        return reference
    written = [r if r != t else w for r, t, w in zip(renamed, tokens, raw, strict=True)]
    return f"{head}#/" + "/".join(written) if written else f"{head}#"


def _translate(node: Any, base: str, resources: dict[str, Any]) -> Any:
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        reference = node["$ref"]
        result: dict[str, Any] = {
            "$ref": _reference(reference, base, resources) if isinstance(reference, str) else reference
        }
        definitions = node.get("definitions")
        if isinstance(definitions, dict):  # still reachable by pointer
            result["$defs"] = {name: _translate(sub, base, resources) for name, sub in definitions.items()}
        return result
    identifier = node.get("$id")
    result = {}
    if isinstance(identifier, str):
        absolute, anchor = urldefrag(urljoin(base, identifier))
        head = identifier.partition("#")[0]
        if head:
            result["$id"] = head
            base = absolute
        if anchor and not anchor.startswith("/"):
            result["$anchor"] = anchor
    for key, value in node.items():
        if key in ("$id", "$ref") or key in _UNKNOWN_TO_07:
            continue
        if key == "$schema":
            result[key] = DRAFT_2020_12
        elif key == "definitions" and isinstance(value, dict):
            result["$defs"] = {name: _translate(sub, base, resources) for name, sub in value.items()}
        elif key == "$defs":
            continue  # unknown to draft-07: it cannot hold what `$ref` reaches by `$id`
        elif key == "items" and isinstance(value, list):
            result["prefixItems"] = [_translate(sub, base, resources) for sub in value]
            if "additionalItems" in node:
                result["items"] = _translate(node["additionalItems"], base, resources)
        elif key == "items":
            result["items"] = _translate(value, base, resources)
        elif key == "additionalItems":
            continue  # placed with an array `items`; ignored without one
        elif key == "dependencies" and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, list):
                    result.setdefault("dependentRequired", {})[name] = sub
                else:
                    result.setdefault("dependentSchemas", {})[name] = _translate(sub, base, resources)
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            result[key] = {name: _translate(sub, base, resources) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            result[key] = [_translate(sub, base, resources) for sub in value]
        elif key in _SCHEMAS:
            result[key] = _translate(value, base, resources)
        else:
            result[key] = value
    return result


def to_2020_12(schema: Any, base: str = "") -> Any:
    """A draft-07 schema document (a bundle, with its resources embedded) in draft 2020-12."""
    resources: dict[str, Any] = {}
    _resources(schema, base, resources)
    resources.setdefault(base, schema)
    translated = _translate(schema, base, resources)
    if isinstance(translated, dict):
        translated["$schema"] = DRAFT_2020_12
        if base and "$id" not in translated:  # the base the root was read at (beside a `$ref` too)
            translated["$id"] = base
    return translated
