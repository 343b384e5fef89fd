"""Names in generated code and docs, derived in one place: class names, enum members,
slugs and anchors. A rule written twice drifts; every other module asks here."""

from __future__ import annotations

import keyword
import os
import re
from pathlib import Path

# Names a class must not take: what a generated module imports or exports besides its classes.
RESERVED_NAMES = frozenset(
    {
        # the exports of a contract package, beside its root class
        "CONTRACTS",
        "JUDGE",
        "builders",
        "dump_json",
        "error_document",
        "error_info",
        "error_response",
        "errors",
        "judge",
        "models",
        "success_document",
        "success_response",
        "Annotated",
        "Any",
        "ConfigDict",
        "Envelope",
        "ERRORS",
        "ErrorCode",
        "Field",
        "Judge",
        "Integer",
        "JudgedModel",
        "JudgedRootModel",
        "Literal",
        "ABSENT",
        "MISSING",  # datamodel-code-generator's name for ABSENT, renamed in models.py
        # what the builders module imports beside the root class
        "Filling",
        "Final",
        "Mapping",
        "Path",
        "Placements",
        "Sequence",
        "RootModel",
    }
)


def camel(text: str) -> str:
    """Words as one CamelCase name: `rate limit` -> `RateLimit`; `Model` before a digit."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    name = "".join(w[:1].upper() + w[1:] for w in words)
    return name if name and not name[0].isdigit() else f"Model{name}"


def class_name_from(text: str) -> str:
    """A title or key as a class name: kept when it is one (capitalised), CamelCased otherwise."""
    if text.isidentifier() and text.isascii() and "_" not in text and not keyword.iskeyword(text):
        return text[0].upper() + text[1:]
    return camel(text)  # snake_case and other words: CamelCase, as datamodel-code-generator names it


def root_name(title: object, contract: str, kind: str = "Envelope") -> str:
    """The root class of a contract: its schema's title, or the contract's name and
    `Envelope`; a name a package export holds gets `Model` after it. A JSON resource's root
    class is named the same way from its own name and `kind`, `Contents`."""
    text = title if isinstance(title, str) and title.strip() else contract.replace("-", " ") + " " + kind
    name = class_name_from(text)
    if name in RESERVED_NAMES and name != "Envelope":  # a package export keeps its meaning
        name += "Model"
    return name


def lower_camel(name: str) -> str:
    """A snake_case name in lower camel case, as TypeScript names functions: `error_info` -> `errorInfo`."""
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def flag_set_name(column: str, entries: str = "codes") -> str:
    """The constant of the entries whose boolean column is true: `retryable` -> `RETRYABLE_CODES`;
    of another section than the error codes, named by its entries (`RETRYABLE_WARNING_CODES`),
    so that two sections with a column of one name declare two constants."""
    return f"{column.upper()}_{entries.upper().replace(' ', '_')}"


def member_name(code: str) -> str:
    """The Python enum member of a code: `x_rate_limited` -> `X_RATE_LIMITED`."""
    return re.sub(r"[^0-9A-Za-z]+", "_", code).strip("_").upper()


def constant_name(name: str) -> str:
    """The Python constant of a resource, template or prompt name: `static-text` -> `STATIC_TEXT`;
    one that would not be a name (`404`, ``) gets a letter first: `N_404`."""
    found = member_name(name)
    return found if found.isidentifier() and not found[:1].isdigit() else f"N_{found}"


def function_suffix(name: str) -> str:
    """The part of a function's name a resource template's name becomes: `template-data` ->
    `template_data` (`expand_template_data`, `match_template_data`)."""
    return constant_name(name).lower()


def resource_module(name: str) -> str:
    """The module of a JSON resource's models (`resource_models/<module>.py`, `.ts`), and the
    stem of its judge's files: its function suffix, a keyword with `_` after it (`class_`)."""
    suffix = function_suffix(name)
    return f"{suffix}_" if keyword.iskeyword(suffix) else suffix


def parameter_name(variable: str) -> str:
    """A Python parameter for a URI template's variable or a field for a prompt's argument:
    letters, digits and `_`, `v_` before one that starts with `_` or a digit, and `_` after a
    keyword or a name the generated code takes (`_TAKEN_PARAMETERS`): `page.size` -> `page_size`,
    `from` -> `from_`, `json` -> `json_`, `_x` -> `v__x`. The contract's name stays the wire name
    (the field's alias, the key of the template's values). No parameter starts with `_`: the
    generated code's own locals and the module names its functions read do."""
    found = re.sub(r"[^0-9A-Za-z_]+", "_", variable)
    if not found or found[0].isdigit() or found[0] == "_":  # a field of pydantic's may not begin with `_`
        found = f"v_{found}"
    return f"{found}_" if keyword.iskeyword(found) or found in _TAKEN_PARAMETERS else found


def tool_method(tool: str) -> str:
    """The method of a tool in a contract's `Handlers` and `Client`: `get_book` -> `get_book`,
    `mcp.tool:fetch` -> `mcp_tool_fetch`, `from` -> `from_`."""
    return parameter_name(tool)


def resource_method(name: str) -> str:
    """The method of a resource or template in `Handlers` and `Client`: `read_<suffix>`."""
    return f"read_{function_suffix(name)}"


def prompt_method(name: str) -> str:
    """The method of a prompt in `Handlers` and `Client`: `prompt_<suffix>`."""
    return f"prompt_{function_suffix(name)}"


def template_reference(template: str) -> str:
    """The private module name by which `expand_<name>` reads a template (`_ITEM_TEMPLATE`): its
    parameters may take any name of the contract, the template's constant's (`{ITEM}`) too.
    Upper case and `_TEMPLATE` at its end, it is none of resources.py's other private names
    (`_PACKAGE`, a models module's `_<module>`)."""
    return f"_{constant_name(template)}_TEMPLATE"


def arguments_model_name(prompt: str) -> str:
    """The model of a prompt's arguments: `review_code` -> `ReviewCodeArguments`."""
    return f"{camel(prompt)}Arguments"


def values_class_name(template: str) -> str:
    """The TypedDict of a resource template's variables: `template-data` -> `TemplateDataValues`."""
    return f"{camel(template)}Values"


# The public attributes of pydantic's BaseModel (2.x, the deprecated ones of 1.x included): a
# field of that name shadows one, which pydantic warns of (an error under `-W error`) and mypy
# refuses. tests/test_generated_names.py holds this list against the installed pydantic.
BASE_MODEL_ATTRIBUTES = frozenset(
    {
        "construct",
        "copy",
        "dict",
        "from_orm",
        "json",
        "model_computed_fields",
        "model_config",
        "model_construct",
        "model_copy",
        "model_dump",
        "model_dump_json",
        "model_extra",
        "model_fields",
        "model_fields_set",
        "model_json_schema",
        "model_parametrized_name",
        "model_post_init",
        "model_rebuild",
        "model_validate",
        "model_validate_json",
        "model_validate_strings",
        "parse_file",
        "parse_obj",
        "parse_raw",
        "schema",
        "schema_json",
        "update_forward_refs",
        "validate",
    }
)

# Names a parameter or field does not take beside the keywords: BaseModel's attributes; `str`,
# the type of every field, which pydantic reads in the class's namespace, where a field of
# that name with a default would be found instead; and `self`, `cls` and `uri`, spelt
# `self_`, `cls_` and `uri_` since the first generated code.
_TAKEN_PARAMETERS = BASE_MODEL_ATTRIBUTES | {"self", "cls", "uri", "str"}


def slug(text: str) -> str:
    """The part of an HTML anchor a code or tool name becomes: `[a-z0-9._-]` only."""
    return re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-")


# What the anchor of a row of each catalogue or tool table starts with.
_ROW_PREFIXES = {
    "errors": "error",
    "error_types": "error-type",
    "warnings": "warning",
    "tools": "tool",
    "resources": "resource",
    "templates": "resource-template",
    "prompts": "prompt",
}


def row_anchor(table: str, key: str) -> str:
    """The anchor of a row of a table (`errors`, `error_types`, `warnings`, `tools`, `resources`,
    `templates`, `prompts`) on its page: `error-rate_limited`, `tool-search`."""
    return f"{_ROW_PREFIXES[table]}-{slug(key)}"


def error_anchor(code: str) -> str:
    return row_anchor("errors", code)


def error_type_anchor(name: str) -> str:
    return row_anchor("error_types", name)


def definition_anchor(name: str) -> str:
    """The anchor of a definition of the envelope on its page: `def-` and the lower-cased name."""
    return "def-" + re.sub(r"[^a-z0-9_-]", "", name.lower())


def contents_anchor(resource: str, name: str) -> str:
    """The anchor of a definition of a JSON resource's schema on its contract's page:
    `contents-`, the resource's function suffix (no `-` in it), and the lower-cased name:
    apart from every definition of the envelope (`def-`) and of every other resource."""
    return f"contents-{function_suffix(resource)}-" + re.sub(r"[^a-z0-9_-]", "", name.lower())


def longest_file_name(folder: Path) -> int:
    """The most bytes a file name may hold in `folder` (or its nearest folder that exists):
    `PC_NAME_MAX` of its file system, 255 where the system does not say."""
    place = folder
    while not place.is_dir() and place != place.parent:
        place = place.parent
    try:
        return os.pathconf(place, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255
