"""The lint rules of a contract's schemas (`generator.rules.lint`): the envelope's and each
tool's own `outputSchema` as they are published, and what a client or the TypeScript SDK would
read otherwise in them. Apart from `lint.py`, whose rules read the tables of errors.yaml and
tools.yaml: these walk JSON Schemas. Each reads tools.yaml and the envelope as written, and the
contract as it loaded (None when it does not: a rule that needs what is published says nothing)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .load.bundle import refs_in
from .load.documents import Document
from .load.resource_prompt_files import RESOURCES_FILE
from .model import Contract
from .protocol import revision
from .render.mcp import tool_listing
from .rules import Rule
from .rules import lint as rules
from .schema.pointer import PointerError, encode, from_fragment
from .schema.proofs import always_object
from .schema.uri import defrag
from .schema.vocabulary import (
    ANNOTATIONS,
    CONDITIONS,
    DEFINITIONS,
    DRAFT_07,
    EITHER,
    MISREAD_BY_07,
    SAID_IN_2020_12,
    STRUCTURAL,
    named,
)
from .schema.walk import children, walk

Found = Iterator[tuple[Document, list[object], str]]
SchemaCheck = Callable[[Document, Document, Contract | None], Found]
CHECKS: dict[Rule, SchemaCheck] = {}  # each rule's check (tools.yaml, the envelope, the contract)


def _schema_check(rule: Rule) -> Callable[[SchemaCheck], SchemaCheck]:
    def register(check: SchemaCheck) -> SchemaCheck:
        CHECKS[rule] = check
        return check

    return register


def _properties(schema: Any) -> Iterator[tuple[list[object], Any]]:
    """(path, schema) of each member of a `properties` of any subschema but those inside a
    condition (`if`, `not`); `then` and `else` declare theirs."""
    conditions: set[int] = set()  # the subschemas inside a condition, by id: the walk visits each once
    for visit in walk(schema, dialect=EITHER):
        if not isinstance(visit.node, dict):
            continue
        inside = id(visit.node) in conditions
        for step, sub in children(visit.node, visit.dialect):
            if inside or step[0] in CONDITIONS:
                conditions.add(id(sub))
        properties = visit.node.get("properties")
        for name, sub in properties.items() if isinstance(properties, dict) and not inside else ():
            yield [*visit.path, "properties", name], sub


@_schema_check(rules.PROPERTY_DESCRIBED)
def _property_described(tools: Document, envelope: Document, contract: Contract | None) -> Found:
    """A property of the envelope schema, or of a JSON resource's `schema:` in resources.yaml,
    without a description (a `$ref` one has its target's)."""
    schemas: list[tuple[Document, list[object], Any]] = [(envelope, [], envelope.data)]
    resources = contract.places.documents.get(RESOURCES_FILE) if contract is not None else None
    if isinstance(resources, Document) and isinstance(resources.data, dict):
        for section in ("resources", "templates"):
            for index, entry in enumerate(resources.data.get(section, [])):
                if "schema" in entry:
                    schemas.append((resources, [section, index, "schema"], entry["schema"]))
    for document, at, schema in schemas:
        for path, sub in _properties(schema):
            if isinstance(sub, dict) and not sub.get("description") and "$ref" not in sub:
                yield document, [*at, *path], f"property {path[-1]!r} has no description"


@_schema_check(rules.DEF_UNUSED)
def _def_unused(tools: Document, envelope: Document, contract: Contract | None) -> Found:
    schema = envelope.data
    referenced = {_pointer_in(value) for _, value in refs_in(schema)}
    for container in DEFINITIONS:
        found = schema.get(container) if isinstance(schema, dict) else None
        for name in found if isinstance(found, dict) else {}:  # the engine judges a non-object
            pointer = encode([container, name])
            if pointer not in referenced and not any(r and r.startswith(pointer + "/") for r in referenced):
                yield envelope, [container, name], f"{name!r} is not referenced"


@_schema_check(rules.SHAPE_COPY_DIFFERS)
def _shape_copy_differs(tools: Document, envelope: Document, contract: Contract | None) -> Found:
    """A tool's own outputSchema that means what no shape of the envelope means, where the
    envelope is the union of the shapes (`import` keeps a copy of each in both files)."""
    shapes = _shapes(envelope.data)
    listed = tools.data.get("tools") if isinstance(tools.data, dict) else None
    if not shapes or not isinstance(listed, list):
        return
    from .schema.compare import TooLarge, schema_difference  # what `conform` compares with: only here

    for index, tool in enumerate(listed):
        own = tool.get("outputSchema") if isinstance(tool, dict) else None
        if not isinstance(own, dict):
            continue
        name = tool.get("name")
        try:
            differences = {said: schema_difference(own, shape) for said, shape in shapes.items()}
        except TooLarge:
            continue
        if all(difference is not None for difference in differences.values()):
            text = f"{name!r}: its outputSchema means what no shape of the envelope means"
            for said, difference in differences.items():
                if difference is not None and f"`{name}`" in said.partition("|")[2]:  # the branch naming it
                    text += f" (the copy under envelope.schema.json#{said.partition('|')[0]}: {difference.said()})"
                    break
            yield tools, ["tools", index, "outputSchema"], text


def _shapes(envelope: Any) -> dict[str, Any]:
    """Each shape of an envelope that is the `anyOf` of `$ref`s into its own definitions, as a
    schema of its own (the envelope with that branch for root), by `pointer|description`;
    nothing for another envelope."""
    branches = envelope.get("anyOf") if isinstance(envelope, dict) else None
    if not isinstance(branches, list) or not branches:
        return {}
    shapes: dict[str, Any] = {}
    rest = {key: value for key, value in envelope.items() if key in (*DEFINITIONS, "$schema")}
    for branch in branches:
        reference = branch.get("$ref") if isinstance(branch, dict) else None
        pointer = _pointer_in(reference) if isinstance(reference, str) and reference.startswith("#") else None
        if pointer is None or pointer.count("/") != 2 or pointer.split("/")[1] not in DEFINITIONS:
            return {}
        if set(branch) - {"$ref", "description", "title", "$comment"}:
            return {}
        shapes[f"{pointer}|{branch.get('description', '')}"] = {**rest, "$ref": reference}
    return shapes


def _pointer_in(reference: str) -> str | None:
    """The JSON pointer a reference's fragment names, decoded; None for no pointer."""
    try:
        return encode(from_fragment(defrag(reference)[1])) if "#" in reference else None
    except PointerError:
        return None


@_schema_check(rules.OUTPUT_NOT_OBJECT)
def _output_not_object(tools: Document, envelope: Document, contract: Contract | None) -> Found:
    needing = [v for v in contract.protocol if revision(v).object_root] if contract is not None else []
    if contract is None or not needing:
        return
    envelope_tools = []
    for index, (tool, listed) in enumerate(zip(contract.manifest.tools.entries, tool_listing(contract), strict=True)):
        if "outputSchema" not in listed or always_object(listed["outputSchema"]):
            continue
        if tool.get("outputSchema") is None:
            envelope_tools.append(tool.code)
            continue
        text = f"{tool.code!r}: its outputSchema may accept a non-object, which {', '.join(needing)} cannot carry"
        yield tools, ["tools", index, "outputSchema"], text
    if envelope_tools:
        shown = ", ".join(envelope_tools[:3]) + (
            f" and {len(envelope_tools) - 3} more" if len(envelope_tools) > 3 else ""
        )
        text = (
            f"the envelope may accept a non-object, so tools {shown} cannot be offered to {', '.join(needing)}"
            " (give its root `type: object`, or leave those revisions out of `protocol:`)"
        )
        yield envelope, [], text


@_schema_check(rules.ERROR_OUTSIDE_OUTPUT)
def _error_outside_output(tools: Document, envelope: Document, contract: Contract | None) -> Found:
    if contract is None or contract.builders is None or not contract.error_results.structured:
        return
    from .serving.errors_admitted import refused_errors  # builds envelopes as mock does: only here

    for index, name, code, refusal in refused_errors(contract):
        text = f"{name!r}: its outputSchema refuses the error envelope of {code!r} ({refusal})"
        yield tools, ["tools", index, "outputSchema"], text


# What a `$ref` may have beside it without a verdict depending on whether it applies.
_INERT_BESIDE_REF = ANNOTATIONS | STRUCTURAL | {"$ref"}


def _misread(document: Document, schema: Any, at: list[object], as_07: bool, formats: bool) -> Found:
    """What the TypeScript SDK's ajv reads otherwise in `schema` (at `at` in `document`), which
    is published in draft-07 (`as_07`) or in 2020-12, with `format` asserted or not."""
    for visit in walk(schema):
        node = visit.node
        if not isinstance(node, dict):
            continue
        path = [*at, *visit.path]
        if visit.dialect is DRAFT_07 and as_07:
            beside = sorted(set(node) - _INERT_BESIDE_REF) if "$ref" in node else []
            if beside:
                listed = ", ".join(f"`{k}`" for k in beside)
                yield document, path, f"beside `$ref`, draft-07 ignores {listed}: the TypeScript SDK's ajv applies them"
        elif visit.dialect is DRAFT_07:  # said in 2020-12 where it is published
            for keyword, said in SAID_IN_2020_12.items():
                if keyword in node and (keyword != "items" or isinstance(node[keyword], list)):
                    text = f"`{keyword}` is published in 2020-12 as `{said}`, which the TypeScript SDK's ajv ignores"
                    yield document, [*path, keyword], text
        else:
            for keyword in sorted(MISREAD_BY_07 & node.keys()):
                yield document, [*path, keyword], f"the TypeScript SDK's draft-07 ajv does not apply `{keyword}`"
        if "format" in node and not formats:
            text = "the TypeScript SDK's ajv asserts `format`, which this contract does not (`formats`)"
            yield document, [*path, "format"], text


@_schema_check(rules.TYPESCRIPT_SDK_KEYWORD)
def _typescript_sdk_keyword(tools: Document, envelope: Document, contract: Contract | None) -> Found:
    """Each published output schema, as its source says it (the envelope, a tool's own)."""
    if contract is None:
        return
    shared: Any = None  # the envelope as a tool without its own publishes it
    for index, (tool, listed) in enumerate(zip(contract.manifest.tools.entries, tool_listing(contract), strict=True)):
        own, published = tool.get("outputSchema"), listed.get("outputSchema")
        if own is not None and published is not None:
            draft_07 = named(own) is DRAFT_07  # a tool's own schema is published as written
            yield from _misread(tools, own, ["tools", index, "outputSchema"], draft_07, draft_07)
        elif published is not None and shared is None:
            shared = published
    if isinstance(shared, dict):
        as_07 = named(shared) is DRAFT_07
        yield from _misread(envelope, envelope.data, [], as_07, contract.bundle.formats)
