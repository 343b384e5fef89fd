"""`published.json`: the JSON Schema each model class of a contract publishes.

A generated model answers `model_json_schema()` (and pydantic's `TypeAdapter`, which the
MCP SDK asks for a tool's `outputSchema`) with the contract's own schema, not one pydantic
derives from its fields: the runtime reads it from this file. It holds

- `schema`: the root model's schema, the envelope as one self-contained draft 2020-12
  document (`Bundle.published`, `"type": "object"` at a root proven to accept objects only):
  the `outputSchema` of `mcp/<name>.tools.json` (said in 2020-12 where that one stays
  draft-07, under the same `$id`) with the definitions its root does not reach kept too,
  since classes may judge by them;
- `classes`: for each other class, keyed by the location it judges by (as `judge.py` binds
  it), the head of its own document: a `$ref` to that location inside `schema` (canonical
  URI, pointer renamed as a draft-07 source is translated), and `"type": "object"` when the
  location is proven to accept objects only (`Bundle.published_heads`). The runtime adds
  `$schema` and embeds `schema` under `$defs` by its `$id`, so each class's document is
  self-contained too. The root class's entry is null: it publishes `schema` itself.
"""

from __future__ import annotations

from typing import Any

from ..model import Contract
from ..model.schemas import Bundle, View
from ..schema.vocabulary import DRAFT_2020_12
from .json_text import json_file


def published_schemas(contract: Contract) -> dict[str, Any]:
    """What `published.json` holds for a contract (see the module's docstring)."""
    return _published(contract.bundle.published, contract.view, contract.bundle)


def _published(schema: Any, view: View, bundle: Bundle) -> dict[str, Any]:
    classes: dict[str, Any] = {}
    for model in view.classes:
        if model.location in classes:
            continue  # the object part of a root that is not one object judges by the root schema
        root = model.name == view.root or not isinstance(schema, dict)
        classes[model.location] = None if root else {}
    heads = [location for location, head in classes.items() if head is not None]
    if heads:
        classes.update(zip(heads, bundle.published_heads(heads), strict=True))
    return {"classes": classes, "schema": schema}


def published_json(contract: Contract) -> str:
    """`published.json` of a contract, deterministic: keys sorted, two-space indent."""
    return json_file(published_schemas(contract), sort_keys=True)


def resource_published_json(view: View, bundle: Bundle) -> str:
    """`<name>.published.json` of a JSON resource: what its model classes publish, as
    `published.json` is for the envelope's (its schema said in 2020-12, one document)."""
    schema = bundle.in_2020_12
    if isinstance(schema, dict) and "$schema" not in schema:  # said, as the envelope's is
        schema = {"$schema": DRAFT_2020_12.uri, **schema}
    return json_file(_published(schema, view, bundle), sort_keys=True)
