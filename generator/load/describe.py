"""The envelope schema described for people: definitions, fields, types and conditions.

A definition that is a `oneOf` of object variants is also shown as one table of all its
fields, where "required" can be a condition: "when tier is "pro" or "enterprise"".
The condition names the variants' tag (a property that is a `const` or an `enum` in
every variant) or, without one, the variants themselves.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from generator.diagnostics import json_pointer
from generator.load.bundle import ROOT_URI
from generator.model import Definition, SchemaField, TypePart, View

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
_MORE_KEYS = (
    ("enum", "one of {}"),
    ("multipleOf", "a multiple of {}"),
    ("minProperties", "at least {} properties"),
    ("maxProperties", "at most {} properties"),
    ("minContains", "at least {} matching items"),
    ("maxContains", "at most {} matching items"),
    ("contentEncoding", "encoded as {}"),
    ("contentMediaType", "media type {}"),
)
_SUBSCHEMA_KEYS = (
    ("contains", "contains an item that is"),
    ("propertyNames", "property names are"),
    ("unevaluatedProperties", "other properties are"),
    ("unevaluatedItems", "other items are"),
)


def anchor(name: str) -> str:
    """The anchor of a definition on its page: `def-` and the lower-cased name."""
    return "def-" + re.sub(r"[^a-z0-9_-]", "", name.lower())


_LOCAL_DEF = re.compile(r"^#/(\$defs|definitions)/([^/]+)$")


def defs_of(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of `$defs` and of `definitions` (draft-07), keyed by name."""
    found: dict[str, Any] = {}
    for container in ("$defs", "definitions"):
        entries = schema.get(container)
        if isinstance(entries, dict):
            for key, value in entries.items():
                found.setdefault(key, value)
    return found


def _container(schema: Mapping[str, Any], key: str) -> str:
    return "$defs" if isinstance(schema.get("$defs"), dict) and key in schema["$defs"] else "definitions"


def titles_of(schema: Mapping[str, Any], view: View) -> dict[str, str]:
    """Each definition's name on the page: its class's name when it is one, else its key."""
    declared = schema.get("$id")
    base = urldefrag(urljoin(ROOT_URI, declared))[0] if isinstance(declared, str) else ROOT_URI
    classes = {unquote(c.location) for c in view.classes}
    names = {unquote(c.location): c.name for c in view.classes}
    titles = {}
    for key in defs_of(schema):
        location = f"{base}#{json_pointer([_container(schema, key), key])}"
        titles[key] = names[location] if location in classes else key
    return titles


def describe_definitions(schema: Any, view: View) -> tuple[Definition, ...]:
    """The root and each `$defs` (or `definitions`) entry, in source order, as docs read them."""
    if not isinstance(schema, dict):
        return (_definition(view.root, "", {} if schema is True else {"not": {}}, {}, {}),)
    titles = titles_of(schema, view)
    definitions = [_definition(view.root, "", schema, schema, titles)]
    for key, node in defs_of(schema).items():
        pointer = json_pointer([_container(schema, key), key])
        definitions.append(_definition(titles[key], pointer, node if isinstance(node, dict) else {}, schema, titles))
    return tuple(definitions)


def _definition(
    name: str, pointer: str, node: dict[str, Any], schema: dict[str, Any], titles: dict[str, str]
) -> Definition:
    keyword = "oneOf" if "oneOf" in node else "anyOf" if "anyOf" in node else None
    options = node.get(keyword, []) if keyword else []
    variants = _object_variants(options, schema, titles)
    if variants:
        fields = _merged_fields(variants, schema, titles)
    else:
        required = set(node.get("required", []))
        properties = node.get("properties", {})
        fields = tuple(
            _field(key, sub, "yes" if key in required else "no", schema, titles)
            for key, sub in (properties.items() if isinstance(properties, dict) else ())
        )
    additional = node.get("additionalProperties")
    kind = (TypePart("one of" if keyword == "oneOf" else "any of"),) if keyword else type_parts(node, titles)
    return Definition(
        name=name,
        anchor=anchor(name),
        pointer=pointer,
        kind=kind,
        constraints=constraints(node, titles),
        description=node.get("description", ""),
        fields=fields,
        variants=_join([type_parts(option, titles) for option in options], ", "),
        additional_properties=additional if isinstance(additional, bool) else None,
    )


def _field(name: str, node: Any, required: str, schema: dict[str, Any], titles: Mapping[str, str]) -> SchemaField:
    return SchemaField(
        name=name,
        type_parts=type_parts(node, titles),
        required=required,
        constraints=constraints(node, titles),
        default=json.dumps(node["default"], ensure_ascii=False)
        if isinstance(node, dict) and "default" in node
        else None,
        description=description(node, schema),
    )


def description(node: Any, schema: dict[str, Any]) -> str:
    """A field's description, or that of the definition it refers to."""
    if not isinstance(node, dict):
        return ""
    if node.get("description"):
        return str(node["description"])
    target = _local_target(node, schema)
    return str(target.get("description", "")) if isinstance(target, dict) else ""


def _local_key(node: Mapping[str, Any]) -> str | None:
    """The definition a `$ref` names when it is one of this document's `$defs`."""
    match = _LOCAL_DEF.match(node["$ref"]) if isinstance(node.get("$ref"), str) else None
    return match.group(2).replace("~1", "/").replace("~0", "~") if match else None


def _local_target(node: Mapping[str, Any], schema: Mapping[str, Any]) -> Any:
    key = _local_key(node)
    return defs_of(schema).get(key) if key is not None else None


def _object_variants(
    options: list[Any], schema: dict[str, Any], titles: Mapping[str, str]
) -> list[tuple[str, dict[str, Any]]]:
    """The variants of a oneOf/anyOf when every one is a `$ref` to an object with properties."""
    variants = []
    for option in options:
        key = _local_key(option) if isinstance(option, dict) else None
        if key is None:
            return []
        target = defs_of(schema).get(key)
        if not isinstance(target, dict) or not isinstance(target.get("properties"), dict):
            return []
        variants.append((titles.get(key, key), target))
    return variants


def _tag(variants: list[tuple[str, dict[str, Any]]]) -> str | None:
    """A property every variant pins with a const (preferred), or with a const or an enum."""
    shared = [p for p in variants[0][1]["properties"] if all(p in v["properties"] for _, v in variants)]
    for keywords in (("const",), ("const", "enum")):
        for prop in shared:
            nodes = [v["properties"][prop] for _, v in variants]
            if all(isinstance(n, dict) and any(k in n for k in keywords) for n in nodes):
                return str(prop)
    return None


def _tag_values(tag: str, chosen: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    values: list[Any] = []
    for _, variant in chosen:
        node = variant["properties"][tag]
        values += [node["const"]] if "const" in node else list(node["enum"])
    return values


def _condition(tag: str | None, chosen: list[tuple[str, dict[str, Any]]]) -> str:
    if tag is None:
        return "in " + " or ".join(name for name, _ in chosen)
    values = _tag_values(tag, chosen)
    return f"when {tag} is " + " or ".join(json.dumps(v, ensure_ascii=False) for v in values)


def _status(variant: dict[str, Any], prop: str) -> str:
    if prop in variant.get("required", []):
        return "required"
    if prop in variant["properties"]:
        return "optional"
    return "absent" if variant.get("additionalProperties") is False else "unstated"


def _merged_fields(
    variants: list[tuple[str, dict[str, Any]]], schema: dict[str, Any], titles: Mapping[str, str]
) -> tuple[SchemaField, ...]:
    tag = _tag(variants)
    names = list(dict.fromkeys(p for _, v in variants for p in v["properties"]))
    fields = []
    for prop in names:
        statuses = [_status(v, prop) for _, v in variants]
        if set(statuses) == {"required"}:
            required = "yes"
        elif set(statuses) <= {"optional", "unstated"}:
            required = "no"
        else:
            clauses = []
            for status in ("required", "optional", "absent"):
                chosen = [variant for variant, s in zip(variants, statuses, strict=True) if s == status]
                if chosen:
                    clauses.append(f"{status} {_condition(tag, chosen)}")
            required = "; ".join(clauses)
        present = [(name, v) for name, v in variants if prop in v["properties"]]
        fields.append(_merged_field(prop, present, required, tag, schema, titles))
    return tuple(fields)


def _merged_field(
    prop: str,
    present: list[tuple[str, dict[str, Any]]],
    required: str,
    tag: str | None,
    schema: dict[str, Any],
    titles: Mapping[str, str],
) -> SchemaField:
    """One field across the variants that have it; differing types name their condition."""
    by_type: dict[tuple[TypePart, ...], list[tuple[str, dict[str, Any]]]] = {}
    for variant in present:
        by_type.setdefault(type_parts(variant[1]["properties"][prop], titles), []).append(variant)
    kinds: tuple[TypePart, ...]
    if prop == tag:
        kinds = (TypePart(" or ".join(json.dumps(v, ensure_ascii=False) for v in _tag_values(tag, present))),)
    elif len(by_type) == 1:
        kinds = _join(list(by_type), " or ")
    else:
        kinds = _join(
            [(*parts, TypePart(f" ({_condition(tag, chosen)})")) for parts, chosen in by_type.items()], " or "
        )
    first = present[0][1]["properties"][prop]
    merged_constraints = tuple(dict.fromkeys(c for _, v in present for c in constraints(v["properties"][prop], titles)))
    if prop == tag:
        merged_constraints = ()
    descriptions = [description(v["properties"][prop], schema) for _, v in present]
    return SchemaField(
        name=prop,
        type_parts=kinds,
        required=required,
        constraints=merged_constraints,
        default=json.dumps(first["default"], ensure_ascii=False)
        if isinstance(first, dict) and "default" in first
        else None,
        description=next((d for d in descriptions if d), ""),
    )


def _join(groups: list[tuple[TypePart, ...]], separator: str) -> tuple[TypePart, ...]:
    parts: list[TypePart] = []
    for index, group in enumerate(groups):
        if index:
            parts.append(TypePart(separator))
        parts.extend(group)
    return tuple(parts)


_DEPTH = 8  # deeper parts of a type are described as "…"


def type_parts(node: Any, titles: Mapping[str, str], depth: int = 0) -> tuple[TypePart, ...]:
    """A field's type in words, with links to the definitions it refers to."""
    if depth > _DEPTH:
        return (TypePart("…"),)
    if node is True or node == {} or (isinstance(node, dict) and set(node) <= {"description", "title", "default"}):
        return (TypePart("any"),)
    if not isinstance(node, dict):
        return (TypePart("nothing"),)
    if "$ref" in node:
        key = _local_key(node)
        if key is None:
            return (TypePart(str(node["$ref"])),)
        title = titles.get(key, key)
        return (TypePart(title, anchor(title)),)
    if "const" in node:
        return (TypePart(json.dumps(node["const"], ensure_ascii=False)),)
    for keyword, separator in (("oneOf", " or "), ("anyOf", " or "), ("allOf", " and ")):
        if isinstance(node.get(keyword), list) and node[keyword]:
            return _join([type_parts(option, titles, depth + 1) for option in node[keyword]], separator)
    declared = node.get("type")
    if declared is None and "enum" in node:
        kinds = sorted({type(v).__name__ for v in node["enum"]})
        declared = "string" if kinds == ["str"] else None
    if declared is None:
        return (TypePart("any"),)
    names = declared if isinstance(declared, list) else [declared]
    return _join([_one_type(name, node, titles, depth) for name in names], " or ")


def _one_type(name: str, node: dict[str, Any], titles: Mapping[str, str], depth: int) -> tuple[TypePart, ...]:
    if name == "array" and isinstance(node.get("items"), dict) and "prefixItems" not in node:
        return (TypePart("array of "), *type_parts(node["items"], titles, depth + 1))
    additional = node.get("additionalProperties")
    if name == "object" and isinstance(additional, dict) and not node.get("properties"):
        return (TypePart("map of "), *type_parts(additional, titles, depth + 1))
    return (TypePart(name),)


def _words(node: Any, titles: Mapping[str, str], depth: int) -> str:
    """A subschema in one phrase: its type and its constraints."""
    kind = "".join(part.text for part in type_parts(node, titles, depth + 1))
    rules = constraints(node, titles, depth + 1)
    return kind + (f" ({'; '.join(rules)})" if rules else "")


def _listed(values: Any) -> str:
    return ", ".join(json.dumps(v, ensure_ascii=False) for v in values) if isinstance(values, list) else str(values)


def constraints(node: Any, titles: Mapping[str, str], depth: int = 0) -> tuple[str, ...]:
    """Every assertion of a schema in words: bounds, patterns, enums, conditions, exclusions."""
    if not isinstance(node, dict) or depth > _DEPTH:
        return ()
    found = [template.format(node[key]) for key, template in _CONSTRAINT_KEYS if key in node]
    for key, template in _MORE_KEYS:
        if key in node:
            found.append(template.format(_listed(node[key]) if key in ("enum", "required") else node[key]))
    if node.get("uniqueItems") is True:
        found.append("items are unique")
    if "allOf" in node and "type" in node:
        found.append("and all of: " + "; ".join(_words(part, titles, depth) for part in node["allOf"]))
    if "if" in node:
        clause = f"if {_words(node['if'], titles, depth)}"
        if "then" in node:
            clause += f" then {_words(node['then'], titles, depth)}"
        if "else" in node:
            clause += f", otherwise {_words(node['else'], titles, depth)}"
        found.append(clause)
    if "not" in node:
        found.append(f"must not be {_words(node['not'], titles, depth)}")
    for key, label in _SUBSCHEMA_KEYS:
        if key in node:
            found.append(f"{label} {_words(node[key], titles, depth)}")
    if isinstance(node.get("prefixItems"), list):
        found.append("items in order: " + ", ".join(_words(item, titles, depth) for item in node["prefixItems"]))
    if isinstance(node.get("patternProperties"), dict):
        for pattern, sub in node["patternProperties"].items():
            found.append(f"properties matching {pattern}: {_words(sub, titles, depth)}")
    if isinstance(node.get("dependentRequired"), dict):
        for name, needed in node["dependentRequired"].items():
            found.append(f"with {name}, also {_listed(needed)}")
    if isinstance(node.get("dependentSchemas"), dict):
        for name, sub in node["dependentSchemas"].items():
            found.append(f"with {name}: {_words(sub, titles, depth)}")
    return tuple(found)
