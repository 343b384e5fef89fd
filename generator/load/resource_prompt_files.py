"""Reading a contract's resources.yaml and prompts.yaml: what a server offers beside its tools.

Both files are optional. Each meets its meta-schema (`schemas/meta/resources.schema.json`,
`prompts.schema.json`); then every problem that would make a listing, a generated function or
a mock's answer wrong is a diagnostic at the line of the value: a name or URI listed twice, a
URI without a scheme, a URI template that does not parse (or cannot be matched back), a media
type that is not one, a contents file that is missing or outside `examples/resources/`, a JSON
resource whose schema does not compile or whose contents it refuses, a `size` its contents
belie, a prompt argument named twice, a message content type that a revision the contract
serves does not have.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from ..diagnostics import Diagnostic
from ..media import is_json, textual
from ..model.surface import Contents, Prompt, PromptArgument, Resource, Surface
from ..naming import (
    arguments_model_name,
    camel,
    constant_name,
    parameter_name,
    resource_module,
    root_name,
    values_class_name,
)
from ..protocol import revision
from ..runtime import Judge, NotJson, parse_json
from ..runtime.uri_template import TemplateError, UriTemplate
from .bundle import VIRTUAL_ROOT
from .documents import Document, json_document, read_yaml
from .envelope import Envelope, Source, compile_schema
from .meta import check_against_meta
from .reading import Reading

RESOURCES_FILE = "resources.yaml"
PROMPTS_FILE = "prompts.yaml"
SURFACE_FILES = (RESOURCES_FILE, PROMPTS_FILE)
CONTENTS_FOLDER = ("examples", "resources")

# RFC 6838 §4.2: type "/" subtype, each a restricted name, then parameters (RFC 9110 §8.3.1).
_TOKEN = r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
MEDIA_TYPE = re.compile(rf"{_TOKEN}/{_TOKEN}(?:[ \t]*;[ \t]*[A-Za-z0-9!#$%&'*+.^_`|~-]+=(?:[^\s;\"]+|\"[^\"]*\"))*")
# RFC 3986 §3.1: an absolute URI starts with its scheme; no space or control character anywhere.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_UNSAFE = re.compile(r"[\x00-\x20\x7f]")


# The media types that are text beside text/*: JSON, XML, YAML and script, with their suffixes.
def has_scheme(text: str) -> bool:
    """Whether `text` (a URI or a URI template) begins with a URI scheme."""
    return _SCHEME.match(text) is not None


def absolute_uri(uri: str) -> bool:
    """Whether `uri` begins with a scheme and holds no space or control character."""
    return has_scheme(uri) and _UNSAFE.search(uri) is None


# How a contract's schemas are read (contract.yaml): where `$ref`s beyond the folder lead
# (`references:`), and whether `format` asserts.
SchemaSettings = tuple[Mapping[str, Path], bool]
Where = TypeVar("Where")


def resource_schema_uri(name: str) -> str:
    """Where a JSON resource's `schema:` is known (`Resource.bundle.root`): in resources.yaml
    of the contract folder, so that a relative `$ref` finds a file beside it."""
    return f"{VIRTUAL_ROOT}{RESOURCES_FILE}?resource={quote(name, safe='')}"


def load_surface(
    folder: Path, reading: Reading, schemas: SchemaSettings, protocol: tuple[str, ...]
) -> tuple[Surface, dict[str, Document], list[Diagnostic]]:
    """The resources, templates and prompts of `folder` (none when it has neither file), the
    documents read (for findings to point into), and every problem of them. A JSON resource's
    schema is compiled as the envelope is, with `schemas`."""
    documents: dict[str, Document] = {}
    problems: list[Diagnostic] = []
    for name in SURFACE_FILES:
        path = folder / name
        if not reading.files.is_file(path):  # a symlink is there, to refuse when read
            continue
        document = read_yaml(path, reading)
        if isinstance(document, Diagnostic):
            problems.append(document)
            continue
        found = check_against_meta(document, name.removesuffix(".yaml"))
        if found:
            problems += found
            continue
        documents[name] = document
    resources: tuple[Resource, ...] = ()
    templates: tuple[Resource, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    if RESOURCES_FILE in documents:
        reader = _Resources(documents[RESOURCES_FILE], folder, reading, schemas)
        resources, templates = reader.resources(), reader.templates()
        problems += reader.problems
        problems += _resource_names(documents[RESOURCES_FILE], resources, templates)
        documents.update(reader.referred)  # the files the schemas refer to, by URI: findings point into them
    if PROMPTS_FILE in documents:
        prompts, found = _prompts(documents[PROMPTS_FILE], protocol)
        problems += found
        problems += _prompt_names(documents[PROMPTS_FILE], prompts)
    return Surface(resources, templates, prompts), documents, problems


class _Resources:
    """The entries of one resources.yaml, read in turn; `problems` gathers what is wrong."""

    def __init__(self, document: Document, folder: Path, reading: Reading, schemas: SchemaSettings) -> None:
        self.document = document
        self.folder = folder
        self.reading = reading
        self.references, self.formats = schemas
        self.referred: dict[str, Document] = {}
        self.problems: list[Diagnostic] = []

    def _say(self, path: list[object], message: str) -> None:
        self.problems.append(self.document.diagnostic(path, message))

    def resources(self) -> tuple[Resource, ...]:
        entries: list[dict[str, Any]] = self.document.data.get("resources", [])
        self.problems += _listed_twice(self.document, "resources", "name", "uri")
        found = []
        for index, entry in enumerate(entries):
            where: list[object] = ["resources", index]
            if not absolute_uri(entry["uri"]):
                self._say(
                    [*where, "uri"], f"{entry['uri']!r} is not an absolute URI (RFC 3986: a scheme, then no space)"
                )
            found.append(self._entry(entry, where, entry["uri"], template=None))
        return tuple(found)

    def templates(self) -> tuple[Resource, ...]:
        entries: list[dict[str, Any]] = self.document.data.get("templates", [])
        self.problems += _listed_twice(self.document, "templates", "name", "uriTemplate")
        found = []
        for index, entry in enumerate(entries):
            where: list[object] = ["templates", index]
            template = None
            try:
                template = UriTemplate.parse(entry["uriTemplate"])
            except TemplateError as exc:
                self._say([*where, "uriTemplate"], f"not a URI template this tool takes: {exc}")
            else:
                if not has_scheme(entry["uriTemplate"]):
                    self._say([*where, "uriTemplate"], "does not begin with a URI scheme (such as `file:` or `test:`)")
            found.append(self._entry(entry, where, entry["uriTemplate"], template))
        return tuple(found)

    def _entry(self, entry: dict[str, Any], where: list[object], uri: str, template: UriTemplate | None) -> Resource:
        media_type = entry.get("mimeType")
        if media_type is not None and MEDIA_TYPE.fullmatch(media_type) is None:
            self._say(
                [*where, "mimeType"], f"{media_type!r} is not a media type (RFC 6838: type/subtype, such as text/plain)"
            )
        schema = entry.get("schema")
        compiled = self._compile(entry["name"], where) if schema is not None else None
        judge = compiled.judge if compiled is not None else None
        if schema is not None and not is_json(media_type):
            self._say(
                [*where, "mimeType" if media_type else "name"],
                "a resource with a `schema:` is JSON: its mimeType must be a JSON type",
            )
        contents = self._contents(entry, where, media_type) if "contents" in entry else None
        if contents is not None and judge is not None:
            self._judge_contents(judge, contents, [*where, "contents"], media_type)
        size = entry.get("size")
        if size is not None and contents is not None:
            actual = len(
                contents.text.encode("utf-8") if contents.text is not None else base64.b64decode(contents.blob or "")
            )
            if size != actual:
                self._say([*where, "size"], f"says {size} bytes, and its contents file holds {actual}")
        keys = ("uriTemplate",) if template is not None or "uriTemplate" in entry else ("uri",)
        fields = (*keys, "name", "title", "description", "mimeType", "size", "annotations")
        listing = {key: entry[key] for key in fields if key in entry}
        resource = Resource(entry["name"], uri, "uriTemplate" in entry, listing, schema, contents)
        if compiled is None:
            return resource
        return replace(resource, bundle=compiled.bundle, view=compiled.view, judge=compiled.judge)

    def _compile(self, name: str, where: list[object]) -> Envelope | None:
        """The judge, bundle and view of a JSON resource's `schema:`, compiled as the envelope
        is (its `$ref`s reach the contract folder's files), or None (said why)."""
        source = Source(self.document, resource_schema_uri(name), (*where, "schema"))
        compiled = compile_schema(
            source, lambda title: root_name(title, name, "Contents"), self.references, self.formats, self.reading
        )
        if isinstance(compiled, Diagnostic):
            self.problems.append(compiled)
            return None
        self.referred.update(compiled.documents)
        return compiled

    def _contents(self, entry: dict[str, Any], where: list[object], media_type: str | None) -> Contents | None:
        name: str = entry["contents"]
        base = self.folder.joinpath(*CONTENTS_FOLDER)
        shown = "/".join((*CONTENTS_FOLDER, name))
        path = self.reading.files.inside(base, name) if self.reading.files.is_dir(base) else None
        if path is None:
            self._say([*where, "contents"], f"{shown} is not a file inside {'/'.join(CONTENTS_FOLDER)}/")
            return None
        data = self.reading.files.data(path, self.reading)
        if isinstance(data, Diagnostic):  # said at the line that names the file
            self._say([*where, "contents"], f"{shown}: {data.message}")
            return None
        if not textual(media_type):
            return Contents(shown, blob=base64.b64encode(data).decode("ascii"))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            self._say(
                [*where, "contents"], f"{shown} is not UTF-8 ({exc.reason}), and {media_type or 'no type'} is text"
            )
            return None
        if is_json(media_type):  # read as a JSON source is: a repeated key, a lone surrogate refused
            document = json_document(path, text, self.reading)
            if isinstance(document, Diagnostic):
                at = f"{shown}:{document.line}" if document.line is not None else shown
                self._say([*where, "contents"], f"{at}: {document.message}")
                return None
        return Contents(shown, text=text)

    def _judge_contents(self, judge: Judge, contents: Contents, where: list[object], media_type: str | None) -> None:
        if contents.text is None or not is_json(media_type):
            return  # said of its mimeType
        try:
            value = parse_json(contents.text)
        except NotJson as exc:
            self._say(where, f"{contents.file} is not JSON: {exc}")
            return
        for violation in judge.violations(value):
            at = f"{contents.file}#{violation.pointer}" if violation.pointer else contents.file
            self._say(where, f"{at}: its schema refuses it: {violation.message}")


def _listed_twice(document: Document, section: str, *keys: str) -> list[Diagnostic]:
    """Each entry of `section` whose value of one of `keys` an earlier entry has."""
    problems = []
    for key in keys:
        first: dict[str, int] = {}
        for index, entry in enumerate(document.data.get(section, [])):
            if entry[key] in first:
                line = document.line_of([section, first[entry[key]], key])
                message = f"{entry[key]!r} is listed twice (first at line {line})"
                problems.append(document.diagnostic([section, index, key], message))
            first.setdefault(entry[key], index)
    return problems


def _prompts(document: Document, protocol: tuple[str, ...]) -> tuple[tuple[Prompt, ...], list[Diagnostic]]:
    entries: list[dict[str, Any]] = document.data.get("prompts", [])
    problems = _listed_twice(document, "prompts", "name")
    prompts = []
    for index, entry in enumerate(entries):
        arguments = entry.get("arguments", [])
        seen: set[str] = set()
        for position, argument in enumerate(arguments):
            if argument["name"] in seen:
                message = f"{argument['name']!r} is an argument of this prompt already"
                problems.append(document.diagnostic(["prompts", index, "arguments", position, "name"], message))
            seen.add(argument["name"])
        problems += [
            document.diagnostic(["prompts", index, "messages", *path], message)
            for path, message in _content_problems(entry.get("messages", []), protocol)
        ]
        listing: dict[str, Any] = {key: entry[key] for key in ("name", "title", "description") if key in entry}
        if arguments:
            listing["arguments"] = [dict(argument) for argument in arguments]
        given = [
            PromptArgument(a["name"], a.get("required", False), a.get("description"), a.get("title")) for a in arguments
        ]
        prompts.append(Prompt(entry["name"], listing, tuple(given), tuple(entry.get("messages", []))))
    return tuple(prompts), problems


def _content_problems(messages: list[dict[str, Any]], protocol: tuple[str, ...]) -> Iterator[tuple[list[object], str]]:
    """A message whose content type a revision the contract serves does not have, or whose
    base64 (an image's or audio's `data`, an embedded resource's `blob`) is not base64."""
    for position, message in enumerate(messages):
        content = message["content"]
        kind = content["type"]
        lacking = [version for version in protocol if kind not in revision(version).content]
        if lacking:
            yield (
                [position, "content", "type"],
                f"a {kind!r} content block does not exist at {', '.join(lacking)} (`protocol:` in contract.yaml)",
            )
        embedded = content.get("resource") if kind == "resource" else None
        for path, value in (
            (["data"], content.get("data") if kind in ("image", "audio") else None),
            (["resource", "blob"], embedded.get("blob") if isinstance(embedded, dict) else None),
        ):
            if isinstance(value, str) and not _is_base64(value):
                yield [position, "content", *path], "not base64 (RFC 4648, padded): what a client decodes it as"


def _is_base64(text: str) -> bool:
    """Whether `text` is base64 as RFC 4648 writes it: its alphabet, padded to whole quanta."""
    try:
        base64.b64decode(text, validate=True)
    except ValueError:  # binascii.Error is one
        return False
    return True


# The names resources.py and prompts.py take besides those of the contract's entries.
RESERVED_CONSTANTS = frozenset({"CONTRACT", "RESOURCES", "TEMPLATES", "PROMPTS"})


def clashes(
    named: Iterable[tuple[Where, str, str]], reserved: frozenset[str] = frozenset(), language: str = "Python"
) -> Iterator[tuple[Where, str]]:
    """(where, name, its Python name): each entry whose Python name an earlier one, or `reserved`,
    holds, and why (its name in `language`, for TypeScript's). `importing.surface_files` leaves
    out of an import what this refuses."""
    first: dict[str, str] = {}
    for path, name, python in named:
        if python in reserved:
            yield path, f"{name!r} is {python} in {language}, a name the generated module takes for itself"
        elif python in first:
            yield path, f"{name!r} and {first[python]!r} are both {python} in {language}"
        first.setdefault(python, name)


def _resource_names(
    document: Document, resources: tuple[Resource, ...], templates: tuple[Resource, ...]
) -> list[Diagnostic]:
    """No two resources or templates share a Python constant (a JSON one's judge, `<NAME>_JUDGE`,
    is one too), a JSON one's models module or TypeScript namespace, nor two variables of a
    template a parameter."""
    named: list[tuple[list[object], str, str]] = [
        *((["resources", i, "name"], r.name, constant_name(r.name)) for i, r in enumerate(resources)),
        *((["templates", i, "name"], t.name, constant_name(t.name)) for i, t in enumerate(templates)),
    ]
    json: list[tuple[list[object], str]] = [
        ([section, i, "name"], r.name)
        for section, entries in (("resources", resources), ("templates", templates))
        for i, r in enumerate(entries)
        if r.bundle
    ]
    named += [(path, name, f"{constant_name(name)}_JUDGE") for path, name in json]  # a JSON one's judge too
    problems = [document.diagnostic(path, message) for path, message in clashes(named, RESERVED_CONSTANTS)]
    classes = [(["templates", i, "name"], t.name, values_class_name(t.name)) for i, t in enumerate(templates)]
    problems += [document.diagnostic(path, message) for path, message in clashes(classes)]
    # a JSON one's model: a Python module of its own, a TypeScript namespace and `read<Name>`
    modules = [(path, name, f"resource_models/{resource_module(name)}.py") for path, name in json]
    problems += [document.diagnostic(path, message) for path, message in clashes(modules)]
    namespaces = [(path, name, f"{camel(name)}Model") for path, name in json]
    problems += [document.diagnostic(path, message) for path, message in clashes(namespaces, language="TypeScript")]
    for index, template in enumerate(templates):
        try:
            variables = UriTemplate.parse(template.uri).variables
        except TemplateError:
            continue  # said where it is read
        where: list[object] = ["templates", index, "uriTemplate"]
        params = [(where, v, parameter_name(v)) for v in variables]
        problems += [
            document.diagnostic(path, f"the variables {message[0].lower()}{message[1:]}")
            for path, message in clashes(params)
        ]
    return problems


def _prompt_names(document: Document, prompts: tuple[Prompt, ...]) -> list[Diagnostic]:
    """No two prompts share a Python constant or an arguments model, nor two arguments of a prompt a field."""
    constants = [(["prompts", i, "name"], p.name, constant_name(p.name)) for i, p in enumerate(prompts)]
    models = [
        (["prompts", i, "name"], p.name, arguments_model_name(p.name)) for i, p in enumerate(prompts) if p.arguments
    ]
    problems = [document.diagnostic(path, message) for path, message in clashes(constants, RESERVED_CONSTANTS)]
    problems += [document.diagnostic(path, message) for path, message in clashes(models)]
    for index, prompt in enumerate(prompts):
        fields = [
            (["prompts", index, "arguments", i, "name"], a.name, parameter_name(a.name))
            for i, a in enumerate(prompt.arguments)
        ]
        problems += [document.diagnostic(path, message) for path, message in clashes(fields)]
    return problems
