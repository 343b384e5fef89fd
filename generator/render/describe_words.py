"""A subschema in words, as the docs' tables state it: its type (each `$ref` a link to the
definition the page documents) and its constraints (bounds, patterns, conditions, exclusions).

Apart from the tables (`describe.py`): these words read one node and what its `$ref` names,
never a table's rows or a `oneOf`'s variants side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.schemas import Outline, Reference
from ..naming import definition_anchor
from ..schema.vocabulary import ANNOTATIONS
from .json_text import json_line


@dataclass(frozen=True, slots=True)
class TypePart:
    """A piece of a field's type as docs show it; `anchor` links to a definition. A piece of
    `prose` is text an author wrote (a catalogue's message, a tool's description): its code
    spans are shown as code."""

    text: str
    anchor: str | None = None
    prose: bool = False


_CONSTRAINT_KEYS = (
    ("minimum", "≥ {}"),
    ("exclusiveMinimum", "> {}"),
    ("maximum", "≤ {}"),
    ("exclusiveMaximum", "< {}"),
    ("minLength", "at least {} character(s)"),
    ("maxLength", "at most {} character(s)"),
    ("minItems", "at least {} item(s)"),
    ("maxItems", "at most {} item(s)"),
    ("pattern", "matches {}"),
    ("format", "format {}"),
    ("enum", "one of {}"),
    ("multipleOf", "a multiple of {}"),
    ("minProperties", "at least {} propert(ies)"),
    ("maxProperties", "at most {} propert(ies)"),
    ("minContains", "at least {} matching item(s)"),
    ("maxContains", "at most {} matching item(s)"),
    ("contentEncoding", "encoded as {}"),
    ("contentMediaType", "media type {}"),
)
_FLAGS = (("deprecated", "deprecated"), ("readOnly", "read-only"), ("writeOnly", "write-only"))
# Words for what a keyword's one subschema is about, in the order docs state them; which
# keywords hold schemas is the schema core's to say (`schema/vocabulary.py`).
_ONE_SCHEMA_WORDS = {
    "contains": "contains an item:",
    "propertyNames": "property names:",
    "unevaluatedProperties": "properties no other keyword covers:",
    "unevaluatedItems": "items no other keyword covers:",
}
# Words that join the parts of a combination, in the order docs look for one.
_JOINED_BY = {"oneOf": " or ", "anyOf": " or ", "allOf": " and "}


def _counted(template: str, value: Any) -> str:
    """A template filled in, "(s)" and "(ies)" agreeing with the value: "1 item", "2 items"."""
    one = value == 1 and not isinstance(value, bool)
    return template.replace("(ies)", "y" if one else "ies").replace("(s)", "" if one else "s").format(value)


@dataclass(frozen=True)
class Links:
    """The definitions a `$ref` can link to on the page, by location.

    `names` maps the location of each definition documented (a URI and a pointer, as the
    schema core writes one) to its name; `outline` says where each `$ref` of the bundle leads
    (through anchors, `$id`s and files: `model.Bundle.outline`)."""

    names: Mapping[str, str]
    outline: Outline | None = None
    anchor: Callable[[str], str] = definition_anchor  # a definition's anchor on the page, by name

    def reference(self, node: Mapping[str, Any]) -> Reference | None:
        """What the `$ref` of `node` names, as the outline read it."""
        return self.outline.reference(node) if self.outline is not None else None

    def title(self, node: Mapping[str, Any]) -> str | None:
        """The name of the definition the `$ref` of `node` leads to, if the page documents it."""
        target = self.reference(node)
        return self.names.get(target.location) if target is not None else None


def joined(groups: list[tuple[TypePart, ...]], separator: str) -> tuple[TypePart, ...]:
    """The parts of each group, `separator` between two groups."""
    parts: list[TypePart] = []
    for index, group in enumerate(groups):
        if index:
            parts.append(TypePart(separator))
        parts.extend(group)
    return tuple(parts)


_DEPTH = 8  # deeper parts of a type are described as "…"


def type_parts(node: Any, links: Links, depth: int = 0) -> tuple[TypePart, ...]:
    """A field's type in words, with links to the definitions it refers to."""
    if depth > _DEPTH:
        return (TypePart("…"),)
    if node is True or (isinstance(node, dict) and set(node) <= ANNOTATIONS):
        return (TypePart("any"),)
    if not isinstance(node, dict):
        return (TypePart("nothing"),)
    if isinstance(node.get("$ref"), str):
        title = links.title(node)
        if title:
            return (TypePart(title, links.anchor(title)),)
        # nowhere on the page: what it names, in words (one reference deep: a cost bounded per field)
        target = _unlisted_target(node, links) if depth == 0 else None
        return type_parts(target.node, links, depth + 1) if target else (TypePart(node["$ref"]),)
    if isinstance(node.get("$dynamicRef"), str):
        return (TypePart(f"any (resolved at run time: {node['$dynamicRef']})"),)
    if "const" in node:
        return (TypePart(json_line(node["const"])),)
    for keyword, separator in _JOINED_BY.items():
        if isinstance(node.get(keyword), list) and node[keyword]:
            return joined([type_parts(option, links, depth + 1) for option in node[keyword]], separator)
    declared = node.get("type")
    if declared is None and "enum" in node:
        kinds = sorted({type(v).__name__ for v in node["enum"]})
        declared = "string" if kinds == ["str"] else None
    if declared is None:
        return (TypePart("any"),)
    names = declared if isinstance(declared, list) else [declared]
    return joined([_one_type(name, node, links, depth) for name in names], " or ")


def _one_type(name: str, node: dict[str, Any], links: Links, depth: int) -> tuple[TypePart, ...]:
    if name == "array" and isinstance(node.get("items"), dict) and "prefixItems" not in node:
        return (TypePart("array of "), *type_parts(node["items"], links, depth + 1))
    additional = node.get("additionalProperties")
    if name == "object" and isinstance(additional, dict) and not node.get("properties"):
        return (TypePart("map of "), *type_parts(additional, links, depth + 1))
    return (TypePart(name),)


def words(node: Any, links: Links, depth: int) -> str:
    """A subschema in one phrase: its type, its properties and its constraints."""
    if node is False:
        return "not allowed"
    kind = "".join(part.text for part in type_parts(node, links, depth + 1))
    rules = list(constraints(node, links, depth + 1))
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict) and properties:
            rules.insert(0, ", ".join(f"{k}: {words(v, links, depth + 1)}" for k, v in properties.items()))
        if isinstance(node.get("required"), list) and node["required"]:
            rules.append("requires " + ", ".join(map(str, node["required"])))
    if kind == "any" and rules:
        return "; ".join(rules)
    return kind + (f" ({'; '.join(rules)})" if rules else "")


def _listed(values: Any) -> str:
    return ", ".join(json_line(v) for v in values) if isinstance(values, list) else str(values)


def constraints(node: Any, links: Links, depth: int = 0) -> tuple[str, ...]:
    """Every assertion of a schema in words: bounds, patterns, enums, conditions, exclusions."""
    if not isinstance(node, dict) or depth > _DEPTH:
        return ()
    found = [
        _counted(template, _listed(node[key]) if key == "enum" else node[key])
        for key, template in _CONSTRAINT_KEYS
        if key in node
    ]
    if node.get("uniqueItems") is True:
        found.append("items are unique")
    if "contentSchema" in node:
        found.append(f"content: {words(node['contentSchema'], links, depth)}")
    found += [words for key, words in _FLAGS if node.get(key) is True]
    if isinstance(node.get("examples"), list) and node["examples"]:
        found.append("for example " + _listed(node["examples"]))
    if "allOf" in node and "type" in node:
        found.append("all of: " + "; ".join(words(part, links, depth) for part in node["allOf"]))
    if "if" in node:
        clause = f"if {words(node['if'], links, depth)}"
        if "then" in node:
            clause += f" then {words(node['then'], links, depth)}"
        if "else" in node:
            clause += f", otherwise {words(node['else'], links, depth)}"
        found.append(clause)
    if "not" in node:
        found.append(f"must not match: {words(node['not'], links, depth)}")
    for key, label in _ONE_SCHEMA_WORDS.items():
        if key in node:
            found.append(f"{label} {words(node[key], links, depth)}")
    if isinstance(node.get("prefixItems"), list):
        found.append("items in order: " + ", ".join(words(item, links, depth) for item in node["prefixItems"]))
    if isinstance(node.get("patternProperties"), dict):
        for pattern, sub in node["patternProperties"].items():
            found.append(f"properties matching {pattern}: {words(sub, links, depth)}")
    if isinstance(node.get("dependentRequired"), dict):
        for name, needed in node["dependentRequired"].items():
            found.append(f"with {name}, also requires {', '.join(map(str, needed))}")
    if isinstance(node.get("dependentSchemas"), dict):
        for name, sub in node["dependentSchemas"].items():
            found.append(f"with {name}: {words(sub, links, depth)}")
    target = _unlisted_target(node, links) if depth == 0 else None
    if target is not None:  # what a reference to no definition of the page asserts holds too (one deep)
        found += constraints(target.node, links, depth + 1)
    return tuple(found)


def _unlisted_target(node: dict[str, Any], links: Links) -> Reference | None:
    """What a `$ref` of `node` names, where the page documents no definition of it."""
    if not isinstance(node.get("$ref"), str) or links.title(node):
        return None
    target = links.reference(node)
    return target if target is not None and target.node is not None and target.node is not node else None
