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

from ..schema.uri import defrag, join
from ..schema.vocabulary import DRAFT_07, Vocabulary
from ..schema.walk import base_within, children, copied, replaced
from .dialect import to_2020_12


def _canonical(uri: str, document: Any, dialect: Vocabulary) -> str:
    """The URI a resource is known by: its `$id` (draft-07 ignores one beside a `$ref`)."""
    return base_within(document, uri, dialect)


def _rewritten(node: Any, base: str, canonical: Mapping[str, str], dialect: Vocabulary) -> Any:
    """`node` with each `$ref` to a resource's other URI pointed at its canonical one."""
    if not isinstance(node, dict):
        return node
    node = copied(node)
    reference = node.get("$ref")
    base = base_within(node, base, dialect)
    if isinstance(reference, str):
        target, fragment = defrag(join(base, reference))
        if target in canonical and canonical[target] != target:
            node["$ref"] = canonical[target] + (f"#{fragment}" if "#" in reference else "")
    for path, sub in list(children(node)):
        replaced(node, path, _rewritten(sub, base, canonical, dialect))
    return node


def compound(root_uri: str, resources: Mapping[str, Any], drafts: Mapping[str, Vocabulary]) -> Any:
    """The resource at `root_uri` with every other one of `resources` embedded, in 2020-12.

    Each resource is read in its own dialect (`drafts`, as loading decided it): a draft-07
    one is translated on its own, at its own URI, before it is placed.
    """
    root = resources[root_uri]
    if not isinstance(root, dict):
        return copy.deepcopy(root)
    canonical = {uri: _canonical(uri, document, drafts[uri]) for uri, document in resources.items()}
    rewritten = {uri: _rewritten(resources[uri], canonical[uri], canonical, drafts[uri]) for uri in resources}
    # A draft-07 pointer into another draft-07 resource is renamed as that resource is.
    draft_07_resources = {canonical[uri]: rewritten[uri] for uri in resources if drafts[uri] is DRAFT_07}

    def prepared(uri: str) -> Any:
        name = canonical[uri]
        document = rewritten[uri]
        if drafts[uri] is DRAFT_07:
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
