"""`published.json`: the JSON Schema each model class of a contract publishes.

A generated model answers `model_json_schema()` (and pydantic's `TypeAdapter`, which the
MCP SDK asks for a tool's `outputSchema`) with the contract's own schema, not one pydantic
derives from its fields: the runtime reads it from this file. It holds

- `schema`: the root model's schema, the envelope as one self-contained draft 2020-12
  document (`bundled_envelope`, `"type": "object"` at a root proven to accept objects only):
  the `outputSchema` of `mcp/<name>.tools.json` (said in 2020-12 where that one stays
  draft-07, under the same `$id`) with the definitions its root does not reach kept too,
  since classes may judge by them;
- `classes`: for each other class, keyed by the location it judges by (as `judge.py` binds
  it), the head of its own document: a `$ref` to that location inside `schema` (canonical
  URI, pointer renamed as a draft-07 source is translated), and `"type": "object"` when the
  location is proven to accept objects only. The runtime adds `$schema` and embeds `schema`
  under `$defs` by its `$id`, so each class's document is self-contained too. The root
  class's entry is null: it publishes `schema` itself.
"""

from __future__ import annotations

from typing import Any

from ..model import Bundle, Contract, View
from ..schema.proofs import objects_only
from ..schema.vocabulary import DRAFT_2020_12
from .compound import compound, published_base
from .json_text import json_file
from .mcp import bundled_envelope, object_rooted

# The URI of the stand-in schema `{"$ref": location}` that `compound` translates; no
# contract's resource is known by it.
_STAND_IN = "urn:mcp-contracts:published-location"


def class_document(head: dict[str, Any], schema: Any) -> dict[str, Any]:
    """The self-contained document of a class, as the runtime assembles it from `head`."""
    return {"$schema": DRAFT_2020_12.uri, **head, "$defs": {schema["$id"]: schema}}


def _heads(locations: list[str], bundle: Bundle, schema: Any, base: str) -> dict[str, dict[str, Any]]:
    """The head of each class's document (see the module), by location; `base`, the
    contract's `published_base`.

    Every location is translated in one compound document, and every proof made with one
    resolver of `schema`: per class, either is the whole bundle again (a contract of two
    hundred classes paid two hundred compounds of a megabyte)."""
    root = bundle.resources[bundle.root]
    # Each location as a `$ref` of its own, read in the dialect the judge reads it in.
    stand_in: dict[str, Any] = {"anyOf": [{"$ref": location} for location in locations]}
    if isinstance(root, dict) and "$schema" in root:
        stand_in = {"$schema": root["$schema"], **stand_in}
    drafts = {**bundle.dialects, _STAND_IN: bundle.dialects[bundle.root]}  # read as the root is
    resources = {**bundle.resources, _STAND_IN: stand_in}
    translated = compound(_STAND_IN, resources, drafts, base)
    heads = {
        location: {"$ref": member["$ref"]} for location, member in zip(locations, translated["anyOf"], strict=True)
    }
    proven = objects_only([head["$ref"] for head in heads.values()], class_document({}, schema))
    for head, is_object in zip(heads.values(), proven, strict=True):
        if is_object:
            head["type"] = "object"
    return heads


def published_schemas(contract: Contract) -> dict[str, Any]:
    """What `published.json` holds for a contract (see the module's docstring)."""
    return _published(object_rooted(bundled_envelope(contract, keep_draft_07=False)), contract.view, contract.bundle)


def _published(schema: Any, view: View, bundle: Bundle) -> dict[str, Any]:
    classes: dict[str, Any] = {}
    for model in view.classes:
        if model.location in classes:
            continue  # the object part of a root that is not one object judges by the root schema
        root = model.name == view.root or not isinstance(schema, dict)
        classes[model.location] = None if root else {}
    heads = [location for location, head in classes.items() if head is not None]
    if heads:
        classes.update(_heads(heads, bundle, schema, published_base(bundle.resources)))
    return {"classes": classes, "schema": schema}


def published_json(contract: Contract) -> str:
    """`published.json` of a contract, deterministic: keys sorted, two-space indent."""
    return json_file(published_schemas(contract), sort_keys=True)


def resource_published_json(view: View, bundle: Bundle) -> str:
    """`<name>.published.json` of a JSON resource: what its model classes publish, as
    `published.json` is for the envelope's (its schema said in 2020-12, one document)."""
    schema = compound(bundle.root, bundle.resources, bundle.dialects, published_base(bundle.resources), False)
    if isinstance(schema, dict) and "$schema" not in schema:  # said, as the envelope's is
        schema = {"$schema": DRAFT_2020_12.uri, **schema}
    return json_file(_published(schema, view, bundle), sort_keys=True)
