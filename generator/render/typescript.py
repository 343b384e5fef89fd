"""The TypeScript package of a project (`languages` includes "typescript"): an npm package
under `typescript/<package>/`, ESM with a strict tsconfig, one folder of `src/` a contract.

Each contract's folder mirrors its Python package: `types.ts` (the view as object types),
`judge.ts` (the bundled schema and its judge), `compiled.ts` (the envelope's schema as code,
for `isEnvelope`, where `ts_compiled` can write it), `errors.ts` (the catalogue), `tools.ts` (each
tool's input and output as judged zod schemas; and the contract served and called whole:
`Handlers`, `server()`, `Client`, see `ts_serving.py`), `builders.ts` (when the contract declares
`builders:`), `resources.ts` and `prompts.ts` (when it declares resources, templates or
prompts; see `ts_surface.py`) and `index.ts`. The runtime (`generator/typescript/*.ts`) is copied into
`src/_runtime/`. Names, literals and order are decided here; the templates place them. The
package depends on zod and on the MCP SDK, whose `Server` and `Client` tools.ts builds on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment

from ..model import Builders, Catalogue, Contract, Project, Shape
from ..model.schemas import Bundle
from ..naming import lower_camel, resource_module
from ..resources import TYPESCRIPT_RUNTIME
from ..schema.pointer import decode
from .escape import json_controls, ts, ts_key
from .json_text import CompactTexts, json_block
from .mcp import tool_listing
from .serving_data import plain
from .surface_code import judged_resource
from .tables import Section, sections
from .ts_compiled import compiled
from .ts_serving import serving_literals
from .ts_surface import prompt_literals, resource_literals, resource_model_literals
from .ts_types import OBJECT_MEMBERS, declarations, member_type
from .ts_zod import zod_object

# The versions the package is built and tested with (tests/ts/package.json pins the same).
# zod within 4.6: `judged` (the runtime's zod.ts) hooks zod's `_zod.run` and `toJSONSchema` on the
# releases of its `TESTED`, and takes zod's public API on any other.
ZOD = "~4.6.7"
TYPESCRIPT = "7.0.2"
# The MCP SDK whose low-level `Server` and `Client` each contract's `server()` and `Client` are built on.
SDK = "^1.32.2"
RUNTIME_FILES = ("builders.ts", "calling.ts", "judge.ts", "serving.ts", "uri_template.ts", "violation.ts", "zod.ts")


def npm_name(package: str, distribution: str | None = None) -> str:
    """The npm name of the package: the Python distribution's where the settings name one
    (`npm pack` then makes `<name>-<version>.tgz` of the name and version pip installs),
    else the package's; lower case, `-` for each run of other characters (npm names start
    with neither `_` nor `.`, and a distribution's name starts and ends with a letter or digit)."""
    if distribution is not None:
        return re.sub(r"[-_.]+", "-", distribution).lower()
    return re.sub(r"[^a-z0-9-]+", "-", package.lower()).strip("-") or "contracts"


def typescript_source(package: str, contract: Contract) -> str:
    """The folder of a contract's TypeScript, under the output folder."""
    return f"typescript/{package}/src/{contract.module}"


def typescript_package(
    env: Environment, project: Project, package: str, distribution: tuple[str | None, str] = (None, "0.0.0")
) -> dict[str, str]:
    """The files of the TypeScript package but its contracts' folders (`contract_files`), by
    their paths under the output folder. `distribution`: the Python distribution's name (None:
    the package's) and version, which the npm package takes too."""
    root = f"typescript/{package}"
    name, version = npm_name(package, distribution[0]), distribution[1]
    modules = sorted(contract.module for contract in project.contracts)
    files = {
        f"{root}/package.json": _json(_package_json(name, version, modules)),
        f"{root}/tsconfig.json": env.get_template("typescript/tsconfig.json.jinja").render(),
        f"{root}/README.md": env.get_template("typescript/README.md.jinja").render(
            name=name,
            version=version,
            contracts=sorted(project.contracts, key=lambda contract: contract.module),
            surface=any(contract.surface for contract in project.contracts),
        ),
    }
    for name in RUNTIME_FILES:
        files[f"{root}/src/_runtime/{name}"] = (TYPESCRIPT_RUNTIME / name).read_text(encoding="utf-8")
    return files


def _json(value: Any) -> str:
    return json_controls(json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)) + "\n"


def _package_json(name: str, version: str, modules: list[str]) -> dict[str, Any]:
    """package.json: `npm pack` (and `npm publish`) compile `src/` into `dist/` first, its
    `prepack` script, so that the tarball holds the JavaScript and declarations it exports."""
    return {
        "name": name,
        "version": version,
        "private": True,
        "description": "Generated by mcp-contracts: the judges, types, zod schemas, catalogues and builders"
        " of MCP tool contracts. Do not edit: change the sources and run `mcp-contracts generate`.",
        "type": "module",
        "engines": {"node": ">=20"},
        "exports": {
            f"./{module}": {"types": f"./dist/{module}/index.d.ts", "default": f"./dist/{module}/index.js"}
            for module in modules
        },
        "files": ["dist"],
        "scripts": {"build": "tsc", "prepack": "tsc"},
        "dependencies": {"@modelcontextprotocol/sdk": SDK, "zod": ZOD},
        "devDependencies": {"typescript": TYPESCRIPT},
    }


def contract_files(env: Environment, contract: Contract, folder: str) -> dict[str, str]:
    """The files of one contract's folder of `src/`."""

    def render(template: str, **values: Any) -> str:
        return env.get_template(f"typescript/contract/{template}.jinja").render(contract=contract, **values)

    has_builders = contract.builders is not None
    surface = contract.surface
    has_resources, has_prompts = bool(surface.resources or surface.templates), bool(surface.prompts)
    code = compiled(contract.bundle)
    tables = catalogue_tables(contract.catalogue)  # errors.ts declares them, index.ts exports them
    tool_parts = tool_literals(contract)  # tools.ts places them, index.ts exports the served names
    files = {
        f"{folder}/types.ts": render("types.ts", declarations=declarations(contract.view)),
        f"{folder}/judge.ts": render(
            "judge.ts",
            compiled=code is not None,
            bundle_text=_bundle_text(contract.bundle),
            locations=[(c.name, ts(c.location)) for c in contract.view.classes],
        ),
        f"{folder}/errors.ts": render("errors.ts", tables=tables),
        f"{folder}/tools.ts": render("tools.ts", **tool_parts),
        f"{folder}/index.ts": render(
            "index.ts",
            builders=has_builders,
            tables=tables,
            resources=has_resources,
            prompts=has_prompts,
            served=tool_parts["served"],
        ),
    }
    if code is not None:
        files[f"{folder}/compiled.ts"] = render("compiled.ts", compiled=code)
    if has_builders:
        files[f"{folder}/builders.ts"] = render("builders.ts", **builder_literals(contract))
    if has_resources:
        files[f"{folder}/resources.ts"] = render("resources.ts", **resource_literals(contract))
        for resource in (*surface.resources, *surface.templates):
            if judged_resource(resource):
                literals = resource_model_literals(resource)
                bundle_text = _bundle_text(literals.pop("bundle"))
                module = f"resource_models/{resource_module(resource.name)}.ts"
                files[f"{folder}/{module}"] = render("resource_models/resource.ts", bundle_text=bundle_text, **literals)
    if has_prompts:
        files[f"{folder}/prompts.ts"] = render("prompts.ts", **prompt_literals(contract))
    return files


def _bundle_text(bundle: Bundle) -> str:
    """The expression of the JSON text of a bundle, as the runtime's `Judge` reads it."""
    document = {"root": bundle.root, "formats": bundle.formats, "resources": dict(bundle.resources)}
    return json_text_expression(document, indent="")


# --- the catalogue -------------------------------------------------------------------------

_TS_COLUMN_TYPES = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}


@dataclass(frozen=True, slots=True)
class TsColumn:
    name: str
    key: str  # the property name, quoted
    type: str


@dataclass(frozen=True, slots=True)
class TsRow:
    member: str
    code: str  # a literal
    entry: str  # the info object's literal


@dataclass(frozen=True, slots=True)
class TsTable:
    enum_name: str
    info_name: str
    table_name: str
    lookup_name: str
    what: str
    key: str
    columns: tuple[TsColumn, ...]
    rows: tuple[TsRow, ...]
    flag_sets: tuple[tuple[str, tuple[str, ...]], ...]  # (name, members)


def _ts_table(section: Section) -> TsTable:
    table = section.table
    enum_name, info_name, table_name, lookup_name, key = section.names
    defined = table.defined
    columns = []
    for column in defined:
        base = section.enum_columns.get(column.name) or _TS_COLUMN_TYPES.get(column.type, "readonly string[]")
        optional = column.name in table.sparse
        columns.append(TsColumn(column.name, ts(column.name), f"{base} | null" if optional else base))
    rows = []
    for entry in table.entries:
        values = {key: entry.code, **{c.name: plain(entry.get(c.name)) for c in defined}}
        rows.append(TsRow(ts_key(entry.member), ts(entry.code), ts(values)))
    flag_sets = tuple(
        (section.flag_set(column.name), tuple(ts(e.code) for e in table.entries if e.get(column.name) is True))
        for column in defined
        if column.type == "boolean"
    )
    return TsTable(
        enum_name,
        info_name,
        table_name,
        lower_camel(lookup_name),
        section.what,
        key,
        tuple(columns),
        tuple(rows),
        flag_sets,
    )


def catalogue_tables(catalogue: Catalogue) -> tuple[TsTable, ...]:
    """The tables of one catalogue, as errors.ts declares them (the Python sections, with a
    lookup in lower camel case: `errorInfo`)."""
    return tuple(_ts_table(section) for section in sections(catalogue))


# --- the tools -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TsTool:
    key: str  # the tool's name, as a property name
    name: str  # a literal
    title: str | None
    description: str | None
    annotations: str | None
    input_zod: str
    input_schema: int  # the index of its published input schema in SCHEMAS
    output_zod: str | None
    output_schema: int | None


def tool_literals(contract: Contract) -> dict[str, Any]:
    """What tools.ts places: each published schema once (the envelope is every tool's), each
    tool with its zod parts and the index of its schemas, and what serves and calls them
    (`ts_serving.serving_literals`, whose embedded listing indexes the same schemas)."""
    positions: dict[str, int] = {}  # by compact text: each schema once
    schemas: list[Any] = []
    compact = CompactTexts()  # the envelope, which every tool shares, written once

    def index(schema: Any) -> int:
        text = compact(schema)
        if text not in positions:
            positions[text] = len(schemas)
            schemas.append(schema)
        return positions[text]

    listing = tool_listing(contract)
    serving = serving_literals(contract, index, lambda value: json_text_expression(value, indent=""), listing)
    tools = []
    arguments = {a.tool: a for a in contract.arguments}
    for listed in listing:
        output = listed.get("outputSchema")
        viewed = arguments.get(listed["name"])
        tools.append(
            TsTool(
                key=ts_key(listed["name"]),
                name=ts(listed["name"]),
                title=ts(listed["title"]) if "title" in listed else None,
                description=ts(listed["description"]) if "description" in listed else None,
                annotations=ts(listed["annotations"]) if "annotations" in listed else None,
                input_zod=zod_object(viewed.view if viewed else None),
                input_schema=index(listed["inputSchema"]),
                output_zod=(
                    zod_object((viewed.output if viewed else None) or contract.view) if output is not None else None
                ),
                output_schema=index(output) if output is not None else None,
            )
        )
    schema_texts = [json_text_expression(schema, indent="  ") for schema in schemas]
    return {"tools": tools, "schemas": schema_texts, **serving}


def json_text_expression(value: Any, *, indent: str) -> str:
    """A TypeScript expression of the JSON text of `value` for `JSON.parse`, one line of the
    indented text a line of the source: a one-keyword edit of a schema is a one-line diff.

    `JSON.parse` rather than an object literal: V8 reads it faster, and a `__proto__` key is a
    property there, never the prototype. Each line is a string literal of `ts` (ASCII only, so
    no character of a schema ends it early); the code at `indent` places the array."""
    lines = "".join(f"{indent}  {ts(line)},\n" for line in json_block(value, sort_keys=True).split("\n"))
    return f'[\n{lines}{indent}].join("\\n")'


# --- the builders --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TsMember:
    key: str
    type: str
    optional: bool


def _members(contract: Contract, shape: Shape) -> tuple[tuple[TsMember, ...], tuple[str, ...]]:
    """The members a builder takes (`optional` unless the caller must give it), and those
    it puts as null where the caller gives none. An optional member named as a method of
    `Object` is `unknown` (see `ts_types.OBJECT_MEMBERS`)."""
    members, nulls = [], []
    for field in shape.fields or ():
        kind = member_type(contract.view, field.type)
        if field.required and not field.filled and not field.nullable:
            members.append(TsMember(ts_key(field.name), kind, False))
            continue
        if field.required and not field.filled:
            nulls.append(ts(field.name))
        members.append(TsMember(ts_key(field.name), "unknown" if field.name in OBJECT_MEMBERS else kind, True))
    return tuple(members), tuple(nulls)


def builder_literals(contract: Contract) -> dict[str, Any]:
    """What builders.ts places: the paths (each pointer split here, once), the constants, the
    members each builder takes, and how it takes a message."""
    assert contract.builders is not None
    builders = contract.builders
    success_members, success_nulls = _members(contract, builders.success)
    error_members, error_nulls = _members(contract, builders.error)
    message_column = "message" in contract.catalogue.error_columns
    return {
        "builders": builders,
        "success_constants": ts([[decode(p), v] for p, v in builders.success_constants]),
        "error_constants": ts([[decode(p), v] for p, v in builders.error_constants]),
        "code_at": ts(decode(builders.code)),
        "message_at": ts(decode(builders.message)) if builders.message else None,
        "derived": ts([[decode(p), column] for p, column in builders.derived]),
        "error_defaults": ts([[decode(p), v] for p, v in builders.error_defaults]),
        "message_parameter": _message_parameter(builders, message_column, error_members),
        "message_column": message_column,
        "success_members": success_members,
        "success_nulls": "[" + ", ".join(success_nulls) + "]",
        "success_open": builders.success.open or builders.success.fields is None,
        "success_default": all(member.optional for member in success_members),
        "error_members": error_members,
        "error_nulls": "[" + ", ".join(error_nulls) + "]",
        "error_open": builders.error.open or builders.error.fields is None,
        "error_default": all(member.optional for member in error_members),
    }


def _message_parameter(builders: Builders, message_column: bool, error_members: tuple[TsMember, ...]) -> str | None:
    """`errorResponse`'s message parameter: required where the schema requires a message and
    no catalogue column gives one; else optional (`string | undefined` before a required
    parameter, which TypeScript puts after optional ones only)."""
    if not builders.message:
        return None
    if builders.message_required and not message_column:
        return "message: string"
    if any(not member.optional for member in error_members):
        return "message: string | undefined"
    return "message?: string"
