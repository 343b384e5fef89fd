"""A contract as an MCP server publishes it: what `mock` serves and `conform` holds servers to.

Each tool has its MCP listing (the entry of `mcp/<name>.tools.json`), the error codes it
declares, its example calls, and a judge of its results: the contract's judge (the one its
generated package holds, built from the same bundle) for a tool whose output is the
envelope, or its own `outputSchema` compiled by jsonschema-rs. An error document is told by
the code where `builders.code` points; the catalogue says what `builders.derived` must hold.

A tool whose results are content (`result.structured: false`) has no `structuredContent`:
its content blocks are of the types it declares (any type, when it declares none), the JSON of each text block meets its
`text_schema` (`text_check`), and its errors hold the envelope as text, or a code that
`error_results.code_pattern` finds in the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..model import Contract, Entry, ErrorResults
from ..render.mcp import structured, tool_listing
from ..runtime import Judge, Violation
from ..schema.engine import standalone_validator
from ..schema.pointer import value_at

Check = Callable[[Any], list[Violation]]


@dataclass(frozen=True)
class Call:
    """An example call of a tool: its arguments, the document that answers it, if named, and
    what of that document an answer must repeat (`match`: "exact", the JSON pointers whose
    values must be the document's, or None: its branch and code only)."""

    arguments: dict[str, Any]
    result: Any = None
    result_name: str | None = None
    match: str | tuple[str, ...] | None = None


@dataclass(frozen=True)
class ServedTool:
    name: str
    listing: dict[str, Any]
    declared_codes: frozenset[str] | None  # None: the tool does not say, any code of the catalogue
    calls: tuple[Call, ...]
    check: Check  # the judge of a structured document, success or error: outputSchema or envelope
    schema: Any = None  # the schema `check` judges by (None: the listed outputSchema); see `judged_by`
    structured: bool = True  # results carry structuredContent (tools.yaml `result.structured`)
    content_types: frozenset[str] | None = None  # the content block types a result may hold (None: any)
    text_schema: Any = None  # what the JSON of each text block meets, for a content tool
    text_check: Check | None = None  # `text_schema` compiled
    published_output: Any = None  # the output schema the server lists (conform; see `as_listed`)
    secrets: tuple[str, ...] = ()  # arguments no error answer may carry (tools.yaml `secret_arguments`)

    def declares(self, code: str) -> bool:
        return self.declared_codes is None or code in self.declared_codes

    @property
    def title(self) -> str | None:
        """The title the tool publishes, if any."""
        title = self.listing.get("title")
        return title if isinstance(title, str) else None

    @property
    def hints(self) -> dict[str, bool]:
        """The annotation hints the tool publishes (readOnlyHint, destructiveHint, ...)."""
        annotations = self.listing.get("annotations") or {}
        return {key: value for key, value in annotations.items() if key.endswith("Hint") and isinstance(value, bool)}

    def accepts_text(self, document: Any) -> bool:
        """Whether the JSON of a text block meets the tool's `text_schema` (any does without one)."""
        return self.text_check is None or not self.text_check(document)

    @property
    def judged_by(self) -> Any:
        """The schema `check` judges by: what the mock synthesises documents from."""
        return self.schema if self.schema is not None else self.listing.get("outputSchema", True)

    def as_listed(self, output_schema: Any) -> ServedTool:
        """The tool with the output schema a server lists for it: strict clients judge each
        `structuredContent` by it, that of an error too."""
        return replace(self, published_output=output_schema)


@dataclass(frozen=True)
class Mismatch:
    """A value the catalogue derives from a code that a document contradicts."""

    pointer: str
    column: str
    expected: Any
    found: Any


@dataclass(frozen=True)
class ServedContract:
    contract: Contract
    tools: tuple[ServedTool, ...]
    examples: tuple[tuple[str, Any], ...]  # (file name, document), in order
    envelope_check: Check | None = None  # the contract's judge (see `as_envelope`)

    @property
    def name(self) -> str:
        return self.contract.name

    def tool(self, name: str) -> ServedTool | None:
        return next((t for t in self.tools if t.name == name), None)

    def as_envelope(self, tool: ServedTool) -> ServedTool:
        """`tool` judged and synthesised by the contract's envelope, whatever its own output
        schema says: its error envelopes as the contract builds them (see `answers.error`)."""
        check = self.envelope_check or _judge_check(self.contract.judge)
        return replace(tool, check=check, schema=self.contract.bundle.in_2020_12, structured=True)

    def error_code(self, document: Any) -> str | None:
        """The error code a document carries; None for a success or a contract without builders."""
        builders = self.contract.builders
        return builders.code_in(document) if builders is not None else None

    def is_error_document(self, document: Any) -> bool:
        """Whether `document` is an error envelope: it carries a code, or has every value the
        error builder writes as a constant where the success builder writes another (`success:
        false`), though its code may be missing."""
        builders = self.contract.builders
        if builders is None:
            return False
        if builders.code_in(document) is not None:
            return True
        success = dict(builders.success_constants)
        telling = [(p, v) for p, v in builders.error_constants if p in success and not same_json(success[p], v)]
        missing = object()
        return bool(telling) and all(same_json(value_at(document, p, missing), v) for p, v in telling)

    def knows_errors(self) -> bool:
        """Whether documents say where their error code is (the contract declares builders)."""
        return self.contract.builders is not None

    def entry(self, code: str) -> Entry | None:
        return next((e for e in self.contract.catalogue.errors.entries if e.code == code), None)

    def argument_error(self, code: str) -> str | None:
        """The column that marks `code` as "the arguments were refused" (a boolean column of
        errors.yaml with `role: argument_error`, true for it, or for its error type); None
        when none does."""
        entry = self.entry(code)
        columns = (c.name for c in self.contract.catalogue.errors.columns if c.role == "argument_error")
        return next((name for name in columns if entry is not None and entry.get(name) is True), None)

    def derived(self, code: str) -> tuple[tuple[str, str, Any], ...]:
        """(document pointer, column, value) of each field the catalogue derives from `code`."""
        builders, entry = self.contract.builders, self.entry(code)
        if builders is None or entry is None:
            return ()
        return tuple(
            (pointer, column, _plain(entry.get(column)))
            for pointer, column in builders.derived
            if entry.get(column) is not None
        )

    def mismatches(self, document: Any, code: str) -> list[Mismatch]:
        return [
            Mismatch(pointer, column, expected, value_at(document, pointer))
            for pointer, column, expected in self.derived(code)
            if not same_json(value_at(document, pointer), expected)
        ]

    @property
    def error_results(self) -> ErrorResults:
        return self.contract.error_results

    def code_in_text(self, text: str) -> str | None:
        """The error code `error_results.code_pattern` finds in the text of an error result."""
        pattern = self.contract.error_results.code_pattern  # loading checked it; `re` keeps it compiled
        found = re.search(pattern, text) if pattern is not None else None
        return found.group("code") if found is not None and found.group("code") else None

    def message(self, code: str) -> str:
        entry = self.entry(code)
        text = entry.get("message") or entry.get("description") if entry is not None else None
        return str(text) if text else code


def _match(given: Any) -> str | tuple[str, ...] | None:
    """An example's `match:` as `Call` holds it (the meta-schema allows "exact" or pointers)."""
    return tuple(given) if isinstance(given, list) else given


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal as JSON Schema's `const` compares them: numbers by
    value (`404` is `404.0`), booleans apart from numbers, arrays in order, objects by keys."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def published_check(tool: ServedTool) -> Check | None:
    """The output schema the server lists for `tool`, compiled as a client compiles it; None
    when it lists none, or one that does not compile (the listing reports that)."""
    if tool.published_output is None:
        return None
    try:
        return _published(json.dumps(tool.published_output, sort_keys=True))
    except (ValueError, TypeError):
        return None


@lru_cache(maxsize=64)
def _published(text: str) -> Check:
    return _schema_check(json.loads(text))


def _schema_check(schema: Any) -> Check:
    validator = standalone_validator(schema)  # it compiles: loading checked it

    def check(document: Any) -> list[Violation]:
        return [Violation(tuple(error.instance_path), error.message) for error in validator.iter_errors(document)]

    return check


def _judge_check(judge: Judge) -> Check:
    def check(document: Any) -> list[Violation]:
        return [] if judge.is_valid(document) else judge.violations(document)

    return check


def served(contract: Contract) -> ServedContract:
    """What an MCP server of `contract` lists, answers and must answer."""
    envelope_check = _judge_check(contract.judge)
    examples = tuple((e.file_name, e.value) for e in contract.examples)
    documents = dict(examples)
    tools = []
    for entry, listing in zip(contract.manifest.tools.entries, tool_listing(contract), strict=True):
        own = entry.get("outputSchema")
        result = entry.get("result") or {}
        schema = listing.get("outputSchema") if own else None
        if schema is None:  # the envelope, published or not (a content tool's errors are envelopes)
            schema = contract.bundle.in_2020_12  # which `synthesize` reads (a draft-07 one is listed as written)
        text_schema = result.get("text_schema")
        calls = tuple(
            Call(dict(c["arguments"]), documents.get(c.get("result", "")), c.get("result"), _match(c.get("match")))
            for c in entry.get("examples") or ()
        )
        codes = entry.get("possible_error_codes")
        tools.append(
            ServedTool(
                name=entry.code,
                listing=listing,
                declared_codes=frozenset(codes) if codes is not None else None,
                calls=calls,
                check=_schema_check(own) if own else envelope_check,
                schema=schema,
                structured=structured(entry),
                content_types=frozenset(result["content"]) if result.get("content") else None,
                text_schema=text_schema,
                text_check=_schema_check(text_schema) if text_schema is not None else None,
                secrets=tuple(entry.get("secret_arguments") or ()),
            )
        )
    return ServedContract(contract, tuple(tools), examples, envelope_check)
