"""The JSON Schema Test Suite (../shared/jsts) as the dialect and pruning tests read it: each
group's schema with every remote file it reaches, under one root URI, in its draft's dialect.
Empty without ../shared: the tests that use it call `require_shared` themselves."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urldefrag, urljoin

from conftest import SHARED
from mcp_contracts_generator.schema.vocabulary import DRAFT_2020_12 as LATEST
from mcp_contracts_generator.schema.walk import children

DRAFT_2020_12 = LATEST.uri
SUITE = SHARED / "jsts"
REMOTES = "http://localhost:1234/"
ROOT_URI = "https://root.test/schema.json"
DIALECTS = {"draft7": "http://json-schema.org/draft-07/schema#", "draft2020-12": DRAFT_2020_12}
META_SCHEMAS = ("http://json-schema.org/", "https://json-schema.org/")
FILES = [(d, p) for d in sorted(DIALECTS) for p in sorted((SUITE / "tests" / d).glob("*.json"))]


def _references(node: Any, base: str, draft_07: bool) -> list[str]:
    """The absolute URI of each `$ref` in a schema, with `$id`s changing the base."""
    if not isinstance(node, dict):
        return []
    identifier = node.get("$id")
    if isinstance(identifier, str) and not (draft_07 and "$ref" in node):
        base = urldefrag(urljoin(base, identifier))[0]
    found = [urljoin(base, node["$ref"])] if isinstance(node.get("$ref"), str) else []
    for _, sub in children(node):
        found += _references(sub, base, draft_07)
    return found


def suite_resources(schema: Any, draft: str) -> dict[str, Any]:
    """The group's schema and every file of the suite's remotes it reaches."""
    if isinstance(schema, bool):
        return {ROOT_URI: schema}
    resources = {ROOT_URI: {"$schema": DIALECTS[draft], **schema}}
    pending = [ROOT_URI]
    while pending:
        uri = pending.pop()
        for reference in _references(resources[uri], uri, draft == "draft7"):
            target = urldefrag(reference)[0]
            path = SUITE / "remotes" / target[len(REMOTES) :]
            if target.startswith(REMOTES) and target not in resources and path.is_file():
                resources[target] = json.loads(path.read_text(encoding="utf-8"))
                pending.append(target)
    return resources


def no_fetch(uri: str) -> Any:
    raise ValueError(f"{uri}: the published schema must stand alone")


def names_a_meta_schema(resources: dict[str, Any]) -> bool:
    """A `$ref` to a standard meta-schema, or a meta-schema of its own (`$schema`): these stay
    references in the published document (a contract's bundle holds no meta-schema), so
    that only a validator that knows them judges such a schema; they are left out here."""
    draft_07 = isinstance(resources[ROOT_URI], dict) and "draft-07" in resources[ROOT_URI].get("$schema", "")
    for uri, document in resources.items():
        if any(r.startswith(META_SCHEMAS) for r in _references(document, uri, draft_07)):
            return True
        dialect = document.get("$schema", "") if isinstance(document, dict) else ""
        if dialect and not dialect.startswith(META_SCHEMAS):
            return True
    return False
