"""Render stage: the intermediate model becomes one plan of relative path -> bytes.

`generate` writes the plan and `check` compares it with the disk, so the two can
never disagree about what the sources produce.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, TemplateError

from .. import debug
from ..files import OUTPUT_README
from ..model import Contract, Project
from ..model.surface import Resource
from ..naming import constant_name
from ..package_names import SUFFIX, usable_version
from ..resources import GENERATED_CODE_REQUIREMENTS, GENERATED_SERVING_REQUIREMENTS
from ..rules import RULES, Rule
from .builder_signatures import builder_literals
from .describe import Definition, describe_schema
from .docs import contents_sections, doc_sections, example_blocks, index_entries
from .environment import template_environment
from .json_text import bundle_file, manifest_text
from .mcp import tools_list
from .mcp_surface import surface_files
from .models_code import ModelGenerationError, format_python, header, models_code, view_models_code
from .published import published_json, resource_published_json
from .runtime_text import runtime_modules
from .serving_data import serving_json
from .surface_code import (
    RESOURCE_MODELS,
    judge_file,
    judged_resource,
    models_module,
    prompt_blocks,
    published_file,
    resource_blocks,
    resource_imports,
)
from .tables import enum_tables
from .tools_code import TOOL_ARGUMENTS, tool_argument_files, tools_literals
from .typescript import contract_files as typescript_contract_files
from .typescript import npm_name, typescript_package, typescript_source

Plan = dict[str, bytes]
# What a contract package with builders exports beside its catalogue, root model and judge.
BUILDER_EXPORTS = frozenset({"success_response", "error_response", "success_document", "error_document", "dump_json"})


@dataclass(frozen=True, slots=True)
class RenderProblem:
    """Why one contract's files could not be rendered; `location` is the schema location
    (a URI with a JSON pointer) of the part that failed, where known."""

    contract: str
    message: str
    location: str | None = None


def build_plan(
    project: Project,
    package: str,
    templates: Path | None = None,
    languages: tuple[str, ...] = ("python",),
    *,
    rules_page: bool = False,
    distribution: tuple[str | None, str | None] = (None, None),
) -> Plan | list[RenderProblem]:
    """Every output file of the project, keyed by its path under the output folder; or,
    when any contract cannot be rendered, the problem of each such contract (the others
    are still rendered, so that one run reports them all).

    The Python goes to `python/<package>/`; it imports itself relatively, so that it may
    also live inside a package of the user's. With "typescript" among `languages`, an npm
    package goes to `typescript/<package>/` (see `render/typescript.py`). With `rules_page`,
    the docs carry the tool's rules page, `docs/rules.md` (a project turns it on: it is the
    tool's page, and changes with the tool). The Python folder is a distribution pip installs:
    `distribution` is its name (None: the package's, `-` for `_`) and version (None: the first
    contract's `version:`, see `package_names.py`), which the npm package takes too (the name
    in npm's spelling).
    """
    env = template_environment(templates)
    named = (distribution[0], distribution[1] or contract_version(project, languages))
    definitions: dict[str, tuple[Definition, ...]] = {}  # described once, for two pages
    contract_files: dict[str, str] = {}
    problems: list[RenderProblem] = []
    for contract in project.contracts:
        rendered = _render_contract(env, contract, package, languages, distribution[0])
        if isinstance(rendered, RenderProblem):
            problems.append(rendered)
        else:
            definitions[contract.name], files_of_contract = rendered
            contract_files.update(files_of_contract)
    if problems:
        return problems
    entries = index_entries(project, definitions)
    files: dict[str, str] = {
        "docs/index.md": _markdown(env.get_template("docs/index.md.jinja").render(entries=entries, rules=rules_page)),
        "mkdocs.yml": env.get_template("docs/mkdocs.yml.jinja").render(entries=entries, rules=rules_page),
        OUTPUT_README: env.get_template("README.md.jinja").render(
            package=package, python="python" in languages, typescript="typescript" in languages, rules=rules_page
        ),
        **contract_files,
    }
    if "python" in languages:
        files[f"python/{package}/__init__.py"] = env.get_template("python/package/__init__.py.jinja").render(
            contracts=project.contracts
        )
        files.update({f"python/{package}/_runtime/{name}": text for name, text in runtime_modules().items()})
        files.update(_distribution_files(env, package, *named))
    if rules_page:
        files["docs/rules.md"] = _markdown(env.get_template("docs/rules.md.jinja").render(sections=rule_sections()))
    if "typescript" in languages:
        files.update(typescript_package(env, project, package, named))
    return {path: files[path].encode("utf-8") for path in sorted(files)}


@dataclass(frozen=True)
class RuleSection:
    """The rules of one command on the docs page (`docs/rules.md`), and which columns it shows."""

    key: str  # all, lint, breaking, conform, check, validate: the template says what each is
    rules: tuple[Rule, ...]
    profiles: bool = False
    bumps: bool = False

    def also(self, rule: Rule) -> str:
        """The other commands that report `rule`, as its row says them ("" for none)."""
        return "" if self.key == "all" else ", ".join(rule.commands[1:])


def rule_sections() -> tuple[RuleSection, ...]:
    """The registry grouped for its docs page: the rules of every command, then each command's
    own (a rule two commands report is listed under the first)."""
    every = tuple(r for r in RULES if len(r.commands) == 3)
    own = {command: tuple(r for r in RULES if r.command == command and r not in every) for command in COMMANDS}
    return (
        RuleSection("all", every),
        RuleSection("lint", own["lint"], profiles=True),
        RuleSection("breaking", own["breaking"], bumps=True),
        RuleSection("conform", own["conform"]),
        RuleSection("check", own["check"]),
        RuleSection("validate", own["validate"]),
    )


COMMANDS = ("lint", "breaking", "conform", "check", "validate")


def _render_contract(
    env: Environment, contract: Contract, package: str, languages: tuple[str, ...], distribution: str | None
) -> tuple[tuple[Definition, ...], dict[str, str]] | RenderProblem:
    """The definitions the docs describe and the files of one contract, or why they cannot be
    rendered. A template's own fault is not the contract's: it propagates, and is reported at
    the template."""
    try:
        definitions = describe_schema(contract.view, contract.bundle)
        python = "python" in languages
        npm = npm_name(package, distribution)
        files = _contract_files(env, contract, package, definitions, python=python, npm=npm)
        if python:
            written = _python_files(env, contract, f"python/{package}/{contract.module}")
            _compiles(written)
            files.update(written)
        if "typescript" in languages:
            files.update(typescript_contract_files(env, contract, typescript_source(package, contract)))
        return definitions, files
    except TemplateError:
        raise
    except ModelGenerationError as exc:
        return RenderProblem(contract.name, exc.message, exc.location)
    except Exception as exc:  # a renderer's refusal (black, a recursion limit): this contract's problem only
        debug.handled(exc)
        return RenderProblem(contract.name, f"cannot render: {type(exc).__name__}: {exc}".split("\n", 1)[0])


# The modules of a contract package whose code our templates write from the contract's names
# (a tool's keyword parameters): each is compiled, so that a name a check let through is a
# problem of the contract's, not a package that cannot be imported.
_WRITTEN_BY_TEMPLATES = ("/tools.py", "/builders.py", "/resources.py", "/prompts.py", "/errors.py")


def _compiles(files: dict[str, str]) -> None:
    """Raise ValueError at the first module of `files` that Python would not compile."""
    for path, text in files.items():
        if path.endswith(_WRITTEN_BY_TEMPLATES):
            try:
                compile(text, path, "exec", dont_inherit=True)
            except SyntaxError as exc:
                where = f"{path.rsplit('/', 1)[-1]}:{exc.lineno}"
                raise ValueError(f"{where}: {exc.msg} (a generator bug: report it)") from None


def _contract_files(
    env: Environment, contract: Contract, package: str, definitions: tuple[Definition, ...], *, python: bool, npm: str
) -> dict[str, str]:
    """The files of a contract whatever the languages: its manifest, its MCP listing, its page.
    The page names the module a project imports the contract from: the Python module when
    Python is written, else the export of the npm package `npm`."""
    module = f"{package}.{contract.module}" if python else f"{npm}/{contract.module}"
    return {
        f"manifests/{contract.name}.json": env.get_template("manifests/manifest.json.jinja").render(
            manifest_json=manifest_text(contract.manifest)
        ),
        f"mcp/{contract.name}.tools.json": tools_list(contract),
        **surface_files(contract),
        f"docs/{contract.name}.md": _markdown(
            env.get_template("docs/contract.md.jinja").render(
                contract=contract,
                definitions=definitions,
                module_language="Python" if python else "TypeScript",
                module=module,
                sections=doc_sections(contract),
                contents=contents_sections(contract),
                examples=example_blocks(contract),
            )
        ),
    }


def _python_files(env: Environment, contract: Contract, package: str) -> dict[str, str]:
    """The Python package of a contract (`python/<package>/<module>/`)."""

    def render(template: str, **values: object) -> str:
        return env.get_template(f"python/contract/{template}.jinja").render(contract=contract, **values)

    error_exports = ("ERRORS", "ErrorCode", "error_info")
    all_exports = {*error_exports, contract.root_model, "ABSENT", "Envelope", "JUDGE"}
    files = {
        f"{package}/__init__.py": render(
            "__init__.py",
            error_exports=error_exports,
            all_exports=sorted(all_exports | (BUILDER_EXPORTS if contract.builders else set())),
        ),
        f"{package}/judge.py": render("judge.py", classes=contract.view.classes),
        f"{package}/schema.json": bundle_file(contract.bundle),
        f"{package}/published.json": published_json(contract),
        f"{package}/serving.json": serving_json(contract),
        f"{package}/errors.py": render("errors.py", tables=enum_tables(contract.catalogue)),
        f"{package}/models.py": models_code(contract),
    }
    if contract.builders is not None:
        literals = builder_literals(contract)
        files[f"{package}/builders.py"] = format_python(render("builders.py", builders=contract.builders, **literals))
    surface = contract.surface
    if surface.resources or surface.templates:
        judged = [r for r in (*surface.resources, *surface.templates) if judged_resource(r)]
        blocks, imports = resource_blocks(contract), resource_imports(contract)
        text = render("resources.py", blocks=blocks, imports=imports, judges=bool(judged))
        files[f"{package}/resources.py"] = format_python(text)
        files.update(_resource_model_files(env, contract, package, judged))
    if surface.prompts:
        files[f"{package}/prompts.py"] = format_python(render("prompts.py", blocks=prompt_blocks(contract)))
    files[f"{package}/tools.py"] = format_python(render("tools.py", **tools_literals(contract)))
    init = render(f"{TOOL_ARGUMENTS}/__init__.py")
    files.update(tool_argument_files(contract, package, init) if contract.arguments else {})
    for module in contract.modules:  # hand-written, copied as they are
        files[f"{package}/{module.name}"] = module.text
    return files


def _resource_model_files(env: Environment, contract: Contract, package: str, judged: list[Resource]) -> dict[str, str]:
    """Per JSON resource, the bundle its judge reads, what its classes publish, and the module
    of its models (`resource_models/<name>.py`, made as models.py is)."""
    files = {}
    if judged:
        init = env.get_template(f"python/contract/{RESOURCE_MODELS}/__init__.py.jinja").render()
        files[f"{package}/{RESOURCE_MODELS}/__init__.py"] = init
    for resource in judged:
        assert resource.bundle is not None and resource.view is not None  # judged_resource
        files[f"{package}/{judge_file(resource)}"] = bundle_file(resource.bundle)
        files[f"{package}/{published_file(resource)}"] = resource_published_json(resource.view, resource.bundle)
        files[f"{package}/{models_module(resource)}"] = view_models_code(
            resource.view,
            # named by its constant, an identifier: nothing of the resource's name can break the comment
            header(contract, f"resources.yaml (the schema of {constant_name(resource.name)})"),
            contract.name,
            runtime="..._runtime",
            module=models_module(resource),
        )
    return files


def contract_version(project: Project, languages: tuple[str, ...]) -> str:
    """The version of the generated packages where the settings and the project give none:
    the first contract's `version:` (in sorted order), where pip (and npm) take it."""
    first = min(project.contracts, key=lambda contract: contract.name, default=None)
    return first.version if first is not None and usable_version(first.version, languages) else "0.0.0"


def _distribution_files(env: Environment, package: str, name: str | None, version: str) -> dict[str, str]:
    """What makes `python/` a distribution: its pyproject.toml, with the requirements of the
    generated code, and the package's `py.typed` (PEP 561: its annotations are for checkers).
    Its description names the project: the distribution's name without `-contracts`, as the
    project names it by default (package_names.py), else the import package."""
    distribution = name or package.replace("_", "-")
    subject = distribution.removesuffix(f"-{SUFFIX}") if distribution.endswith(f"-{SUFFIX}") else package
    pyproject = env.get_template("python/pyproject.toml.jinja").render(
        package=package,
        distribution=distribution,
        version=version,
        description=f"The MCP tool contracts of {subject}, generated by mcp-contracts.",
        requirements=GENERATED_CODE_REQUIREMENTS,
        serving=GENERATED_SERVING_REQUIREMENTS,
    )
    return {"python/pyproject.toml": pyproject, f"python/{package}/py.typed": ""}


def _markdown(text: str) -> str:
    """A page ends with exactly one newline, whatever the template's last block left."""
    return text.rstrip("\n") + "\n"
