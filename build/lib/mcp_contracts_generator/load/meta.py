"""Validation of our own YAML formats against the meta-schemas in `schemas/meta/`.

errors.yaml and tools.yaml take the columns the contract declares: each is added to the
meta-schema's entry, so that a misspelt or undeclared key is reported at its own line.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from ..diagnostics import Diagnostic
from ..model import Column
from ..resources import META_SCHEMAS_DIR
from ..runtime import Judge
from .catalogue import column_schema
from .documents import Document

# Where each table's entry schema is, in its meta-schema.
ENTRY_DEFS = {"errors": "ErrorEntry", "error_types": "ErrorTypeEntry", "warnings": "WarningEntry", "tools": "Tool"}


@cache
def meta_schema(kind: str) -> Any:
    return json.loads((META_SCHEMAS_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))


def meta_judge(kind: str, columns: dict[str, tuple[Column, ...]] | None = None) -> Judge:
    """The judge of one source format: `contract`, `errors` or `tools` (ECMA-262 patterns),
    with the declared columns of its tables."""
    uri = f"urn:mcp-contracts:meta:{kind}"
    schema = copy.deepcopy(meta_schema(kind))
    for table, definition in ENTRY_DEFS.items():
        properties = schema.get("$defs", {}).get(definition, {}).get("properties")
        if properties is not None and columns is not None:
            for column in columns[table]:
                properties.setdefault(column.name, column_schema(column))
    return Judge(uri, {uri: schema})


def check_against_meta(
    document: Document, kind: str, columns: dict[str, tuple[Column, ...]] | None = None
) -> list[Diagnostic]:
    """Every way `document` breaks its meta-schema, each at the line of the bad value."""
    return [document.diagnostic(v.path, v.message) for v in meta_judge(kind, columns).violations(document.data)]
