"""The example calls `import` records, when asked (`--call`: the tools the server annotates
read-only, closed-world and not destructive, `facts.not_safe_to_call`; `--call-tool NAME`: any
one by name). A tool's arguments are drawn from its inputSchema (`synthesize.candidates`, with
the values its descriptions quote as examples), each judged by that schema first; the first
call that succeeds, with an answer its own outputSchema accepts, is recorded.
"""

from __future__ import annotations

import copy
import itertools
import re
from typing import Any

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from ..client.bounded import UnheldNumber, first_in_result
from ..client.connect import leaf
from ..client.report import shown
from ..schema.engine import first_refusal, standalone_validator
from ..schema.synthesize import candidates
from .facts import RecordedCall, not_safe_to_call

_TRIES = 8  # argument sets tried per tool before it is left without an example
# A quoted example in a description: 'Etc/UTC', "en-GB" or `main`.
_QUOTED = re.compile(r"""'([^'\n]{1,200})'|"([^"\n]{1,200})"|`([^`\n]{1,200})`""")


def to_call(
    tools: tuple[dict[str, Any], ...], call: bool, named: tuple[str, ...]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The tools `--call` (those safe to call) and `--call-tool` (`named`) ask to call, and
    why each tool that `--call` leaves alone was not called."""
    chosen, notes = [], []
    for tool in tools:
        why = not_safe_to_call(tool)
        if tool["name"] in named or (call and why is None):
            chosen.append(tool)
        elif call:
            notes.append(f"{tool['name']}: not called: {why} (name it with --call-tool)")
    return chosen, notes


async def record_calls(
    session: ClientSession,
    tools: list[dict[str, Any]],
    timeout: float,
    calls: dict[str, RecordedCall],
    notes: list[str],
    heard: list[UnheldNumber],
) -> None:
    """Call each of `tools`, into `calls` as each succeeds (those made stay when the server
    goes away during a later one)."""
    for tool in tools:
        recorded = await _record(session, tool, timeout, notes, heard)
        if recorded is not None:
            calls[tool["name"]] = recorded


def _unheld_answer(heard: list[UnheldNumber]) -> str | None:
    """Where and why an answer holds a number no double holds as written, or None."""
    found = first_in_result(heard, "/")
    return None if found is None else f"its answer holds a number no contract can hold at {found[0]}: {found[1]}"


async def _record(
    session: ClientSession, tool: dict[str, Any], timeout: float, notes: list[str], heard: list[UnheldNumber]
) -> RecordedCall | None:
    """The first successful call of `tool` with arguments drawn from its inputSchema (`heard`
    gains the numbers of each answer that no double holds as written)."""
    name = tool["name"]
    schema = tool.get("inputSchema") or {"type": "object"}
    try:
        judge_input = standalone_validator(schema)
        judge_output = (
            standalone_validator(tool["outputSchema"]) if isinstance(tool.get("outputSchema"), dict) else None
        )
    except ValueError as exc:
        notes.append(f"{name}: not called: its schema does not compile: {exc}")
        return None
    last = "no arguments its inputSchema accepts could be made"
    kinds: dict[str, None] = {}  # the block types of every answer, in order of first use
    for arguments in itertools.islice(_arguments(schema, judge_input), _TRIES):
        before = len(heard)
        try:
            with anyio.fail_after(timeout * 1.5):
                result = await session.send_request(
                    types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments)),
                    types.CallToolResult,
                    request_read_timeout_seconds=timeout,
                )
        except (MCPError, TimeoutError, ValidationError) as exc:
            last = f"{shown(arguments, 120)}: {leaf(exc) or 'no answer'}"
            continue
        kinds.update(dict.fromkeys(block.type for block in result.content))
        if result.is_error:
            text = " ".join(b.text for b in result.content if isinstance(b, types.TextContent))
            last = f"{shown(arguments, 120)}: an error result: {text[:160]}"
            continue
        document = result.structured_content
        unheld = _unheld_answer(heard[before:])
        if unheld is not None:
            last = f"{shown(arguments, 120)}: {unheld}"
            continue
        if judge_output is not None and document is not None:
            refused = first_refusal(judge_output, document)
            if refused is not None:
                last = f"{shown(arguments, 120)}: its answer does not meet its own outputSchema: {refused}"
                continue
        notes.append(f"{name}: called with {shown(arguments, 120)}")
        # A document is kept only for a tool that lists what it is: the others answer with content.
        structured = judge_output is not None and document is not None
        return RecordedCall(arguments, structured, document if structured else None, tuple(kinds))
    notes.append(f"{name}: no example recorded: {last}")
    return None


def _arguments(schema: dict[str, Any], judge: Any) -> Any:
    """Argument sets the schema accepts, simplest first, those its descriptions quote first."""
    for arguments in candidates(_with_quoted_examples(schema)):
        if isinstance(arguments, dict) and first_refusal(judge, arguments) is None:
            yield arguments


def _with_quoted_examples(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with, for each string property that gives no example, default, enum or const,
    the values its description quotes (`'Etc/UTC'`) as `examples`."""
    schema = copy.deepcopy(schema)
    for prop in (schema.get("properties") or {}).values():
        if not isinstance(prop, dict) or prop.get("type") != "string":
            continue
        if any(key in prop for key in ("examples", "default", "enum", "const")):
            continue
        quoted = [next(g for g in match.groups() if g) for match in _QUOTED.finditer(str(prop.get("description", "")))]
        if quoted:
            prop["examples"] = list(dict.fromkeys(quoted))
    return schema
