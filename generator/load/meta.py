"""Validation of our own YAML formats against the meta-schemas in `schemas/meta/`."""

from __future__ import annotations

import json
from functools import cache

from jsonschema import Draft202012Validator

from generator.diagnostics import Diagnostic
from generator.load.documents import Document
from generator.resources import META_SCHEMAS_DIR

_MAX_MESSAGE = 200


@cache
def meta_validator(kind: str) -> Draft202012Validator:
    """The validator of one source format: `contract`, `errors` or `tools`."""
    schema = json.loads((META_SCHEMAS_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def short(message: str) -> str:
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."


def check_against_meta(document: Document, kind: str) -> list[Diagnostic]:
    """Every way `document` breaks its meta-schema, each at the line of the bad value."""
    errors = sorted(meta_validator(kind).iter_errors(document.data), key=lambda e: list(map(str, e.absolute_path)))
    return [document.diagnostic(list(e.absolute_path), short(e.message)) for e in errors]
