"""The JSON Schema a model class publishes: the contract's own, from the package's
`published.json`, through pydantic's public hook `__get_pydantic_json_schema__`.

pydantic's schema generator cannot take such a document as it is: it follows each `$ref` of
the schemas it assembles into its own definitions and raises KeyError at one it does not
manage (pydantic issue #12145), and no public hook reaches that walk. `_register` lets the
references pass by wrapping two private methods of one generator instance: on the releases
`canary.PRIVATE` takes only, once a canary document comes back through the generator class
as it went in; else the class publishes the schema pydantic derives from its fields, with a
warning.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel, GetJsonSchemaHandler
from pydantic_core import CoreSchema

from . import canary
from .json_text import package_json
from .view import LOG

_DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


class Published:
    """The JSON Schema each model class of a contract publishes, from `published.json`
    (read on first use): the root class's is the contract's schema as one self-contained
    draft 2020-12 document; another class's refers to its location inside that document,
    which it embeds under `$defs`. Each is a new copy, for the caller to keep or change."""

    def __init__(self, package: str, name: str = "published.json") -> None:
        self.package = package
        self.name = name
        self._published: Mapping[str, Any] | None = None

    def document(self, location: str) -> dict[str, Any]:
        """The schema a class bound to `location` publishes; KeyError for an unknown one."""
        if self._published is None:
            self._published = package_json(self.package, self.name)
        schema = self._published["schema"]
        head = self._published["classes"][location]
        if head is None:
            return copy.deepcopy(schema)
        return {"$schema": _DRAFT_2020_12, **head, "$defs": {schema["$id"]: copy.deepcopy(schema)}}


def let_through(handler: GetJsonSchemaHandler, document: Any) -> bool:
    """Whether pydantic's schema generator of `handler` takes `document` as it is: then it
    is made to (see the module), else the caller publishes pydantic's own schema."""
    generator = getattr(handler, "generate_json_schema", None)
    if generator is None or not canary.PRIVATE or not _canary_passes(type(generator)):
        return False
    _register(generator, document)
    return True


_CANARY: dict[str, Any] = {
    "$id": "urn:mcp-contracts:canary",
    "$defs": {"word": {"type": "string"}},
    "type": "object",
    "properties": {"a": {"$ref": "#/$defs/word"}, "b": {"$ref": "urn:mcp-contracts:canary#/$defs/word"}},
}
_TRIED: dict[type, bool] = {}  # each generator class: did the canary come back whole


def _canary_passes(generator: type) -> bool:
    """Whether a document with references the generator does not manage comes back as it is,
    published alone and inside a model of pydantic's own (tried once per generator class)."""
    if generator not in _TRIED:
        _TRIED[generator] = False  # while tried: a canary never publishes a canary
        _TRIED[generator] = _try_canary(generator)
    return _TRIED[generator]


def _try_canary(generator: type) -> bool:
    from pydantic import TypeAdapter  # an import a model with no schema never needs

    class Canary(BaseModel):
        @classmethod
        def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler, /) -> Any:
            document = copy.deepcopy(_CANARY)
            _register(handler.generate_json_schema, document)  # type: ignore[attr-defined]
            return document

    class Around(BaseModel):
        canary: Canary

    try:
        alone = TypeAdapter(Canary).json_schema(schema_generator=generator)
        around = TypeAdapter(Around).json_schema(schema_generator=generator)
        inner = around["$defs"][around["properties"]["canary"]["$ref"].removeprefix("#/$defs/")]
    except Exception:  # KeyError where refs do not pass; anything a release changed
        LOG.debug("pydantic's schema walk: the public path", exc_info=True)
        return False
    return bool(alone == _CANARY and inner == _CANARY)


_UNMANAGED = "mcp-contracts:published-schema"
# The generator's walks of references, wrapped on each instance that publishes a document.
_WALKS = ("get_json_ref_counts", "_garbage_collect_definitions")


def _references(node: Any) -> Iterator[str]:
    """Every string under a `$ref` key in a JSON value."""
    if isinstance(node, dict):
        reference = node.get("$ref")
        if isinstance(reference, str):
            yield reference
        for value in node.values():
            yield from _references(value)
    elif isinstance(node, list):
        for item in node:
            yield from _references(item)


def _register(generator: Any, document: Any) -> None:
    """Let `generator` pass the `$ref`s of `document`: while it walks, each of them stands
    registered for an empty definition, removed again before anything is written, so that the
    document is returned as it is, `$defs` and all."""
    if not hasattr(generator, "json_to_defs_refs"):
        return
    state = vars(generator)
    references: set[str] | None = state.get("_published_references")
    if references is None:
        references = state["_published_references"] = set()
        for walk in _WALKS:
            if hasattr(generator, walk):
                setattr(generator, walk, _registering(generator, references, getattr(generator, walk)))
    references.update(_references(document))


def _registering(generator: Any, references: set[str], walk: Any) -> Any:
    def walked(schema: Any) -> Any:
        added = [r for r in sorted(references) if r not in generator.json_to_defs_refs]
        for reference in added:
            generator.json_to_defs_refs[reference] = _UNMANAGED
        generator.definitions[_UNMANAGED] = {}
        try:
            return walk(schema)
        finally:
            for reference in added:
                generator.json_to_defs_refs.pop(reference, None)
            generator.definitions.pop(_UNMANAGED, None)

    return walked
