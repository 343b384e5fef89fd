"""`mcp-contracts breaking --against REF`: what an edit of the sources breaks for clients.

Direction decides. A response envelope is written by servers and read by clients: a change
breaks them when a field they rely on is no longer guaranteed (removed, made optional, its
type changed or widened) or when objects open to fields they never saw; new values of a
code enum are a warning, since clients should have a default. A tool's `inputSchema` is
read by servers: there narrowing breaks (a field made required, an enum value removed).
Catalogue and tools: a contract, tool or code removed, or a declared column's value changed
(a retryable flag, an HTTP status, a mutation flag...), is breaking; a tool that gains a
possible error code is a warning.

REF is a git revision of the repository (read with `git archive`, never checked out over
the work tree) or a folder that holds other sources.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .load.catalogue import CORE_NAMES
from .model import Contract, Project, ViewClass, ViewType
from .schema.pointer import encode
from .schema.values import json_types

BUMPS = ("patch", "minor", "major")


@dataclass(frozen=True)
class Change:
    rule: str
    level: str  # breaking, warning or addition
    contract: str
    where: str  # a JSON pointer or a catalogue entry, on both sides ("old -> new" when they differ)
    message: str
    category: str = "catalogue"  # catalogue, tools, response, input or version

    @property
    def bump(self) -> str:
        return {"breaking": "major", "warning": "minor", "addition": "minor"}[self.level]

    def __str__(self) -> str:
        return f"{self.contract}: {self.rule} [{self.level}, {self.category}] {self.where}: {self.message}"


def compare(old: Project, new: Project) -> list[Change]:
    before = {c.name: c for c in old.contracts}
    after = {c.name: c for c in new.contracts}
    changes = [
        Change("contract-removed", "breaking", name, name, "the contract is gone")
        for name in before
        if name not in after
    ]
    for name in sorted(set(before) & set(after)):
        changes += _contract(before[name], after[name])
    return changes


def _contract(old: Contract, new: Contract) -> list[Change]:
    changes = _table(old, new, "errors", "code")
    changes += _table(old, new, "tools", "tool")
    changes += _view(old, new)
    changes += _inputs(old, new)
    return changes


def _entries(contract: Contract, table: str) -> dict[str, dict[str, Any]]:
    source = contract.manifest.tools if table == "tools" else contract.catalogue.errors
    return {entry.code: dict(entry.values) for entry in source.entries}


def _declared(contract: Contract, table: str) -> set[str]:
    """The columns the contract declares for `table` (the core ones are not its metadata)."""
    source = contract.manifest.tools if table == "tools" else contract.catalogue.errors
    return {column.name for column in source.columns if column.name not in CORE_NAMES}


def _table(old: Contract, new: Contract, table: str, what: str) -> list[Change]:
    before, after = _entries(old, table), _entries(new, table)
    changes: list[Change] = []
    category = "tools" if table == "tools" else "catalogue"
    for key in before:
        if key not in after:
            changes.append(
                Change(f"{what}-removed", "breaking", new.name, f"{table}.yaml {key}", f"the {what} is gone", category)
            )
    for key in after:
        if key not in before:
            level = "warning" if table == "errors" else "addition"
            text = "a new code: clients need a default for codes they do not know" if table == "errors" else "new"
            changes.append(Change(f"{what}-added", level, new.name, f"{table}.yaml {key}", text, category))
    for key in sorted(set(before) & set(after)):
        for column in sorted(_declared(old, table) & _declared(new, table)):
            was, now = before[key].get(column), after[key].get(column)
            if was != now:
                where = f"{table}.yaml {key}.{column}"
                changes.append(
                    Change(f"{what}-{column}-changed", "breaking", new.name, where, f"{was!r} became {now!r}", category)
                )
        if table == "tools":
            gained = set(after[key].get("possible_error_codes", ())) - set(before[key].get("possible_error_codes", ()))
            for code in sorted(gained):
                where = f"tools.yaml {key}"
                changes.append(
                    Change("tool-code-added", "warning", new.name, where, f"may now return {code!r}", "tools")
                )
    return changes


def _classes(contract: Contract) -> dict[str, ViewClass]:
    return {c.name: c for c in contract.view.classes}


def _view(old: Contract, new: Contract) -> list[Change]:
    """Responses: every guarantee a client had still holds. The two views are walked
    together from the root along the document's paths, so that a definition renamed or
    moved (an inline object made a `$defs` entry) is the same place in the document."""
    changes: list[Change] = []
    before, after = _classes(old), _classes(new)
    walked: set[tuple[str, str]] = set()

    def change(rule: str, level: str, path: str, text: str) -> None:
        changes.append(Change(rule, level, new.name, f"envelope {path or '/'}", text, "response"))

    def walk(was: ViewClass, now: ViewClass, path: str) -> None:
        if (was.name, now.name) in walked:
            return
        walked.add((was.name, now.name))
        if was.closed and not now.closed:
            change("object-opened", "breaking", path, "other properties are now allowed")
        fields = {f.name: f for f in now.fields}
        for field in was.fields:
            other = fields.get(field.name)
            at = path + encode([field.name])
            if other is None:
                change("property-removed", "breaking", at, "the property is gone")
            elif field.required and not other.required:
                change("property-optional", "breaking", at, "no longer always present")
            else:
                types(field.type, other.type, at)
        for added in (f for f in now.fields if f.name not in {x.name for x in was.fields}):
            change("property-added", "addition", path + encode([added.name]), "new")

    def types(was: ViewType, now: ViewType, path: str) -> None:
        if was.kind == now.kind == "class" and was.name in before and now.name in after:
            walk(before[was.name], after[now.name], path)
        elif was.kind == now.kind and was.kind in ("list", "dict"):
            types(was.items[0], now.items[0], f"{path}/{'0' if was.kind == 'list' else '*'}")
        elif _members(was) != _members(now):
            level, text = _type_change(was, now)
            change("property-type-changed", level, path, text)

    if old.view.root in before and new.view.root in after:
        walk(before[old.view.root], after[new.view.root], "")
    return changes


def _members(kind: ViewType) -> set[Any]:
    """What a type admits, with classes as one kind (a renamed class is the same kind)."""
    if kind.kind == "union":
        return {m for item in kind.items for m in _members(item)}
    if kind.kind == "literal":
        return {("literal", v) for v in kind.values}
    if kind.kind == "class":
        return {("class",)}
    if kind.kind in ("list", "dict"):
        return {(kind.kind, frozenset(_members(kind.items[0])))}
    return {kind.kind}


def _type_change(was: ViewType, now: ViewType) -> tuple[str, str]:
    old, new = _members(was), _members(now)
    if new < old:
        return "addition", "narrowed: clients see fewer kinds of value"
    if old < new and all(isinstance(m, tuple) and m[0] == "literal" for m in new - old):
        return "warning", "new values: clients need a default for values they do not know"
    return "breaking", "widened or changed: clients may get a value they do not handle"


def _inputs(old: Contract, new: Contract) -> list[Change]:
    """Tool inputs are read by servers: narrowing what is accepted breaks callers."""
    changes = []
    before, after = _entries(old, "tools"), _entries(new, "tools")
    for tool in sorted(set(before) & set(after)):
        was, now = before[tool].get("inputSchema"), after[tool].get("inputSchema")
        if isinstance(was, dict) and isinstance(now, dict):
            where = f"tools.yaml {tool}.inputSchema"
            changes += [
                Change(rule, "breaking", new.name, f"{where}{at}", text, "input")
                for rule, at, text in input_narrowings(was, now)
            ]
    return changes


def input_narrowings(was: Any, now: Any) -> list[tuple[str, str, str]]:
    """(rule, JSON pointer, message) of each way the input schema `now` accepts less than
    `was`: an argument made required, an enum value or a type dropped, the object closed.
    Parts that are not what a schema holds there (a server may publish anything) are passed over."""
    if not isinstance(was, dict) or not isinstance(now, dict):
        return []
    found = []
    for name in sorted(_strings(now.get("required")) - _strings(was.get("required"))):
        found.append(("input-required", encode(["required", name]), f"{name!r} is now required"))
    old_props, new_props = _map(was.get("properties")), _map(now.get("properties"))
    for name in sorted(set(old_props) & set(new_props)):
        a, b = old_props[name], new_props[name]
        at = encode(["properties", name])
        if isinstance(a, dict) and isinstance(b, dict):
            removed = {repr(v) for v in _values(a)} - {repr(v) for v in _values(b)}
            if _values(b) and removed:
                found.append(("input-enum-narrowed", at, f"no longer accepts {', '.join(sorted(removed))}"))
            elif _types(b) < _types(a):
                now_types, was_types = ", ".join(sorted(_types(b))) or "nothing", ", ".join(sorted(_types(a)))
                found.append(("input-type-narrowed", at, f"accepts only {now_types} now ({was_types} before)"))
    if was.get("additionalProperties") is not False and now.get("additionalProperties") is False:
        found.append(("input-closed", "/additionalProperties", "other arguments are refused"))
    return found


def _values(schema: dict[str, Any]) -> list[Any]:
    """The values an `enum` or a `const` allows ([] when neither is there)."""
    if "const" in schema:
        return [schema["const"]]
    return _list(schema.get("enum"))


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _strings(value: Any) -> set[str]:
    return {v for v in _list(value) if isinstance(v, str)}


def _map(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _types(schema: dict[str, Any]) -> set[str]:
    """The JSON types a schema admits, by its `type` and by the values of its `enum`/`const`
    (an integer is a number too)."""
    declared = schema.get("type", ["string", "number", "integer", "boolean", "object", "array", "null"])
    found = _strings(declared) if isinstance(declared, list) else {declared} if isinstance(declared, str) else set()
    if "number" in found:
        found.add("integer")
    values = _values(schema)
    if values:
        found &= set().union(*(json_types(v) for v in values))
    return found


def _version(text: str) -> tuple[int, int, int] | None:
    found = re.search(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
    if found is None:
        return None
    return (int(found.group(1)), int(found.group(2) or 0), int(found.group(3) or 0))


def needed_bumps(old: Project, new: Project, changes: list[Change]) -> list[Change]:
    """A finding per contract whose `version` was not raised as much as its changes need."""
    findings = []
    before = {c.name: c for c in old.contracts}
    for contract in new.contracts:
        mine = [c for c in changes if c.contract == contract.name]
        if not mine or contract.name not in before:
            continue
        need = max((BUMPS.index(c.bump) for c in mine), default=0)
        was, now = _version(before[contract.name].version), _version(contract.version)
        if was is None or now is None:
            continue
        made = 2 if now[0] > was[0] else 1 if now[:2] > was[:2] else 0 if now > was else -1
        if made < need:
            text = f"{before[contract.name].version!r} to {contract.version!r}: the changes need a {BUMPS[need]} bump"
            where = "contract.yaml version"
            findings.append(Change("version-not-bumped", "breaking", contract.name, where, text, "version"))
    return findings


def changes_between(old: Project, new: Project) -> list[Change]:
    """The changes from `old` to `new`, then the version bumps they need and did not get.
    Loading is the caller's (`api.breaking_with`), with the project's limits on both sides."""
    changes = compare(old, new)
    return changes + needed_bumps(old, new, changes)
