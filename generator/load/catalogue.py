"""errors.yaml and tools.yaml as model objects, with the checks between them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..diagnostics import Diagnostic
from ..model import (
    ERROR_COLUMNS,
    ERROR_TYPE_COLUMNS,
    TOOL_FIELDS,
    WARNING_COLUMNS,
    Catalogue,
    ErrorCodeEntry,
    ErrorTypeEntry,
    Manifest,
    Tool,
    WarningCodeEntry,
)
from ..naming import member_name, slug
from .documents import Document


def _duplicates(document: Document, section: str, key: str, items: list[dict[str, Any]]) -> list[Diagnostic]:
    """Codes that repeat, and distinct codes that would share one enum member name."""
    problems: list[Diagnostic] = []
    seen: dict[str, str] = {}
    for index, item in enumerate(items):
        value = item[key]
        member = member_name(value) if section != "tools" else slug(value) or value
        if member in seen:
            earlier = seen[member]
            what = (
                f"duplicate {key} {value!r}"
                if earlier == value
                else f"{value!r} and {earlier!r} map to one name {member!r} in code and docs"
            )
            problems.append(document.diagnostic([section, index, key], what))
        seen.setdefault(member, value)
    return problems


def build_catalogue(document: Document) -> tuple[Catalogue, list[Diagnostic]]:
    data = document.data
    problems: list[Diagnostic] = []
    for section, key in (("errors", "code"), ("error_types", "name"), ("warnings", "code")):
        problems += _duplicates(document, section, key, data.get(section, []))
    types = {
        t["name"]: ErrorTypeEntry(t["name"], member_name(t["name"]), **_pick(t, ERROR_TYPE_COLUMNS))
        for t in data.get("error_types", [])
    }
    errors = []
    for index, raw in enumerate(data["errors"]):
        values = _pick(raw, ERROR_COLUMNS)
        type_name = values.get("error_type")
        if types and type_name is not None:
            if type_name not in types:
                problems.append(
                    document.diagnostic(["errors", index, "error_type"], f"unknown error type {type_name!r}")
                )
            elif values.get("http_status") is None and types[type_name].http_status is not None:
                values["http_status"] = types[type_name].http_status
        errors.append(ErrorCodeEntry(raw["code"], member_name(raw["code"]), **values))
    warnings = tuple(
        WarningCodeEntry(w["code"], member_name(w["code"]), **_pick(w, WARNING_COLUMNS))
        for w in data.get("warnings", [])
    )
    return Catalogue(tuple(errors), tuple(types.values()), warnings), problems


def _pick(raw: dict[str, Any], columns: Iterable[str]) -> dict[str, Any]:
    return {c: raw[c] for c in columns if c in raw}


def build_manifest(document: Document, known_codes: Iterable[str]) -> tuple[Manifest, list[Diagnostic]]:
    data = document.data
    codes = set(known_codes)
    problems = _duplicates(document, "tools", "name", data["tools"])
    tools = []
    for index, raw in enumerate(data["tools"]):
        for position, code in enumerate(raw.get("possible_error_codes", [])):
            if code not in codes:
                where = ["tools", index, "possible_error_codes", position]
                problems.append(
                    document.diagnostic(
                        where, f"tool {raw['name']!r} names error code {code!r}, which errors.yaml lacks"
                    )
                )
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in _pick(raw, TOOL_FIELDS).items()}
        tools.append(Tool(raw["name"], **values))
    return Manifest(data.get("version"), tuple(tools)), problems
