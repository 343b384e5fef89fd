"""The envelope schema: checked as JSON Schema 2020-12, described field by field for docs."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator

from generator.diagnostics import Diagnostic, json_pointer
from generator.load.documents import Document
from generator.load.violations import violations
from generator.model import Definition, FieldRule, SchemaField, TypePart

_DEFS_REF = re.compile(r"^#/\$defs/([^/]+)$")
# Keywords datamodel-code-generator drops without a word: a schema using them would let
# the generated models accept what the schema rejects. Rules that need them can be
# stated as oneOf variants tagged by a const, which both sides enforce.
UNENFORCEABLE_KEYWORDS = (
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "propertyNames",
    "patternProperties",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minProperties",
    "maxProperties",
    "uniqueItems",
    "prefixItems",
)
_CONSTRAINT_KEYS = (
    ("minimum", "≥ {}"),
    ("exclusiveMinimum", "> {}"),
    ("maximum", "≤ {}"),
    ("exclusiveMaximum", "< {}"),
    ("minLength", "at least {} characters"),
    ("maxLength", "at most {} characters"),
    ("minItems", "at least {} items"),
    ("maxItems", "at most {} items"),
    ("pattern", "matches {}"),
    ("format", "format {}"),
)


def check_envelope(document: Document) -> list[Diagnostic]:
    """Problems that make the envelope schema unusable: not 2020-12, invalid, no title."""
    schema = document.data
    if not isinstance(schema, dict):
        return [document.diagnostic([], "the envelope schema must be a JSON object")]
    problems: list[Diagnostic] = []
    declared = schema.get("$schema")
    if declared != "https://json-schema.org/draft/2020-12/schema":
        problems.append(document.diagnostic(["$schema"], "must be https://json-schema.org/draft/2020-12/schema"))
    for path, message in violations(Draft202012Validator(Draft202012Validator.META_SCHEMA), schema):
        problems.append(document.diagnostic(path, message))
    if not isinstance(schema.get("title"), str) or not schema["title"].isidentifier():
        problems.append(document.diagnostic(["title"], "the root needs a title that is a Python class name"))
    for key, definition in sorted(_defs(schema).items()):
        title = definition.get("title", key) if isinstance(definition, dict) else key
        if not isinstance(title, str) or not title.isidentifier():
            problems.append(document.diagnostic(["$defs", key, "title"], "must be a Python class name"))
    problems.extend(_check_refs(document, schema, []))
    problems.extend(_check_enforceable(document, schema, []))
    return problems


def _defs(schema: Mapping[str, Any]) -> dict[str, Any]:
    defs = schema.get("$defs", {})
    return defs if isinstance(defs, dict) else {}


def _check_refs(document: Document, node: Any, path: list[object]) -> list[Diagnostic]:
    """Every `$ref` must name an entry of the root's `$defs`: sources are self-contained."""
    problems: list[Diagnostic] = []
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref is not None:
            match = _DEFS_REF.match(ref) if isinstance(ref, str) else None
            if match is None or match.group(1) not in _defs(document.data):
                problems.append(document.diagnostic([*path, "$ref"], f"{ref!r} does not name an entry of $defs"))
        for key, value in node.items():
            if key not in ("const", "enum", "default", "examples"):
                problems.extend(_check_refs(document, value, [*path, key]))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            problems.extend(_check_refs(document, value, [*path, index]))
    return problems


def _check_enforceable(document: Document, node: Any, path: list[object]) -> list[Diagnostic]:
    """Keywords the generated models could not enforce, and `not` where no rule can carry it."""
    problems: list[Diagnostic] = []
    if isinstance(node, list):
        for index, value in enumerate(node):
            problems.extend(_check_enforceable(document, value, [*path, index]))
        return problems
    if not isinstance(node, dict):
        return problems
    if path and path[-1] in ("properties", "$defs"):  # keys here are names, not keywords
        for name, value in node.items():
            problems.extend(_check_enforceable(document, value, [*path, name]))
        return problems
    on_property = len(path) >= 2 and path[-2] == "properties"
    for key, value in node.items():
        if key in UNENFORCEABLE_KEYWORDS:
            message = f"{key!r} cannot be enforced by the generated models; state the rule as oneOf variants"
            problems.append(document.diagnostic([*path, key], message))
        elif key == "not" and not (on_property and isinstance(value, dict) and set(value) == {"$ref"}):
            problems.append(document.diagnostic([*path, key], "'not' is supported only as {'$ref': ...} on a property"))
        if key not in ("const", "enum", "default", "examples"):
            problems.extend(_check_enforceable(document, value, [*path, key]))
    return problems


def field_rules(schema: dict[str, Any]) -> tuple[FieldRule, ...]:
    """Checks the generated models inherit, for properties of the root and of `$defs`."""
    titles = {key: d.get("title", key) if isinstance(d, dict) else key for key, d in _defs(schema).items()}
    owners = [(schema["title"], [], schema)] + [(titles[k], ["$defs", k], d) for k, d in _defs(schema).items()]
    rules = []
    for model, path, node in owners:
        for field, sub in node.get("properties", {}).items():
            if not isinstance(sub, dict):
                continue
            where = [*path, "properties", field]
            if isinstance(sub.get("const"), bool):
                rules.append(FieldRule(model, field, "exact_bool", json.dumps(sub["const"]), json_pointer([*where, "const"])))
            if "not" in sub:
                forbidden = titles[sub["not"]["$ref"].rsplit("/", 1)[-1]]
                rules.append(FieldRule(model, field, "exclude", forbidden, json_pointer([*where, "not"])))
    return tuple(rules)


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at an RFC 6901 pointer; KeyError when there is none."""
    node = document
    for token in pointer.split("/")[1:] if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise KeyError(pointer)
    return node


def anchor(name: str) -> str:
    """The Markdown heading id of a definition (lower case, as MkDocs and GitHub make it)."""
    return re.sub(r"[^a-z0-9_-]", "", name.lower())


def describe_definitions(schema: dict[str, Any]) -> tuple[Definition, ...]:
    """The root and each `$defs` entry, in source order, as docs and code read them."""
    titles = {key: d.get("title", key) if isinstance(d, dict) else key for key, d in _defs(schema).items()}
    entries = [(schema["title"], "", schema)]
    entries += [(titles[key], json_pointer(["$defs", key]), d) for key, d in _defs(schema).items()]
    return tuple(_definition(name, pointer, node, titles) for name, pointer, node in entries)


def _definition(name: str, pointer: str, node: dict[str, Any], titles: dict[str, str]) -> Definition:
    required = set(node.get("required", []))
    fields = tuple(
        SchemaField(
            name=key,
            type_parts=type_parts(sub, titles),
            required=key in required,
            constraints=constraints(sub, titles),
            default=json.dumps(sub["default"]) if isinstance(sub, dict) and "default" in sub else None,
            description=sub.get("description", "") if isinstance(sub, dict) else "",
        )
        for key, sub in node.get("properties", {}).items()
    )
    options = [type_parts(option, titles) for keyword in ("oneOf", "anyOf") for option in node.get(keyword, [])]
    additional = node.get("additionalProperties")
    return Definition(
        name=name,
        anchor=anchor(name),
        pointer=pointer,
        kind=type_parts({k: v for k, v in node.items() if k not in ("oneOf", "anyOf")}, titles)
        if "oneOf" not in node and "anyOf" not in node
        else (TypePart("one of" if "oneOf" in node else "any of"),),
        constraints=constraints(node, titles),
        description=node.get("description", ""),
        fields=fields,
        variants=_join(options, ", "),
        additional_properties=additional if isinstance(additional, bool) else None,
    )


def _join(groups: list[tuple[TypePart, ...]], separator: str) -> tuple[TypePart, ...]:
    parts: list[TypePart] = []
    for index, group in enumerate(groups):
        if index:
            parts.append(TypePart(separator))
        parts.extend(group)
    return tuple(parts)


def type_parts(node: Any, titles: Mapping[str, str]) -> tuple[TypePart, ...]:
    """A field's type in words, with links to the definitions it refers to."""
    if node is True or node == {}:
        return (TypePart("any"),)
    if not isinstance(node, dict):
        return (TypePart("nothing"),)
    if "$ref" in node:
        key = node["$ref"].rsplit("/", 1)[-1]
        title = titles.get(key, key)
        return (TypePart(title, anchor(title)),)
    if "const" in node:
        return (TypePart(json.dumps(node["const"], ensure_ascii=False)),)
    for keyword in ("oneOf", "anyOf"):
        if keyword in node:
            return _join([type_parts(option, titles) for option in node[keyword]], " or ")
    declared = node.get("type")
    if declared is None and "enum" in node:
        kinds = sorted({type(v).__name__ for v in node["enum"]})
        declared = "string" if kinds == ["str"] else None
    if declared is None:
        return (TypePart("any"),)
    names = declared if isinstance(declared, list) else [declared]
    groups = [_one_type(name, node, titles) for name in names]
    return _join(groups, " or ")


def _one_type(name: str, node: dict[str, Any], titles: Mapping[str, str]) -> tuple[TypePart, ...]:
    if name == "array" and isinstance(node.get("items"), dict):
        return (TypePart("array of "), *type_parts(node["items"], titles))
    additional = node.get("additionalProperties")
    if name == "object" and isinstance(additional, dict) and not node.get("properties"):
        return (TypePart("map of "), *type_parts(additional, titles))
    return (TypePart(name),)


def constraints(node: Any, titles: Mapping[str, str]) -> tuple[str, ...]:
    """Value constraints of a field in words: bounds, patterns, enums, exclusions."""
    if not isinstance(node, dict):
        return ()
    found = [template.format(node[key]) for key, template in _CONSTRAINT_KEYS if key in node]
    if "enum" in node:
        found.append("one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in node["enum"]))
    if node.get("uniqueItems") is True:
        found.append("unique items")
    if "not" in node:
        excluded = "".join(part.text for part in type_parts(node["not"], titles))
        found.append(f"must not be a {excluded}")
    return tuple(found)
