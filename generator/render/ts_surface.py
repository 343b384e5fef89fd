"""`resources.ts` and `prompts.ts` of a contract's folder of the npm package, for a contract
that declares resources or prompts: the TypeScript side of `resources.py` and `prompts.py`.

resources.ts has a constant per resource URI (the Python constant's name, `STATIC_TEXT`, as
errors.ts names its constants), `RESOURCES`, and per template its parsed `UriTemplate` (the
runtime's `_runtime/uri_template.ts`, the port of `runtime/uri_template.py`), `TEMPLATES`,
`expand<Name>(values)`, `match<Name>(uri)` and the interface `<Name>Values` (a variable of a
query expression optional, every key quoted). prompts.ts has a constant per prompt name,
`PROMPTS`, and per prompt with arguments the interface `<Name>Arguments` and the type guard
`is<Name>Arguments(value)`: a plain object holding no other key, every required argument a
string, an optional one a string where it is there. `<Name>` is the Python class's stem
(`camel`), which loading keeps unique among a contract's templates and prompts.

Every literal goes through `ts` or `tsdoc` here; the templates only place these strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model import Contract
from ..model.surface import Prompt, Resource
from ..naming import camel, constant_name, resource_module
from ..runtime.uri_template import UriTemplate
from .escape import ts, ts_key, tsdoc
from .surface_code import about, judged_resource, optional_variables
from .ts_types import declarations


@dataclass(frozen=True, slots=True)
class TsConstant:
    name: str
    value: str  # a literal
    doc: str  # a doc comment, or ""


@dataclass(frozen=True, slots=True)
class TsMember:
    key: str  # the property name, quoted (`["__proto__"]` computed, see `ts_key`)
    literal: str  # the name as a string literal, to read the property by
    optional: bool
    doc: str  # a doc comment indented for an interface's body, or ""


@dataclass(frozen=True, slots=True)
class TsTemplate:
    constant: TsConstant  # its value `UriTemplate.parse(<the template>)`
    values: str  # the interface of its variables
    expand: str
    match: str
    members: tuple[TsMember, ...]
    expand_doc: str
    match_doc: str


@dataclass(frozen=True, slots=True)
class TsPrompt:
    arguments: str  # the interface
    guard: str  # the type guard
    doc: str
    guard_doc: str
    members: tuple[TsMember, ...]
    required: str  # an array literal of the required arguments' names
    optional: str  # and of the others'


@dataclass(frozen=True, slots=True)
class TsModel:
    """The model of a JSON resource's contents: `resource_models/<module>.ts`, imported by
    resources.ts as the namespace `<Name>Model`, and `read<Name>(text)` beside it."""

    namespace: str
    module: str
    root: str  # the type of the contents
    read: str
    read_doc: str


def _array(names: list[str]) -> str:
    return "[" + ", ".join(names) + "]"


def resource_literals(contract: Contract) -> dict[str, Any]:
    """What resources.ts places, in resources.yaml's order."""
    surface = contract.surface
    resources = [TsConstant(constant_name(r.name), ts(r.uri), tsdoc(about(r.listing))) for r in surface.resources]
    templates = [_template(t) for t in surface.templates]
    models = [_model(r) for r in (*surface.resources, *surface.templates) if judged_resource(r)]
    return {
        "models": models,
        "model_exports": ", ".join(model.namespace for model in models),
        "resources": resources,
        "resource_list": _array([r.name for r in resources]),
        "templates": templates,
        "template_list": _array([t.constant.name for t in templates]),
    }


def _model(resource: Resource) -> TsModel:
    assert resource.view is not None  # judged_resource
    stem, constant = camel(resource.name), constant_name(resource.name)
    return TsModel(
        namespace=f"{stem}Model",
        module=resource_module(resource.name),
        root=resource.view.root,
        read=f"read{stem}",
        read_doc=tsdoc(
            f"The contents of `{constant}` read from their JSON text: a SyntaxError where it is no JSON,"
            " a ContractViolation where its schema refuses it."
        ),
    )


def resource_model_literals(resource: Resource) -> dict[str, Any]:
    """What `resource_models/<name>.ts` places: the view's types, the judge's bundle (made its
    text by the caller, as judge.ts's), each type's location."""
    assert resource.bundle is not None and resource.view is not None  # judged_resource
    return {
        "constant": constant_name(resource.name),
        "what": f"the contents of {constant_name(resource.name)}",
        "declarations": declarations(resource.view),
        "bundle": resource.bundle,
        "locations": [(c.name, ts(c.location)) for c in resource.view.classes],
        "root": resource.view.root,
    }


def _template(template: Resource) -> TsTemplate:
    parsed = UriTemplate.parse(template.uri)
    constant = constant_name(template.name)
    stem = camel(template.name)
    optional = optional_variables(template.uri)
    return TsTemplate(
        constant=TsConstant(constant, f"UriTemplate.parse({ts(template.uri)})", tsdoc(about(template.listing))),
        values=f"{stem}Values",
        expand=f"expand{stem}",
        match=f"match{stem}",
        members=tuple(TsMember(ts_key(v), ts(v), v in optional, "") for v in parsed.variables),
        expand_doc=tsdoc(f"The URI of `{constant}` ({template.uri}) for these values."),
        match_doc=tsdoc(f"The values `uri` gives the variables of `{constant}`, or null when it does not match."),
    )


def prompt_literals(contract: Contract) -> dict[str, Any]:
    """What prompts.ts places, in prompts.yaml's order."""
    prompts = contract.surface.prompts
    constants = [TsConstant(constant_name(p.name), ts(p.name), tsdoc(about(p.listing))) for p in prompts]
    return {
        "prompts": constants,
        "prompt_list": _array([c.name for c in constants]),
        "arguments": [_prompt(p) for p in prompts if p.arguments],
    }


def _prompt(prompt: Prompt) -> TsPrompt:
    stem = camel(prompt.name)
    members = tuple(
        TsMember(ts_key(a.name), ts(a.name), not a.required, tsdoc(a.description, "  ") if a.description else "")
        for a in prompt.arguments
    )
    return TsPrompt(
        arguments=f"{stem}Arguments",
        guard=f"is{stem}Arguments",
        doc=tsdoc(f"The arguments of the prompt {prompt.name}."),
        guard_doc=tsdoc(
            f"Whether `value` is exactly the arguments of the prompt {prompt.name}:\n"
            "a plain object with no other key, each required argument a string, an optional one a string."
        ),
        members=members,
        required=_array([ts(a.name) for a in prompt.arguments if a.required]),
        optional=_array([ts(a.name) for a in prompt.arguments if not a.required]),
    )
