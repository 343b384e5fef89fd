"""A schema that must stand alone, compiled by jsonschema-rs: an MCP tool's input or output
schema, judged as a client judges it, with nothing fetched."""

from __future__ import annotations

from typing import Any

import jsonschema_rs

from .patterns import for_rust_engine
from .pointer import encode
from .vocabulary import DRAFT_07, Vocabulary


def engine_draft(dialect: Vocabulary | None) -> int | None:
    """jsonschema-rs's name for a dialect the generator reads; None (the engine decides,
    from a meta-schema of one's own) for None."""
    if dialect is None:
        return None
    return jsonschema_rs.Draft7 if dialect is DRAFT_07 else jsonschema_rs.Draft202012


class _Annotation:
    """`contentMediaType` and `contentEncoding` read as annotations, as the runtime's judge
    reads them (see `CONTENT_ANNOTATIONS` of runtime/judge.py): draft-07 lets a validator assert
    them, jsonschema-rs does, the TypeScript judge and the clients of a published schema do not."""

    def __init__(self, parent_schema: Any, value: Any, schema_path: Any) -> None:
        pass

    def validate(self, instance: Any) -> None:
        return None


# What every jsonschema-rs compile of the generator passes as `keywords=`: one verdict per contract.
CONTENT_ANNOTATIONS: dict[str, Any] = {"contentMediaType": _Annotation, "contentEncoding": _Annotation}


def _no_fetch(uri: str) -> Any:
    raise ValueError(f"{uri} is not fetched: the schema must stand alone")


def standalone_validator(schema: Any) -> Any:
    """jsonschema-rs's validator of a schema that must stand alone (an MCP tool's input or
    output schema: nothing is fetched), its patterns written for its engine (`patterns`);
    ValueError, with the reason, when it cannot compile."""
    try:
        return jsonschema_rs.validator_for(for_rust_engine(schema), retriever=_no_fetch, keywords=CONTENT_ANNOTATIONS)
    except (ValueError, TypeError, OverflowError, jsonschema_rs.ValidationError) as exc:
        raise ValueError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None


def first_refusal(validator: Any, instance: Any) -> str | None:
    """Why `validator` refuses `instance` (its first error, at its JSON pointer), or None."""
    error = next(iter(validator.iter_errors(instance)), None)
    if error is None:
        return None
    if not error.instance_path:
        return str(error.message)
    return f"at {encode(error.instance_path)}: {error.message}"
