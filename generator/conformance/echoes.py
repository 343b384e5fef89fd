"""Where an error answer echoes an argument it must not carry (tools.yaml `secret_arguments`).

Seed 000's "Error responses MUST NOT include code contents", as a check: the value of each
secret argument a call gave is looked for in an error answer, in every string (and key) of
its `structuredContent`, of the JSON of its text content, in its text as written, and in the
message of a JSON-RPC error. Only string values of at least `SHORTEST` characters are looked
for: a shorter one could be in any answer by chance. `conform --fuzz` gives each secret
argument a marker (`MARKER`) where the input schema takes it, which no server writes unless
it echoes the argument.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import mcp.types as types

from ..runtime import NotJson, parse_json
from ..schema.pointer import encode
from ..serving.served import ServedTool

SHORTEST = 6  # characters a value needs to be looked for
MARKER = "mcp-contracts-secret-argument-7f3a9c"  # what `--fuzz` puts in a secret argument


def _strings(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every string of a JSON value, keys too, with the path of the value that holds it."""
    stack: list[tuple[tuple[Any, ...], Any]] = [(at, value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            yield path, item
        elif isinstance(item, dict):
            for key, inner in item.items():
                yield (*path, key), str(key)
                stack.append(((*path, key), inner))
        elif isinstance(item, list):
            stack.extend(((*path, index), inner) for index, inner in enumerate(item))


def _found_in(value: str, document: Any) -> str | None:
    """The JSON pointer of the first string of `document` that holds `value` (`/` for the root)."""
    held = sorted(encode(path) for path, text in _strings(document) if value in text)
    return (held[0] or "/") if held else None


def _places(value: str, result: types.CallToolResult) -> Iterator[str]:
    """Where `value` is in `result`: its structuredContent, or a text block (its JSON, else its text)."""
    if result.structured_content is not None:
        pointer = _found_in(value, result.structured_content)
        if pointer is not None:
            yield f"structuredContent {pointer}"
    for index, block in enumerate(result.content):
        if not isinstance(block, types.TextContent):
            continue
        try:
            pointer = _found_in(value, parse_json(block.text))
        except NotJson:
            pointer = None
        if pointer is not None:
            yield f"text content[{index}] (its JSON at {pointer})"
        elif value in block.text:
            yield f"text content[{index}]"


def watched(tool: ServedTool, arguments: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The secret arguments of `tool` this call gave, with their values, as looked for."""
    return [
        (name, value)
        for name in tool.secrets
        if isinstance(value := arguments.get(name), str) and len(value) >= SHORTEST
    ]


def echoes(
    tool: ServedTool,
    arguments: Mapping[str, Any],
    result: types.CallToolResult | None = None,
    rpc_message: str | None = None,
) -> list[tuple[str, str]]:
    """What an error answer (`result`, or a JSON-RPC error's message) says that it must not:
    the secret argument and a message, per argument and place."""
    said: list[tuple[str, str]] = []
    for name, value in watched(tool, arguments):
        places = list(_places(value, result)) if result is not None else []
        if rpc_message is not None and value in rpc_message:
            places.append("the JSON-RPC error's message")
        text = f"{tool.name}'s error answer carries argument {name!r} (secret_arguments) at"
        said += [(name, f"{text} {p}") for p in places]
    return said


def echo_at(tool: ServedTool, name: str, at: tuple[Any, ...] = ()) -> tuple[Any, ...]:
    """Where a finding about `name` goes in the tool's entry: the example call's argument, else
    the name in `secret_arguments`."""
    if at[:1] == ("examples",):
        return (*at, "arguments", name)
    return ("secret_arguments", tool.secrets.index(name))


def marked(tool: ServedTool, arguments: dict[str, Any], accepts: Any) -> dict[str, Any]:
    """`arguments` with `MARKER` in each secret argument where the input schema (`accepts`)
    takes it: the whole value, else the drawn value followed by it; as drawn where neither is."""
    for name in tool.secrets:
        drawn = arguments.get(name)
        for value in (MARKER, f"{drawn}{MARKER}" if isinstance(drawn, str) else None):
            if value is not None and accepts({**arguments, name: value}):
                arguments = {**arguments, name: value}
                break
    return arguments
