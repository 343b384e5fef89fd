"""A contract as an MCP server publishes it: what `mock` serves and `conform` holds servers to.

Each tool has its MCP listing (the entry of `mcp/<name>.tools.json`), the error codes it
declares, its example calls, and a judge of its results: the contract's judge (the one its
generated package holds, built from the same bundle) for a tool whose output is the
envelope, or its own `outputSchema` compiled by jsonschema-rs. An error document is told by
the code where `builders.code` points; the catalogue says what `builders.derived` must hold.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..keywords import standalone_validator
from ..model import Contract, Entry
from ..pointers import value_at
from ..render.mcp import tool_listing
from ..runtime import Judge, Violation

Check = Callable[[Any], list[Violation]]


@dataclass(frozen=True)
class Call:
    """An example call of a tool: its arguments, and the document that answers it, if named."""

    arguments: dict[str, Any]
    result: Any = None
    result_name: str | None = None


@dataclass(frozen=True)
class ServedTool:
    name: str
    listing: dict[str, Any]
    declared_codes: frozenset[str] | None  # None: the tool does not say, any code of the catalogue
    calls: tuple[Call, ...]
    check: Check

    def declares(self, code: str) -> bool:
        return self.declared_codes is None or code in self.declared_codes


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

    @property
    def name(self) -> str:
        return self.contract.name

    def tool(self, name: str) -> ServedTool | None:
        return next((t for t in self.tools if t.name == name), None)

    def error_code(self, document: Any) -> str | None:
        """The error code a document carries; None for a success or a contract without builders."""
        builders = self.contract.builders
        return builders.code_in(document) if builders is not None else None

    def knows_errors(self) -> bool:
        """Whether documents say where their error code is (the contract declares builders)."""
        return self.contract.builders is not None

    def entry(self, code: str) -> Entry | None:
        return next((e for e in self.contract.catalogue.errors.entries if e.code == code), None)

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

    def message(self, code: str) -> str:
        entry = self.entry(code)
        text = entry.get("message") or entry.get("description") if entry is not None else None
        return str(text) if text else code


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
    judge = Judge.from_bundle(json.loads(contract.bundle_json))
    envelope_check = _judge_check(judge)
    examples = tuple((e.file_name, json.loads(e.text)) for e in contract.examples)
    documents = dict(examples)
    tools = []
    for entry, listing in zip(contract.manifest.tools.entries, tool_listing(contract), strict=True):
        own = entry.get("outputSchema")
        calls = tuple(
            Call(dict(c["arguments"]), documents.get(c.get("result", "")), c.get("result"))
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
            )
        )
    return ServedContract(contract, tuple(tools), examples)
