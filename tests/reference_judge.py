"""python-jsonschema as the second, independent judge of the tests.

Standard JSON Schema semantics, with `pattern` as ECMA-262 (as the specification says and
jsonschema-rs does): Python's `re` would let `$` match before a final newline.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import regress
from jsonschema import ValidationError, validators
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.jsonschema import specification_with


@cache
def _compiled(pattern: str) -> regress.Regex:
    return regress.Regex(pattern)


def _ecma_pattern(validator: Validator, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and _compiled(pattern).find(instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def reference_validator(schema: Any, resources: Mapping[str, Any] | None = None, base_uri: str = "") -> Validator:
    """A python-jsonschema validator of `schema`, its draft chosen by `$schema`.

    `resources` maps URIs to the other schemas it refers to; `schema` itself is found at
    `base_uri`. A resource without `$schema` is read in the draft of `schema`.
    """
    base = validators.validator_for(schema)
    extended = validators.extend(base, validators={"pattern": _ecma_pattern})  # type: ignore[no-untyped-call]
    if not resources:
        return extended(schema)  # type: ignore[no-any-return]
    dialect = schema["$schema"]
    default = specification_with(dialect)
    # A resource that names the root's draft loses the name: python-jsonschema would judge
    # it with the unextended validator of that draft, and `pattern` with Python's `re`.
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(_without_schema(contents, dialect), default_specification=default))
        for uri, contents in {**resources, base_uri: schema}.items()
    )
    return extended({"$schema": schema["$schema"], "$ref": base_uri}, registry=registry)  # type: ignore[no-any-return]


def _without_schema(contents: Any, dialect: str) -> Any:
    if isinstance(contents, dict) and contents.get("$schema") == dialect:
        return {k: v for k, v in contents.items() if k != "$schema"}
    return contents
