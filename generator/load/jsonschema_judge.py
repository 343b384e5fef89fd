"""The JSON Schema validator with the semantics our contracts promise.

Two choices where JSON Schema validators differ, both made to match the generated
models (pydantic's strict, compiled validators):

- `integer` is a JSON number written without a fraction: `1.0` is not an integer.
  Standard 2020-12 calls it one; a strict server (Rust's `u64`, pydantic's StrictInt)
  does not. Contracts that accept `1.0` should say `number`.
- `pattern` is an ECMA-262 regular expression, as the specification says, so `$`
  matches only at the end of the string. Python's `re` (which jsonschema uses)
  would also let `$` match before a final newline.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import regress
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.protocols import Validator


def _is_integer(checker: object, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _compiled(pattern: str) -> regress.Regex:
    return regress.Regex(pattern)


def _ecma_pattern(validator: Validator, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and _compiled(pattern).find(instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


ContractValidator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    validators={"pattern": _ecma_pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


def contract_validator(schema: dict[str, Any]) -> Validator:
    """A validator of one envelope schema with the contract semantics above."""
    return ContractValidator(schema)  # type: ignore[no-any-return]
