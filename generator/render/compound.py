"""A contract's schema and the resources it refers to as one self-contained document.

Each resource other than the root is embedded under `$defs` (`definitions` in draft-07),
keyed and identified by its canonical URI (its `$id`, else the URI it was read from), so
that every `$ref` resolves inside the document, as JSON Schema's compound documents allow.
A resource reached by two URIs (its file, and the `$id` it declares) is embedded once, and
each `$ref` that named it by the other URI is rewritten to the canonical one. Nothing else
changes: pointers and anchors resolve as they did. A draft-07 document is then said in
draft 2020-12 (see `dialect`), the dialect MCP reads `outputSchema` in.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any
from urllib.parse import urldefrag, urljoin

from ..keywords import replaced, subschemas
from .dialect import is_draft_07, to_2020_12


def _canonical(uri: str, document: Any) -> str:
    identifier = document.get("$id") if isinstance(document, dict) else None
    return urldefrag(urljoin(uri, identifier))[0] if isinstance(identifier, str) else uri


def _rewritten(node: Any, base: str, canonical: Mapping[str, str], draft_07: bool) -> Any:
    """`node` with each `$ref` to a resource's other URI pointed at its canonical one."""
    if not isinstance(node, dict):
        return node
    node = dict(node)
    reference = node.get("$ref")
    identifier = node.get("$id")
    if isinstance(identifier, str) and not (draft_07 and "$ref" in node):  # draft-07: $ref hides $id
        base = urldefrag(urljoin(base, identifier))[0]
    if isinstance(reference, str):
        target, fragment = urldefrag(urljoin(base, reference))
        if target in canonical and canonical[target] != target:
            node["$ref"] = canonical[target] + (f"#{fragment}" if "#" in reference else "")
    for path, sub in list(subschemas(node)):
        replaced(node, path, _rewritten(sub, base, canonical, draft_07))
    return node


def compound(root_uri: str, resources: Mapping[str, Any]) -> Any:
    """The resource at `root_uri` with every other one of `resources` embedded."""
    canonical = {uri: _canonical(uri, document) for uri, document in resources.items()}
    root = resources[root_uri]
    draft_07 = is_draft_07(root)
    if not isinstance(root, dict):
        return copy.deepcopy(root)
    document = _rewritten(root, canonical[root_uri], canonical, draft_07)
    document["$id"] = canonical[root_uri]  # absolute: the base every relative `$ref` had
    container_key = "definitions" if draft_07 else "$defs"
    container = dict(document.get(container_key) or {})
    for uri in sorted(resources):
        name = canonical[uri]
        if name == canonical[root_uri] or name in container:
            continue
        embedded = _rewritten(resources[uri], name, canonical, draft_07)
        if isinstance(embedded, dict):
            embedded.setdefault("$id", name)
        container[name] = embedded
    if container:
        document[container_key] = container
    return to_2020_12(document, canonical[root_uri]) if draft_07 else document
