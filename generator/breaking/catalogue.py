"""The catalogue and the tool listing of two versions of a contract.

Error codes removed or added, a declared column's value changed (a retryable flag, an HTTP
status: `code-value-changed`, the column in the message); tools removed or added, their
declared columns, the codes they may return, their annotations and title, and how their
results reach clients (`result:`). Each tool's `inputSchema` and `outputSchema` (and a
text result's `text_schema`) go to the schema differ, each in its direction.
"""

from __future__ import annotations

from typing import Any

from ..load.catalogue import CORE_NAMES
from ..model import Contract, Entry, Table
from ..protocol import CONTENT_TYPES
from ..rules import breaking as rules
from .differ import INPUT, RESPONSE, Differ
from .report import Report, shown
from .shape import Side

# What a client assumes of a tool when a hint is not given (the MCP specification's defaults),
# and the value of each hint a client may rely on: a change away from it breaks that client.
HINT_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}
RELIED_ON = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
# A tool whose results are content and that declares no block types may answer with any.
CONTENT_DEFAULT = list(CONTENT_TYPES)


def _indexed(table: Table) -> dict[str, tuple[int, Entry]]:
    return {entry.code: (index, entry) for index, entry in enumerate(table.entries)}


def _declared(table: Table) -> list[str]:
    """The columns a contract declares for a table (the core ones are not its metadata)."""
    return [column.name for column in table.columns if column.name not in CORE_NAMES]


def errors(report: Report) -> None:
    before, after = _indexed(report.old.catalogue.errors), _indexed(report.new.catalogue.errors)
    for code, (index, _) in before.items():
        if code not in after:
            old = ("errors.yaml", ("errors", index))
            report.add(
                rules.CODE_REMOVED, f"code {code}", ("errors.yaml", ("errors",)), old, f"the code {code} is gone"
            )
    for code, (index, _) in after.items():
        if code not in before:
            new = ("errors.yaml", ("errors", index))
            text = f"a new code {code}: clients need a default for codes they do not know"
            report.add(rules.CODE_ADDED, f"code {code}", new, ("errors.yaml", ("errors",)), text)
    columns = [c for c in _declared(report.new.catalogue.errors) if c in _declared(report.old.catalogue.errors)]
    for code in (c for c in after if c in before):
        (i, was), (j, now) = before[code], after[code]
        for column in columns:
            if was.get(column) != now.get(column):
                text = f"{code}.{column}: {shown(was.get(column))} became {shown(now.get(column))}"
                changed = ("errors.yaml", ("errors", j, column)), ("errors.yaml", ("errors", i, column))
                report.add(rules.CODE_VALUE_CHANGED, f"code {code} column {column}", *changed, text)


def tools(report: Report) -> None:
    before, after = _indexed(report.old.manifest.tools), _indexed(report.new.manifest.tools)
    for name, (index, _) in before.items():
        if name not in after:
            old = ("tools.yaml", ("tools", index))
            report.add(rules.TOOL_REMOVED, f"tool {name}", ("tools.yaml", ("tools",)), old, f"the tool {name} is gone")
    for name, (index, _) in after.items():
        if name not in before:
            new = ("tools.yaml", ("tools", index))
            report.add(rules.TOOL_ADDED, f"tool {name}", new, ("tools.yaml", ("tools",)), f"a new tool {name}")
    for name in (n for n in after if n in before):
        tool(report, name, before[name], after[name])


def tool(report: Report, name: str, was: tuple[int, Entry], now: tuple[int, Entry]) -> None:
    (i, old), (j, new) = was, now
    for column in (c for c in _declared(report.new.manifest.tools) if c in _declared(report.old.manifest.tools)):
        if old.get(column) != new.get(column):
            text = f"{name}.{column}: {shown(old.get(column))} became {shown(new.get(column))}"
            changed = ("tools.yaml", ("tools", j, column)), ("tools.yaml", ("tools", i, column))
            report.add(rules.TOOL_VALUE_CHANGED, f"tool {name} column {column}", *changed, text)
    gained = [c for c in new.get("possible_error_codes") or () if c not in (old.get("possible_error_codes") or ())]
    for code in gained:
        codes = list(new.get("possible_error_codes"))
        listed = ("tools.yaml", ("tools", j, "possible_error_codes", codes.index(code)))
        text = f"{name} may now return {code}"
        report.add(rules.TOOL_CODE_ADDED, f"tool {name} error-code {code}", listed, ("tools.yaml", ("tools", i)), text)
    hints(report, name, was, now)
    title(report, name, was, now)
    examples(report, name, was, now)
    results(report, name, was, now)
    schemas(report, name, was, now)


def _hints(contract: Contract, entry: Entry) -> dict[str, Any]:
    """The hints a client reads: the tool's own, `readOnlyHint` from a mutation column, the defaults."""
    given = dict(entry.get("annotations") or {})
    mutation = next((c.name for c in contract.manifest.tools.columns if c.role == "mutation"), None)
    if mutation is not None and isinstance(entry.get(mutation), bool):
        given.setdefault("readOnlyHint", not entry.get(mutation))
    return {hint: given.get(hint, default) for hint, default in HINT_DEFAULTS.items()}


def hints(report: Report, name: str, was: tuple[int, Entry], now: tuple[int, Entry]) -> None:
    before, after = _hints(report.old, was[1]), _hints(report.new, now[1])
    for hint, relied in RELIED_ON.items():
        if before[hint] == after[hint]:
            continue
        new = ("tools.yaml", ("tools", now[0], "annotations", hint))
        old = ("tools.yaml", ("tools", was[0], "annotations", hint))
        text = f"{hint} {shown(before[hint])} became {shown(after[hint])}"
        rule_id = rules.TOOL_HINT_WEAKENED if before[hint] == relied else rules.TOOL_HINT_STRENGTHENED
        report.add(rule_id, f"tool {name} annotations.{hint}", new, old, text)


def title(report: Report, name: str, was: tuple[int, Entry], now: tuple[int, Entry]) -> None:
    if was[1].get("title") != now[1].get("title"):
        new, old = ("tools.yaml", ("tools", now[0], "title")), ("tools.yaml", ("tools", was[0], "title"))
        text = f"the title {shown(was[1].get('title'))} became {shown(now[1].get('title'))}"
        report.add(rules.TOOL_TITLE_CHANGED, f"tool {name} title", new, old, text)


def examples(report: Report, name: str, was: tuple[int, Entry], now: tuple[int, Entry]) -> None:
    before, after = list(was[1].get("examples") or ()), list(now[1].get("examples") or ())
    if before != after:
        new, old = ("tools.yaml", ("tools", now[0], "examples")), ("tools.yaml", ("tools", was[0], "examples"))
        gained = sum(call not in before for call in after)
        lost = sum(call not in after for call in before)
        text = f"its example calls changed: {gained} added, {lost} removed"
        report.add(rules.TOOL_EXAMPLES_CHANGED, f"tool {name} examples", new, old, text)


def _result(entry: Entry) -> tuple[bool, list[str], Any]:
    declared = entry.get("result") or {}
    content = declared.get("content") or CONTENT_DEFAULT
    return declared.get("structured", True) is not False, list(content), declared.get("text_schema")


def results(report: Report, name: str, was: tuple[int, Entry], now: tuple[int, Entry]) -> None:
    """How results reach clients: structured or text, the content block types, a text schema."""
    (structured, content, text), (structured_now, content_now, text_now) = _result(was[1]), _result(now[1])
    new, old = ("tools.yaml", ("tools", now[0], "result")), ("tools.yaml", ("tools", was[0], "result"))
    subject = f"tool {name} result"
    if structured and not structured_now:
        report.add(rules.RESULT_UNSTRUCTURED, subject, new, old, "results no longer carry structuredContent")
    elif structured_now and not structured:
        report.add(rules.RESPONSE_NARROWED, subject, new, old, "results now carry structuredContent")
    added = [c for c in content_now if c not in content]
    if added:
        report.add(rules.RESULT_CONTENT_ADDED, subject, new, old, f"results may now hold {', '.join(added)} blocks")
    if text is not None or text_now is not None:
        where = ("tools.yaml", ("tools", was[0], "result", "text_schema"))
        now_where = ("tools.yaml", ("tools", now[0], "result", "text_schema"))
        _schema_pair(report, f"tool {name} result", RESPONSE, (text, where), (text_now, now_where))


def schemas(report: Report, name: str, was: tuple[int, Entry], now: tuple[int, Entry]) -> None:
    """The tool's `inputSchema` (read by servers) and `outputSchema` (read by clients), where
    both sides declare one: a schema declared for the first time documents what was not
    written down (the listing said only "an object"), and a tool's results without an
    `outputSchema` are the envelope's, compared with it."""
    for key, direction, word in (("inputSchema", INPUT, "input"), ("outputSchema", RESPONSE, "output")):
        old, new = was[1].get(key), now[1].get(key)
        if old is None or new is None:
            continue  # declared for the first time (or no longer): results are the envelope's
        at = ("tools.yaml", ("tools", was[0], key)), ("tools.yaml", ("tools", now[0], key))
        _schema_pair(report, f"tool {name} {word}", direction, (old, at[0]), (new, at[1]))


def _schema_pair(report: Report, prefix: str, direction: str, old: tuple[Any, Any], new: tuple[Any, Any]) -> None:
    """One schema of a tool on both sides (an absent one admits anything)."""
    (was, was_at), (now, now_at) = old, new
    was = True if was is None else was
    now = True if now is None else now
    before = Side.of({"": was}, was_at[0], was_at[1])
    after = Side.of({"": now}, now_at[0], now_at[1])
    report.changes(prefix, Differ(before, after, direction).run(was, now, was_at, now_at))
