"""Media types as MCP resources carry them: the essence of a type, whether contents of a type
are text (else a base64 blob) and whether they are JSON."""

from __future__ import annotations

_TEXTUAL = frozenset(
    {"application/json", "application/xml", "application/yaml", "application/x-yaml", "application/javascript"}
    | {"application/ecmascript", "application/sql", "application/graphql", "application/toml", "application/x-ndjson"}
)
_TEXTUAL_SUFFIXES = ("+json", "+xml", "+yaml")


def essence(media_type: str) -> str:
    """A media type without its parameters, in lower case: `text/plain; charset=utf-8` is `text/plain`."""
    return media_type.split(";", 1)[0].strip().lower()


def textual(media_type: str | None) -> bool:
    """Whether contents of `media_type` are served as text (else as a base64 blob); contents
    of no declared type are text."""
    if media_type is None:
        return True
    kind = essence(media_type)
    return kind.startswith("text/") or kind in _TEXTUAL or kind.endswith(_TEXTUAL_SUFFIXES)


def is_json(media_type: str | None) -> bool:
    """Whether `media_type` is JSON: application/json or a `+json` type."""
    return media_type is not None and (
        essence(media_type) == "application/json" or essence(media_type).endswith("+json")
    )
