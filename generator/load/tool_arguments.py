"""Each tool's `inputSchema` compiled, bundled and viewed as a JSON resource's `schema:` is:
what the generated `tools.<Name>Arguments` models are made from and judged by. Its own
`outputSchema` is viewed too, for the zod part of the TypeScript tool (`render/ts_zod.py`).

A tool without an `inputSchema` takes what `mcp/<name>.tools.json` publishes for it,
`{"type": "object"}`. Two tools whose arguments would share a class (`GetBookArguments` for
`get_book` and `getBook`) or a module of `tool_arguments/` are an error at the second one's
name: a generated name never stands for two tools.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..diagnostics import Diagnostic
from ..model import Manifest
from ..model.surface import Surface, ToolArguments
from ..naming import arguments_model_name, prompt_method, resource_method, resource_module, tool_method
from .bundle import VIRTUAL_ROOT
from .documents import Document
from .envelope import Source, compile_schema
from .reading import Reading

TOOLS_FILE = "tools.yaml"
# What a tool without an `inputSchema` takes: what its listing publishes.
ANY_OBJECT: Mapping[str, Any] = {"type": "object"}


def tool_schema_uri(name: str) -> str:
    """Where a tool's `inputSchema` is known in its bundle: in tools.yaml of the contract folder."""
    return f"{VIRTUAL_ROOT}{TOOLS_FILE}?tool={quote(name, safe='')}"


@dataclass(frozen=True)
class _Given(Source):
    """The schema of a tool that gives none: `{"type": "object"}`, its problems at the tool."""

    given: Any = None

    @property
    def data(self) -> Any:
        return self.given


def load_tool_arguments(
    document: Document, manifest: Manifest, references: Mapping[str, Path], formats: bool, reading: Reading
) -> tuple[tuple[ToolArguments, ...], list[Diagnostic]]:
    """The arguments of every tool of `manifest` (tools.yaml, `document`), in its order, and
    every problem: a schema that does not compile or view, a class or module named twice."""
    found: list[ToolArguments] = []
    problems: list[Diagnostic] = []
    classes: dict[str, str] = {}
    modules: dict[str, str] = {}
    methods: dict[str, str] = {}
    for index, tool in enumerate(manifest.tools.entries):
        name, where = tool.code, ["tools", index, "name"]
        clash = (
            _clash(name, arguments_model_name(name), classes, "class")
            or _clash(name, f"tool_arguments/{resource_module(name)}.py", modules, "module")
            or _clash(name, tool_method(name), methods, "method of Handlers and Client", "Python")
        )
        if clash:
            problems.append(document.diagnostic(where, clash))
            continue
        uri = tool_schema_uri(name)
        source: Source = (
            Source(document, uri, ("tools", index, "inputSchema"))
            if tool.get("inputSchema") is not None
            else _Given(document, uri, ("tools", index), dict(ANY_OBJECT))
        )
        named = partial(_arguments_class, arguments_model_name(name))  # whatever the schema's title says
        compiled = compile_schema(source, named, references, formats, reading)
        output = None
        if tool.get("outputSchema") is not None:  # viewed for its zod part: no class is generated of it
            own = Source(document, uri, ("tools", index, "outputSchema"))
            output = compile_schema(own, partial(_arguments_class, "Output"), references, formats, reading)
        if isinstance(compiled, Diagnostic) or isinstance(output, Diagnostic):
            problems += [p for p in (compiled, output) if isinstance(p, Diagnostic)]
            continue
        given = tool.get("outputSchema")
        found.append(ToolArguments(name, compiled.bundle, compiled.view, output.view if output else None, given))
    return tuple(found), problems


def _arguments_class(name: str, _title: object) -> str:
    return name


def _clash(tool: str, generated: str, first: dict[str, str], what: str, of: str = "arguments") -> str | None:
    """Why `tool` may not take the name `generated`, when an earlier tool took it."""
    if generated in first:
        return f"the tools {first[generated]!r} and {tool!r} both have the {of} {what} {generated} in Python"
    first[generated] = tool
    return None


def surface_clashes(document: Document, manifest: Manifest, surface: Surface) -> list[Diagnostic]:
    """A tool whose method in `Handlers` and `Client` is a resource's, template's or prompt's
    (`read_<name>`, `prompt_<name>`), or two of those that share one: each at the tool's name,
    or at tools.yaml's `tools` for two of the surface."""
    taken: dict[str, str] = {}
    for kind, name, method in (
        *(("resource", r.name, resource_method(r.name)) for r in (*surface.resources, *surface.templates)),
        *(("prompt", p.name, prompt_method(p.name)) for p in surface.prompts),
    ):
        taken.setdefault(method, f"the {kind} {name!r}")
    problems = []
    for index, tool in enumerate(manifest.tools.entries):
        other = taken.get(tool_method(tool.code))
        if other is not None:
            method = tool_method(tool.code)
            message = (
                f"the tool {tool.code!r} and {other} both have the method {method} of Handlers and Client in Python"
            )
            problems.append(document.diagnostic(["tools", index, "name"], message))
    return problems
