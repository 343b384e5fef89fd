"""resources.yaml and prompts.yaml of an imported contract: the resources, templates and
prompts a server lists, merged into the files there.

Each entry takes the fields its meta-schema has a key for, as the server lists them; any
other field (`icons`, `_meta`, a server's own) is left out, and a note names it (the
contract's files have no key for them, and neither `mock` nor `conform` would use one). An
entry the loader would refuse (listed twice; two names that are one Python name; a URI
without a scheme; a URI template that does not parse; a media type that is not one; a field
its meta-schema refuses) is left out, and a note says why: the imported contract loads.

Importing again matches entries by URI (resources) or name (templates, prompts): what the
server lists replaces what is there, and a person's `schema:`, `contents:` (and a prompt's
`messages:`) of an entry still listed stay, as do the comments and the order of the file
(ruamel's round trip, as tools.yaml). With `--read-resources`, each resource without
`contents:` gets a file under examples/resources/ holding what `resources/read` answered
(`contents_name`; its bytes stay in the run's staging folder until the write: `staged`),
unless those contents would not load: a note says why.

A file whose listings did not all answer (an error, a crash, no answer in time, a page that
is not one, a `nextCursor` that loops: `ServerFacts.unlisted`) is left as it is, byte for
byte, and a note names it and why: only a listing read to its end rewrites its file.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from .. import debug
from ..load.bundle import VIRTUAL_ROOT
from ..load.meta import meta_judge
from ..load.resource_prompt_files import (
    CONTENTS_FOLDER,
    MEDIA_TYPE,
    PROMPTS_FILE,
    RESERVED_CONSTANTS,
    RESOURCES_FILE,
    absolute_uri,
    clashes,
    has_scheme,
    resource_schema_uri,
)
from ..media import essence, is_json, textual
from ..naming import arguments_model_name, constant_name, parameter_name, values_class_name
from ..runtime import Judge, NotJson, parse_json
from ..runtime.uri_template import TemplateError, UriTemplate
from ..schema.patterns import judged
from .facts import ReadContents, ServerFacts

HEADERS = {
    RESOURCES_FILE: "# The server's resources and resource templates as it lists them. Importing again replaces what\n"
    "# it lists, and keeps each one's schema: and contents: (a file under examples/resources/).\n",
    PROMPTS_FILE: "# The server's prompts as it lists them. Importing again replaces their titles, descriptions and\n"
    "# arguments with the server's, and keeps each one's messages:.\n",
}
_RESOURCE_KEYS = ("uri", "name", "title", "description", "mimeType", "size", "annotations")
_TEMPLATE_KEYS = ("uriTemplate", "name", "title", "description", "mimeType", "annotations")
_PROMPT_KEYS = ("name", "title", "description", "arguments")
_ANNOTATION_KEYS = ("audience", "priority", "lastModified")
_ARGUMENT_KEYS = ("name", "title", "description", "required")
_PEOPLES = {"resources": ("schema", "contents"), "templates": ("schema", "contents"), "prompts": ("messages",)}
_CONTENTS = "/".join(CONTENTS_FOLDER)
CONTRACT_FILE = "contract.yaml"
_LONGEST_STEM = 80

# The file name extension of a media type: a fixed table (the standard library's `mimetypes`
# reads the machine's own files), then by suffix; `.txt` for other text, `.bin` for the rest.
EXTENSIONS = {
    "text/plain": ".txt",
    "text/markdown": ".md",
    "text/html": ".html",
    "text/css": ".css",
    "text/csv": ".csv",
    "text/xml": ".xml",
    "text/javascript": ".js",
    "text/x-python": ".py",
    "application/json": ".json",
    "application/xml": ".xml",
    "application/yaml": ".yaml",
    "application/x-yaml": ".yaml",
    "application/toml": ".toml",
    "application/javascript": ".js",
    "application/sql": ".sql",
    "application/graphql": ".graphql",
    "application/x-ndjson": ".ndjson",
    "application/pdf": ".pdf",
    "application/zip": ".zip",
    "application/gzip": ".gz",
    "application/octet-stream": ".bin",
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "image/svg+xml": ".svg",
    "image/bmp": ".bmp",
    "image/x-icon": ".ico",
    "audio/wav": ".wav",
    "audio/x-wav": ".wav",
    "audio/mpeg": ".mp3",
    "audio/ogg": ".ogg",
    "video/mp4": ".mp4",
}
# Names Windows keeps for devices, whatever their extension.
_DEVICES = frozenset({"con", "prn", "aux", "nul"} | {f"{port}{n}" for port in ("com", "lpt") for n in range(10)})

Load = Callable[[bytes | None], Any]
Dump = Callable[[Any, str], bytes]


@dataclass(frozen=True)
class _Section:
    file: str
    section: str  # the key of resources.yaml or prompts.yaml
    key: str  # what entries are matched by
    keys: tuple[str, ...]  # the fields the meta-schema has a key for, in the order they are written
    noun: str


_Entry = tuple[_Section, dict[str, Any]]
_RESOURCES = _Section(RESOURCES_FILE, "resources", "uri", _RESOURCE_KEYS, "resource")
_TEMPLATES = _Section(RESOURCES_FILE, "templates", "name", _TEMPLATE_KEYS, "template")
_PROMPTS = _Section(PROMPTS_FILE, "prompts", "name", _PROMPT_KEYS, "prompt")


_LISTINGS = {RESOURCES_FILE: ("resources/list", "resources/templates/list"), PROMPTS_FILE: ("prompts/list",)}


def surface_into(
    facts: ServerFacts,
    files: dict[str, bytes],
    notes: list[str],
    codec: tuple[Load, Dump],
    source_bytes: int,
    staged: dict[str, Path],
) -> None:
    """resources.yaml and prompts.yaml (and contents files) of `facts` merged into `files`:
    written when the server lists some, or when the file is there already; each left as it
    is when a listing of it failed. A contents file read is added to `staged` (its relative
    path -> the staging file holding its bytes), not to `files`."""
    load, dump = codec
    if not _unlisted(RESOURCES_FILE, facts, files, notes):
        resources = _accepted(_RESOURCES, facts.resources, notes)
        templates = _accepted(_TEMPLATES, facts.templates, notes)
        resources, templates = _resource_names(resources, templates, notes)
        old = load(files.get(RESOURCES_FILE))
        if resources or templates or old is not None:
            document = old if old is not None else CommentedMap()
            _merge(document, _RESOURCES, resources)
            _merge(document, _TEMPLATES, templates)
            _keep_sizes(document, files, notes)
            contract = load(files.get(CONTRACT_FILE))
            formats = isinstance(contract, dict) and contract.get("formats") == "assert"
            _add_contents(document, facts, (files, staged), notes, (source_bytes, formats))
            files[RESOURCES_FILE] = dump(document, "" if old is not None else HEADERS[RESOURCES_FILE])
    if _unlisted(PROMPTS_FILE, facts, files, notes):
        return
    prompts = _prompt_names(_accepted(_PROMPTS, facts.prompts, notes), notes)
    old = load(files.get(PROMPTS_FILE))
    if prompts or old is not None:
        document = old if old is not None else CommentedMap()
        _merge(document, _PROMPTS, prompts)
        files[PROMPTS_FILE] = dump(document, "" if old is not None else HEADERS[PROMPTS_FILE])


def _unlisted(file: str, facts: ServerFacts, files: dict[str, bytes], notes: list[str]) -> bool:
    """Whether a listing of `file` failed (then a note says the file is left as it is, or
    not written, and why)."""
    failed = [f"{method}: {facts.unlisted[method]}" for method in _LISTINGS[file] if method in facts.unlisted]
    if failed:
        kept = "left as it was" if file in files else "not written"
        notes.append(f"{file}: {kept}, its listing not read: {'; '.join(failed)}")
    return bool(failed)


def _said(section: _Section, entry: dict[str, Any]) -> str:
    """The entry as a note names it: its name, and a resource's URI."""
    uri = f" ({entry.get('uri')})" if section is _RESOURCES else ""
    return f"{section.file}: the {section.noun} {entry.get('name')!r}{uri}"


def _accepted(section: _Section, listed: tuple[dict[str, Any], ...], notes: list[str]) -> list[dict[str, Any]]:
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
            notes.append(f"{_said(section, written)}: left out: {why}")
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


def _entry(section: _Section, written: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
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


def _why_refused(section: _Section, entry: dict[str, Any], seen: dict[str, dict[str, str]]) -> str | None:
    """Why the loader would refuse `entry` on its own or after those accepted, or None."""
    name = entry.get("name")
    if name in seen["name"]:
        return f"the name {name!r} is listed twice"
    if section is _RESOURCES:
        uri = entry.get("uri")
        if uri in seen["uri"]:
            return "its URI is listed twice"
        if isinstance(uri, str) and not absolute_uri(uri):
            return f"{uri!r} is not an absolute URI (RFC 3986: a scheme, then no space)"
    if section is _TEMPLATES:
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
    if section is _PROMPTS:
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


def _resource_names(
    resources: list[dict[str, Any]], templates: list[dict[str, Any]], notes: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Resources and templates without those whose Python names clash with an earlier one's."""
    both = [*((_RESOURCES, r) for r in resources), *((_TEMPLATES, t) for t in templates)]
    kept = _unclashing(both, lambda _, e: constant_name(e["name"]), notes, RESERVED_CONSTANTS)
    kept = _unclashing(kept, lambda s, e: values_class_name(e["name"]) if s is _TEMPLATES else None, notes)
    final: list[_Entry] = []
    for section, entry in kept:
        if section is _TEMPLATES:
            variables = UriTemplate.parse(entry["uriTemplate"]).variables
            clash = next(clashes((i, v, parameter_name(v)) for i, v in enumerate(variables)), None)
            if clash is not None:
                notes.append(_refusal(section, entry, f"its variables {clash[1]}"))
                continue
        final.append((section, entry))
    return [e for s, e in final if s is _RESOURCES], [e for s, e in final if s is _TEMPLATES]


def _prompt_names(prompts: list[dict[str, Any]], notes: list[str]) -> list[dict[str, Any]]:
    """Prompts without those whose constant or arguments model clashes with an earlier one's."""
    kept = _unclashing(
        [(_PROMPTS, p) for p in prompts], lambda _, p: constant_name(p["name"]), notes, RESERVED_CONSTANTS
    )
    kept = _unclashing(kept, lambda _, p: arguments_model_name(p["name"]) if p.get("arguments") else None, notes)
    return [p for _, p in kept]


def _unclashing(
    pairs: list[_Entry],
    python: Callable[[_Section, dict[str, Any]], str | None],
    notes: list[str],
    reserved: frozenset[str] = frozenset(),
) -> list[_Entry]:
    """`pairs` without each whose Python name (`python`, None for none) the loader refuses as a
    clash with an earlier one's (`clashes`), a note saying why."""
    named = ((i, e["name"], python(s, e)) for i, (s, e) in enumerate(pairs))
    refused = dict(clashes(((i, name, said) for i, name, said in named if said is not None), reserved))
    notes += [_refusal(*pairs[i], why) for i, why in refused.items()]
    return [pair for i, pair in enumerate(pairs) if i not in refused]


def _refusal(section: _Section, entry: dict[str, Any], why: str) -> str:
    return f"{_said(section, entry)}: left out: {why}"


def _merge(document: CommentedMap, section: _Section, listed: list[dict[str, Any]]) -> None:
    """`document[section]` made to list `listed`: the entries there in their order, those no
    longer listed taken out, new ones at the end; each entry's fields the server's, the
    others (`schema`, `contents`, `messages`) as they were."""
    old_entries: dict[str, CommentedMap] = {}
    for entry in document.get(section.section) or ():
        if isinstance(entry, CommentedMap) and isinstance(entry.get(section.key), str):
            old_entries.setdefault(entry[section.key], entry)
    by_key = {entry[section.key]: entry for entry in listed}
    order = [key for key in old_entries if key in by_key] + [key for key in by_key if key not in old_entries]
    entries = []
    for key in order:
        entry = old_entries.get(key, CommentedMap())
        new = entry is not old_entries.get(key)
        derived = by_key[key]
        for field in section.keys:
            if field not in derived:
                entry.pop(field, None)
            elif new or plain(entry.get(field)) != derived[field]:
                entry[field] = derived[field]
        for field in list(entry):
            if field not in section.keys and field not in _PEOPLES[section.section]:
                del entry[field]
        entries.append(entry)
    if entries or section.section in document:
        document[section.section] = entries


def plain(value: Any) -> Any:
    """A value of ruamel's round trip (its own int and float types...) as plain JSON values."""
    return json.loads(json.dumps(value))


def short_stem(stem: str, name: str) -> str:
    """`stem`, of a file named for `name`, kept to `_LONGEST_STEM` characters: a file name has 255
    bytes at most, so a longer one is its start and a digest of `name`."""
    if len(stem) <= _LONGEST_STEM:
        return stem
    return stem[: _LONGEST_STEM - 13] + "-" + hashlib.sha256(name.encode()).hexdigest()[:12]


def _keep_sizes(document: CommentedMap, files: dict[str, bytes], notes: list[str]) -> None:
    """A resource's `contents:` kept from the contract there whose file's size the server's
    `size` now belies is taken out (the contract would not load with it), and its file with
    it when no other entry names it; a note says so."""
    entries = [*(document.get("resources") or ()), *(document.get("templates") or ())]
    for entry in document.get("resources") or ():
        name, size = entry.get("contents"), entry.get("size")
        data = files.get(f"{_CONTENTS}/{name}") if isinstance(name, str) else None
        if data is not None and isinstance(size, int) and len(data) != size:
            del entry["contents"]
            why = f"the server lists size {size}, and it holds {len(data)} bytes"
            notes.append(f"{_said(_RESOURCES, entry)}: contents: {name} taken out: {why}")
            if all(other.get("contents") != name for other in entries):
                del files[f"{_CONTENTS}/{name}"]


def _add_contents(
    document: CommentedMap,
    facts: ServerFacts,
    folder: tuple[dict[str, bytes], dict[str, Path]],
    notes: list[str],
    bounds: tuple[int, bool],
) -> None:
    """A file of examples/resources/ for each resource read that has no `contents:` yet,
    staged (`folder`: the files, and those staged); `bounds`: `limits.source_bytes`, and
    whether the contract asserts `format`."""
    files, staged = folder
    taken = {path.lower() for path in files if path.startswith(_CONTENTS + "/")}
    for entry in document.get("resources") or ():
        read = facts.contents.get(entry["uri"])
        if read is None or "contents" in entry:
            continue
        problem = _contents_problem(entry, read, bounds, files)
        if problem is not None or read.path is None:
            notes.append(f"{_said(_RESOURCES, entry)}: no contents recorded: {problem}")
            continue
        name = contents_name(entry["name"], entry.get("mimeType"), taken)
        taken.add(f"{_CONTENTS}/{name}".lower())
        staged[f"{_CONTENTS}/{name}"] = read.path
        entry["contents"] = name


def _contents_problem(
    entry: CommentedMap, read: ReadContents, bounds: tuple[int, bool], files: dict[str, bytes]
) -> str | None:
    """Why the contract would not load with the contents read, or None (their bytes are read
    from the staging folder only where they are judged: a blob of a textual type, a schema)."""
    media_type = entry.get("mimeType")
    if read.problem is not None:
        return read.problem
    if read.size > bounds[0]:
        return f"{read.size} bytes, over limits.source_bytes ({bounds[0]})"
    if not read.text and textual(media_type):
        try:
            read.data().decode("utf-8")
        except UnicodeDecodeError as exc:
            return f"its blob is not UTF-8 ({exc.reason}), and {media_type or 'no type'} is text"
    size = entry.get("size")
    if isinstance(size, int) and size != read.size:
        return f"the server lists size {size}, and its contents hold {read.size} bytes"
    schema = entry.get("schema")
    if schema is not None:
        if not is_json(media_type):
            return "a resource with a schema is JSON: its mimeType must be a JSON type"
        try:
            value = parse_json(read.data().decode("utf-8"))
        except (NotJson, UnicodeDecodeError) as exc:
            return f"not JSON: {exc}"
        judge = _kept_judge(entry["name"], plain(schema), files, formats=bounds[1])
        violations = judge.violations(value) if judge is not None else []
        if violations:
            return f"its schema refuses them: {violations[0].message}"
    return None


def _kept_judge(name: str, schema: Any, files: dict[str, bytes], formats: bool) -> Judge | None:
    """The judge of a kept `schema:`, at the URI loading gives it, with the JSON files of the
    folder its `$ref`s may reach by their paths; None where it reaches something else (an
    `$id`, a prefix of `references:`) or does not compile: the load that follows judges then."""
    resources: dict[str, Any] = {resource_schema_uri(name): schema}
    if "$ref" in json.dumps(schema):
        for path, data in sorted(files.items()):
            if path.endswith(".json") and not path.startswith("examples/"):
                try:
                    resources.setdefault(VIRTUAL_ROOT + path, json.loads(data))
                except ValueError:
                    continue  # not JSON: the load names it
    judge = Judge(resource_schema_uri(name), judged(resources), formats=formats)
    try:
        judge.validator()
    except Exception as exc:  # jsonschema-rs: ValidationError, ValueError, ReferencingError
        debug.handled(exc)
        return None
    return judge


def contents_name(name: str, media_type: str | None, taken: set[str]) -> str:
    """A file name under examples/resources/ for the resource `name`: its letters, digits, `.`,
    `_` and `-` (no path, no leading dot, no device name), an extension of its media type
    (`EXTENSIONS`), a number when the name is taken (`taken`: paths in lower case)."""
    extension = extension_of(media_type)
    stem = re.sub(r"\.{2,}", ".", re.sub(r"[^A-Za-z0-9._-]+", "-", name)).strip(".-_") or "resource"
    stem = short_stem(stem.removesuffix(extension) or stem, name)
    if stem.split(".", 1)[0].lower() in _DEVICES:
        stem = f"{stem}-resource"
    found, number = f"{stem}{extension}", 2
    while f"{_CONTENTS}/{found}".lower() in taken:
        found, number = f"{stem}-{number}{extension}", number + 1
    return found


def extension_of(media_type: str | None) -> str:
    """The file name extension of contents of `media_type`: `EXTENSIONS`, else by its suffix."""
    if media_type is None:
        return ".txt"
    kind = essence(media_type)
    if kind in EXTENSIONS:
        return EXTENSIONS[kind]
    for suffix, extension in (("+json", ".json"), ("+xml", ".xml"), ("+yaml", ".yaml")):
        if kind.endswith(suffix):
            return extension
    return ".txt" if textual(media_type) else ".bin"
