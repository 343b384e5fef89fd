"""JSON Schema errors as (path, message) pairs a person can act on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

_MAX_MESSAGE = 200


def short(message: str) -> str:
    """A message cut to a readable length: some quote whole instances."""
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."


def _branch_score(errors: list[ValidationError]) -> tuple[bool, int, int]:
    """Lower is likelier the branch meant: its tag (a const) matched, few errors, deep ones."""
    return (any(e.validator == "const" for e in errors), len(errors), -max(len(e.absolute_path) for e in errors))


def _most_specific(error: ValidationError) -> ValidationError:
    """For a failed oneOf/anyOf, the deepest error of the branch the instance most likely meant."""
    while error.context:
        branches: dict[object, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        chosen = min(branches.values(), key=_branch_score)
        error = max(chosen, key=lambda e: len(e.absolute_path))
    return error


def violations(validator: Validator, instance: Any) -> Iterator[tuple[list[object], str]]:
    """Each way `instance` breaks the schema: its path in the instance and a short message."""
    errors = sorted(validator.iter_errors(instance), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    for error in errors:
        specific = _most_specific(error)
        yield list(specific.absolute_path), short(specific.message)
