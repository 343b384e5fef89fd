"""The entries of resources.yaml and prompts.yaml that a server's listings make: each takes
the fields its meta-schema has a key for, as the server lists them; any other field (`icons`,
`_meta`, a server's own) is left out, and a note names it (the contract's files have no key for
them, and neither `mock` nor `conform` would use one). An entry the loader would refuse (listed
twice; two names that are one Python name; a URI without a scheme; a URI template that does not
parse; a media type that is not one; a field its meta-schema refuses) is left out, and a note
says why: the imported contract loads.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..load.meta import meta_judge
from ..load.resource_prompt_files import (
    MEDIA_TYPE,
    PROMPTS_FILE,
    RESERVED_CONSTANTS,
    RESOURCES_FILE,
    absolute_uri,
    clashes,
    has_scheme,
)
from ..naming import arguments_model_name, constant_name, parameter_name, values_class_name
from ..runtime.uri_template import TemplateError, UriTemplate

_RESOURCE_KEYS = ("uri", "name", "title", "description", "mimeType", "size", "annotations")
_TEMPLATE_KEYS = ("uriTemplate", "name", "title", "description", "mimeType", "annotations")
_PROMPT_KEYS = ("name", "title", "description", "arguments")
_ANNOTATION_KEYS = ("audience", "priority", "lastModified")
_ARGUMENT_KEYS = ("name", "title", "description", "required")


@dataclass(frozen=True)
class Section:
    file: str
    section: str  # the key of resources.yaml or prompts.yaml
    key: str  # what entries are matched by
    keys: tuple[str, ...]  # the fields the meta-schema has a key for, in the order they are written
    noun: str


_Entry = tuple[Section, dict[str, Any]]
RESOURCES = Section(RESOURCES_FILE, "resources", "uri", _RESOURCE_KEYS, "resource")
TEMPLATES = Section(RESOURCES_FILE, "templates", "name", _TEMPLATE_KEYS, "template")
PROMPTS = Section(PROMPTS_FILE, "prompts", "name", _PROMPT_KEYS, "prompt")


def said(section: Section, entry: dict[str, Any]) -> str:
    """The entry as a note names it: its name, and a resource's URI."""
    uri = f" ({entry.get('uri')})" if section is RESOURCES else ""
    return f"{section.file}: the {section.noun} {entry.get('name')!r}{uri}"


def accepted(section: Section, listed: tuple[dict[str, Any], ...], notes: list[str]) -> list[dict[str, Any]]:
    """The entries of a listing as the file writes them, each the loader would refuse left out."""
    judge = meta_judge(section.file.removesuffix(".yaml"))
    accepted: list[dict[str, Any]] = []
    seen: dict[str, dict[str, str]] = {"name": {}, "uri": {}, "uriTemplate": {}}
    extras: dict[str, list[str]] = {}  # a field left out -> the entries it is left out of
    for written in listed:
        entry, extra = _entry(section, written)
        violations = judge.violations({section.section: [entry]})
        why = _why_refused(section, entry, seen)
        if violations:
            at = violations[0].pointer.removeprefix(f"/{section.section}/0")
            why = f"{at or '/'}: {violations[0].message}"
        if why is not None:
            notes.append(_refusal(section, written, why))
            continue
        for field in extra:
            extras.setdefault(field, []).append(repr(entry["name"]))
        for key in seen:
            if isinstance(entry.get(key), str):
                seen[key].setdefault(entry[key], entry[key])
        accepted.append(entry)
    if extras:
        said = "; ".join(f"{field} (of {_few(names)})" for field, names in sorted(extras.items()))
        notes.append(f"{section.file}: left out of the {section.section}, having no key there: {said}")
    return accepted


def _few(names: list[str]) -> str:
    return ", ".join(names) if len(names) <= 3 else f"{', '.join(names[:3])} and {len(names) - 3} more"


def _entry(section: Section, written: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The fields of `written` the file has a key for (an empty text is no text), and the
    names of the others."""
    extra = [key for key in written if key not in section.keys]
    entry = {key: written[key] for key in section.keys if key in written and written[key] not in (None, "")}
    annotations = entry.get("annotations")
    if isinstance(annotations, dict):
        extra += [f"annotations.{key}" for key in annotations if key not in _ANNOTATION_KEYS]
        kept = {key: annotations[key] for key in _ANNOTATION_KEYS if annotations.get(key) not in (None, "")}
        entry.pop("annotations")
        if kept:
            entry["annotations"] = kept
    arguments = entry.get("arguments")
    if isinstance(arguments, list):
        entry["arguments"] = []
        for argument in arguments:
            if not isinstance(argument, dict):
                entry["arguments"].append(argument)  # the meta-schema says why
                continue
            name = argument.get("name")
            extra += [f"arguments.{name}.{key}" for key in argument if key not in _ARGUMENT_KEYS]
            entry["arguments"].append(
                {key: argument[key] for key in _ARGUMENT_KEYS if argument.get(key) not in (None, "")}
            )
        if not entry["arguments"]:
            del entry["arguments"]
    return entry, extra


def _why_refused(section: Section, entry: dict[str, Any], seen: dict[str, dict[str, str]]) -> str | None:
    """Why the loader would refuse `entry` on its own or after those accepted, or None."""
    name = entry.get("name")
    if name in seen["name"]:
        return f"the name {name!r} is listed twice"
    if section is RESOURCES:
        uri = entry.get("uri")
        if uri in seen["uri"]:
            return "its URI is listed twice"
        if isinstance(uri, str) and not absolute_uri(uri):
            return f"{uri!r} is not an absolute URI (RFC 3986: a scheme, then no space)"
    if section is TEMPLATES:
        template = entry.get("uriTemplate")
        if template in seen["uriTemplate"]:
            return "its uriTemplate is listed twice"
        if isinstance(template, str):
            try:
                UriTemplate.parse(template)
            except TemplateError as exc:
                return f"its uriTemplate {template!r} is not a URI template this tool takes: {exc}"
            if not has_scheme(template):
                return f"its uriTemplate {template!r} does not begin with a URI scheme"
    media_type = entry.get("mimeType")
    if isinstance(media_type, str) and MEDIA_TYPE.fullmatch(media_type) is None:
        return f"{media_type!r} is not a media type (RFC 6838: type/subtype)"
    if section is PROMPTS:
        return _arguments_refused(entry.get("arguments") or [])
    return None


def _arguments_refused(arguments: list[Any]) -> str | None:
    names: dict[str, str] = {}
    for argument in arguments:
        if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
            continue  # the meta-schema says why
        python = parameter_name(argument["name"])
        if python in names:
            return f"its arguments {names[python]!r} and {argument['name']!r} are both {python} in Python"
        names[python] = argument["name"]
    return None


def resource_names(
    resources: list[dict[str, Any]], templates: list[dict[str, Any]], notes: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Resources and templates without those whose Python names clash with an earlier one's."""
    both = [*((RESOURCES, r) for r in resources), *((TEMPLATES, t) for t in templates)]
    kept = _unclashing(both, lambda _, e: constant_name(e["name"]), notes, RESERVED_CONSTANTS)
    kept = _unclashing(kept, lambda s, e: values_class_name(e["name"]) if s is TEMPLATES else None, notes)
    final: list[_Entry] = []
    for section, entry in kept:
        if section is TEMPLATES:
            variables = UriTemplate.parse(entry["uriTemplate"]).variables
            clash = next(clashes((i, v, parameter_name(v)) for i, v in enumerate(variables)), None)
            if clash is not None:
                notes.append(_refusal(section, entry, f"its variables {clash[1]}"))
                continue
        final.append((section, entry))
    return [e for s, e in final if s is RESOURCES], [e for s, e in final if s is TEMPLATES]


def prompt_names(prompts: list[dict[str, Any]], notes: list[str]) -> list[dict[str, Any]]:
    """Prompts without those whose constant or arguments model clashes with an earlier one's."""
    kept = _unclashing(
        [(PROMPTS, p) for p in prompts], lambda _, p: constant_name(p["name"]), notes, RESERVED_CONSTANTS
    )
    kept = _unclashing(kept, lambda _, p: arguments_model_name(p["name"]) if p.get("arguments") else None, notes)
    return [p for _, p in kept]


def _unclashing(
    pairs: list[_Entry],
    python: Callable[[Section, dict[str, Any]], str | None],
    notes: list[str],
    reserved: frozenset[str] = frozenset(),
) -> list[_Entry]:
    """`pairs` without each whose Python name (`python`, None for none) the loader refuses as a
    clash with an earlier one's (`clashes`), a note saying why."""
    named = ((i, e["name"], python(s, e)) for i, (s, e) in enumerate(pairs))
    refused = dict(clashes(((i, name, said) for i, name, said in named if said is not None), reserved))
    notes += [_refusal(*pairs[i], why) for i, why in refused.items()]
    return [pair for i, pair in enumerate(pairs) if i not in refused]


def _refusal(section: Section, entry: dict[str, Any], why: str) -> str:
    return f"{said(section, entry)}: left out: {why}"


def plain(value: Any) -> Any:
    """A value of ruamel's round trip (its own int and float types...) as plain JSON values."""
    return json.loads(json.dumps(value))
