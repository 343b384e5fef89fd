"""A contract's schema and the resources it refers to as one self-contained document.

Each resource other than the root is embedded under `$defs`,
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

from ..keywords import copied, defrag, join, replaced, subschemas
from .dialect import is_draft_07, to_2020_12


def _canonical(uri: str, document: Any, draft_07: bool) -> str:
    """The URI a resource is known by: its `$id` (draft-07 ignores one beside a `$ref`)."""
    identifier = document.get("$id") if isinstance(document, dict) else None
    if not isinstance(identifier, str) or (draft_07 and "$ref" in document):
        return uri
    return defrag(join(uri, identifier))[0]


def _rewritten(node: Any, base: str, canonical: Mapping[str, str], draft_07: bool) -> Any:
    """`node` with each `$ref` to a resource's other URI pointed at its canonical one."""
    if not isinstance(node, dict):
        return node
    node = copied(node)
    reference = node.get("$ref")
    identifier = node.get("$id")
    if isinstance(identifier, str) and not (draft_07 and "$ref" in node):  # draft-07: $ref hides $id
        base = defrag(join(base, identifier))[0]
    if isinstance(reference, str):
        target, fragment = defrag(join(base, reference))
        if target in canonical and canonical[target] != target:
            node["$ref"] = canonical[target] + (f"#{fragment}" if "#" in reference else "")
    for path, sub in list(subschemas(node)):
        replaced(node, path, _rewritten(sub, base, canonical, draft_07))
    return node


def _draft_07(document: Any, root: Any) -> bool:
    """Whether a resource is read as draft-07: its `$schema` says so, or the root's does."""
    return is_draft_07(document if isinstance(document, dict) and "$schema" in document else root)


def compound(root_uri: str, resources: Mapping[str, Any]) -> Any:
    """The resource at `root_uri` with every other one of `resources` embedded, in 2020-12.

    Each resource is read in its own dialect (its `$schema`, else the root's, as the judge
    reads it): a draft-07 one is translated on its own, at its own URI, before it is placed.
    """
    root = resources[root_uri]
    if not isinstance(root, dict):
        return copy.deepcopy(root)
    drafts = {uri: _draft_07(document, root) for uri, document in resources.items()}
    canonical = {uri: _canonical(uri, document, drafts[uri]) for uri, document in resources.items()}
    rewritten = {uri: _rewritten(resources[uri], canonical[uri], canonical, drafts[uri]) for uri in resources}
    # A draft-07 pointer into another draft-07 resource is renamed as that resource is.
    draft_07_resources = {canonical[uri]: rewritten[uri] for uri in resources if drafts[uri]}

    def prepared(uri: str) -> Any:
        name = canonical[uri]
        document = rewritten[uri]
        if drafts[uri]:
            document = to_2020_12(document, name, draft_07_resources)
        if isinstance(document, dict):
            document["$id"] = name  # absolute: the base every relative `$ref` in it had
        return document

    document = prepared(root_uri)
    container = dict(document.get("$defs") or {})
    for uri in sorted(resources):
        name = canonical[uri]
        if name != canonical[root_uri] and name not in container:
            container[name] = prepared(uri)
    if container:
        document["$defs"] = container
    return document
