"""Validation of our own YAML formats against the meta-schemas in `schemas/meta/`."""

from __future__ import annotations

import json
from functools import cache

from ..diagnostics import Diagnostic
from ..resources import META_SCHEMAS_DIR
from ..runtime import Judge
from .documents import Document


@cache
def meta_judge(kind: str) -> Judge:
    """The judge of one source format: `contract`, `errors` or `tools` (ECMA-262 patterns)."""
    uri = f"urn:mcp-contracts:meta:{kind}"
    return Judge(uri, {uri: json.loads((META_SCHEMAS_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))})


def check_against_meta(document: Document, kind: str) -> list[Diagnostic]:
    """Every way `document` breaks its meta-schema, each at the line of the bad value."""
    return [document.diagnostic(v.path, v.message) for v in meta_judge(kind).violations(document.data)]
