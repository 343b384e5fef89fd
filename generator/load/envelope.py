"""The envelope schema, and a JSON resource's: compiled by the judge's engine, bundled, viewed as classes.

Nothing the JSON Schema specification defines is refused. The schema must be written in a
dialect the generator reads (draft 2020-12 or draft-07: `schema/dialect.py`), it and every
file it refers to; it must compile (it is checked against its own meta-schema, every
`$ref` must resolve without the network), and its bundle must judge every generated
class's location offline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import jsonschema_rs

from .. import debug, naming
from ..diagnostics import Diagnostic
from ..model.schemas import NO_DEFAULT, Bundle, View, ViewClass, ViewField
from ..runtime import Judge, short
from ..schema.dialect import refusals, resource_dialects
from ..schema.engine import CONTENT_ANNOTATIONS, engine_draft
from ..schema.patterns import for_rust_engine, judged, non_ecma_patterns
from ..schema.pointer import encode, value_at
from ..schema.uri import defrag
from ..schema.vocabulary import named
from .bundle import ROOT_URI, Resources, blame
from .cycles import find_cycle
from .documents import Document
from .reading import Reading
from .view import ViewBuilder

_LOCATION_BASE = "urn:mcp-contracts:location"


@dataclass(frozen=True)
class Envelope:
    """A compiled envelope: its judge, its view and the bundle the judge compiles."""

    judge: Judge
    view: View
    bundle: Bundle
    documents: Mapping[str, Document]  # each resource the envelope reaches, by URI, with its places


def _retriever(resources: Resources) -> Callable[[str], Any]:
    """What the engine retrieves a resource by: from the contract folder, so that what is
    read is recorded; its patterns as the engine reads ECMA-262 (`for_rust_engine`)."""
    return lambda uri: for_rust_engine(resources.retrieve(uri), defrag(uri)[0])


def _compile(schema: Any, resources: Resources, formats: bool) -> None:
    """Compile the schema with retrieval from the contract folder (`_retriever`)."""
    jsonschema_rs.validator_for(
        for_rust_engine(schema, resources.root_uri),
        retriever=_retriever(resources),
        base_uri=resources.root_uri,
        validate_formats=formats,
        keywords=CONTENT_ANNOTATIONS,
    )


def _compile_locations(schema: Any, resources: Resources, formats: bool, locations: Iterable[str]) -> None:
    """Compile the schema at each location, as the judge reads it: against a registry of every
    resource read so far, retrieving any other (`_retriever`).

    The registry, and the resources' patterns written for the engine, are made again only
    when a compile has read another resource: made for each location, they were the whole
    bundle once per class."""
    retrieve = _retriever(resources)
    schema = for_rust_engine(schema, resources.root_uri)
    draft = engine_draft(named(schema))
    registry, known = None, -1
    for location in locations:
        if registry is None or len(resources.read) != known:
            known = len(resources.read)
            read = [(resources.root_uri, schema), *judged(resources.read).items()]
            registry = jsonschema_rs.Registry(read, draft=draft, retriever=retrieve)
        wrapper = {"$ref": location}
        if isinstance(schema, dict) and "$schema" in schema:
            wrapper["$schema"] = schema["$schema"]
        jsonschema_rs.validator_for(
            wrapper, registry=registry, base_uri=_LOCATION_BASE, validate_formats=formats, keywords=CONTENT_ANNOTATIONS
        )


@dataclass(frozen=True)
class Source:
    """A schema where the sources hold it, and the URI it is known by: a whole file (the
    envelope, at ROOT_URI), or a value inside one (a resource's `schema:` in resources.yaml,
    at `at`), whose problems are placed in that file."""

    document: Document
    uri: str = ROOT_URI
    at: tuple[object, ...] = ()

    @property
    def data(self) -> Any:
        return value_at(self.document.data, encode(self.at))

    def diagnostic(self, parts: Iterable[object], message: str) -> Diagnostic:
        return self.document.diagnostic([*self.at, *parts], message)


def _problem(source: Source, exc: Exception) -> Diagnostic:
    """An engine's refusal, at the pointer it names or at the reference it is about."""
    if isinstance(exc, jsonschema_rs.ValidationError) and exc.instance_path:
        return source.diagnostic(list(exc.instance_path), "not a valid schema: " + short(exc.message))
    message = str(getattr(exc, "message", None) or exc).split("\n", 1)[0]
    return source.diagnostic(list(blame(source.data, message)), short(message))


def _refused_dialect(source: Source, resources: Resources) -> Diagnostic | None:
    """A `$schema` of the root schema that names a dialect the generator does not read."""
    found = next(refusals(source.data, resources.retrieve), None)
    return source.diagnostic(list(found[0]), found[1].message) if found is not None else None


def _refused_dialect_elsewhere(resources: Resources) -> Diagnostic | None:
    """A `$schema` of a file the root schema refers to that names a dialect not read."""
    for uri, resource in sorted(resources.read.items()):
        found = next(refusals(resource, resources.retrieve), None)
        if found is not None:
            where = resources.reading.name(resources.locate(uri))
            return Diagnostic(where, None, encode(found[0]), found[1].message)
    return None


def _refused_pattern(source: Source, resources: Resources) -> Diagnostic | None:
    """A `pattern` (or `patternProperties` key) that is not ECMA-262, in the root schema or in
    a file it refers to."""
    found = next(non_ecma_patterns(source.data, source.uri), None)
    if found is not None:
        return source.diagnostic(list(found[0]), found[1])
    for uri, resource in sorted(resources.read.items()):
        found = next(non_ecma_patterns(resource, uri), None)
        if found is not None:
            return Diagnostic(resources.reading.name(resources.locate(uri)), None, encode(found[0]), found[1])
    return None


def compile_envelope(
    document: Document, contract: str, references: Mapping[str, Path], formats: bool, reading: Reading
) -> Envelope | Diagnostic:
    """Compile, view and bundle the envelope schema of one contract folder."""
    return compile_schema(
        Source(document), lambda title: naming.root_name(title, contract), references, formats, reading
    )


def compile_schema(
    source: Source,
    root_name: Callable[[object], str],
    references: Mapping[str, Path],
    formats: bool,
    reading: Reading,
) -> Envelope | Diagnostic:
    """Compile, view and bundle one schema of a contract folder, as the envelope is: the
    envelope itself, or a JSON resource's. `root_name` names its root class from its title."""
    schema, root = source.data, source.uri
    if not isinstance(schema, dict | bool):
        return source.diagnostic([], "a schema is a JSON object or a boolean")
    resources = Resources(source.document.path.parent, references, reading, schema, root)
    refused = _refused_dialect(source, resources)
    if refused is not None:
        return refused
    try:
        _compile(schema, resources, formats)
        title = schema.get("title") if isinstance(schema, dict) else None
        view = ViewBuilder(schema, resources.retrieve, root_name(title), root).build()
        _compile_locations(schema, resources, formats, [model.location for model in view.classes if model.location])
    except Exception as exc:  # the engine and the retriever raise several classes; each names the problem
        debug.handled(exc)
        if resources.unreachable is not None:  # a file not read: said as the loader says it
            return source.diagnostic(list(blame(source.data, resources.unreachable)), resources.unreachable)
        return _refused_pattern(source, resources) or _problem(source, exc)
    refused = _refused_dialect_elsewhere(resources) or _refused_pattern(source, resources)
    if refused is not None:
        return refused
    bundle = resources.bundle(schema)
    cycle = find_cycle(bundle, root)
    if cycle is not None:
        where = cycle.removeprefix(root + "#")
        return source.diagnostic(
            [], f"a reference cycle that never descends into the document: {where} leads back to itself"
        )
    judge = Judge(root, judged(bundle), formats=formats)
    try:
        for model in view.classes:
            judge.validator(model.location)  # offline: the bundle holds all it needs
    except Exception as exc:
        debug.handled(exc)
        return source.diagnostic(
            [], f"the bundled schema does not compile offline at {model.location}: {short(str(exc))}"
        )
    view = View(view.root, tuple(_with_valid_defaults(model, judge) for model in view.classes))
    documents = {uri: resources.documents[uri] for uri in bundle if uri in resources.documents}
    if not source.at:
        documents = {root: source.document, **documents}
    return Envelope(judge, view, Bundle(root, bundle, formats, resource_dialects(bundle, root)), documents)


def _with_valid_defaults(model: ViewClass, judge: Judge) -> ViewClass:
    """Keep a field's default only where its own schema accepts it."""
    fields = tuple(
        field if field.default is NO_DEFAULT or _accepts(judge, field) else replace(field, default=NO_DEFAULT)
        for field in model.fields
    )
    return replace(model, fields=fields)


def _accepts(judge: Judge, field: ViewField) -> bool:
    return field.location is not None and judge.is_valid(field.default, field.location)
