"""resources.yaml and prompts.yaml of an imported contract: the resources, templates and
prompts a server lists, merged into the files there.

Each entry as the server lists it, what the loader would refuse left out (`surface_entries`).
Importing again matches entries by URI (resources) or name (templates, prompts): what the
server lists replaces what is there, and a person's `schema:`, `contents:` (and a prompt's
`messages:`) of an entry still listed stay, as do the comments and the order of the file
(ruamel's round trip, as tools.yaml). With `--read-resources`, a resource's contents are a file
under examples/resources/ (`resource_contents`).

A file whose listings did not all answer (an error, a crash, no answer in time, a page that
is not one, a `nextCursor` that loops: `ServerFacts.unlisted`) is left as it is, byte for
byte, and a note names it and why: only a listing read to its end rewrites its file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from ..load.resource_prompt_files import PROMPTS_FILE, RESOURCES_FILE
from .facts import ServerFacts
from .resource_contents import add_contents, keep_sizes
from .surface_entries import PROMPTS, RESOURCES, TEMPLATES, Section, accepted, plain, prompt_names, resource_names

HEADERS = {
    RESOURCES_FILE: "# The server's resources and resource templates as it lists them. Importing again replaces what\n"
    "# it lists, and keeps each one's schema: and contents: (a file under examples/resources/).\n",
    PROMPTS_FILE: "# The server's prompts as it lists them. Importing again replaces their titles, descriptions and\n"
    "# arguments with the server's, and keeps each one's messages:.\n",
}
_PEOPLES = {"resources": ("schema", "contents"), "templates": ("schema", "contents"), "prompts": ("messages",)}
CONTRACT_FILE = "contract.yaml"


Load = Callable[[bytes | None], Any]
Dump = Callable[[Any, str], bytes]


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
        resources = accepted(RESOURCES, facts.resources, notes)
        templates = accepted(TEMPLATES, facts.templates, notes)
        resources, templates = resource_names(resources, templates, notes)
        old = load(files.get(RESOURCES_FILE))
        if resources or templates or old is not None:
            document = old if old is not None else CommentedMap()
            _merge(document, RESOURCES, resources)
            _merge(document, TEMPLATES, templates)
            keep_sizes(document, files, notes)
            contract = load(files.get(CONTRACT_FILE))
            formats = isinstance(contract, dict) and contract.get("formats") == "assert"
            add_contents(document, facts, (files, staged), notes, (source_bytes, formats))
            files[RESOURCES_FILE] = dump(document, "" if old is not None else HEADERS[RESOURCES_FILE])
    if _unlisted(PROMPTS_FILE, facts, files, notes):
        return
    prompts = prompt_names(accepted(PROMPTS, facts.prompts, notes), notes)
    old = load(files.get(PROMPTS_FILE))
    if prompts or old is not None:
        document = old if old is not None else CommentedMap()
        _merge(document, PROMPTS, prompts)
        files[PROMPTS_FILE] = dump(document, "" if old is not None else HEADERS[PROMPTS_FILE])


def _unlisted(file: str, facts: ServerFacts, files: dict[str, bytes], notes: list[str]) -> bool:
    """Whether a listing of `file` failed (then a note says the file is left as it is, or
    not written, and why)."""
    failed = [f"{method}: {facts.unlisted[method]}" for method in _LISTINGS[file] if method in facts.unlisted]
    if failed:
        kept = "left as it was" if file in files else "not written"
        notes.append(f"{file}: {kept}, its listing not read: {'; '.join(failed)}")
    return bool(failed)


def _merge(document: CommentedMap, section: Section, listed: list[dict[str, Any]]) -> None:
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
