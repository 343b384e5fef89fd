"""Validation of our own YAML formats against the meta-schemas in `schemas/meta/`.

errors.yaml and tools.yaml take the columns the contract declares: each is added to the
meta-schema's entry, so that a misspelt or undeclared key is reported at its own line.
"""

from __future__ import annotations

import copy
import json
import re
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


@cache
def semver() -> re.Pattern[str]:
    """A semantic version (semver.org 2.0.0), as the meta-schemas of contract.yaml and
    accepted-breaks.yaml say it: match with `fullmatch`."""
    return re.compile(meta_schema("contract")["properties"]["version"]["pattern"])


# Where a meta-schema wants a semantic version: its grammar, as a pattern, is no message.
_VERSIONS = {"contract": 1, "accepted-breaks": 3}  # the length of such a path: version, accepted/i/version
SEMVER_WANTED = "is not a semantic version (semver.org 2.0.0: MAJOR.MINOR.PATCH, such as 1.4.0 or 2.0.0-rc.1)"


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
    said: dict[tuple[tuple[str | int, ...], str], None] = {}
    for violation in meta_judge(kind, columns).violations(document.data):
        said.setdefault((violation.path, _message(document, kind, violation.path, violation.message)))
    return [document.diagnostic(path, message) for path, message in said]


def _message(document: Document, kind: str, path: tuple[str | int, ...], message: str) -> str:
    """`message`, or, for a version that is not a semantic version, what one is."""
    if len(path) != _VERSIONS.get(kind) or path[-1] != "version":
        return message
    value: Any = document.data
    try:
        for part in path:
            value = value[part]
    except (KeyError, IndexError, TypeError):  # a version that is missing
        return message
    if isinstance(value, str) and semver().fullmatch(value) is not None:
        return message
    return f"{json.dumps(value, ensure_ascii=False)} {SEMVER_WANTED}"
