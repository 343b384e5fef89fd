"""The envelope schema: checked as JSON Schema 2020-12, described field by field for docs."""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator

from generator.diagnostics import Diagnostic, json_pointer
from generator.load.documents import Document
from generator.load.violations import violations
from generator.model import FieldRule

_UNICODE_CLASSES = re.compile(r"(?<!\\)(\\\\)*\\[dDwWsSbB]")
_DEFS_REF = re.compile(r"^#/\$defs/([^/]+)$")
# Keywords datamodel-code-generator drops without a word: a schema using them would let
# the generated models accept what the schema rejects. Rules that need them can be
# stated as oneOf variants tagged by a const, which both sides enforce.
UNENFORCEABLE_KEYWORDS = (
    "allOf",
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
    if problems:
        return problems
    problems.extend(_check_names(document, schema))
    problems.extend(_check_refs(document, schema, []))
    problems.extend(_check_enforceable(document, schema, []))
    return problems


def _class_name_problem(name: object) -> str | None:
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
        return "must be a Python class name"
    return None


def _check_names(document: Document, schema: dict[str, Any]) -> list[Diagnostic]:
    """The root and every `$defs` entry are objects with distinct class names (their titles)."""
    problems = []
    if (problem := _class_name_problem(schema.get("title"))) is not None:
        problems.append(document.diagnostic(["title"], f"the root's title {problem}"))
    seen = {schema.get("title"): "the root"}
    for key, definition in defs_of(schema).items():
        if not isinstance(definition, dict):
            problems.append(document.diagnostic(["$defs", key], "a definition must be a JSON object"))
            continue
        title = definition.get("title", key)
        where = ["$defs", key, "title"] if "title" in definition else ["$defs", key]
        if (problem := _class_name_problem(title)) is not None:
            problems.append(document.diagnostic(where, f"the class name {title!r} {problem}"))
        elif title in seen:
            problems.append(document.diagnostic(where, f"the class name {title!r} is also used by {seen[title]}"))
        seen.setdefault(title, f"$defs/{key}")
    return problems


def defs_of(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The `$defs` of a schema, empty when it has none."""
    defs = schema.get("$defs", {})
    return defs if isinstance(defs, dict) else {}


def titles_of(schema: Mapping[str, Any]) -> dict[str, str]:
    """Each `$defs` key mapped to its model name: its title, or the key itself."""
    return {key: d.get("title", key) if isinstance(d, dict) else key for key, d in defs_of(schema).items()}


def definitions_of(schema: Mapping[str, Any]) -> list[tuple[str, list[object], dict[str, Any]]]:
    """The root and every `$defs` entry as (model name, path, schema), in source order."""
    titles = titles_of(schema)
    return [(schema["title"], [], dict(schema))] + [(titles[k], ["$defs", k], d) for k, d in defs_of(schema).items()]


def _check_refs(document: Document, node: Any, path: list[object]) -> list[Diagnostic]:
    """Every `$ref` must name an entry of the root's `$defs`: sources are self-contained."""
    problems: list[Diagnostic] = []
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref is not None:
            match = _DEFS_REF.match(ref) if isinstance(ref, str) else None
            if match is None or match.group(1) not in defs_of(document.data):
                problems.append(document.diagnostic([*path, "$ref"], f"{ref!r} does not name an entry of $defs"))
        for key, value in node.items():
            if key not in ("const", "enum", "default", "examples"):
                problems.extend(_check_refs(document, value, [*path, key]))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            problems.extend(_check_refs(document, value, [*path, index]))
    return problems


def _is_model_property(path: list[object]) -> bool:
    """A property of the root or of a `$defs` entry: the fields the generated classes own."""
    return (len(path) == 2 and path[0] == "properties") or (
        len(path) == 4 and path[0] == "$defs" and path[2] == "properties"
    )


def _field_rule_problem(path: list[object]) -> str | None:
    """Why a rule on the property at `path` could not be carried by a generated class."""
    if not _is_model_property(path):
        return "is enforced only on a property of the root or of a $defs entry; move this object to $defs"
    name = path[-1]
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
        return "is enforced only on a property whose name is a Python identifier"
    return None


def _keyword_problem(key: str, value: Any, node: dict[str, Any], path: list[object]) -> str | None:
    if key in UNENFORCEABLE_KEYWORDS:
        return f"{key!r} cannot be enforced by the generated models; state the rule as oneOf variants"
    if key == "not":
        if not (isinstance(value, dict) and set(value) == {"$ref"}):
            return "'not' is supported only as {'$ref': ...}"
        return _field_rule_problem(path)
    if key in ("const", "enum"):
        values = value if key == "enum" and isinstance(value, list) else [value]
        if any(isinstance(v, dict | list) for v in values):
            return f"{key!r} with an object or array value cannot be enforced by the generated models"
        if any(isinstance(v, bool | int) and not isinstance(v, float) for v in values):
            return _field_rule_problem(path)
    if key == "pattern" and isinstance(value, str) and _UNICODE_CLASSES.search(value):
        return (
            "\\d, \\w, \\s and \\b match Unicode in the models but ASCII in ECMA-262: spell the class out, e.g. [0-9]"
        )
    return None


def _check_enforceable(document: Document, node: Any, path: list[object]) -> list[Diagnostic]:
    """Constructs whose rule the generated models could not enforce exactly as the schema does."""
    problems: list[Diagnostic] = []
    if isinstance(node, list):
        for index, value in enumerate(node):
            problems.extend(_check_enforceable(document, value, [*path, index]))
        return problems
    if not isinstance(node, dict):
        return problems
    if path and path[-1] in ("properties", "$defs"):  # keys here are names, not keywords
        for name, value in node.items():
            if value is False:
                problems.append(document.diagnostic([*path, name], "a false schema cannot be enforced by the models"))
            problems.extend(_check_enforceable(document, value, [*path, name]))
        return problems
    for key, value in node.items():
        problem = _keyword_problem(key, value, node, path)
        if problem is not None:
            problems.append(document.diagnostic([*path, key], problem))
        if key not in ("const", "enum", "default", "examples"):
            problems.extend(_check_enforceable(document, value, [*path, key]))
    return problems


def field_rules(schema: dict[str, Any]) -> tuple[FieldRule, ...]:
    """Checks the generated models inherit, for properties of the root and of `$defs`."""
    titles = titles_of(schema)
    rules = []
    for model, path, node in definitions_of(schema):
        for field, sub in node.get("properties", {}).items():
            if not isinstance(sub, dict):
                continue
            where = [*path, "properties", field]
            if isinstance(sub.get("const"), bool):
                rules.append(
                    FieldRule(model, field, "exact_bool", json.dumps(sub["const"]), json_pointer([*where, "const"]))
                )
            if "not" in sub:
                forbidden = titles[sub["not"]["$ref"].rsplit("/", 1)[-1]]
                rules.append(FieldRule(model, field, "exclude", forbidden, json_pointer([*where, "not"])))
    return tuple(rules)


def _pins_integers(node: dict[str, Any]) -> bool:
    """A const or enum of integers: pydantic's Literal[1] also takes `true`."""
    values = [node["const"]] if "const" in node else node.get("enum", [])
    return bool(values) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)


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
