"""`resources.py` and `prompts.py` of a contract's Python package, for a contract that
declares resources or prompts: what a server or client imports instead of writing a URI or a
prompt's name by hand.

resources.py has a constant per resource URI, and per template its parsed `UriTemplate`, a
function that expands it from keyword arguments (`expand_<name>`), one that matches a URI
back to its variables (`match_<name>`, a TypedDict or None) and the TypedDict. A variable of
a query expression (`{?page}`, `{&sort}`) may be left out: its parameter defaults to None,
and its key is `NotRequired`. A JSON resource or template with a `schema:` has a module of
pydantic models, `resource_models/<name>.py`, made as models.py is (`view_models_code`), its
classes bound in resources.py to the resource's judge (`<NAME>_JUDGE`), and `read_<name>`,
which reads its contents as the root class. prompts.py has a constant per prompt name, and per prompt with
arguments a frozen pydantic model of them (`<Name>Arguments`), every field a string, one
not required defaulting to None; `model_dump(exclude_none=True)` is what `prompts/get` takes.

Names never shadow: a parameter or field is the contract's name as `parameter_name` spells it
(`_` after a keyword, a BaseModel attribute or `str`; the wire name kept as the key or alias),
never starting with `_`; what the body of `expand_<name>` or of an arguments model reads
beside them starts with `_` (`_ITEM_TEMPLATE`, `_Field`, `_ARGUMENTS`; `str` and `None`, which
no parameter is, aside), and neither has a local. So `{ITEM}` of the template `item`,
`{?values}` and an argument named `Field`, `str` or `json` each stay what they are.

Every line is made here, each literal through the one escaping filter (`py`, `docstring`);
the templates only place them.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..model import Contract
from ..model.surface import Prompt, Resource
from ..naming import (
    arguments_model_name,
    constant_name,
    function_suffix,
    parameter_name,
    resource_module,
    template_reference,
    values_class_name,
)
from ..runtime.uri_template import UriTemplate
from .escape import docstring, py, py_tuple

# An expression of a URI template the runtime's parser accepted: its operator and its variables.
_EXPRESSION = re.compile(r"\{([+#./;?&]?)([^{}]*)\}")


def optional_variables(template: str) -> frozenset[str]:
    """The variables of query expressions (`{?page}`, `{&sort}`), which RFC 6570 leaves out of
    the URI, name and all, when they are undefined: a caller may leave them out."""
    return frozenset(
        name for operator, names in _EXPRESSION.findall(template) if operator in ("?", "&") for name in names.split(",")
    )


@dataclass(frozen=True, slots=True)
class Block:
    """A definition of a generated module: its lines, without a trailing newline."""

    text: str


def about(listing: Mapping[str, Any], fallback: str = "") -> str:
    """A definition's doc text (Python's and TypeScript's): the title and description of its
    listing, as the contract writes them; `fallback` where it has neither."""
    parts = [str(p) for p in (listing.get("title"), listing.get("description")) if p]
    return ": ".join(parts) if parts else fallback


def _constant(name: str, value: str, about: str) -> Block:
    lines = [f"{name}: Final = {value}"]
    if about:
        lines.append(docstring(about))
    return Block("\n".join(lines))


def resource_blocks(contract: Contract) -> list[Block]:
    """The definitions of resources.py, in resources.yaml's order."""
    surface = contract.surface
    blocks = [_constant(constant_name(r.name), py(r.uri), about(r.listing)) for r in surface.resources]
    uris = py_tuple([constant_name(r.name) for r in surface.resources])
    blocks.append(_constant("RESOURCES", uris, "Every resource URI of the contract, in its order."))
    blocks += [block for r in surface.resources if judged_resource(r) for block in _judge_blocks(r)]
    for template in surface.templates:
        blocks += _template_blocks(template)
        blocks += _judge_blocks(template) if judged_resource(template) else []
    names = py_tuple([constant_name(t.name) for t in surface.templates])
    blocks.append(_constant("TEMPLATES", names, "Every resource template of the contract, in its order."))
    return blocks


def resource_imports(contract: Contract) -> list[str]:
    """The import lines of resources.py: only what its definitions use."""
    surface = contract.surface
    judged = sorted(resource_module(r.name) for r in (*surface.resources, *surface.templates) if judged_resource(r))
    optional = any(optional_variables(t.uri) for t in surface.templates)
    typing = ["Final"] + ["NotRequired"] * optional + ["TypedDict", "cast"] * bool(surface.templates)
    runtime = ["Judge", "Published"] * bool(judged) + ["UriTemplate"] * bool(surface.templates)
    runtime += ["bind"] * bool(judged)
    lines = [f"from typing import {', '.join(typing)}"]
    if runtime:
        lines += ["", f"from .._runtime import {', '.join(runtime)}"]
    return lines + [f"from .{RESOURCE_MODELS} import {suffix} as _{suffix}" for suffix in judged]


# The subpackage of a contract's package that holds a module of models per JSON resource.
RESOURCE_MODELS = "resource_models"


def judged_resource(resource: Resource) -> bool:
    """Whether a resource or template has a judge and a model: a JSON one with a `schema:`."""
    return resource.bundle is not None and resource.view is not None


def judge_file(resource: Resource) -> str:
    """The file beside resources.py that holds the bundle of a JSON resource's schema."""
    return f"{resource_module(resource.name)}.resource.json"


def published_file(resource: Resource) -> str:
    """The file beside resources.py that holds what a JSON resource's model classes publish."""
    return f"{resource_module(resource.name)}.published.json"


def models_module(resource: Resource) -> str:
    """The module of a JSON resource's models, relative to the contract's package."""
    return f"{RESOURCE_MODELS}/{resource_module(resource.name)}.py"


def _judge_blocks(resource: Resource) -> list[Block]:
    """The judge of a JSON resource's contents, its model classes bound to it, and
    `read_<name>`, which parses the contents into the root model (judged as it builds)."""
    assert resource.view is not None  # judged_resource
    constant, suffix = constant_name(resource.name), function_suffix(resource.name)
    module = resource_module(resource.name)
    judge, root = f"{constant}_JUDGE", f"_{module}.{resource.view.root}"
    bound = {f"_{module}.{model.name}": model.location for model in resource.view.classes}
    bind = [
        "bind(",
        f"    {judge},",
        "    {",
        *(f"        {name}: {py(location)}," for name, location in bound.items()),
        "    },",
        f"    Published(_PACKAGE, {py(published_file(resource))}),",
        ")",
    ]
    read = [
        f"def read_{suffix}(text: str | bytes | bytearray) -> {root}:",
        docstring(
            f"The contents of `{constant}` ({resource.uri}) as its model: pydantic's ValidationError where they"
            " are no JSON or its schema refuses them.",
            "    ",
        ),
        f"    return {root}.model_validate_json(text)",
    ]
    about = f"The judge of the contents of `{constant}`: its schema in resources.yaml."
    return [
        _constant(judge, f"Judge.from_package(_PACKAGE, {py(judge_file(resource))})", about),
        Block("\n".join(bind)),
        Block("\n".join(read)),
    ]


def _template_blocks(template: Resource) -> list[Block]:
    parsed = UriTemplate.parse(template.uri)
    constant, suffix = constant_name(template.name), function_suffix(template.name)
    values, reference = values_class_name(template.name), template_reference(template.name)
    optional = optional_variables(template.uri)
    described = about(template.listing)
    params = ", ".join(
        f"{parameter_name(v)}: str | None = None" if v in optional else f"{parameter_name(v)}: str"
        for v in parsed.variables
    )
    given = ", ".join(f"{py(v)}: {parameter_name(v)}" for v in parsed.variables)
    alias = [
        f"# What expand_{suffix} reads: its parameters may take any name, `{constant}` too.",
        f"{reference}: Final = {constant}",
    ]
    expand = [
        f"def expand_{suffix}({'*, ' + params if params else ''}) -> str:",
        docstring(f"The URI of `{constant}` ({template.uri}) for these values.", "    "),
        f"    return {reference}.expand({{{given}}})",  # None is undefined: left out
    ]
    match = [
        f"def match_{suffix}(uri: str) -> {values} | None:",
        docstring(f"The values `uri` gives the variables of `{constant}`, or None when it does not match.", "    "),
        f"    found = {constant}.match(uri)",
        f"    return None if found is None else cast({values}, found)",
    ]
    return [
        _constant(constant, f"UriTemplate.parse({py(template.uri)})", described),
        _values_class(values, constant, parsed.variables, optional),
        Block("\n".join(alias)),
        Block("\n".join(expand)),
        Block("\n".join(match)),
    ]


def _values_class(name: str, constant: str, variables: tuple[str, ...], optional: frozenset[str]) -> Block:
    """The TypedDict of a template's variables: a class, or where a variable is no Python name
    (`page.size`, `from`) or one a class body renames (`__x` is `_<Class>__x` there), the
    functional form, which takes any key."""
    about = f"The variables of `{constant}`, as a URI gives them."
    kinds = [(v, "NotRequired[str]" if v in optional else "str") for v in variables]
    if all(v.isidentifier() and not keyword.iskeyword(v) and not v.startswith("__") for v in variables):
        fields = [f"    {v}: {kind}" for v, kind in kinds] or ["    pass"]
        return Block(
            "\n".join([f"class {name}(TypedDict):", docstring(about, "    "), *([""] if kinds else []), *fields])
        )
    keys = ", ".join(f"{py(v)}: {kind}" for v, kind in kinds)
    return Block(f"{name} = TypedDict({py(name)}, {{{keys}}})\n" + docstring(about))


def prompt_blocks(contract: Contract) -> list[Block]:
    """The definitions of prompts.py, in prompts.yaml's order."""
    prompts = contract.surface.prompts
    blocks = [_constant(constant_name(p.name), py(p.name), about(p.listing)) for p in prompts]
    names = py_tuple([constant_name(p.name) for p in prompts])
    blocks.append(_constant("PROMPTS", names, "Every prompt name of the contract, in its order."))
    blocks += [_arguments_model(p) for p in prompts if p.arguments]
    return blocks


def _arguments_model(prompt: Prompt) -> Block:
    lines = [
        f"class {arguments_model_name(prompt.name)}(BaseModel):",
        docstring(f"The arguments of the prompt {prompt.name}.", "    "),
        "",
        "    model_config = _ARGUMENTS",
        "",
    ]
    for argument in prompt.arguments:
        options = [] if argument.required else ["default=None"]
        name = parameter_name(argument.name)
        if name != argument.name:
            options.append(f"alias={py(argument.name)}")
        if argument.description:
            options.append(f"description={py(argument.description)}")
        kind = "str" if argument.required else "str | None"
        value = f" = _Field({', '.join(options)})" if options else ""  # `Field` may be an argument's name
        lines.append(f"    {name}: {kind}{value}")
    return Block("\n".join(lines))
