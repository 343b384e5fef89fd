"""Which dialect a schema is written in: decided here, once, from its `$schema`.

The generator reads draft-07 and draft 2020-12 (MCP reads an `outputSchema` in 2020-12;
draft-07 is what many servers' libraries still write, and is said in 2020-12 when it is
published: schema/translate.py). A schema without `$schema` is read in the dialect of the
document around it, and a document's root in 2020-12. Older drafts (03, 04, 06) and 2019-09
are refused: each differs from the two in rules the generator would otherwise apply
silently (draft-06 ignores `if`, draft-04 reads `id` and a boolean `exclusiveMinimum`,
2019-09 has `$recursiveRef`), and a contract is judged in the dialect it is published in.
A `$schema` of another URI names a meta-schema of its own (a dialect with vocabularies of
its choosing, as the specification allows): it is read when the caller can find that
meta-schema offline (`meta`: the contract folder) and the meta-schema is itself written in
a dialect read; else it is refused too. The refusal is a value that says what to write.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .. import debug
from .vocabulary import DRAFT_07, DRAFT_2020_12, Vocabulary, named
from .walk import walk

# Standard dialects the generator knows of but does not read, by how `$schema` names them.
_REFUSED = {
    "json-schema.org/draft-03/schema": "draft-03",
    "json-schema.org/draft-04/schema": "draft-04",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft/2019-09/schema": "draft 2019-09",
}


# Finds a meta-schema by its URI, offline (load/bundle.py's `Resources.retrieve`).
MetaSchemas = Callable[[str], Any]


@dataclass(frozen=True)
class Refusal:
    """A `$schema` the generator does not read, and why; it belongs at `/$schema`."""

    message: str


def dialect_of(
    schema: Any, default: Vocabulary = DRAFT_2020_12, meta: MetaSchemas | None = None
) -> Vocabulary | Refusal:
    """The dialect `schema` declares (`$schema`, with or without its trailing "#", http or
    https, or a meta-schema `meta` finds), `default` when it declares none, or a Refusal."""
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if declared is None:
        return default
    if not isinstance(declared, str):
        return Refusal("`$schema` is a URI naming the dialect: draft-07 or draft 2020-12")
    found = named(schema)
    if found is not None:
        return found
    bare = declared.removesuffix("#").removeprefix("https://").removeprefix("http://")
    if bare in _REFUSED:
        return Refusal(
            f"{_REFUSED[bare]} is not read: write the schema in draft 2020-12 ({DRAFT_2020_12.uri}),"
            f" the dialect MCP publishes, or draft-07 ({DRAFT_07.uri})"
        )
    custom = _custom(declared, meta)
    if custom is not None:
        return custom
    return Refusal(
        f"{declared!r} is not a dialect mcp-contracts reads: draft 2020-12 ({DRAFT_2020_12.uri}),"
        f" draft-07 ({DRAFT_07.uri}), or a meta-schema of the contract folder written in one of them"
    )


def _custom(declared: str, meta: MetaSchemas | None) -> Vocabulary | None:
    """The dialect a meta-schema of one's own is written in, when `meta` finds it."""
    if meta is None:
        return None
    try:
        found = meta(declared)
    except Exception as exc:  # not found offline: the refusal says what to do
        debug.handled(exc)
        return None
    return named(found)


def read_as(schema: Any, default: Vocabulary = DRAFT_2020_12, meta: MetaSchemas | None = None) -> Vocabulary:
    """The dialect to read `schema` in when a refusal has been reported elsewhere (or is not
    the caller's to make): what it declares if the generator reads that (a meta-schema of
    one's own too, when `meta` finds it), else `default`."""
    found = dialect_of(schema, default, meta)
    return found if isinstance(found, Vocabulary) else default


def resource_dialects(resources: Mapping[str, Any], root: str) -> dict[str, Vocabulary]:
    """The dialect each of a contract's resources is read in, as its judge reads it: the
    resource's own `$schema`, else the root's (loading refuses any other dialect first)."""
    root_document = resources[root]
    return {
        uri: read_as(document if isinstance(document, dict) and "$schema" in document else root_document)
        for uri, document in resources.items()
    }


def refusals(document: Any, meta: MetaSchemas | None = None) -> Iterator[tuple[tuple[str | int, ...], Refusal]]:
    """(path of the `$schema`, why) of each `$schema` in a document that is not read: at its
    root, and at each embedded resource that declares one."""
    for visit in walk(document, dialect=read_as(document)):
        if isinstance(visit.node, dict) and "$schema" in visit.node:
            found = dialect_of(visit.node, meta=meta)
            if isinstance(found, Refusal):
                yield (*visit.path, "$schema"), found
