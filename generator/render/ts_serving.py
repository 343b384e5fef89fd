"""The server and client half of a contract's `tools.ts`: the serving data (what `serving.json`
holds in the Python package, `serving_data.serving_document`) embedded, each tool's
`<Name>Arguments` type and `is<Name>Arguments` guard, `Handlers`, `ToolError`, `server()` and
`Client`, on the runtime's `serving.ts` and `calling.ts`.

Names are the Python package's: a tool's arguments type is its `tools.py` model's name (the
root of its arguments' view), a tool's method `naming.tool_method`, a resource's or template's
`read_<suffix>`, a prompt's `prompt_<suffix>` (loading refuses two that clash), but for a tool
whose method would be `constructor`, which no TypeScript class may have as a method: its
member is `constructor_` (more `_` while that is another tool's; `ts_methods`). The embedded
data lists each tool without its schemas, which are indexes into tools.ts's SCHEMAS: the
envelope, every tool's output, is written once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..model import Contract
from ..naming import camel, prompt_method, resource_method, tool_method
from .escape import ts, tsdoc
from .serving_data import serving_document
from .surface_code import about


@dataclass(frozen=True, slots=True)
class TsServedTool:
    name: str  # a literal
    key: str  # the tool's name, as TOOLS' property name
    method: str  # of Handlers and Client: an identifier
    arguments: str  # the type of its arguments
    guard: str
    content: bool  # a success is content blocks (`result.structured: false`)
    doc: str  # the method's doc comment, indented for a class body
    arguments_doc: str
    guard_doc: str


@dataclass(frozen=True, slots=True)
class TsServedResource:
    uri: str  # a literal: the URI, or the template
    method: str
    values: str | None  # a template's `resources.<Name>Values`; None for a resource
    doc: str
    expand: str | None = None  # a template's `resources.expand<Name>`


@dataclass(frozen=True, slots=True)
class TsServedPrompt:
    name: str  # a literal
    method: str
    arguments: str | None  # `prompts.<Name>Arguments`; None when it takes none
    guard: str | None
    doc: str


# Names a TypeScript class member may not take as a method.
_CLASS_RESERVED = frozenset({"constructor"})


def ts_methods(tools: list[str]) -> dict[str, str]:
    """Each tool's member of the TypeScript `Handlers` and `Client`: its Python method, but for
    `constructor`, given `_` until no other tool's method is the same (Python's stay as they are)."""
    python = {tool: tool_method(tool) for tool in tools}
    taken = set(python.values())
    found = {}
    for tool, method in python.items():
        if method in _CLASS_RESERVED:
            while method in taken:
                method += "_"
            taken.add(method)
        found[tool] = method
    return found


def serving_literals(
    contract: Contract, index: Callable[[Any], int], text: Callable[[Any], str], listing: list[dict[str, Any]]
) -> dict[str, Any]:
    """What tools.ts places for serving and calling: `index` gives a schema's place in SCHEMAS,
    `text` the expression of a JSON value's text; `listing` is `mcp.tool_listing(contract)`."""
    document = serving_document(contract, listing)
    listed = [
        [
            {k: v for k, v in tool.items() if k not in ("inputSchema", "outputSchema")},
            index(tool["inputSchema"]),
            index(tool["outputSchema"]) if "outputSchema" in tool else None,
        ]
        for tool in document["tools"]
    ]
    roots = {arguments.tool: arguments.view.root for arguments in contract.arguments}
    methods = ts_methods([tool["name"] for tool in document["tools"]])
    tools = []
    for tool in document["tools"]:
        name = tool["name"]
        facts = document["results"][name]
        root = roots.get(name) or f"{camel(name)}Arguments"
        tools.append(
            TsServedTool(
                name=ts(name),
                key=ts(name),
                method=methods[name],
                arguments=root,
                guard=f"is{root}",
                content=not facts["own_output"] and not facts["structured"],
                doc=tsdoc(about(tool, f"The tool {name}."), "  "),
                arguments_doc=tsdoc(f"The arguments of the tool {name}, as its inputSchema accepts them."),
                guard_doc=tsdoc(f"Whether `value` is arguments of the tool {name}: judged by its inputSchema."),
            )
        )
    surface = contract.surface
    resources = [
        TsServedResource(ts(r.uri), resource_method(r.name), None, tsdoc(about(r.listing, r.uri), "  "))
        for r in surface.resources
    ]
    templates = [
        TsServedResource(
            ts(t.uri),
            resource_method(t.name),
            f"_resources.{camel(t.name)}Values",
            tsdoc(about(t.listing, t.uri), "  "),
            f"_resources.expand{camel(t.name)}",
        )
        for t in surface.templates
    ]
    prompts = [
        TsServedPrompt(
            ts(p.name),
            prompt_method(p.name),
            f"_prompts.{camel(p.name)}Arguments" if p.arguments else None,
            f"_prompts.is{camel(p.name)}Arguments" if p.arguments else None,
            tsdoc(about(p.listing, f"The prompt {p.name}."), "  "),
        )
        for p in surface.prompts
    ]
    builders = contract.builders
    return {
        "serving_text": text({**document, "tools": listed}),
        "served": tools,
        "served_resources": resources,
        "served_templates": templates,
        "served_prompts": prompts,
        "builders": builders is not None,
        # errorResponse's parameters after the code: (message, members) or (members)
        "message_parameter": builders is not None and bool(builders.message),
        # whether errorResponse may be called without a message (the catalogue's, or none needed)
        "message_optional": builders is not None and not builders.callers_message(contract.catalogue),
    }
