"""The envelope schema described for people: definitions, fields, types and conditions.

Written at render time from the model's facts (the parsed schema, its resources and the
view's class names): the model holds no prose, so docs words can change without a load.

A definition that is a `oneOf` of object variants is also shown as one table of all its
fields, where "required" can be a condition: "when plan is "pro" or "team"".
The condition names the variants' tag (a property that is a `const` or an `enum` in
every variant) or, without one, the variants themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..model.schemas import Bundle, View
from ..naming import definition_anchor
from ..schema.pointer import PointerError, encode, from_fragment, location
from ..schema.uri import defrag
from .describe_words import Links, TypePart, constraints, joined, type_parts, words
from .escape import md, prose
from .json_text import json_line


@dataclass(frozen=True, slots=True)
class SchemaField:
    """A field as docs state it; `required` is "yes", "no" or a condition in words."""

    name: str
    type_parts: tuple[TypePart, ...]
    required: str
    constraints: tuple[str, ...]
    default: str | None
    description: str
    # Where the variants of a merged table describe it apart: (a condition in words, the
    # description of the variants it names), each said under its condition.
    described_apart: tuple[tuple[str, str], ...] = ()

    @property
    def details(self) -> str:
        """The description cell, escaped: the description (each variant's own, under its
        condition, where they differ), then its constraints and default (a table of four
        columns, not six, fits the docs site's column)."""
        said = [prose(self.description)] if self.description else []
        said += [f"{md(when[:1].upper() + when[1:])}: {prose(words)}" for when, words in self.described_apart]
        if self.constraints:
            said.append(f"Constraints: {md(self.constraints)}.")
        if self.default is not None:
            said.append(f"Default: {md(self.default)}.")
        return " ".join(said)


@dataclass(frozen=True, slots=True)
class Definition:
    """One object or value schema of an envelope, at `location` (a URI and a pointer): the root,
    an entry of `$defs`, or a class taken from another file."""

    name: str
    anchor: str
    location: str
    kind: tuple[TypePart, ...]
    constraints: tuple[str, ...]
    description: str
    fields: tuple[SchemaField, ...]
    variants: tuple[TypePart, ...]
    additional_properties: bool | None


def _reading_order(where: str) -> str:
    """A location as people read it (its pointer not percent-encoded): the order of pages."""
    resource, name = defrag(where)
    try:
        return f"{resource}#{encode(from_fragment(name))}"
    except PointerError:
        return where


@dataclass(frozen=True)
class _Entry:
    """A definition to document: its name, where it is and its schema."""

    name: str
    location: str
    node: dict[str, Any]


def _entries(schema: dict[str, Any], view: View, bundle: Bundle) -> list[_Entry]:
    """The root, each root `$defs` (or `definitions`) entry in source order (under its class's
    name when it is one), then each class the view took from another file, by location."""
    outline = bundle.outline
    base = outline.root_uri
    classes = {c.location: c.name for c in view.classes if c.location}
    entries = [_Entry(view.root, location(base, ()), schema)]
    for entry in outline.definitions:
        node = entry.node if isinstance(entry.node, dict) else {}
        entries.append(_Entry(classes.get(entry.location, entry.key), entry.location, node))
    for where, name in sorted(classes.items(), key=lambda item: _reading_order(item[0])):
        uri = defrag(where)[0]
        taken = outline.schemas.get(where)
        if uri != base and isinstance(bundle.resources.get(uri), dict) and isinstance(taken, dict):
            entries.append(_Entry(name, where, taken))
    return entries


def describe_schema(
    view: View, bundle: Bundle, anchor: Callable[[str], str] = definition_anchor
) -> tuple[Definition, ...]:
    """Every definition of a schema (the envelope's, or a JSON resource's) a page documents,
    each anchored on the page by `anchor` of its name."""
    schema = bundle.resources[bundle.root]
    if not isinstance(schema, dict):
        empty = Links({}, anchor=anchor)
        return (_definition(view.root, "", {} if schema is True else {"not": {}}, empty),)
    entries = _entries(schema, view, bundle)
    links = Links({entry.location: entry.name for entry in entries}, bundle.outline, anchor)
    return tuple(_definition(entry.name, entry.location, entry.node, links) for entry in entries)


def _definition(name: str, location: str, node: dict[str, Any], links: Links) -> Definition:
    keyword = "oneOf" if "oneOf" in node else "anyOf" if "anyOf" in node else None
    options = node.get(keyword, []) if keyword else []
    variants = _object_variants(options, links)
    if variants:
        fields = _merged_fields(variants, links)
    else:
        required = set(node.get("required", []))
        properties = node.get("properties", {})
        fields = tuple(
            _field(key, sub, "yes" if key in required else "no", links)
            for key, sub in (properties.items() if isinstance(properties, dict) else ())
        )
    additional = node.get("additionalProperties")
    kind = (
        (TypePart("Exactly one of" if keyword == "oneOf" else "At least one of"),)
        if keyword
        else type_parts(node, links)
    )
    rules = constraints(node, links)
    if keyword == "oneOf" and isinstance(node.get("anyOf"), list):  # the anyOf the variants do not show
        rules += ("at least one of: " + ", ".join("".join(p.text for p in _variant(o, links)) for o in node["anyOf"]),)
    return Definition(
        name=name,
        anchor=links.anchor(name),
        location=location,
        kind=kind,
        constraints=rules,
        description=node.get("description", ""),
        fields=fields,
        variants=joined([_variant(option, links) for option in options], ", "),
        additional_properties=additional if isinstance(additional, bool) else None,
    )


def _variant(option: Any, links: Links) -> tuple[TypePart, ...]:
    """A branch of a oneOf or anyOf: its type, or in words when its type says nothing."""
    parts = type_parts(option, links)
    return (TypePart(f"({words(option, links, 0)})"),) if parts == (TypePart("any"),) and option else parts


def _field(name: str, node: Any, required: str, links: Links) -> SchemaField:
    return SchemaField(
        name=name,
        type_parts=type_parts(node, links),
        required=required,
        constraints=constraints(node, links),
        default=(json_line(node["default"]) if isinstance(node, dict) and "default" in node else None),
        description=description(node, links),
    )


def description(node: Any, links: Links) -> str:
    """A field's description, or that of the definition it refers to."""
    if not isinstance(node, dict):
        return ""
    if node.get("description"):
        return str(node["description"])
    target = _definition_of(node, links)
    return str(target[1].get("description", "")) if target is not None and isinstance(target[1], dict) else ""


def _definition_of(node: Mapping[str, Any], links: Links) -> tuple[str, Any] | None:
    """(key, schema) of the `$defs` (or `definitions`) entry that a node's `$ref` names, as
    the schema core resolves it (a pointer, an `$anchor`, an `$id`); None for anything else."""
    target = links.reference(node) if isinstance(node.get("$ref"), str) else None
    return (target.definition, target.node) if target is not None and target.definition is not None else None


def _object_variants(options: list[Any], links: Links) -> list[tuple[str, dict[str, Any]]]:
    """The variants of a oneOf/anyOf when every one is a `$ref` to an object with properties."""
    variants = []
    for option in options:
        found = _definition_of(option, links) if isinstance(option, dict) else None
        if found is None:
            return []
        key, target = found
        if not isinstance(target, dict) or not isinstance(target.get("properties"), dict):
            return []
        variants.append((links.title(option) or key, target))
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
    return f"when {tag} is " + " or ".join(json_line(v) for v in values)


def _status(variant: dict[str, Any], prop: str) -> str:
    if prop in variant.get("required", []):
        return "required"
    if prop in variant["properties"]:
        return "optional"
    return "absent" if variant.get("additionalProperties") is False else "unstated"


def _merged_fields(variants: list[tuple[str, dict[str, Any]]], links: Links) -> tuple[SchemaField, ...]:
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
        fields.append(_merged_field(prop, present, required, tag, links))
    return tuple(fields)


def _merged_field(
    prop: str,
    present: list[tuple[str, dict[str, Any]]],
    required: str,
    tag: str | None,
    links: Links,
) -> SchemaField:
    """One field across the variants that have it; differing types name their condition."""
    by_type: dict[tuple[TypePart, ...], list[tuple[str, dict[str, Any]]]] = {}
    for variant in present:
        by_type.setdefault(type_parts(variant[1]["properties"][prop], links), []).append(variant)
    kinds: tuple[TypePart, ...]
    if prop == tag:
        kinds = (TypePart(" or ".join(json_line(v) for v in _tag_values(tag, present))),)
    elif len(by_type) == 1:
        kinds = joined(list(by_type), " or ")
    else:
        kinds = joined(
            [(*parts, TypePart(f" ({_condition(tag, chosen)})")) for parts, chosen in by_type.items()], " or "
        )
    first = present[0][1]["properties"][prop]
    merged_constraints = tuple(dict.fromkeys(c for _, v in present for c in constraints(v["properties"][prop], links)))
    if prop == tag:
        merged_constraints = ()
    by_description: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for variant in present:
        by_description.setdefault(description(variant[1]["properties"][prop], links), []).append(variant)
    apart = len(by_description) > 1
    return SchemaField(
        name=prop,
        type_parts=kinds,
        required=required,
        constraints=merged_constraints,
        default=(json_line(first["default"]) if isinstance(first, dict) and "default" in first else None),
        description="" if apart else next(iter(by_description)),
        described_apart=tuple(
            (_condition(tag, chosen), said) for said, chosen in by_description.items() if said and apart
        ),
    )
