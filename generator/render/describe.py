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
from dataclasses import dataclass, replace
from typing import Any

from ..model import Bundle, Contract, View
from ..naming import definition_anchor
from ..schema.dialect import read_as
from ..schema.pointer import PointerError, encode, from_fragment, location
from ..schema.resolver import Resolver, Target
from ..schema.uri import defrag, join
from ..schema.vocabulary import ANNOTATIONS, DEFINITIONS
from .escape import md, prose
from .json_text import json_line


@dataclass(frozen=True, slots=True)
class TypePart:
    """A piece of a field's type as docs show it; `anchor` links to a definition. A piece of
    `prose` is text an author wrote (a catalogue's message, a tool's description): its code
    spans are shown as code."""

    text: str
    anchor: str | None = None
    prose: bool = False


@dataclass(frozen=True, slots=True)
class SchemaField:
    """A field as docs state it; `required` is "yes", "no" or a condition in words."""

    name: str
    type_parts: tuple[TypePart, ...]
    required: str
    constraints: tuple[str, ...]
    default: str | None
    description: str

    @property
    def details(self) -> str:
        """The description cell, escaped: the description, then its constraints and default
        (a table of four columns, not six, fits the docs site's column)."""
        said = [prose(self.description)] if self.description else []
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
)
_MORE_KEYS = (
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
    schema core writes one) to its name; `resolver` says what a reference names, so that an
    `$anchor`, an `$id` of its own or a file's path lead to the one location of a schema;
    `base` is the URI that relative `$ref`s resolve against: the resource of the schema
    being described.
    """

    base: str
    names: Mapping[str, str]
    resolver: Resolver | None = None
    anchor: Callable[[str], str] = definition_anchor  # a definition's anchor on the page, by name

    def title(self, ref: str) -> str | None:
        return self.names.get(self.location(ref))

    def location(self, ref: str) -> str:
        """Where `ref` leads: the place of the schema it names, else where it is written to."""
        target = self.resolver.resolve(ref, self.base) if self.resolver is not None else None
        visit = self.resolver.place(target.node) if self.resolver is not None and target is not None else None
        return visit.location if visit is not None else _written_location(join(self.base, ref))

    def at(self, base: str) -> Links:
        return replace(self, base=base)


def _written_location(uri: str) -> str:
    """A location as a reference writes it, its pointer spelt as the core spells one."""
    resource, name = defrag(uri)
    try:
        return location(resource, from_fragment(name))
    except PointerError:  # a plain name: an anchor
        return uri


def _reading_order(where: str) -> str:
    """A location as people read it (its pointer not percent-encoded): the order of pages."""
    resource, name = defrag(where)
    try:
        return f"{resource}#{encode(from_fragment(name))}"
    except PointerError:
        return where


def defs_of(schema: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
    """(container, schema) of each entry of `$defs` and of `definitions` (draft-07), keyed by
    name; a name in both is the entry of `$defs`."""
    found: dict[str, tuple[str, Any]] = {}
    for container in DEFINITIONS:
        entries = schema.get(container)
        if isinstance(entries, dict):
            for key, value in entries.items():
                found.setdefault(key, (container, value))
    return found


@dataclass(frozen=True)
class _Entry:
    """A definition to document: its name, where it is, its schema and the resource holding it."""

    name: str
    location: str
    node: dict[str, Any]
    resource: dict[str, Any]
    base: str


def _where(resolver: Resolver, base: str, tokens: tuple[str, ...]) -> str:
    """The location of the schema at `tokens` of the resource at `base`."""
    target = resolver.resolve(location(base, tokens), base)
    visit = resolver.place(target.node) if target is not None else None
    return visit.location if visit is not None else location(base, tokens)


def _entries(schema: dict[str, Any], view: View, resources: Mapping[str, Any], resolver: Resolver) -> list[_Entry]:
    """The root, each root `$defs` (or `definitions`) entry in source order (under its class's
    name when it is one), then each class the view took from another file, by location."""
    base = resolver.root_uri
    classes = {c.location: c.name for c in view.classes if c.location}
    entries = [_Entry(view.root, location(base, ()), schema, schema, base)]
    for key, (container, node) in defs_of(schema).items():
        where = _where(resolver, base, (container, key))
        entries.append(_Entry(classes.get(where, key), where, node if isinstance(node, dict) else {}, schema, base))
    for where, name in sorted(classes.items(), key=lambda item: _reading_order(item[0])):
        uri = defrag(where)[0]
        resource = resources.get(uri)
        target = resolver.resolve(where, uri)
        if uri != base and isinstance(resource, dict) and target is not None and isinstance(target.node, dict):
            entries.append(_Entry(name, where, target.node, resource, uri))
    return entries


def describe_definitions(contract: Contract) -> tuple[Definition, ...]:
    """Every definition of the envelope a page documents, as docs read them (see `_entries`)."""
    return describe_schema(contract.view, contract.bundle)


def describe_schema(
    view: View, bundle: Bundle, anchor: Callable[[str], str] = definition_anchor
) -> tuple[Definition, ...]:
    """Every definition of a schema (the envelope's, or a JSON resource's) a page documents,
    each anchored on the page by `anchor` of its name."""
    root, resources = bundle.root, bundle.resources
    schema = resources[root]
    if not isinstance(schema, dict):
        empty = Links(root, {}, anchor=anchor)
        return (_definition(view.root, "", {} if schema is True else {"not": {}}, {}, empty),)
    resolver = Resolver(resources, default=read_as(schema, meta=resources.__getitem__))
    entries = _entries(schema, view, resources, resolver)
    links = Links(resolver.root_uri, {entry.location: entry.name for entry in entries}, resolver, anchor)
    return tuple(
        _definition(entry.name, entry.location, entry.node, entry.resource, links.at(entry.base)) for entry in entries
    )


def _definition(name: str, location: str, node: dict[str, Any], schema: dict[str, Any], links: Links) -> Definition:
    keyword = "oneOf" if "oneOf" in node else "anyOf" if "anyOf" in node else None
    options = node.get(keyword, []) if keyword else []
    variants = _object_variants(options, schema, links)
    if variants:
        fields = _merged_fields(variants, schema, links)
    else:
        required = set(node.get("required", []))
        properties = node.get("properties", {})
        fields = tuple(
            _field(key, sub, "yes" if key in required else "no", schema, links)
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
        variants=_join([_variant(option, links) for option in options], ", "),
        additional_properties=additional if isinstance(additional, bool) else None,
    )


def _variant(option: Any, links: Links) -> tuple[TypePart, ...]:
    """A branch of a oneOf or anyOf: its type, or in words when its type says nothing."""
    parts = type_parts(option, links)
    return (TypePart(f"({_words(option, links, 0)})"),) if parts == (TypePart("any"),) and option else parts


def _field(name: str, node: Any, required: str, schema: dict[str, Any], links: Links) -> SchemaField:
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
    reference = node.get("$ref")
    if not isinstance(reference, str) or links.resolver is None:
        return None
    target = links.resolver.resolve(reference, links.base)
    visit = links.resolver.place(target.node) if target is not None else None
    if visit is None or len(visit.pointer) != 2 or visit.pointer[0] not in DEFINITIONS or not visit.pointer[1]:
        return None
    return str(visit.pointer[1]), visit.node


def _object_variants(options: list[Any], schema: dict[str, Any], links: Links) -> list[tuple[str, dict[str, Any]]]:
    """The variants of a oneOf/anyOf when every one is a `$ref` to an object with properties."""
    variants = []
    for option in options:
        found = _definition_of(option, links) if isinstance(option, dict) else None
        if found is None:
            return []
        key, target = found
        if not isinstance(target, dict) or not isinstance(target.get("properties"), dict):
            return []
        variants.append((links.title(option["$ref"]) or key, target))
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


def _merged_fields(
    variants: list[tuple[str, dict[str, Any]]], schema: dict[str, Any], links: Links
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
        fields.append(_merged_field(prop, present, required, tag, schema, links))
    return tuple(fields)


def _merged_field(
    prop: str,
    present: list[tuple[str, dict[str, Any]]],
    required: str,
    tag: str | None,
    schema: dict[str, Any],
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
        kinds = _join(list(by_type), " or ")
    else:
        kinds = _join(
            [(*parts, TypePart(f" ({_condition(tag, chosen)})")) for parts, chosen in by_type.items()], " or "
        )
    first = present[0][1]["properties"][prop]
    merged_constraints = tuple(dict.fromkeys(c for _, v in present for c in constraints(v["properties"][prop], links)))
    if prop == tag:
        merged_constraints = ()
    descriptions = [description(v["properties"][prop], links) for _, v in present]
    return SchemaField(
        name=prop,
        type_parts=kinds,
        required=required,
        constraints=merged_constraints,
        default=(json_line(first["default"]) if isinstance(first, dict) and "default" in first else None),
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


def type_parts(node: Any, links: Links, depth: int = 0) -> tuple[TypePart, ...]:
    """A field's type in words, with links to the definitions it refers to."""
    if depth > _DEPTH:
        return (TypePart("…"),)
    if node is True or (isinstance(node, dict) and set(node) <= ANNOTATIONS):
        return (TypePart("any"),)
    if not isinstance(node, dict):
        return (TypePart("nothing"),)
    if isinstance(node.get("$ref"), str):
        title = links.title(node["$ref"])
        if title:
            return (TypePart(title, links.anchor(title)),)
        # nowhere on the page: what it names, in words (one reference deep: a cost bounded per field)
        target = _unlisted_target(node, links) if depth == 0 else None
        return type_parts(target.node, links.at(target.base), depth + 1) if target else (TypePart(node["$ref"]),)
    if isinstance(node.get("$dynamicRef"), str):
        return (TypePart(f"any (resolved at run time: {node['$dynamicRef']})"),)
    if "const" in node:
        return (TypePart(json_line(node["const"])),)
    for keyword, separator in _JOINED_BY.items():
        if isinstance(node.get(keyword), list) and node[keyword]:
            return _join([type_parts(option, links, depth + 1) for option in node[keyword]], separator)
    declared = node.get("type")
    if declared is None and "enum" in node:
        kinds = sorted({type(v).__name__ for v in node["enum"]})
        declared = "string" if kinds == ["str"] else None
    if declared is None:
        return (TypePart("any"),)
    names = declared if isinstance(declared, list) else [declared]
    return _join([_one_type(name, node, links, depth) for name in names], " or ")


def _one_type(name: str, node: dict[str, Any], links: Links, depth: int) -> tuple[TypePart, ...]:
    if name == "array" and isinstance(node.get("items"), dict) and "prefixItems" not in node:
        return (TypePart("array of "), *type_parts(node["items"], links, depth + 1))
    additional = node.get("additionalProperties")
    if name == "object" and isinstance(additional, dict) and not node.get("properties"):
        return (TypePart("map of "), *type_parts(additional, links, depth + 1))
    return (TypePart(name),)


def _words(node: Any, links: Links, depth: int) -> str:
    """A subschema in one phrase: its type, its properties and its constraints."""
    if node is False:
        return "not allowed"
    kind = "".join(part.text for part in type_parts(node, links, depth + 1))
    rules = list(constraints(node, links, depth + 1))
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict) and properties:
            rules.insert(0, ", ".join(f"{k}: {_words(v, links, depth + 1)}" for k, v in properties.items()))
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
    found = [_counted(template, node[key]) for key, template in _CONSTRAINT_KEYS if key in node]
    for key, template in _MORE_KEYS:
        if key in node:
            found.append(_counted(template, _listed(node[key]) if key == "enum" else node[key]))
    if node.get("uniqueItems") is True:
        found.append("items are unique")
    if "contentSchema" in node:
        found.append(f"content: {_words(node['contentSchema'], links, depth)}")
    found += [words for key, words in _FLAGS if node.get(key) is True]
    if isinstance(node.get("examples"), list) and node["examples"]:
        found.append("for example " + _listed(node["examples"]))
    if "allOf" in node and "type" in node:
        found.append("all of: " + "; ".join(_words(part, links, depth) for part in node["allOf"]))
    if "if" in node:
        clause = f"if {_words(node['if'], links, depth)}"
        if "then" in node:
            clause += f" then {_words(node['then'], links, depth)}"
        if "else" in node:
            clause += f", otherwise {_words(node['else'], links, depth)}"
        found.append(clause)
    if "not" in node:
        found.append(f"must not match: {_words(node['not'], links, depth)}")
    for key, label in _ONE_SCHEMA_WORDS.items():
        if key in node:
            found.append(f"{label} {_words(node[key], links, depth)}")
    if isinstance(node.get("prefixItems"), list):
        found.append("items in order: " + ", ".join(_words(item, links, depth) for item in node["prefixItems"]))
    if isinstance(node.get("patternProperties"), dict):
        for pattern, sub in node["patternProperties"].items():
            found.append(f"properties matching {pattern}: {_words(sub, links, depth)}")
    if isinstance(node.get("dependentRequired"), dict):
        for name, needed in node["dependentRequired"].items():
            found.append(f"with {name}, also requires {', '.join(map(str, needed))}")
    if isinstance(node.get("dependentSchemas"), dict):
        for name, sub in node["dependentSchemas"].items():
            found.append(f"with {name}: {_words(sub, links, depth)}")
    target = _unlisted_target(node, links) if depth == 0 else None
    if target is not None:  # what a reference to no definition of the page asserts holds too (one deep)
        found += constraints(target.node, links.at(target.base), depth + 1)
    return tuple(found)


def _unlisted_target(node: dict[str, Any], links: Links) -> Target | None:
    """What a `$ref` of `node` names, where the page documents no definition of it."""
    reference = node.get("$ref")
    if not isinstance(reference, str) or links.title(reference) or links.resolver is None:
        return None
    target = links.resolver.resolve(reference, links.base)
    return target if target is not None and target.node is not node else None
