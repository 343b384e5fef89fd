"""`mcp-contracts lint`: the conventions of a contract, as rules with stable IDs.

Loading already refuses what cannot be generated (a duplicate code, codes that collide as
Python names, a tool naming an unknown code). Lint judges what can be generated but should
not be: a code in another naming style, an HTTP status outside 400..599, a JSON-RPC code
outside the range MCP leaves to servers, a code no tool returns, something undescribed.
Each rule is a rule of the registry (`generator.rules.lint`): a finding has its ID, its
place (file, line and column, in JSON files too, and the JSON pointer) and the level the
`Policy` gives (the registry's, `[tool.mcp-contracts.rules]`, contract.yaml `rules:` and
`lint.rules`). Rules about a column's meaning read the column's declared `role`, never its name.
Here the rules of errors.yaml's and tools.yaml's tables; those of the schemas are
`lint_schemas.py`'s, of resources and prompts `lint_surface.py`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import lint_schemas, lint_surface
from .findings.finding import Finding, Outcome
from .findings.policy import Policy
from .lint_schemas import Found
from .load.contract_files import read_documents
from .load.documents import Document
from .load.project import LoadResult, contract_names
from .load.reading import Reading
from .model import Contract, Entry, Place
from .naming import member_name
from .render.mcp import HINTS, tool_annotations
from .rules import Level, Rule
from .rules import lint as rules
from .rules.common import SOURCE_INVALID
from .schema.pointer import encode, value_at

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


Check = Callable[[Sources], Found]
CHECKS: dict[Rule, Check] = {}  # each lint rule's check, registered with it


def _check(rule: Rule) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        CHECKS[rule] = check
        return check

    return register


@_check(rules.CODE_STYLE)
def _code_style(src: Sources) -> Found:
    entries = src.errors.data.get("errors", [])
    declared = src.identity.data.get("lint", {}).get("code_style")
    style = declared or next((n for n, p in STYLES.items() if entries and p.match(entries[0]["code"])), None)
    if style is None:
        return
    for index, entry in enumerate(entries):
        if not STYLES[style].match(entry["code"]):
            yield src.errors, ["errors", index, "code"], f"{entry['code']!r} is not {style}"


@_check(rules.CODE_UNIQUE)
def _code_unique(src: Sources) -> Found:
    seen: set[str] = set()
    for index, entry in enumerate(src.errors.data.get("errors", [])):
        if entry["code"] in seen:
            yield src.errors, ["errors", index, "code"], f"{entry['code']!r} appears twice"
        seen.add(entry["code"])


@_check(rules.CODE_IDENTIFIER)
def _code_identifier(src: Sources) -> Found:
    names: dict[str, str] = {}
    for index, entry in enumerate(src.errors.data.get("errors", [])):
        code, name = entry["code"], member_name(entry["code"])
        if name in names and names[name] != code:
            yield src.errors, ["errors", index, "code"], f"{code!r} and {names[name]!r} are both {name} in Python"
        names.setdefault(name, code)


@_check(rules.TOOL_CODES_KNOWN)
def _tool_codes_known(src: Sources) -> Found:
    codes = {entry["code"] for entry in src.errors.data.get("errors", [])}
    for index, tool in enumerate(src.tools.data.get("tools", [])):
        for position, code in enumerate(tool.get("possible_error_codes", [])):
            if code not in codes:
                where: list[object] = ["tools", index, "possible_error_codes", position]
                yield src.tools, where, f"{tool['name']!r} names {code!r}, which errors.yaml lacks"


@_check(rules.CODE_UNUSED)
def _code_unused(src: Sources) -> Found:
    tools = src.tools.data.get("tools", [])
    if not tools:
        return
    returned = {code for tool in tools for code in tool.get("possible_error_codes", [])}
    for index, entry in enumerate(src.errors.data.get("errors", [])):
        if entry["code"] not in returned:
            yield src.errors, ["errors", index, "code"], f"no tool returns {entry['code']!r}"


@_check(rules.TOOL_NAME)
def _tool_name(src: Sources) -> Found:
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
def _jsonrpc_range(src: Sources) -> Found:
    for index, column, value in _column_values(src, "jsonrpc_code"):
        if not (-32019 <= value <= -32000 or value in STANDARD_JSONRPC):
            yield src.errors, ["errors", index, column], f"{value} is outside -32000..-32019 and not a standard code"


@_check(rules.HTTP_RANGE)
def _http_range(src: Sources) -> Found:
    for index, column, value in _column_values(src, "http_status"):
        if not 400 <= value <= 599:
            yield src.errors, ["errors", index, column], f"{value} is not an error status (400..599)"


@_check(rules.RETRY_4XX)
def _retry_4xx(src: Sources) -> Found:
    statuses = {index: value for index, _, value in _column_values(src, "http_status")}
    for index, column, value in _column_values(src, "retryable"):
        status = statuses.get(index)
        if value is True and status is not None and 400 <= status < 500 and status not in RETRYABLE_4XX:
            yield src.errors, ["errors", index, column], f"retryable, yet its HTTP status {status} says a retry fails"


def _described(key: str, section: str) -> Check:
    def check(src: Sources) -> Found:
        document = src.errors if section == "errors" else src.tools
        for index, entry in enumerate(document.data.get(section, [])):
            if not entry.get("description"):
                yield document, [section, index, key], f"{entry[key]!r} has no description"

    return check


def _tool_entries(src: Sources) -> Iterator[tuple[int, Entry, str | None]]:
    """(index, tool, its mutation column) of each tool of the loaded contract."""
    if src.contract is not None:
        columns = src.contract.manifest.tools.columns
        mutation = next((c.name for c in columns if c.role == "mutation"), None)
        for index, tool in enumerate(src.contract.manifest.tools.entries):
            yield index, tool, mutation


@_check(rules.EXAMPLE_MATCH_UNRESOLVED)
def _example_match_unresolved(src: Sources) -> Found:
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
def _hints_explicit(src: Sources) -> Found:
    for index, tool, mutation in _tool_entries(src):
        hints = tool_annotations(tool, mutation)
        missing = [hint for hint in HINTS if hint not in hints]
        if missing:
            yield src.tools, ["tools", index], f"{tool.code!r} leaves {', '.join(missing)} to the client's defaults"


@_check(rules.TOOL_TITLE)
def _tool_title(src: Sources) -> Found:
    for index, tool, _ in _tool_entries(src):
        if not tool.get("title"):
            yield src.tools, ["tools", index, "name"], f"{tool.code!r} has no title"


@_check(rules.DESCRIPTION_LENGTH)
def _description_length(src: Sources) -> Found:
    limit = src.identity.data.get("lint", {}).get("description_limit", rules.DESCRIPTION_LIMIT)
    for index, tool, _ in _tool_entries(src):
        text = tool.get("description") or ""
        if len(text) > limit:
            yield src.tools, ["tools", index, "description"], f"{tool.code!r}: {len(text)} characters, over {limit}"


CHECKS[rules.CODE_DESCRIBED] = _described("code", "errors")
CHECKS[rules.TOOL_DESCRIBED] = _described("name", "tools")
CHECKS[rules.RESOURCE_DESCRIBED] = lambda src: lint_surface.resource_described(src.contract)
CHECKS[rules.PROMPT_DESCRIBED] = lambda src: lint_surface.prompt_described(src.contract)
CHECKS[rules.PLACEHOLDER_UNKNOWN] = lambda src: lint_surface.placeholder_unknown(src.contract)


def _of_sources(check: lint_schemas.SchemaCheck) -> Check:
    """A rule of the schemas (`lint_schemas`), given what it reads of `Sources`."""
    return lambda src: check(src.tools, src.envelope, src.contract)


CHECKS.update({rule: _of_sources(check) for rule, check in lint_schemas.CHECKS.items()})


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
