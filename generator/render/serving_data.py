"""`serving.json` of a contract's package: what its generated server (`tools.server`) lists and
answers, and what its generated client (`tools.Client`) expects, as data the runtime reads.

Everything a revision changes is decided here, once, from `protocol.REVISIONS` (`at`): the
fields each tool's listing hides there, the tools whose results carry `structuredContent`
there, how a refusal of arguments is answered and the code of a resource not found. The
runtime then compares no revision strings and proves nothing about a schema.

    {"contract", "version", "revisions": the contract's `protocol:`,
     "tools": [each tool as mcp/<name>.tools.json publishes it, its outputSchema an index of "outputs"],
     "outputs": [each output schema once],
     "results": {tool: {"structured", "content", "codes", "own_output", "text_schema",
                        "argument_error", "secrets": its secret_arguments}},
     "at": {version: {"hidden": {tool: [field]}, "structured": [tool], "refusal": "rpc" | "result",
                      "resource_not_found": code}},  (every revision the generator knows)
     "errors": {"code_at": pointer | null, "constants": [[pointer, value]], "structured",
                "derived": {code: [[pointer, the catalogue's value]]}},
     "resources": [{"listing", "contents": {"text"} | {"blob"} | null, "json"}],
     "templates": [same], "prompts": [{"listing", "messages"}]}
"""

from __future__ import annotations

from typing import Any

from ..media import is_json
from ..model import Contract, Entry
from ..model.surface import Resource
from ..protocol import REVISIONS, Revision
from .json_text import json_line
from .listing_at import carries_structured, tool_at
from .mcp import structured, tool_listing
from .mcp_surface import prompts_listing


def serving_document(contract: Contract, listing: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The data of `serving.json`, as a dict (the TypeScript package embeds the same);
    `listing`: `mcp.tool_listing(contract)`, where the caller has it already."""
    listing = tool_listing(contract) if listing is None else listing
    marked = _argument_errors(contract)
    entries = contract.manifest.tools.entries
    return {
        "contract": contract.name,
        "version": contract.version,
        "revisions": list(contract.protocol),
        "tools": listing,
        "results": {entry.code: _results(entry, marked) for entry in entries},
        "at": {revision.version: _at(listing, entries, revision) for revision in REVISIONS},
        "errors": _errors(contract),
        "resources": [_resource(resource) for resource in contract.surface.resources],
        "templates": [_resource(template) for template in contract.surface.templates],
        "prompts": [
            {"listing": listing_entry, "messages": list(prompt.messages)}
            for prompt, listing_entry in zip(contract.surface.prompts, prompts_listing(contract), strict=True)
        ],
    }


def serving_json(contract: Contract) -> str:
    """`serving.json`: the document, with sorted keys, one line per top-level member; each
    output schema once, in `outputs`, a tool's `outputSchema` its index there (the envelope,
    every tool's output, is the largest schema of a contract)."""
    document = serving_document(contract)
    outputs: list[Any] = []
    places: dict[int, int] = {}  # by identity: the tools of a contract share their envelope
    tools = []
    for tool in document["tools"]:
        if "outputSchema" in tool:
            schema = tool["outputSchema"]
            index = places.setdefault(id(schema), len(outputs))
            if index == len(outputs):
                outputs.append(schema)
            tool = {**tool, "outputSchema": index}
        tools.append(tool)
    document = {**document, "tools": tools, "outputs": outputs}
    lines = [f"{json_line(key)}: {json_line(document[key], sort_keys=True)}" for key in document]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _results(entry: Entry, marked: list[str]) -> dict[str, Any]:
    result = entry.get("result") or {}
    codes = entry.get("possible_error_codes")
    own = bool(entry.get("outputSchema"))
    return {
        "structured": structured(entry),
        "content": list(result["content"]) if result.get("content") else None,
        "codes": list(codes) if codes is not None else None,
        "own_output": own,
        "text_schema": result.get("text_schema"),
        # A tool with an outputSchema of its own cannot answer the envelope: a refusal is text.
        "argument_error": None if own else _argument_error(marked, codes),
        "secrets": list(entry.get("secret_arguments") or ()),
    }


def _argument_errors(contract: Contract) -> list[str]:
    """The codes of the catalogue, in its order, that a boolean column with `role:
    argument_error` marks true: what a refusal of arguments is answered with where the revision
    makes it a result. None without builders (no envelope can be built)."""
    if contract.builders is None:
        return []
    columns = [c.name for c in contract.catalogue.errors.columns if c.role == "argument_error"]
    if not columns:
        return []
    return [e.code for e in contract.catalogue.errors.entries if any(e.get(c) is True for c in columns)]


def _argument_error(marked: list[str], codes: Any) -> str | None:
    """The first of the `marked` codes the tool declares (any, where it declares none)."""
    return next((code for code in marked if codes is None or code in codes), None)


def _at(listing: list[dict[str, Any]], entries: Any, revision: Revision) -> dict[str, Any]:
    hidden: dict[str, list[str]] = {}
    carried: list[str] = []
    for tool, entry in zip(listing, entries, strict=True):
        shown = tool_at(tool, revision)
        gone = sorted(set(tool) - set(shown))
        if gone:
            hidden[tool["name"]] = gone
        if structured(entry) and "outputSchema" in tool and carries_structured(shown, revision):
            carried.append(tool["name"])
    return {
        "hidden": hidden,
        "structured": carried,
        "refusal": "result" if revision.refusal_as_result else "rpc",
        "resource_not_found": revision.resource_not_found,
    }


def _errors(contract: Contract) -> dict[str, Any]:
    """How an answer is told an error: a code where `builders.code` points, or every constant
    the error builder writes where the success builder writes another (`success: false`)."""
    builders = contract.builders
    structured_errors = contract.error_results.structured
    if builders is None:
        return {"code_at": None, "constants": [], "structured": structured_errors, "derived": {}}
    success = dict(builders.success_constants)
    telling = [[p, v] for p, v in builders.error_constants if p in success and success[p] != v]
    derived = {}  # what the catalogue says of each code where `builders.derived` points
    for entry in contract.catalogue.errors.entries if builders.derived else ():
        values = [[p, plain(entry.get(column))] for p, column in builders.derived if entry.get(column) is not None]
        if values:
            derived[entry.code] = values
    return {"code_at": builders.code, "constants": telling, "structured": structured_errors, "derived": derived}


def plain(value: Any) -> Any:
    """A catalogue's value as JSON: an array column's tuple a list."""
    return list(value) if isinstance(value, tuple) else value


def _resource(resource: Resource) -> dict[str, Any]:
    contents = resource.contents
    held: dict[str, str] | None = None
    if contents is not None:
        held = {"blob": contents.blob} if contents.blob is not None else {"text": contents.text or ""}
    return {"listing": dict(resource.listing), "contents": held, "json": is_json(resource.listing.get("mimeType"))}
