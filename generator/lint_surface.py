"""The lint rules of resources.yaml and prompts.yaml (`generator.rules.lint`): what loads, and
what a client would still be poorer for. Each reads the contract as it loaded (nothing when it
does not: loading's diagnostics speak) and points into the file the value is written in."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .load.documents import Document
from .load.resource_prompt_files import PROMPTS_FILE, RESOURCES_FILE
from .model import Contract
from .runtime.uri_template import UriTemplate

Found = Iterator[tuple[Document, list[object], str]]

# A `{name}` that `mock` fills: a name of letters, digits, `_` and `.`, as variables and
# arguments are named; a brace around anything else (JSON's own) is no placeholder.
_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.]+)\}")


def _document(contract: Contract | None, name: str) -> Document | None:
    if contract is None:
        return None
    found = contract.places.documents.get(name)
    return found if isinstance(found, Document) else None


def resource_described(contract: Contract | None) -> Found:
    document = _document(contract, RESOURCES_FILE)
    if document is None:
        return
    for section in ("resources", "templates"):
        for index, entry in enumerate(document.data.get(section, [])):
            if not entry.get("description"):
                yield document, [section, index, "name"], f"{entry['name']!r} has no description"


def prompt_described(contract: Contract | None) -> Found:
    document = _document(contract, PROMPTS_FILE)
    if document is None:
        return
    for index, entry in enumerate(document.data.get("prompts", [])):
        if not entry.get("description"):
            yield document, ["prompts", index, "name"], f"{entry['name']!r} has no description"
        for position, argument in enumerate(entry.get("arguments", [])):
            if not argument.get("description"):
                where: list[object] = ["prompts", index, "arguments", position, "name"]
                yield document, where, f"{entry['name']!r}: its argument {argument['name']!r} has no description"


def placeholder_unknown(contract: Contract | None) -> Found:
    """A `{name}` in a prompt's messages that names none of its arguments, or in a template's
    contents none of its variables: `mock` leaves it as written, which is rarely what was meant."""
    prompts, resources = _document(contract, PROMPTS_FILE), _document(contract, RESOURCES_FILE)
    if contract is not None and prompts is not None:
        for index, prompt in enumerate(contract.surface.prompts):
            names = {argument.name for argument in prompt.arguments}
            for position, message in enumerate(prompt.messages):
                for unknown in _unknown(message, names):
                    where: list[object] = ["prompts", index, "messages", position]
                    yield prompts, where, f"{prompt.name!r}: {{{unknown}}} names no argument of the prompt"
    if contract is not None and resources is not None:
        for index, template in enumerate(contract.surface.templates):
            if template.contents is None or template.contents.text is None:
                continue
            variables = set(UriTemplate.parse(template.uri).variables)
            for unknown in _unknown(template.contents.text, variables):
                said = f"{template.contents.file}: {{{unknown}}} names no variable of {template.uri}"
                yield resources, ["templates", index, "contents"], said


def _unknown(value: Any, names: set[str]) -> list[str]:
    """The placeholders in the strings of `value` that are not in `names`, each once, in order."""
    found: dict[str, None] = {}
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update((name, None) for name in _PLACEHOLDER.findall(item) if name not in names)
        elif isinstance(item, dict):
            stack.extend(reversed([*item.keys(), *item.values()]))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return list(found)
