"""Generated names never shadow (issue 51): a contract's own names (of templates and their
variables, prompts and their arguments, tools, resources and their schemas' properties) are
Python and TypeScript keywords, builtins, pydantic `BaseModel` attributes and the names the
generated code uses for itself, and still the Python package imports under `-W error` and
every helper answers, and the TypeScript package compiles under `tsc --strict` and answers alike.

The rule the generated Python follows: what a user calls keeps the contract's name, with `_`
after it where Python, pydantic or the generated code takes that name (`class_`, `json_`,
`str_`), a name starting with `_` or a digit with `v_` before it; the wire name is kept (the
model's alias, the key of a template's values). What `expand_<name>` and an arguments model
read beside the contract's names starts with `_`, which no name of the contract's becomes.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_cli
from mcp_contracts_generator.runtime.uri_template import UriTemplate
from pydantic import BaseModel
from typescript_toolchain import call, compile_package, node_or_skip

pytestmark = pytest.mark.xdist_group("generated-names")  # one worker generates the project once

FIXTURES = ROOT / "tests" / "contracts" / "conformance-fixtures"
NAME = "conformance-fixtures"
PACKAGE = "hostile"
MODULE = f"{PACKAGE}.conformance_fixtures"

# The variables of the template `values`, each with the Python parameter it becomes: a
# keyword, a builtin the generated code reads, a BaseModel attribute or a name no parameter
# may start with takes `_` after it (or `v_` before it); any other name is kept, a name
# generated code uses (`values`, `found`, `VALUES`, `TEMPLATES`, `cast`) included.
REQUIRED_VARIABLES = {
    "dict": "dict_",
    "str": "str_",
    "self": "self_",
    "cls": "cls_",
    "uri": "uri_",
    "None": "None_",
    "class": "class_",
    "Field": "Field",
    "cast": "cast",
    "found": "found",
    "VALUES": "VALUES",
    "TypedDict": "TypedDict",
}
QUERY_VARIABLES = {
    "values": "values",
    "function": "function",
    "constructor": "constructor",
    "__proto__": "v___proto__",
    "json": "json_",
    "schema": "schema_",
    "copy": "copy_",
    "validate": "validate_",
    "model_fields": "model_fields_",
    "construct": "construct_",
    "model_config": "model_config_",
    "model_dump": "model_dump_",
    "Final": "Final",
    "NotRequired": "NotRequired",
    "TEMPLATES": "TEMPLATES",
    "CONTRACT": "CONTRACT",
    "_values": "v__values",
    "_VALUES_TEMPLATE": "v__VALUES_TEMPLATE",
    "text": "text",
    "value": "value",
    "import": "import_",
    "annotations": "annotations",
}
VALUES_TEMPLATE = f"test://all/{{{','.join(REQUIRED_VARIABLES)}}}{{?{','.join(QUERY_VARIABLES)}}}"
# The arguments of the prompt `class`, each with its field in the Python model.
ARGUMENTS = {
    "dict": "dict_",
    "schema": "schema_",
    "copy": "copy_",
    "validate": "validate_",
    "model_fields": "model_fields_",
    "json": "json_",
    "construct": "construct_",
    "model_config": "model_config_",
    "model_dump": "model_dump_",
    "model_validate": "model_validate_",
    "parse_obj": "parse_obj_",
    "from_orm": "from_orm_",
    "str": "str_",
    "Field": "Field",
    "None": "None_",
    "self": "self_",
    "cls": "cls_",
    "uri": "uri_",
    "class": "class_",
    "BaseModel": "BaseModel",
    "ConfigDict": "ConfigDict",
    "Final": "Final",
    "CONTRACT": "CONTRACT",
    "PROMPTS": "PROMPTS",
    "_ARGUMENTS": "v__ARGUMENTS",
    "_Field": "v__Field",
    "__proto__": "v___proto__",
    "constructor": "constructor",
    "function": "function",
    "values": "values",
    "value": "value",
    "annotations": "annotations",
}
# The properties of the JSON resource `json`'s schema.
PROPERTIES = ("schema", "json", "dict", "str", "Field", "model_config", "copy", "constructor", "__proto__")
PROPERTIES += ("values", "class", "None", "self", "validate")


def _flow(value: Any) -> str:
    """`value` as YAML flow text (JSON is YAML)."""
    return json.dumps(value)


def _resources() -> tuple[str, str]:
    """The entries added to resources.yaml: text resources and templates named as keywords and
    generated names, `item` whose variable is its own constant's name, the listing `import`
    read (`test://t/{class}{?values}`), and JSON ones whose schemas' properties are such names."""
    schema = {"type": "object", "properties": {p: {"type": "string"} for p in PROPERTIES}}
    resources = [
        {"uri": "test://constructor", "name": "constructor", "mimeType": "text/plain"},
        {"uri": "test://proto", "name": "__proto__", "mimeType": "text/plain"},
        {"uri": "test://json", "name": "json", "mimeType": "application/json", "schema": schema},
        {"uri": "test://package", "name": "package", "mimeType": "application/json", "schema": {"type": "integer"}},
    ]
    templates = [
        {"uriTemplate": "test://item/{ITEM}", "name": "item", "mimeType": "text/plain"},
        {"uriTemplate": "test://t/{class}{?values}", "name": "imported", "mimeType": "text/plain"},
        {"uriTemplate": VALUES_TEMPLATE, "name": "values", "mimeType": "text/plain"},
        {"uriTemplate": "test://under/{__x}{?_y,__z__}", "name": "under", "mimeType": "text/plain"},
        {"uriTemplate": "test://package/{PACKAGE}", "name": "package-of", "mimeType": "text/plain"},
        {
            "uriTemplate": "test://class/{id}",
            "name": "class",
            "mimeType": "application/json",
            "schema": {"type": "object", "properties": {"self": {"type": "string"}}},
        },
    ]
    return "".join(f"  - {_flow(entry)}\n" for entry in resources), "".join(f"  - {_flow(t)}\n" for t in templates)


def _prompts() -> str:
    message = [{"role": "user", "content": {"type": "text", "text": "{dict}"}}]
    prompts = [
        {
            "name": "class",
            "arguments": [
                {"name": name, "required": name == "dict", **({"description": "a Field"} if name == "Field" else {})}
                for name in ARGUMENTS
            ],
            "messages": message,
        },
        {"name": "field", "arguments": [{"name": "Field", "required": True}, {"name": "str"}], "messages": message},
        {"name": "None", "arguments": [{"name": "self", "required": True}], "messages": message},
    ]
    return "".join(f"  - {_flow(prompt)}\n" for prompt in prompts)


def _tools() -> str:
    inputs = {"type": "object", "properties": {p: {"type": "string"} for p in PROPERTIES}}
    tools = [
        {"name": name, "inputSchema": inputs, "result": {"structured": False, "content": ["text"]}}
        for name in ("class", "constructor", "__proto__", "values", "dict", "TOOLS")
    ]
    return "".join(f"  - {_flow(tool)}\n" for tool in tools)


def _add(path: Path, before: str, text: str) -> None:
    """`text` put into `path` before the line `before` (at the end when it is "")."""
    found = path.read_text(encoding="utf-8")
    assert not before or before in found, f"{before!r} not in {path}"
    path.write_text(found.replace(before, text + before, 1) if before else found + text, encoding="utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose one contract is the example contract with every hostile name added,
    generated in Python and TypeScript (package `hostile`)."""
    project = tmp_path_factory.mktemp("names")
    folder = project / "schemas" / "contracts" / NAME
    shutil.copytree(FIXTURES, folder)
    resources, templates = _resources()
    _add(folder / "resources.yaml", "templates:\n", resources)
    _add(folder / "resources.yaml", "", templates)
    _add(folder / "prompts.yaml", "", _prompts())
    _add(folder / "tools.yaml", "", _tools())
    (project / "pyproject.toml").write_text(
        f'[tool.mcp-contracts]\npackage = "{PACKAGE}"\nlanguages = ["python", "typescript"]\n', encoding="utf-8"
    )
    generated = run_cli("generate", cwd=project)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return project


# What the subprocess evaluates: each expression of its spec, in a namespace that has the
# generated modules (`resources`, `prompts`, imported when first named) and three helpers.
SCRIPT = """
import importlib, inspect, json, sys

def module(name):
    return importlib.import_module(f"{MODULE}.{name}")

def parameters(function):
    return list(inspect.signature(function).parameters)

def fields(model):
    return {name: field.alias or name for name, field in model.model_fields.items()}

found = {}
for key, expression in json.loads(sys.argv[1]).items():
    try:
        found[key] = {"value": eval(expression)}
    except BaseException as exc:
        found[key] = {"error": f"{type(exc).__name__}: {exc}"}
print(json.dumps(found))
""".replace("{MODULE}", MODULE)


def _python(project: Path, expressions: dict[str, str]) -> dict[str, Any]:
    """What each expression gave in `python -W error` with the generated package importable:
    its value, or the error it raised (a warning is one)."""
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", SCRIPT, json.dumps(expressions)],
        cwd=project / "generated" / "python",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    answers: dict[str, Any] = json.loads(done.stdout)
    return {key: answer.get("value", answer.get("error")) for key, answer in answers.items()}


def _values() -> dict[str, str]:
    """A value for each variable of `values`: its own name, with a character to encode."""
    return {name: f"{name} é/" for name in (*REQUIRED_VARIABLES, *QUERY_VARIABLES)}


def _keywords(values: dict[str, str]) -> str:
    """The keyword arguments of `expand_values` for `values`, as Python source."""
    names = {**REQUIRED_VARIABLES, **QUERY_VARIABLES}
    return ", ".join(f"{names[name]}={value!r}" for name, value in values.items())


def test_the_whole_package_imports_under_w_error(project: Path) -> None:
    found = _python(
        project,
        {
            "package": f"importlib.import_module({MODULE!r}).__name__",
            "resources": "module('resources').CONTRACT",
            "prompts": "module('prompts').CONTRACT",
        },
    )
    assert found == {"package": MODULE, "resources": NAME, "prompts": NAME}


def test_a_variable_named_as_its_templates_constant_or_a_local_expands(project: Path) -> None:
    """`{ITEM}` of the template `item` (constant ITEM) and `{?values}`, the name of the local
    dict the expansion once built, are parameters like any other."""
    found = _python(
        project,
        {
            "item": "module('resources').expand_item(ITEM='a b')",
            "item back": "module('resources').match_item('test://item/a%20b')",
            "imported": "module('resources').expand_imported(class_='x', values='y z')",
            "imported, values left out": "module('resources').expand_imported(class_='x')",
            "imported back": "module('resources').match_imported('test://t/x?values=y%20z')",
            "package": "module('resources').expand_package_of(PACKAGE='p')",
        },
    )
    assert found == {
        "item": "test://item/a%20b",
        "item back": {"ITEM": "a b"},
        "imported": "test://t/x?values=y%20z",
        "imported, values left out": "test://t/x",
        "imported back": {"class": "x", "values": "y z"},
        "package": "test://package/p",
    }


def test_every_hostile_variable_is_a_parameter_and_round_trips(project: Path) -> None:
    values = _values()
    uri = UriTemplate.parse(VALUES_TEMPLATE).expand(values)
    some = {name: values[name] for name in REQUIRED_VARIABLES}
    found = _python(
        project,
        {
            "parameters": "parameters(module('resources').expand_values)",
            "expanded": f"module('resources').expand_values({_keywords(values)})",
            "some": f"module('resources').expand_values({_keywords(some)})",
            "matched": f"module('resources').match_values({uri!r})",
            "keys": "sorted(module('resources').ValuesValues.__required_keys__)",
        },
    )
    assert found == {
        "parameters": [*REQUIRED_VARIABLES.values(), *QUERY_VARIABLES.values()],
        "expanded": uri,
        "some": UriTemplate.parse(VALUES_TEMPLATE).expand(some),
        "matched": values,
        "keys": sorted(REQUIRED_VARIABLES),
    }


def test_the_runtime_leaves_a_variable_given_none_out() -> None:
    """What `expand_<name>` hands the runtime: every variable, None for one left out (RFC 6570
    §2.3: null is undefined), so that the function needs no local of its own."""
    template = UriTemplate.parse("test://t/{a}{?b,c}")
    assert template.expand({"a": "x", "b": None, "c": ""}) == "test://t/x?c="
    assert template.expand({"a": None}) == "test://t/"


def test_a_variable_python_would_mangle_in_a_class_keeps_its_key(project: Path) -> None:
    """`{__x}` in a class body would be `_UnderValues__x`: the TypedDict keeps the name."""
    found = _python(
        project,
        {
            "required": "sorted(module('resources').UnderValues.__required_keys__)",
            "optional": "sorted(module('resources').UnderValues.__optional_keys__)",
            "expanded": "module('resources').expand_under(v___x='a', v__y='b', v___z__='c')",
            "matched": "module('resources').match_under('test://under/a?_y=b&__z__=c')",
        },
    )
    assert found == {
        "required": ["__x"],
        "optional": ["__z__", "_y"],
        "expanded": "test://under/a?_y=b&__z__=c",
        "matched": {"__x": "a", "_y": "b", "__z__": "c"},
    }


def test_each_json_resource_reads_its_contents_whatever_its_names(project: Path) -> None:
    document = {name: f"<{name}>" for name in PROPERTIES}
    found = _python(
        project,
        {
            "json": f"module('resources').read_json({json.dumps(document)!r}).model_dump(mode='json', by_alias=True)",
            "package": "module('resources').read_package('7').root",
            "class": "module('resources').read_class('{\"self\": \"s\"}').model_dump(by_alias=True)",
            "json judge": "module('resources').JSON_JUDGE.is_valid({'json': 1})",
            "package judge": "module('resources').PACKAGE_JUDGE.is_valid(7)",
        },
    )
    assert found == {"json": document, "package": 7, "class": {"self": "s"}, "json judge": False, "package judge": True}


def test_each_prompts_arguments_model_takes_its_arguments_by_their_names(project: Path) -> None:
    """A field named as a BaseModel attribute, `str` (the fields' type) or a keyword takes `_`
    after it, its argument's name its alias; `Field` stays a field beside pydantic's `Field`."""
    wire = {name: f"<{name}>" for name in ARGUMENTS}
    model = "module('prompts').ClassArguments"
    found = _python(
        project,
        {
            "fields": f"fields({model})",
            "dump": f"{model}.model_validate({wire!r}).model_dump(exclude_none=True)",
            "only dict": f"{model}.model_validate({{'dict': 'd'}}).model_dump(exclude_none=True)",
            "by field name": f"{model}.model_validate({{'dict': 'd'}}).dict_",
            "field": "module('prompts').FieldArguments.model_validate({'Field': 'f', 'str': 's'}).model_dump()",
            "None": "module('prompts').NoneArguments.model_validate({'self': 's'}).self_",
            "description": f"{model}.model_fields['Field'].description",
        },
    )
    assert found == {
        "fields": {field: name for name, field in ARGUMENTS.items()},
        "dump": wire,
        "only dict": {"dict": "d"},
        "by field name": "d",
        "field": {"Field": "f", "str": "s"},
        "None": "s",
        "description": "a Field",
    }


def test_every_basemodel_attribute_is_a_name_the_fields_do_not_take() -> None:
    """The names a prompt's field may not take are pydantic's: a release that adds one to
    BaseModel adds it here, or this fails."""
    from mcp_contracts_generator.naming import BASE_MODEL_ATTRIBUTES

    attributes = {name for name in dir(BaseModel) if not name.startswith("_")}
    assert attributes <= BASE_MODEL_ATTRIBUTES, sorted(attributes - BASE_MODEL_ATTRIBUTES)


@pytest.mark.slow
def test_the_generated_python_passes_mypy_strict_and_ruff(project: Path) -> None:
    """A parameter named `str` or `dict` would make the body's annotations no types for mypy."""
    python = project / "generated" / "python"
    command = [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "F,E,W,B,UP,I", "--ignore", "E501", "."]
    ruff = subprocess.run(command, cwd=python, capture_output=True, text=True, check=False)
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr
    command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", "/dev/null", PACKAGE]
    mypy = subprocess.run(command, cwd=python, capture_output=True, text=True, check=False)
    assert mypy.returncode == 0, mypy.stdout + mypy.stderr


# --- the TypeScript package


@pytest.fixture(scope="module")
def dist(project: Path) -> Path:
    """The TypeScript package of `project`, compiled under `tsc --strict`: its `dist/`."""
    node_or_skip()
    compiled = compile_package(project / "generated" / "typescript" / PACKAGE, project / "built")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return project / "built" / "dist"


@pytest.mark.slow
def test_the_typescript_package_compiles_and_answers_as_the_python_one(dist: Path, tmp_path: Path) -> None:
    """TypeScript has every variable and argument as a quoted key, and no local beside
    `values` and `value`, the parameters the generator names: nothing to rename, and this holds it so."""
    values = _values()
    uri = UriTemplate.parse(VALUES_TEMPLATE).expand(values)
    wire = {name: f"<{name}>" for name in ARGUMENTS}
    document = {name: f"<{name}>" for name in PROPERTIES}
    calls: list[dict[str, Any]] = [
        {"fn": "resources.expandItem", "args": [{"ITEM": "a b"}]},
        {"fn": "resources.expandImported", "args": [{"class": "x", "values": "y z"}]},
        {"fn": "resources.expandValues", "args": [values]},
        {"fn": "resources.matchValues", "args": [uri]},
        {"fn": "resources.matchUnder", "args": ["test://under/a?_y=b&__z__=c"]},
        {"fn": "resources.readJson", "args": [json.dumps(document)]},
        {"fn": "prompts.isClassArguments", "args": [wire]},
        {"fn": "prompts.isClassArguments", "args": [{**wire, "extra": "x"}]},
        {"fn": "prompts.isFieldArguments", "args": [{"Field": "f", "str": "s"}]},
        {"get": "resources.CONSTRUCTOR"},
        {"get": "prompts.PROMPTS"},
        *({"get": f"TOOLS.{tool}.name"} for tool in ("class", "constructor", "__proto__", "values", "dict", "TOOLS")),
    ]
    outcomes = call(node_or_skip(), dist / "conformance_fixtures" / "index.js", calls, tmp_path)
    assert all("error" not in outcome for outcome in outcomes), outcomes
    assert [outcome["value"] for outcome in outcomes] == [
        "test://item/a%20b",
        "test://t/x?values=y%20z",
        uri,
        values,
        {"__x": "a", "_y": "b", "__z__": "c"},
        document,
        True,
        False,
        True,
        "test://constructor",
        [
            "test_simple_prompt",
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image",
            "class",
            "field",
            "None",
        ],
        "class",
        "constructor",
        "__proto__",
        "values",
        "dict",
        "TOOLS",
    ]
