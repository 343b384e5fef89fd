"""The mock's answers beside tools: `resources/read` and `prompts/get`, from the contract.

A resource is read from its contents file; a URI no resource has is matched against each
template in resources.yaml's order, and the first that matches answers with its contents,
each `{name}` of a variable replaced by the value the URI gives it (in the strings of a JSON
document, which its schema then judges; in the text of any other). A prompt's messages are
its declared ones, each `{name}` of an argument replaced by the value the client gives.
What the contract cannot answer is a `Refusal`: the transport makes it a JSON-RPC error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..media import is_json
from ..model.surface import Prompt, Resource, Surface
from ..runtime import NotJson, parse_json
from ..runtime.serving_surface import fill, filled
from ..runtime.uri_template import UriTemplate


@dataclass(frozen=True)
class Refusal(Exception):
    """Why a request cannot be answered; `missing`: what it names is not in the contract."""

    message: str
    missing: bool = False


def read_resource(surface: Surface, uri: str) -> dict[str, Any]:
    """The `resources/read` result of `uri`: its `contents`, one entry."""
    resource = next((r for r in surface.resources if r.uri == uri), None)
    if resource is not None:
        return {"contents": [_contents(resource, uri, {})]}
    for template in surface.templates:
        values = UriTemplate.parse(template.uri).match(uri)
        if values is not None:
            return {"contents": [_contents(template, uri, values)]}
    raise Refusal(f"no resource or template of the contract has the URI {uri!r}", missing=True)


def knows_resource(surface: Surface, uri: str) -> bool:
    """Whether `uri` is a resource of the contract or matches one of its templates."""
    if any(r.uri == uri for r in surface.resources):
        return True
    return any(UriTemplate.parse(t.uri).match(uri) is not None for t in surface.templates)


def _contents(resource: Resource, uri: str, values: Mapping[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"uri": uri}
    media_type = resource.listing.get("mimeType")
    if media_type is not None:
        entry["mimeType"] = media_type
    contents = resource.contents
    if contents is None:
        raise Refusal(f"{resource.name} declares no contents (`contents:` in resources.yaml)")
    if contents.blob is not None:
        return {**entry, "blob": contents.blob}
    text = contents.text or ""
    if values and is_json(media_type):
        text = _filled_json(resource, text, values)
    elif values:
        text = fill(text, values)
    return {**entry, "text": text}


def _filled_json(resource: Resource, text: str, values: Mapping[str, str]) -> str:
    """A JSON template's contents with each variable's value in its strings, judged by its schema."""
    try:
        document = filled(parse_json(text), values)
    except NotJson:  # a template of JSON text that is no JSON document: filled as text
        return fill(text, values)
    except RecursionError:
        raise Refusal(f"{resource.name}: its contents nest too deeply to fill in") from None
    judge = resource.judge
    if judge is not None:
        violations = judge.violations(document)
        if violations:
            first = violations[0]
            where = first.pointer or "/"
            raise Refusal(
                f"{resource.name}: its schema refuses the contents for these values at {where}: {first.message}"
            )
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def get_prompt(surface: Surface, name: str, arguments: Mapping[str, str] | None) -> dict[str, Any]:
    """The `prompts/get` result: the prompt's messages with its arguments' values in them."""
    prompt = next((p for p in surface.prompts if p.name == name), None)
    if prompt is None:
        known = ", ".join(p.name for p in surface.prompts) or "none"
        raise Refusal(f"unknown prompt {name!r} (the contract lists: {known})", missing=True)
    given = dict(arguments or {})
    _check_arguments(prompt, given)
    values = {a.name: given.get(a.name, "") for a in prompt.arguments}
    result: dict[str, Any] = {"messages": [filled(message, values) for message in prompt.messages]}
    description = prompt.listing.get("description")
    if description is not None:
        result["description"] = description
    return result


def _check_arguments(prompt: Prompt, given: Mapping[str, str]) -> None:
    declared = {a.name for a in prompt.arguments}
    unknown = sorted(set(given) - declared)
    if unknown:
        takes = ", ".join(sorted(declared)) or "none"
        raise Refusal(f"{prompt.name} takes no argument {', '.join(map(repr, unknown))} (it takes: {takes})")
    missing = [a.name for a in prompt.arguments if a.required and a.name not in given]
    if missing:
        raise Refusal(f"{prompt.name} needs the argument {', '.join(map(repr, missing))}")
