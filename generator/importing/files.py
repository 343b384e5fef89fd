"""The files of an imported contract: from a server's facts, or merged into the contract
that is already there.

A new contract gets contract.yaml (the server's title, a semantic version made of its own,
`facts.contract_version`, and the revisions it answered), an empty catalogue, tools.yaml (each
tool as listed: its `execution` and `_meta` as written, and under `other_fields` every field
tools.yaml has no key for), the envelope (`importing.envelope`), and for a server that lists
resources, templates or prompts resources.yaml and prompts.yaml (`importing.surface_files`).
Importing again keeps what people write: contract.yaml but for `protocol`, the server named
in `metadata:` and `version` (the server's, when it is a semantic version: else the
contract's own stays); errors.yaml whole; each tool's description, error codes, columns and example calls; and any
schema the server now lists with the same meaning (its hand-written titles and descriptions).
The YAML files are edited in place (ruamel's round trip), so their comments and order stay.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from ..config import Limits
from ..schema.compare import schema_difference
from ..schema.engine import first_refusal, standalone_validator
from .envelope import canonical, envelope_of
from .facts import HINTS, RecordedCall, ServerFacts, contract_version, semantic_version
from .resource_contents import short_stem
from .surface_entries import plain
from .surface_files import surface_into

CONTRACT, ENVELOPE, ERRORS, TOOLS = "contract.yaml", "envelope.schema.json", "errors.yaml", "tools.yaml"
_HEADER = {
    CONTRACT: "# Imported from a live MCP server by `mcp-contracts import` (its `metadata:` says which).\n"
    "# Edit freely: importing again keeps the title, summary and everything but version and protocol.\n",
    ERRORS: "# The error codes of the server's tools: a server's listing does not say them, so this is yours.\n",
    TOOLS: "# The server's tools as it lists them. Importing again replaces the schemas and hints with the\n"
    "# server's (keeping a schema that means the same), and keeps descriptions, error codes and examples.\n",
}
_KEY_ORDER: tuple[str, ...] = ("name", "title", "description", "annotations", "execution", "_meta", "other_fields")
_KEY_ORDER += ("inputSchema", "outputSchema", "result", "examples")
# The fields of a listed tool tools.yaml has a key of its own for; the others (`icons`, and
# whatever a server adds) are kept under `other_fields`, as written.
_OWN_KEYS = frozenset(("name", "title", "description", "annotations", "execution", "_meta"))
_OWN_KEYS |= {"inputSchema", "outputSchema"}


@dataclass
class ContractFiles:
    """The contract folder's files (relative path -> bytes), and what people should know of
    them (an example call the server's new schemas refuse, taken out); the contents files
    read from the server, whose bytes stay in the run's staging folder (`staged`: relative
    path -> the file holding them)."""

    files: dict[str, bytes]
    notes: list[str] = field(default_factory=list)
    staged: dict[str, Path] = field(default_factory=dict)


def contract_files(
    name: str, facts: ServerFacts, existing: Mapping[str, bytes] | None = None, source_bytes: int = Limits.source_bytes
) -> ContractFiles:
    """The contract folder's files: new, or `existing` merged (resources.yaml and prompts.yaml
    by `importing.surface_files`; no contents file over `source_bytes`, which would not load)."""
    existing = existing or {}
    notes: list[str] = []
    title = facts.title or facts.name or name
    envelope = envelope_of(f"{title} result", [(t["name"], t["outputSchema"]) for t in facts.tools if _structured(t)])
    if envelope.note is not None:
        notes.append(envelope.note)
    files = dict(existing)
    files[CONTRACT] = _contract(name, facts, title, existing.get(CONTRACT))
    files.setdefault(ERRORS, (_HEADER[ERRORS] + "errors: []\n").encode())
    old_envelope = _json(existing.get(ENVELOPE))
    if old_envelope is None or schema_difference(old_envelope, envelope.schema) is not None:
        files[ENVELOPE] = (json.dumps(envelope.schema, indent=2, ensure_ascii=False) + "\n").encode()
    document, header = _tools(facts, envelope.referencing, _load(existing.get(TOOLS)))
    if existing:
        _prune_examples(document, files, envelope.schema, notes)
    examples = _example_files(facts, files, _with_examples(document))
    files.update(examples.files)
    _add_examples(document, facts, examples.names)
    files[TOOLS] = _dump(document, header)
    staged: dict[str, Path] = {}
    surface_into(facts, files, notes, (_load, _dump), source_bytes, staged)
    return ContractFiles(files, notes, staged)


def _structured(tool: dict[str, Any]) -> bool:
    return isinstance(tool.get("outputSchema"), dict)


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.width = 4096  # a long description stays on one line: a diff names it
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.preserve_quotes = True  # a quoted scalar written by hand stays quoted
    return yaml


def _load(text: bytes | None) -> Any:
    return _yaml().load(text.decode()) if text is not None else None


def _dump(document: Any, header: str) -> bytes:
    stream = io.StringIO()
    _yaml().dump(document, stream)
    return (header + stream.getvalue()).encode()


def _json(text: bytes | None) -> Any:
    try:
        return json.loads(text) if text is not None else None
    except ValueError:
        return None


def _contract(name: str, facts: ServerFacts, title: str, old: bytes | None) -> bytes:
    document = _load(old)
    imported = {"server": facts.name, "server_version": facts.version, "negotiated_revision": facts.negotiated}
    if document is None:
        document = CommentedMap()
        document["name"] = name
        document["title"] = title
        document["version"] = contract_version(facts.version)
        document["summary"] = facts.summary or f"The tools of the MCP server {facts.name}, as it lists them."
        document["module"] = name.replace("-", "_")
        # Errors reach its clients as text: the listing says nothing of a catalogue.
        document["error_results"] = {"structured": False}
        header = _HEADER[CONTRACT]
    else:  # the server's new release, when it says one in semver; else the contract's own stays
        released = semantic_version(facts.version)
        if released is not None:
            document["version"] = released
        header = ""
    document["protocol"] = list(facts.revisions)
    metadata = document.setdefault("metadata", CommentedMap())
    for key, value in imported.items():
        if value is not None and metadata.get(key) != value:
            metadata[key] = value
    return _dump(document, header)


class _Examples:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.names: dict[str, str] = {}  # tool -> the example file answering its recorded call


def _with_examples(tools: Any) -> set[str]:
    """The tools of tools.yaml that have example calls (kept: no new one is added)."""
    entries = (tools or {}).get("tools") or ()
    return {entry["name"] for entry in entries if isinstance(entry, dict) and entry.get("examples")}


def _example_files(facts: ServerFacts, existing: Mapping[str, bytes], kept: set[str]) -> _Examples:
    """A file of `examples/` for each recorded call that answered with a document, for a tool
    without example calls yet; a name already taken (by an existing file or another tool)
    gets a number."""
    examples = _Examples()
    taken = {path for path in existing if path.startswith("examples/")}
    for tool, call in sorted(facts.calls.items()):
        if not call.structured or tool in kept:
            continue
        stem = short_stem(re.sub(r"[^A-Za-z0-9._-]+", "-", tool).strip(".-") or "result", tool)
        path, number = f"examples/{stem}.json", 2
        while path in taken:
            path, number = f"examples/{stem}-{number}.json", number + 1
        taken.add(path)
        examples.files[path] = (json.dumps(call.document, indent=2, ensure_ascii=False) + "\n").encode()
        examples.names[tool] = path.removeprefix("examples/")
    return examples


def _tools(facts: ServerFacts, referencing: frozenset[str], document: Any) -> tuple[CommentedMap, str]:
    header = "" if document is not None else _HEADER[TOOLS]
    if document is None:
        document = CommentedMap()
    old_entries: dict[str, CommentedMap] = {
        entry["name"]: entry
        for entry in document.get("tools") or ()
        if isinstance(entry, CommentedMap) and "name" in entry
    }
    listed = {tool["name"]: tool for tool in facts.tools}
    entries = [old_entries[name] for name in old_entries if name in listed]  # their order is the author's
    entries += [CommentedMap() for name in listed if name not in old_entries]
    names = [name for name in old_entries if name in listed] + [name for name in listed if name not in old_entries]
    for name, entry in zip(names, entries, strict=True):
        _tool_entry(entry, listed[name], name in referencing, facts.calls.get(name))
    document["tools"] = entries
    return document, header


def _tool_entry(
    entry: CommentedMap, tool: dict[str, Any], references_envelope: bool, call: RecordedCall | None
) -> None:
    """`entry` made to say what the server lists of `tool`, keeping what people wrote."""
    new = not entry
    title = tool.get("title") or (tool.get("annotations") or {}).get("title")
    derived: dict[str, Any] = {"name": tool["name"]}
    if isinstance(title, str) and title:
        derived["title"] = title
    if tool.get("description") and not entry.get("description"):
        derived["description"] = tool["description"]
    hints = {hint: (tool.get("annotations") or {})[hint] for hint in HINTS if hint in (tool.get("annotations") or {})}
    derived["annotations"] = hints or None
    derived["execution"] = tool.get("execution")
    derived["_meta"] = tool.get("_meta")
    derived["other_fields"] = {key: value for key, value in tool.items() if key not in _OWN_KEYS} or None
    derived["inputSchema"] = _kept(entry.get("inputSchema"), _input_schema(tool))
    if _structured(tool) and not references_envelope:
        derived["outputSchema"] = _kept(entry.get("outputSchema"), tool["outputSchema"])
    else:
        derived["outputSchema"] = None
    derived["result"] = None if _structured(tool) else _content_result(entry.get("result"), call)
    for key in _KEY_ORDER if new else derived:
        if key not in derived:
            continue
        if derived[key] is None:
            entry.pop(key, None)
        elif not _same(entry.get(key), derived[key]):
            entry[key] = derived[key]


def _input_schema(tool: dict[str, Any]) -> dict[str, Any]:
    """The tool's inputSchema, with the `"type": "object"` MCP asks for where a server leaves it
    out: arguments are an object on every call, so it changes no call's verdict."""
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        return {"type": "object"}
    return schema if "type" in schema else {"type": "object", **schema}


def _add_examples(document: CommentedMap, facts: ServerFacts, results: dict[str, str]) -> None:
    """The recorded call of each tool that has no example call: its arguments, and the file
    of `examples/` that answers it (for a tool whose answer is a document)."""
    for entry in document.get("tools") or ():
        call = facts.calls.get(entry["name"])
        if call is None or entry.get("examples"):
            continue
        example: dict[str, Any] = {"arguments": call.arguments}
        if entry["name"] in results:
            example["result"] = results[entry["name"]]
        entry["examples"] = [example]


def _kept(old: Any, listed: Any) -> Any:
    """The schema written before when it means what the server lists now, else the server's."""
    if isinstance(old, dict) and schema_difference(listed, plain(old)) is None:
        return old
    return listed


def _same(old: Any, new: Any) -> bool:
    try:
        return old is not None and canonical(old) == canonical(new)
    except (TypeError, ValueError):
        return False


def _content_result(old: Any, call: RecordedCall | None) -> dict[str, Any]:
    """`result:` of a tool that lists no output schema: content, of the types the calls made
    answered with, else those written before; none when no call was made (a listing does not
    say them: any type conforms). A `text_schema` written before is kept."""
    result: dict[str, Any] = {"structured": False}
    kinds = list(call.content) if call is not None and call.content else None
    if kinds is None and isinstance(old, dict) and isinstance(old.get("content"), list):
        kinds = list(old["content"])
    if kinds:
        result["content"] = kinds
    if isinstance(old, dict) and "text_schema" in old:
        result["text_schema"] = old["text_schema"]
    return result


def _prune_examples(document: CommentedMap, files: dict[str, bytes], envelope: Any, notes: list[str]) -> None:
    """Take out what the server's schemas now refuse, kept from the contract there: an example
    document the envelope refuses (and the calls it answers), an example call whose arguments
    the tool's inputSchema refuses or whose document its own outputSchema refuses. The
    contract would not load with them; the findings name the example calls taken out."""
    try:
        envelope_check = standalone_validator(envelope)
    except ValueError:
        return  # the loader says why
    refused: set[str] = set()
    for path in sorted(p for p in files if p.startswith("examples/") and p.endswith(".json")):
        value = _json(files[path])
        problem = first_refusal(envelope_check, value) if value is not None else None
        if problem is not None:
            refused.add(path.removeprefix("examples/"))
            del files[path]
            notes.append(f"{path}: taken out: the envelope the server lists refuses it: {problem}")
    for entry in document.get("tools") or ():
        examples = entry.get("examples")
        if not examples:
            continue
        kept = [example for example in examples if _example_holds(entry, example, files, refused, notes)]
        if len(kept) != len(examples):
            if kept:
                entry["examples"] = kept
            else:
                del entry["examples"]


def _example_holds(entry: Any, example: Any, files: dict[str, bytes], refused: set[str], notes: list[str]) -> bool:
    name, result = entry.get("name"), example.get("result")
    try:
        inputs = standalone_validator(plain(entry.get("inputSchema") or {"type": "object"}))
        own = entry.get("outputSchema")
        outputs = standalone_validator(plain(own)) if isinstance(own, dict) else None
    except ValueError:
        return True  # the loader says why
    problem = first_refusal(inputs, plain(example.get("arguments")))
    if problem is None and result in refused:
        problem = f"its result {result} is taken out"
    document = _json(files.get(f"examples/{result}")) if isinstance(result, str) else None
    if problem is None and outputs is not None and document is not None:
        problem = first_refusal(outputs, document)
    if problem is not None:
        notes.append(f"{name}: an example call taken out: the schemas the server lists refuse it: {problem}")
    return problem is None
