"""A contract's schema and the resources it refers to as one self-contained document.

Each resource other than the root is embedded under the root's definitions (`$defs`;
`definitions` in draft-07), keyed and identified by its canonical URI (its `$id`, else the
URI it was read from), so that every `$ref` resolves inside the document, as JSON Schema's
compound documents allow. A resource reached by two URIs (its file, and the `$id` it
declares) is embedded once, and each `$ref` that named it by the other URI is rewritten to
the canonical one. Nothing else changes: pointers and anchors resolve as they did.

A resource known by the contract folder's file URI (`file:///envelope.schema.json`, the same
for every contract) is published under `base` instead: a URI unique to the contract
(`published_base`), so that no two contracts publish one `$id` for different schemas (the
TypeScript SDK reuses a compiled validator by `$id`).

Published as the author wrote it (`keep_draft_07`): a document whose resources are all
draft-07 stays draft-07, when draft-07 can embed them (see `_stays_draft_07`). Otherwise a
draft-07 resource is said in draft 2020-12 (see `translate`), the dialect MCP's `outputSchema`
defaults to.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .translate import Translator
from .uri import defrag, join
from .vocabulary import DRAFT_07, Vocabulary
from .walk import base_within, children, copied, replaced

# The scheme of the contract folder's own URIs: every contract has `file:///envelope.schema.json`.
_FILE = "file:///"


def published_base(resources: Mapping[str, Any]) -> str:
    """The URI prefix a contract's resources known by a file URI are published under: a
    digest of every resource, so two contracts share it only when they are one schema.

    Hierarchical, for relative references and `$id`s to resolve against it in every
    validator (jsonschema-rs refuses them against a `urn:`); `.invalid` names no host
    (RFC 6761), and nothing fetches an `$id`."""
    text = json.dumps(sorted(resources.items()), sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return f"https://mcp-contracts.invalid/sha256-{hashlib.sha256(text.encode()).hexdigest()[:32]}/"


def _canonical(uri: str, document: Any, dialect: Vocabulary, base: str | None) -> str:
    """The URI a resource is published by: its `$id` (draft-07 ignores one beside a `$ref`),
    a file URI moved under `base`."""
    known = base_within(document, uri, dialect)
    return base + known[len(_FILE) :] if base is not None and known.startswith(_FILE) else known


def _rewritten(node: Any, base: str, canonical: Mapping[str, str], dialect: Vocabulary) -> Any:
    """`node` with each `$ref` that names a resource by another URI than the one it is
    published by pointed at that one; a reference by fragment alone stays as written."""
    if not isinstance(node, dict):
        return node
    node = copied(node)
    reference = node.get("$ref")
    base = base_within(node, base, dialect)
    if isinstance(reference, str) and reference.partition("#")[0]:
        target, fragment = defrag(join(base, reference))
        if target in canonical and canonical[target] != target:
            node["$ref"] = canonical[target] + (f"#{fragment}" if "#" in reference else "")
    for path, sub in list(children(node)):
        replaced(node, path, _rewritten(sub, base, canonical, dialect))
    return node


def _stays_draft_07(resources: Mapping[str, Any], drafts: Mapping[str, Vocabulary]) -> bool:
    """Whether the resources make one draft-07 document: all are draft-07, and each that
    must carry its URI as `$id` (every one, when there are several) has no `$ref` beside
    it, where draft-07 would ignore the `$id` and the `definitions` embedding the others;
    no resource's `$id` carries a fragment (a name the published `$id` would replace)."""
    if any(drafts[uri] is not DRAFT_07 for uri in resources):
        return False
    if any(isinstance(d, dict) and "#" in str(d.get("$id", "")) for d in resources.values()):
        return False
    return len(resources) == 1 or not any(isinstance(d, dict) and "$ref" in d for d in resources.values())


def compound(
    root_uri: str,
    resources: Mapping[str, Any],
    drafts: Mapping[str, Vocabulary],
    base: str | None = None,
    keep_draft_07: bool = False,
) -> Any:
    """The resource at `root_uri` with every other one of `resources` embedded (see the
    module): in draft-07 when `keep_draft_07` and `_stays_draft_07`, else in 2020-12.

    Each resource is read in its own dialect (`drafts`, as loading decided it): a draft-07
    one is translated on its own, at its own URI, before it is placed.
    """
    root = resources[root_uri]
    if not isinstance(root, dict):
        return copy.deepcopy(root)
    canonical = {uri: _canonical(uri, document, drafts[uri], base) for uri, document in resources.items()}
    rewritten = {uri: _rewritten(resources[uri], uri, canonical, drafts[uri]) for uri in resources}
    draft_07 = keep_draft_07 and _stays_draft_07(resources, drafts)
    # A draft-07 pointer into another draft-07 resource is renamed as that resource is.
    draft_07_resources = {canonical[uri]: rewritten[uri] for uri in resources if drafts[uri] is DRAFT_07}
    translator = Translator(draft_07_resources)  # each resource read once for all translations

    def prepared(uri: str) -> Any:
        name = canonical[uri]
        document = rewritten[uri]
        if drafts[uri] is DRAFT_07 and not draft_07:
            document = translator.translate(document, name)
        if isinstance(document, dict) and not (draft_07 and "$ref" in document):
            document["$id"] = name  # absolute: the base every relative `$ref` in it had
        return document

    document = prepared(root_uri)
    definitions = "definitions" if draft_07 else "$defs"
    container = dict(document.get(definitions) or {})
    for uri in sorted(resources):
        name = canonical[uri]
        if name != canonical[root_uri] and name not in container:
            container[name] = prepared(uri)
    if container:
        document[definitions] = container
    return document


# The URI of the stand-in schema `{"$ref": location}` that `published_references` translates;
# no contract's resource is known by it.
_STAND_IN = "urn:mcp-contracts:published-location"


def published_references(
    root_uri: str, resources: Mapping[str, Any], drafts: Mapping[str, Vocabulary], base: str, locations: list[str]
) -> list[str]:
    """The `$ref` that leads to each location (a URI and a pointer of `resources`) inside the
    2020-12 compound document under `base`: canonical URI, pointer renamed as a draft-07
    source is translated. Every location is translated in one compound document: one per
    location is the whole bundle again (two hundred classes paid two hundred compounds)."""
    root = resources[root_uri]
    # Each location as a `$ref` of its own, read in the dialect the judge reads it in.
    stand_in: dict[str, Any] = {"anyOf": [{"$ref": where} for where in locations]}
    if isinstance(root, dict) and "$schema" in root:
        stand_in = {"$schema": root["$schema"], **stand_in}
    drafts = {**drafts, _STAND_IN: drafts[root_uri]}  # read as the root is
    translated = compound(_STAND_IN, {**resources, _STAND_IN: stand_in}, drafts, base)
    return [member["$ref"] for member in translated["anyOf"]]
