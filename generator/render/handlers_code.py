"""The server and client half of a contract's `tools.py`: `BINDING` (what the runtime's server
and client are told of the contract), `ToolError`, `Handlers` (one `async` method per tool,
resource, template and prompt, each raising `Unimplemented` until a subclass overrides it),
`server(handlers)` and `Client` (one `async` method per tool with keyword parameters typed by
its input schema, per resource, template and prompt).

A tool's method is `naming.tool_method(tool)`, a resource's or template's
`naming.resource_method` (`read_<name>`), a prompt's `naming.prompt_method` (`prompt_<name>`);
loading refuses two that clash. Every literal goes through `py`, every docstring through
`docstring`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model import Contract
from ..model.schemas import ViewClass
from ..model.surface import Prompt, Resource, ToolArguments
from ..naming import arguments_model_name, parameter_name, prompt_method, resource_method, resource_module, tool_method
from ..runtime.uri_template import UriTemplate
from .builder_signatures import HintNeeds, hint_parts
from .escape import docstring, py, py_tuple
from .mcp import structured
from .surface_code import Block, about

# What a resource's or template's method returns, and a prompt's.
_CONTENTS = "str | bytes"
_MESSAGES = "str | Sequence[Mapping[str, Any]]"


@dataclass(frozen=True, slots=True)
class _ToolFacts:
    """What the methods of a tool say of it: its docstring, and whether it answers a document of
    its own `outputSchema` (`own`) or content blocks (`content`) rather than the envelope."""

    about: str
    own: bool
    content: bool


@dataclass(frozen=True, slots=True)
class _Signature:
    """A Client method's parameters after `self`, and the dict expression of the arguments."""

    parameters: str
    given: str


def server_blocks(contract: Contract, root: str, needs: HintNeeds) -> list[Block]:
    """The definitions after the arguments models: BINDING, Answer, ToolError, Handlers, server, Client."""
    answer = '"""What a handler of a tool returns: the envelope, as its model or its document."""'
    blocks = [_binding(contract, root), Block(f"Answer = _models.{root} | Mapping[str, Any]\n{answer}")]
    if contract.builders is not None:
        blocks.append(Block(_tool_error(contract)))
    facts = {  # from one pass over tools.yaml's table
        e.code: _ToolFacts(about(e.by_column, e.code), bool(e.get("outputSchema")), not structured(e))
        for e in contract.manifest.tools.entries
    }
    blocks += [_handlers(contract, facts), Block(_SERVER), _client(contract, root, needs, facts)]
    return blocks


def _tool_error(contract: Contract) -> str:
    """`ToolError`, its `message` as the contract's `error_document` takes it: required where
    the builders need one and the catalogue has no message column, else optional, or none where
    the envelope has no message."""
    builders = contract.builders
    assert builders is not None
    if not builders.message:
        message, given = "", ""
    elif builders.callers_message(contract.catalogue):
        message, given = ", message: str", ", message"
    else:
        message, given = ", message: str | None = None", ", message"
    return f'''class ToolError(ToolFailure):
    """An error a handler raises: the server answers the error envelope of `code` (built by
    `error_document`, so judged) with `isError: true`."""

    def __init__(self, code: _errors.ErrorCode | str{message}, **members: Any) -> None:
        super().__init__(error_document(code{given}, **members))
        self.code = str(code)'''


_SERVER = '''def server(handlers: Handlers, *, name: str = CONTRACT, version: str | None = None) -> ContractServer:
    """An MCP server on the official SDK that serves this contract with `handlers`: its
    `tools/list` is the contract's at each revision, each call's arguments and each answer are
    judged by the contract (`.run()` serves standard input and output)."""
    return ContractServer(BINDING, handlers, name=name, version=version)'''


def _binding(contract: Contract, root: str) -> Block:
    surface = contract.surface
    methods = "".join(f"        {py(a.tool)}: {py(tool_method(a.tool))},\n" for a in contract.arguments)
    resources = "".join(f"        {py(r.uri)}: {py(resource_method(r.name))},\n" for r in surface.resources)
    templates = "".join(
        f"        {py(t.uri)}: ({py(resource_method(t.name))}, {_variables(t)}),\n" for t in surface.templates
    )
    prompts = "".join(
        f"        {py(p.name)}: ({py(prompt_method(p.name))}, {_prompt_model(p)}),\n" for p in surface.prompts
    )
    error_document = "error_document" if contract.builders is not None else "None"
    return Block(
        "BINDING: Final = ContractBinding(\n"
        "    package=__name__.rpartition('.')[0],\n"
        "    judge=JUDGE,\n"
        f"    envelope=_models.{root},\n"
        "    arguments=ARGUMENTS,\n"
        f"    methods={{\n{methods}    }},\n"
        f"    error_document={error_document},\n"
        f"    resources={{\n{resources}    }},\n"
        f"    templates={{\n{templates}    }},\n"
        f"    prompts={{\n{prompts}    }},\n"
        ")\n"
        '"""What the runtime\'s server and client are told of this contract."""'
    )


def _variables(template: Resource) -> str:
    pairs = [f"({py(v)}, {py(parameter_name(v))})" for v in UriTemplate.parse(template.uri).variables]
    return py_tuple(pairs)


def _prompt_model(prompt: Prompt) -> str:
    return f"_prompts.{arguments_model_name(prompt.name)}" if prompt.arguments else "None"


def _handlers(contract: Contract, facts: dict[str, _ToolFacts]) -> Block:
    lines = [
        "class Handlers(ContractHandlers):",
        docstring(
            "The handlers of this contract's server: override the method of each tool (and of each "
            "resource, template or prompt whose contents are not the contract's); a method left out "
            "is answered as not implemented (JSON-RPC -32601), a resource or prompt from the contract.",
            "    ",
        ),
    ]
    for arguments in contract.arguments:
        tool = facts[arguments.tool]
        returns = "Any" if tool.own else "Answer"  # a document of its own outputSchema
        if tool.content:  # text or content blocks, else the envelope
            returns = "Answer | str | Sequence[ContentBlock]"
        lines += [
            "",
            f"    async def {tool_method(arguments.tool)}(self, arguments: {arguments.view.root}) -> {returns}:",
            docstring(tool.about, "        "),
            f"        raise Unimplemented({py(arguments.tool)})",
        ]
    for resource in contract.surface.resources:
        lines += _surface_method(resource_method(resource.name), "", _CONTENTS, resource.uri, resource.listing)
    for template in contract.surface.templates:
        lines += _surface_method(
            resource_method(template.name), _template_parameters(template), _CONTENTS, template.uri, template.listing
        )
    for prompt in contract.surface.prompts:
        parameters = f", arguments: {_prompt_model(prompt)}" if prompt.arguments else ""
        lines += _surface_method(prompt_method(prompt.name), parameters, _MESSAGES, prompt.name, prompt.listing)
    return Block("\n".join(lines))


def _surface_method(name: str, parameters: str, returns: str, served: str, listing: Mapping[str, Any]) -> list[str]:
    return [
        "",
        f"    async def {name}(self{parameters}) -> {returns}:",
        docstring(about(listing, served), "        "),
        f"        raise Unimplemented({py(served)})",
    ]


def _template_parameters(template: Resource) -> str:
    variables = UriTemplate.parse(template.uri).variables
    return ", *, " + ", ".join(f"{parameter_name(v)}: str" for v in variables) if variables else ""


def _client(contract: Contract, root: str, needs: HintNeeds, facts: dict[str, _ToolFacts]) -> Block:
    lines = [
        f"class Client(ContractClient[_models.{root}]):",
        docstring(
            "This contract's tools, resources and prompts called over an MCP `ClientSession`: "
            "arguments judged before they are sent, answers judged before they are returned.",
            "    ",
        ),
        "",
        "    def __init__(self, session: ClientSession) -> None:",
        "        super().__init__(session, BINDING)",
    ]
    for arguments in contract.arguments:
        signature = _tool_signature(arguments, needs)
        tool = facts[arguments.tool]
        # A tool with an outputSchema of its own answers its document, judged by that schema;
        # a content tool the SDK's result, its blocks judged.
        returns, call = ("Any", "_call_document") if tool.own else (f"_models.{root}", "_call")
        if tool.content:
            returns, call = "CallToolResult", "_call_content"
        lines += [
            "",
            f"    async def {tool_method(arguments.tool)}(self{signature.parameters}) -> {returns}:",
            docstring(tool.about, "        "),
            f"        return await self.{call}({py(arguments.tool)}, {signature.given})",
        ]
    for resource in contract.surface.resources:
        lines += [
            "",
            f"    async def {resource_method(resource.name)}(self) -> {_CONTENTS}:",
            f"        return await self._read({py(resource.uri)})",
        ]
    for template in contract.surface.templates:
        variables = UriTemplate.parse(template.uri).variables
        given = "{" + ", ".join(f"{py(v)}: {parameter_name(v)}" for v in variables) + "}"
        lines += [
            "",
            f"    async def {resource_method(template.name)}(self{_template_parameters(template)}) -> {_CONTENTS}:",
            f"        return await self._read_template({py(template.uri)}, {given})",
        ]
    for prompt in contract.surface.prompts:
        parameters = "".join(
            f", {parameter_name(a.name)}: str" if a.required else f", {parameter_name(a.name)}: str | None = None"
            for a in prompt.arguments
        )
        given = "{" + ", ".join(f"{py(a.name)}: {parameter_name(a.name)}" for a in prompt.arguments) + "}"
        keywords = ", *" + parameters if parameters else ""
        lines += [
            "",
            f"    async def {prompt_method(prompt.name)}(self{keywords}) -> GetPromptResult:",
            f"        return await self._prompt({py(prompt.name)}, {given})",
        ]
    return Block("\n".join(lines))


def _tool_signature(arguments: ToolArguments, needs: HintNeeds) -> _Signature:
    """Keyword parameters named after the root class's fields, typed by the view (optional
    ones default to ABSENT, left out of the call); `**extra` where other members are allowed.
    A root that is no object, or fields whose Python names clash, take one `arguments` mapping."""
    view = arguments.view
    root: ViewClass = next(c for c in view.classes if c.name == view.root)
    names = [parameter_name(f.name) for f in root.fields]
    if root.root is not None and root.root.kind == "dict":  # an object of no named property
        return _Signature(", **_extra: Any", "_extra")
    if root.root is not None or len(set(names)) != len(names):
        return _Signature(f", arguments: {view.root} | Mapping[str, Any]", "arguments")
    needs.prefix = f"_tool_{resource_module(arguments.tool)}"  # tools_code.module_alias
    required, optional = [], []
    for field, name in zip(root.fields, names, strict=True):
        needs.model = False
        parts = hint_parts(view, field.type, needs)
        if field.required:
            required.append(f"{name}: {' | '.join(parts)}")
        else:
            needs.absent = True
            optional.append(f"{name}: {' | '.join([*parts, 'ABSENT'])} = ABSENT")
    given = "{" + ", ".join(f"{py(f.name)}: {n}" for f, n in zip(root.fields, names, strict=True)) + "}"
    parameters = [*required, *optional]
    if not root.closed:  # `_extra`: no parameter of a property begins with `_` (naming.parameter_name)
        parameters.append("**_extra: Any")
        given = f"{{**_extra, **{given}}}"
    return _Signature(", *, " + ", ".join(parameters) if parameters else "", given)
