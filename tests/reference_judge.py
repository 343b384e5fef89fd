"""python-jsonschema as the second, independent judge of the tests.

Standard JSON Schema semantics, with `pattern` as ECMA-262 (as the specification says and
jsonschema-rs does): Python's `re` would let `$` match before a final newline.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import regress
from jsonschema import ValidationError, validators
from jsonschema.protocols import Validator


@cache
def _compiled(pattern: str) -> regress.Regex:
    return regress.Regex(pattern)


def _ecma_pattern(validator: Validator, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and _compiled(pattern).find(instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def reference_validator(schema: Any) -> Validator:
    """A python-jsonschema validator of `schema`, its draft chosen by `$schema`."""
    base = validators.validator_for(schema)
    extended = validators.extend(base, validators={"pattern": _ecma_pattern})  # type: ignore[no-untyped-call]
    return extended(schema)  # type: ignore[no-any-return]
