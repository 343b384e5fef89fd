"""`mcp-contracts lint`: the conventions of a contract, as rules with stable IDs.

Loading already refuses what cannot be generated (a duplicate code, codes that collide as
Python names, a tool naming an unknown code). Lint judges what can be generated but should
not be: a code in another naming style, an HTTP status outside 400..599, a JSON-RPC code
outside the range MCP leaves to servers, a code no tool returns, something undescribed.
Each rule is a rule of the registry (`generator.rules.lint`): a finding has its ID, its
place (file, line and column, in JSON files too, and the JSON pointer) and the level the
`Policy` gives (the registry's, `[tool.mcp-contracts.rules]`, contract.yaml `rules:` and
`lint.rules`). Rules about a column's meaning read the column's declared `role`, never its name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import lint_surface
from .findings.finding import Finding, Outcome
from .findings.policy import Policy
from .load.bundle import refs_in
from .load.documents import Document, Reading
from .load.project import LoadResult, contract_names, read_documents
from .load.resource_prompt_files import RESOURCES_FILE
from .model import Contract, Entry, Place
from .naming import member_name
from .protocol import revision
from .render.mcp import HINTS, tool_annotations, tool_listing
from .rules import Level, Rule
from .rules import lint as rules
from .rules.common import SOURCE_INVALID
from .schema.pointer import PointerError, encode, from_fragment, value_at
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

STYLES = {
    "upper_snake": re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$"),
    "lower_snake": re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"),
    "dotted_upper": re.compile(r"^[A-Z][A-Z0-9_]*(\.[A-Z][A-Z0-9_]*)*$"),
    "dotted_lower": re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$"),
}
MCP_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
STANDARD_JSONRPC = {-32700, -32600, -32601, -32602, -32603}
RETRYABLE_4XX = {408, 425, 429}


@dataclass(frozen=True)
class Sources:
    """The documents of one contract folder, for the rules to read and point into, and the
    contract they load into (None when the project does not load: rules that need what is
    published then say nothing, and loading's own diagnostics speak)."""

    identity: Document
    errors: Document
    tools: Document
    envelope: Document
    contract: Contract | None = None

    def roles(self) -> dict[str, str]:
        """role -> the errors column that has it."""
        columns = self.identity.data.get("columns", {}).get("errors", {})
        return {spec["role"]: name for name, spec in columns.items() if isinstance(spec, dict) and "role" in spec}


Check = Callable[[Sources], Iterator[tuple[Document, list[object], str]]]
CHECKS: dict[Rule, Check] = {}  # each lint rule's check, registered with it


def _check(rule: Rule) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        CHECKS[rule] = check
        return check

    return register


@_check(rules.CODE_STYLE)
def _code_style(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    entries = src.errors.data.get("errors", [])
    declared = src.identity.data.get("lint", {}).get("code_style")
    style = declared or next((n for n, p in STYLES.items() if entries and p.match(entries[0]["code"])), None)
    if style is None:
        return
    for index, entry in enumerate(entries):
        if not STYLES[style].match(entry["code"]):
            yield src.errors, ["errors", index, "code"], f"{entry['code']!r} is not {style}"


@_check(rules.CODE_UNIQUE)
def _code_unique(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    seen: set[str] = set()
    for index, entry in enumerate(src.errors.data.get("errors", [])):
        if entry["code"] in seen:
            yield src.errors, ["errors", index, "code"], f"{entry['code']!r} appears twice"
        seen.add(entry["code"])


@_check(rules.CODE_IDENTIFIER)
def _code_identifier(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    names: dict[str, str] = {}
    for index, entry in enumerate(src.errors.data.get("errors", [])):
        code, name = entry["code"], member_name(entry["code"])
        if name in names and names[name] != code:
            yield src.errors, ["errors", index, "code"], f"{code!r} and {names[name]!r} are both {name} in Python"
        names.setdefault(name, code)


@_check(rules.TOOL_CODES_KNOWN)
def _tool_codes_known(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    codes = {entry["code"] for entry in src.errors.data.get("errors", [])}
    for index, tool in enumerate(src.tools.data.get("tools", [])):
        for position, code in enumerate(tool.get("possible_error_codes", [])):
            if code not in codes:
                where: list[object] = ["tools", index, "possible_error_codes", position]
                yield src.tools, where, f"{tool['name']!r} names {code!r}, which errors.yaml lacks"


@_check(rules.CODE_UNUSED)
def _code_unused(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    tools = src.tools.data.get("tools", [])
    if not tools:
        return
    returned = {code for tool in tools for code in tool.get("possible_error_codes", [])}
    for index, entry in enumerate(src.errors.data.get("errors", [])):
        if entry["code"] not in returned:
            yield src.errors, ["errors", index, "code"], f"no tool returns {entry['code']!r}"


@_check(rules.TOOL_NAME)
def _tool_name(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    for index, tool in enumerate(src.tools.data.get("tools", [])):
        if not MCP_TOOL_NAME.fullmatch(tool["name"]):
            yield src.tools, ["tools", index, "name"], f"{tool['name']!r} is not a valid MCP tool name"


def _column_values(src: Sources, role: str) -> Iterator[tuple[int, str, Any]]:
    """(index, column, value) of each error's value in the column of `role`. A number role
    (an HTTP status, a JSON-RPC code) yields numbers only: the meta-schema lets a column of
    any type take the role, and a string has no range."""
    column = src.roles().get(role)
    number = role in ("http_status", "jsonrpc_code")
    for index, entry in enumerate(src.errors.data.get("errors", [])):
        if column is not None and column in entry:
            value = entry[column]
            if not number or (isinstance(value, int | float) and not isinstance(value, bool)):
                yield index, column, value


@_check(rules.JSONRPC_RANGE)
def _jsonrpc_range(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    for index, column, value in _column_values(src, "jsonrpc_code"):
        if not (-32019 <= value <= -32000 or value in STANDARD_JSONRPC):
            yield src.errors, ["errors", index, column], f"{value} is outside -32000..-32019 and not a standard code"


@_check(rules.HTTP_RANGE)
def _http_range(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    for index, column, value in _column_values(src, "http_status"):
        if not 400 <= value <= 599:
            yield src.errors, ["errors", index, column], f"{value} is not an error status (400..599)"


@_check(rules.RETRY_4XX)
def _retry_4xx(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    statuses = {index: value for index, _, value in _column_values(src, "http_status")}
    for index, column, value in _column_values(src, "retryable"):
        status = statuses.get(index)
        if value is True and status is not None and 400 <= status < 500 and status not in RETRYABLE_4XX:
            yield src.errors, ["errors", index, column], f"retryable, yet its HTTP status {status} says a retry fails"


def _described(key: str, section: str) -> Check:
    def check(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
        document = src.errors if section == "errors" else src.tools
        for index, entry in enumerate(document.data.get(section, [])):
            if not entry.get("description"):
                yield document, [section, index, key], f"{entry[key]!r} has no description"

    return check


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


@_check(rules.PROPERTY_DESCRIBED)
def _property_described(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    """A property of the envelope schema, or of a JSON resource's `schema:` in resources.yaml,
    without a description (a `$ref` one has its target's)."""
    schemas: list[tuple[Document, list[object], Any]] = [(src.envelope, [], src.envelope.data)]
    resources = src.contract.places.documents.get(RESOURCES_FILE) if src.contract is not None else None
    if isinstance(resources, Document) and isinstance(resources.data, dict):
        for section in ("resources", "templates"):
            for index, entry in enumerate(resources.data.get(section, [])):
                if "schema" in entry:
                    schemas.append((resources, [section, index, "schema"], entry["schema"]))
    for document, at, schema in schemas:
        for path, sub in _properties(schema):
            if isinstance(sub, dict) and not sub.get("description") and "$ref" not in sub:
                yield document, [*at, *path], f"property {path[-1]!r} has no description"


@_check(rules.DEF_UNUSED)
def _def_unused(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    schema = src.envelope.data
    referenced = {_pointer_in(value) for _, value in refs_in(schema)}
    for container in DEFINITIONS:
        found = schema.get(container) if isinstance(schema, dict) else None
        for name in found if isinstance(found, dict) else {}:  # the engine judges a non-object
            pointer = encode([container, name])
            if pointer not in referenced and not any(r and r.startswith(pointer + "/") for r in referenced):
                yield src.envelope, [container, name], f"{name!r} is not referenced"


@_check(rules.SHAPE_COPY_DIFFERS)
def _shape_copy_differs(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    """A tool's own outputSchema that means what no shape of the envelope means, where the
    envelope is the union of the shapes (`import` keeps a copy of each in both files)."""
    shapes = _shapes(src.envelope.data)
    tools = src.tools.data.get("tools") if isinstance(src.tools.data, dict) else None
    if not shapes or not isinstance(tools, list):
        return
    from .schema.compare import TooLarge, schema_difference  # what `conform` compares with: only here

    for index, tool in enumerate(tools):
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
            yield src.tools, ["tools", index, "outputSchema"], text


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


@_check(rules.OUTPUT_NOT_OBJECT)
def _output_not_object(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    contract = src.contract
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
        yield src.tools, ["tools", index, "outputSchema"], text
    if envelope_tools:
        shown = ", ".join(envelope_tools[:3]) + (
            f" and {len(envelope_tools) - 3} more" if len(envelope_tools) > 3 else ""
        )
        text = (
            f"the envelope may accept a non-object, so tools {shown} cannot be offered to {', '.join(needing)}"
            " (give its root `type: object`, or leave those revisions out of `protocol:`)"
        )
        yield src.envelope, [], text


@_check(rules.ERROR_OUTSIDE_OUTPUT)
def _error_outside_output(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    contract = src.contract
    if contract is None or contract.builders is None or not contract.error_results.structured:
        return
    from .serving.errors_admitted import refused_errors  # builds envelopes as mock does: only here

    for index, name, code, refusal in refused_errors(contract):
        text = f"{name!r}: its outputSchema refuses the error envelope of {code!r} ({refusal})"
        yield src.tools, ["tools", index, "outputSchema"], text


def _tool_entries(src: Sources) -> Iterator[tuple[int, Entry, str | None]]:
    """(index, tool, its mutation column) of each tool of the loaded contract."""
    if src.contract is not None:
        columns = src.contract.manifest.tools.columns
        mutation = next((c.name for c in columns if c.role == "mutation"), None)
        for index, tool in enumerate(src.contract.manifest.tools.entries):
            yield index, tool, mutation


@_check(rules.EXAMPLE_MATCH_UNRESOLVED)
def _example_match_unresolved(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    """Each `match:` pointer of an example call that names nothing in its `result` document:
    `conform` would compare the server's answer there with nothing."""
    contract = src.contract
    if contract is None:
        return
    documents = {f"{example.name}.json": example.value for example in contract.examples}
    absent = object()
    for index, tool, _ in _tool_entries(src):
        for number, call in enumerate(tool.get("examples") or ()):
            pointers, name = call.get("match"), call.get("result")
            if not isinstance(pointers, list) or name not in documents:
                continue
            for position, pointer in enumerate(pointers):
                if value_at(documents[name], pointer, absent) is absent:
                    text = f"{tool.code!r}: {pointer!r} names nothing in examples/{name}"
                    yield src.tools, ["tools", index, "examples", number, "match", position], text


@_check(rules.HINTS_EXPLICIT)
def _hints_explicit(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    for index, tool, mutation in _tool_entries(src):
        hints = tool_annotations(tool, mutation)
        missing = [hint for hint in HINTS if hint not in hints]
        if missing:
            yield src.tools, ["tools", index], f"{tool.code!r} leaves {', '.join(missing)} to the client's defaults"


@_check(rules.TOOL_TITLE)
def _tool_title(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    for index, tool, _ in _tool_entries(src):
        if not tool.get("title"):
            yield src.tools, ["tools", index, "name"], f"{tool.code!r} has no title"


@_check(rules.DESCRIPTION_LENGTH)
def _description_length(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    limit = src.identity.data.get("lint", {}).get("description_limit", rules.DESCRIPTION_LIMIT)
    for index, tool, _ in _tool_entries(src):
        text = tool.get("description") or ""
        if len(text) > limit:
            yield src.tools, ["tools", index, "description"], f"{tool.code!r}: {len(text)} characters, over {limit}"


# What a `$ref` may have beside it without a verdict depending on whether it applies.
_INERT_BESIDE_REF = ANNOTATIONS | STRUCTURAL | {"$ref"}


def _misread(
    document: Document, schema: Any, at: list[object], as_07: bool, formats: bool
) -> Iterator[tuple[Document, list[object], str]]:
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


@_check(rules.TYPESCRIPT_SDK_KEYWORD)
def _typescript_sdk_keyword(src: Sources) -> Iterator[tuple[Document, list[object], str]]:
    """Each published output schema, as its source says it (the envelope, a tool's own)."""
    contract = src.contract
    if contract is None:
        return
    envelope: Any = None
    for index, (tool, listed) in enumerate(zip(contract.manifest.tools.entries, tool_listing(contract), strict=True)):
        own, published = tool.get("outputSchema"), listed.get("outputSchema")
        if own is not None and published is not None:
            draft_07 = named(own) is DRAFT_07  # a tool's own schema is published as written
            yield from _misread(src.tools, own, ["tools", index, "outputSchema"], draft_07, draft_07)
        elif published is not None and envelope is None:
            envelope = published
    if isinstance(envelope, dict):
        as_07 = named(envelope) is DRAFT_07
        yield from _misread(src.envelope, src.envelope.data, [], as_07, contract.bundle.formats)


CHECKS[rules.CODE_DESCRIBED] = _described("code", "errors")
CHECKS[rules.TOOL_DESCRIBED] = _described("name", "tools")
CHECKS[rules.RESOURCE_DESCRIBED] = lambda src: lint_surface.resource_described(src.contract)
CHECKS[rules.PROMPT_DESCRIBED] = lambda src: lint_surface.prompt_described(src.contract)
CHECKS[rules.PLACEHOLDER_UNKNOWN] = lambda src: lint_surface.placeholder_unknown(src.contract)


def _sources(folder: Path, contract: Contract | None, reading: Reading) -> Sources | None:
    """The documents of a contract folder when each reads and meets its meta-schema (the
    shapes the rules rely on), else None: loading's diagnostics say what is wrong."""
    documents, _ = read_documents(folder, reading)
    names = ("contract.yaml", "errors.yaml", "tools.yaml", "envelope.schema.json")
    if any(name not in documents for name in names):
        return None
    identity, errors, tools, envelope = (documents[name] for name in names)
    return Sources(identity, errors, tools, envelope, contract)


def lint(
    schemas_dir: Path, loaded: LoadResult, reading: Reading, project_rules: Mapping[str, str] | None = None
) -> Outcome:
    """The findings of every contract whose files read, at the levels the `Policy` gives
    (`project_rules`: `[tool.mcp-contracts.rules]`), and when the sources do not load, the
    `source-invalid` findings of loading too (what loading refuses has rules of its own here).

    `loaded` is what `api` loaded from `schemas_dir` with `reading`; the rules read the
    files again the same way, so a file loading refuses is never judged here either."""
    contracts_dir = schemas_dir / "contracts"
    folders = [contracts_dir / name for name in contract_names(schemas_dir, reading)]  # as the loader lists them
    contracts = {c.name: c for c in loaded.project.contracts} if loaded.project is not None else {}
    sources = [(folder.name, _sources(folder, contracts.get(folder.name), reading)) for folder in folders]
    read = {name: src for name, src in sources if src is not None}
    policy = Policy(dict(project_rules or {}), {name: _contract_rules(src) for name, src in read.items()})
    findings: list[Finding] = []
    ran: set[str] = set()
    for name, src in read.items():
        for rule in _rules_for(src, name, policy):
            ran.add(rule.id)
            for document, path, message in CHECKS[rule](src):
                findings.append(Finding.of(rule, _place(document, path), message, contract=name))
    if loaded.project is None:
        findings += [Finding.of_diagnostic(d) for d in loaded.diagnostics]
        ran.add(SOURCE_INVALID.id)
    kept = policy.apply(findings)
    errors = sum(f.level == Level.ERROR for f in kept)
    warnings = sum(f.level == Level.WARNING for f in kept)
    summary = f"{errors} error(s), {warnings} warning(s), {len(kept) - errors - warnings} note(s)."
    return Outcome("lint", tuple(kept), tuple(sorted(ran)), loaded.project is not None, summary=summary)


def _contract_rules(src: Sources) -> dict[str, str]:
    """What contract.yaml sets the rules to: `rules:` over `lint.rules` (read from the file,
    for a contract that does not load is linted too)."""
    data = src.identity.data if isinstance(src.identity.data, dict) else {}
    lint_settings = data.get("lint") or {}
    return {**(lint_settings.get("rules") or {}), **(data.get("rules") or {})}


def _rules_for(src: Sources, contract: str, policy: Policy) -> Iterator[Rule]:
    """The lint rules that run for `contract`: those not off, and a rule of a
    profile only where `lint.profiles` turns the profile on or a setting names the rule."""
    data = src.identity.data if isinstance(src.identity.data, dict) else {}
    profiles = (data.get("lint") or {}).get("profiles", [])
    for rule in rules.LINT_RULES:
        if policy.level(rule.id, contract) is None:
            continue
        if rule.profile is not None and rule.profile not in profiles and policy.setting(rule.id, contract) is None:
            continue
        yield rule


def _place(document: Document, path: list[object]) -> Place:
    """The place of `path` in `document`: its file, line and column (JSON files too), and pointer."""
    line, column = document.position(path)
    return Place(document.name, line, column, encode(path))
