"""The contents files of an imported contract, under examples/resources/: with
`--read-resources`, each resource without `contents:` gets one holding what `resources/read`
answered (`contents_name`; its bytes stay in the run's staging folder until the write:
`staged`), unless those contents would not load: a note says why. A `contents:` kept whose file
the server's `size` now belies is taken out.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from .. import debug
from ..load.bundle import VIRTUAL_ROOT
from ..load.resource_prompt_files import CONTENTS_FOLDER, resource_schema_uri
from ..media import essence, is_json, textual
from ..runtime import Judge, NotJson, parse_json
from ..schema.patterns import judged
from .facts import ReadContents, ServerFacts
from .surface_entries import RESOURCES, plain, said

_CONTENTS = "/".join(CONTENTS_FOLDER)
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


def short_stem(stem: str, name: str) -> str:
    """`stem`, of a file named for `name`, kept to `_LONGEST_STEM` characters: a file name has 255
    bytes at most, so a longer one is its start and a digest of `name`."""
    if len(stem) <= _LONGEST_STEM:
        return stem
    return stem[: _LONGEST_STEM - 13] + "-" + hashlib.sha256(name.encode()).hexdigest()[:12]


def keep_sizes(document: CommentedMap, files: dict[str, bytes], notes: list[str]) -> None:
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
            notes.append(f"{said(RESOURCES, entry)}: contents: {name} taken out: {why}")
            if all(other.get("contents") != name for other in entries):
                del files[f"{_CONTENTS}/{name}"]


def add_contents(
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
            notes.append(f"{said(RESOURCES, entry)}: no contents recorded: {problem}")
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
