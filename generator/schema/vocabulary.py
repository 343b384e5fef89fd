"""The keyword table: where each dialect the generator reads holds schemas, and what else.

JSON Schema places subschemas only under its applicator keywords; anywhere else (`const`,
`enum`, `examples`, `default`...) a `{"$ref": ...}` is a value, not a reference. Each
`Vocabulary` says, for one dialect, which keywords hold one schema, a map of schemas, a
list of schemas, one schema or a list (`items` of draft-07), and schemas or arrays of names
(`dependencies`); which of them apply to the instance itself rather than to a part of it;
and the identifiers, anchors and references. The tables agree with python-jsonschema's
`referencing` (tests/test_schema_core.py) and are the only ones in the generator.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, repr=False)
class Vocabulary:
    """The keywords of one dialect, by what their values hold."""

    name: str
    uris: tuple[str, ...]  # what `$schema` says for it, without a trailing "#"
    one: frozenset[str]  # one schema
    maps: frozenset[str]  # an object whose every member is a schema
    lists: frozenset[str]  # an array of schemas
    one_or_list: frozenset[str]  # one schema, or an array of schemas (draft-07 `items`)
    mixed_maps: frozenset[str]  # members that are schemas or arrays of names (`dependencies`)
    definitions: str  # where reusable schemas are kept
    anchors: frozenset[str]  # keywords whose string names a plain-name fragment
    legacy_ref: bool  # `$ref` hides its siblings, `$id` with them; `$id: "#name"` is an anchor

    def __repr__(self) -> str:
        return f"<{self.name}>"

    @property
    def applicators(self) -> frozenset[str]:
        """Every keyword that holds schemas."""
        return self.one | self.maps | self.lists | self.one_or_list | self.mixed_maps

    @property
    def uri(self) -> str:
        """The `$schema` written for this dialect."""
        return self.uris[0] + ("#" if self.legacy_ref else "")


# Keywords whose subschemas apply to the instance itself (not to a member or an item): a
# reference cycle through only these never reaches a smaller value (load/cycles.py).
IN_PLACE = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"})
# Keywords that refer to another schema by URI.
REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")
# What these keywords hold is a condition asked of a document, not a declaration of its members.
CONDITIONS = frozenset({"if", "not", "contains"})
# Keywords that hold values, never schemas: nothing under them is a keyword.
VALUES = frozenset({"const", "enum", "examples", "default"})
# The types `type` names, in the order the typed view lists a union of them (load/view.py).
TYPES = ("string", "integer", "number", "boolean", "null", "array", "object")
# Keywords that say something of an instance without changing a verdict.
ANNOTATIONS = frozenset(
    {"title", "description", "examples", "default", "$comment", "deprecated", "readOnly", "writeOnly"}
)
# Keywords about the document, not the instance: dropped once references are followed.
STRUCTURAL = frozenset({"$defs", "definitions", "$id", "$anchor", "$dynamicAnchor", "$schema", "$vocabulary"})
# Keywords whose array is a set: its order says nothing.
UNORDERED = frozenset({"required", "enum", "type"})
# Keywords whose subschemas are alternatives: an instance meets one (`oneOf`) or some.
ALTERNATIVES = ("anyOf", "oneOf")
# Keywords that combine subschemas into one: all of them, or alternatives.
COMBINATIONS = ("anyOf", "oneOf", "allOf")
# Keywords whose assertions speak of one JSON type only: vacuous for the other types.
OF_TYPE = {
    "string": frozenset({"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "array": frozenset(
        {"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
         "unevaluatedItems"}
    ),
    "object": frozenset(
        {"properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties",
         "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties"}
    ),
}  # fmt: skip
# Comparing two schemas (generator/breaking): the keywords that close an object to other
# properties, those that give the items of an array, and the assertions that bound a value
# from below, from above, or otherwise (a pattern, a format, a step).
OPENINGS = ("additionalProperties", "unevaluatedProperties")
ITEMS = ("items", "additionalItems", "unevaluatedItems")
PREFIXES = ("prefixItems", "items")  # a tuple's items, when the value is a list
LOWER_BOUNDS = ("minLength", "minItems", "minProperties", "minContains", "minimum", "exclusiveMinimum")
UPPER_BOUNDS = ("maxLength", "maxItems", "maxProperties", "maxContains", "maximum", "exclusiveMaximum")
FORMS = ("pattern", "format", "multipleOf", "uniqueItems")
# Keyword values that say nothing: a schema accepts the same without them.
NEUTRAL: dict[str, object] = {
    "properties": {},
    "patternProperties": {},
    "dependentSchemas": {},
    "dependentRequired": {},
    "additionalProperties": True,
    "unevaluatedProperties": True,
    "items": True,
    "unevaluatedItems": True,
    "propertyNames": True,
    "required": [],
    "minLength": 0,
    "minItems": 0,
    "minProperties": 0,
    "uniqueItems": False,
}

DRAFT_07 = Vocabulary(
    name="draft-07",
    uris=("http://json-schema.org/draft-07/schema", "https://json-schema.org/draft-07/schema"),
    one=frozenset(
        {"additionalItems", "additionalProperties", "contains", "else", "if", "not", "propertyNames", "then"}
    ),
    maps=frozenset({"definitions", "patternProperties", "properties"}),
    lists=frozenset({"allOf", "anyOf", "oneOf"}),
    one_or_list=frozenset({"items"}),
    mixed_maps=frozenset({"dependencies"}),
    definitions="definitions",
    anchors=frozenset(),
    legacy_ref=True,
)

DRAFT_2020_12 = Vocabulary(
    name="draft 2020-12",
    uris=("https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft/2020-12/schema"),
    one=frozenset(
        {"additionalProperties", "contains", "contentSchema", "else", "if", "items", "not", "propertyNames", "then",
         "unevaluatedItems", "unevaluatedProperties"}
    ),
    maps=frozenset({"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"}),
    lists=frozenset({"allOf", "anyOf", "oneOf", "prefixItems"}),
    one_or_list=frozenset(),
    mixed_maps=frozenset(),
    definitions="$defs",
    anchors=frozenset({"$anchor", "$dynamicAnchor"}),
    legacy_ref=False,
)  # fmt: skip

# The keywords of both dialects: what a walker that is told no dialect follows, so that a
# rewrite (`compound`) misses no schema whichever dialect a document turns out to be in.
EITHER = Vocabulary(
    name="draft-07 or draft 2020-12",
    uris=(),
    one=(DRAFT_07.one | DRAFT_2020_12.one) - {"items"},
    maps=DRAFT_07.maps | DRAFT_2020_12.maps,
    lists=DRAFT_07.lists | DRAFT_2020_12.lists,
    one_or_list=frozenset({"items"}),
    mixed_maps=frozenset({"dependencies"}),
    definitions="$defs",
    anchors=DRAFT_2020_12.anchors,
    legacy_ref=False,
)

READ = (DRAFT_2020_12, DRAFT_07)
# Where either dialect keeps reusable schemas, 2020-12's first.
DEFINITIONS = (DRAFT_2020_12.definitions, DRAFT_07.definitions)

# Keywords of later drafts that a draft-07 validator ignores, and so must not start to
# apply when a draft-07 schema is said in 2020-12: the applicators draft-07 lacks (`$defs`
# aside: a pointer may reach it), and these.
_LATER_THAN_07 = frozenset(
    {"dependentRequired", "minContains", "maxContains", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef",
     "$recursiveAnchor", "$vocabulary"}
)  # fmt: skip
UNKNOWN_TO_07 = (DRAFT_2020_12.applicators - DRAFT_07.applicators - {DRAFT_2020_12.definitions}) | _LATER_THAN_07
# Draft-07 keywords 2020-12 spells otherwise (`schema/translate.py`): `items` when it is a list.
SAID_IN_2020_12 = {"items": "prefixItems", "dependencies": "dependentRequired/dependentSchemas"}
# Keywords of 2020-12 that a draft-07 validator reading a 2020-12 schema (the TypeScript SDK
# 1.x client's ajv does) does not apply as 2020-12 does: it ignores them, and reads an `items`
# beside `prefixItems` as applying to every item. Measured against that ajv; `$defs`, `$anchor`
# and a `$ref` with siblings it reads as 2020-12 does.
MISREAD_BY_07 = frozenset(
    {"prefixItems", "unevaluatedProperties", "unevaluatedItems", "dependentRequired", "dependentSchemas",
     "minContains", "maxContains", "$dynamicRef"}
)  # fmt: skip


def named(schema: object) -> Vocabulary | None:
    """The dialect a schema's `$schema` names among those read, or None (none, or another)."""
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if not isinstance(declared, str):
        return None
    uri = declared.removesuffix("#")
    return next((vocabulary for vocabulary in READ if uri in vocabulary.uris), None)
