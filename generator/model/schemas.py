"""A schema as the model holds it (the envelope's, a JSON resource's, a tool's arguments'): its
documents, parsed (`Bundle`, with what the outputs read of them, computed when first asked), and
its typed view (`View`: the classes and field types the generated models carry).

Apart because only it reaches the schema core's walkers (`compound`, `outline`, `proofs`,
`reach`): a renderer reads their results here and imports none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from functools import cached_property
from typing import Any, Final

from ..schema.compound import compound, published_base, published_references
from ..schema.outline import Outline as Outline
from ..schema.outline import Reference as Reference
from ..schema.outline import outline
from ..schema.proofs import always_object, objects_only
from ..schema.reach import pruned
from ..schema.vocabulary import DRAFT_2020_12, Vocabulary


def object_rooted(schema: Any) -> Any:
    """`schema` with `"type": "object"` at its root when it accepts objects only (the same
    verdicts, and a schema every revision with output schemas takes); else `schema` itself.
    So a published `outputSchema` says at its root whether it is proven object-only."""
    if not isinstance(schema, dict) or schema.get("type") == "object" or not always_object(schema):
        return schema
    return {**schema, "type": "object"}


@dataclass(frozen=True)
class Bundle:
    """A contract's schema and every resource it refers to, parsed: `resources` maps each URI
    to its document (the envelope's at `root`); `formats` says whether `format` asserts.
    What `schema.json` of a generated package holds, and what the judge compiles.

    What the outputs read of it is computed once, when first asked (no slots, for
    `cached_property`): `lint`, `validate` and `conform` load without paying for it. Its
    documents are shared: a reader copies before it changes one."""

    root: str
    resources: Mapping[str, Any]
    formats: bool
    # The dialect each resource is read in (draft-07 or 2020-12), decided once at load.
    dialects: Mapping[str, Vocabulary]

    @cached_property
    def published_base(self) -> str:
        """The URI its resources known by a file URI are published under (`compound.published_base`)."""
        return published_base(self.resources)

    @cached_property
    def as_written(self) -> Any:
        """One self-contained document in the author's dialect (draft-07 stays draft-07 where
        it can): what `tools/list` publishes as an `outputSchema`."""
        return compound(self.root, self.resources, self.dialects, self.published_base, keep_draft_07=True)

    @cached_property
    def in_2020_12(self) -> Any:
        """One self-contained document in draft 2020-12: what `published.json` holds."""
        return compound(self.root, self.resources, self.dialects, self.published_base)

    @cached_property
    def listed(self) -> Any:
        """`as_written` as `tools/list` publishes it for a tool without its own `outputSchema`:
        what its root reaches (`reach.pruned`: the same verdicts), object-rooted."""
        return object_rooted(pruned(self.as_written))

    @cached_property
    def published(self) -> Any:
        """`in_2020_12`, object-rooted: the `schema` of a contract's `published.json`."""
        return object_rooted(self.in_2020_12)

    def published_heads(self, locations: list[str]) -> list[dict[str, Any]]:
        """The head of each location's document: its `$ref` inside `in_2020_12`, and
        `"type": "object"` where that is proven to accept objects only (`proofs.objects_only`)."""
        references = published_references(self.root, self.resources, self.dialects, self.published_base, locations)
        document = {"$schema": DRAFT_2020_12.uri, "$defs": {self.in_2020_12["$id"]: self.in_2020_12}}
        proven = objects_only(references, document)
        return [
            {"$ref": ref, **({"type": "object"} if is_object else {})}
            for ref, is_object in zip(references, proven, strict=True)
        ]

    @cached_property
    def outline(self) -> Outline:
        """Where each `$ref` leads and the root's definitions: what docs and the TypeScript judge read."""
        return outline(self.root, self.resources)


class TypeKind(StrEnum):
    """What a `ViewType` is: a JSON type, `any`, `literal` (`values`), `list` or `dict` (of
    `items[0]`), `class` (`name`) or `union` (of `items`)."""

    STRING = "string"
    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    NULL = "null"
    ANY = "any"
    LITERAL = "literal"
    LIST = "list"
    DICT = "dict"
    CLASS = "class"
    UNION = "union"


@dataclass(frozen=True, slots=True)
class ViewType:
    """The Python type of a value in the typed view: never stricter than its schema."""

    kind: TypeKind
    values: tuple[str | bool, ...] = ()
    items: tuple[ViewType, ...] = ()
    name: str = ""


class NoDefault(Enum):
    """What a field without a default has for one: null is a default of its own."""

    NO_DEFAULT = "no default"


NO_DEFAULT: Final = NoDefault.NO_DEFAULT
# A default the view keeps: a JSON scalar, parsed.
Scalar = str | int | float | bool | None


@dataclass(frozen=True, slots=True)
class ViewField:
    """A property of a class: its JSON name, type, whether required, and a scalar default
    that the schema at `location` accepts (NO_DEFAULT when there is none)."""

    name: str
    type: ViewType
    required: bool
    default: Scalar | NoDefault
    description: str
    location: str | None


@dataclass(frozen=True, slots=True)
class ViewClass:
    """A generated model: the schema at `location` ("" is the root) judges it when used alone.

    An object class has `fields` (`closed` when no other property is allowed); a root
    model, for a root that is not one object, has `root`, its type.
    """

    name: str
    location: str
    description: str
    fields: tuple[ViewField, ...]
    closed: bool
    root: ViewType | None


@dataclass(frozen=True, slots=True)
class View:
    """The typed view of a contract's schema: its classes and the name of the root one."""

    root: str
    classes: tuple[ViewClass, ...]
