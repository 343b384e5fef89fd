"""Validation of our own YAML formats against the meta-schemas in `schemas/meta/`."""

from __future__ import annotations

import json
from functools import cache

from jsonschema.protocols import Validator

from generator.diagnostics import Diagnostic
from generator.load.documents import Document
from generator.load.jsonschema_judge import contract_validator
from generator.load.violations import violations
from generator.resources import META_SCHEMAS_DIR


@cache
def meta_validator(kind: str) -> Validator:
    """The validator of one source format: `contract`, `errors` or `tools`.

    ECMA-262 patterns: with Python's `re`, `^[a-z_]+$` would accept "demo\n".
    """
    schema = json.loads((META_SCHEMAS_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))
    return contract_validator(schema)


def check_against_meta(document: Document, kind: str) -> list[Diagnostic]:
    """Every way `document` breaks its meta-schema, each at the line of the bad value."""
    return [document.diagnostic(path, message) for path, message in violations(meta_validator(kind), document.data)]
