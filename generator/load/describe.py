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

from generator.diagnostics import json_pointer
from generator.load.envelope import definitions_of, defs_of, titles_of
from generator.model import Definition, SchemaField, TypePart

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


def anchor(name: str) -> str:
    """The anchor of a definition on its page: `def-` and the lower-cased name."""
    return "def-" + re.sub(r"[^a-z0-9_-]", "", name.lower())


def describe_definitions(schema: dict[str, Any]) -> tuple[Definition, ...]:
    """The root and each `$defs` entry, in source order, as docs read them."""
    titles = titles_of(schema)
    return tuple(
        _definition(name, json_pointer(path), node, schema, titles) for name, path, node in definitions_of(schema)
    )


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
        fields = tuple(
            _field(key, sub, "yes" if key in required else "no", schema, titles)
            for key, sub in node.get("properties", {}).items()
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


def _default(node: Any) -> str | None:
    if isinstance(node, dict) and "default" in node:
        return json.dumps(node["default"], ensure_ascii=False)
    return None


def description(node: Any, schema: dict[str, Any]) -> str:
    """A field's description, or that of the definition it refers to."""
    if not isinstance(node, dict):
        return ""
    if node.get("description"):
        return str(node["description"])
    if "$ref" in node:
        target = defs_of(schema).get(node["$ref"].rsplit("/", 1)[-1], {})
        return str(target.get("description", "")) if isinstance(target, dict) else ""
    return ""


def _object_variants(
    options: list[Any], schema: dict[str, Any], titles: Mapping[str, str]
) -> list[tuple[str, dict[str, Any]]]:
    """The variants of a oneOf/anyOf when every one is a `$ref` to an object with properties."""
    variants = []
    for option in options:
        if not isinstance(option, dict) or "$ref" not in option:
            return []
        key = option["$ref"].rsplit("/", 1)[-1]
        target = defs_of(schema).get(key)
        if not isinstance(target, dict) or "properties" not in target:
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


def type_parts(node: Any, titles: Mapping[str, str]) -> tuple[TypePart, ...]:
    """A field's type in words, with links to the definitions it refers to."""
    if node is True or node == {} or (isinstance(node, dict) and set(node) <= {"description", "title", "default"}):
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
    return _join([_one_type(name, node, titles) for name in names], " or ")


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
    if "not" in node:
        excluded = "".join(part.text for part in type_parts(node["not"], titles))
        found.append(f"must not be a {excluded}")
    return tuple(found)
