"""Reading one `schemas/` folder into a `Project`, collecting every problem on the way."""

from __future__ import annotations

import ast
import json
import keyword
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic
from ..model import AcceptedBreak, Catalogue, Contract, ErrorResults, Example, Module, Places, Project
from ..model.surface import Surface, ToolArguments
from ..protocol import VERSIONS
from ..runtime import Judge
from ..schema.pointer import resolve as resolve_pointer
from .accepted import load_accepted
from .buildable import unbuildable
from .builders import build_builders
from .catalogue import build_catalogue, build_manifest, declared_columns
from .contract_files import read_documents
from .documents import Document, read_json
from .envelope import compile_envelope
from .reading import NOT_FOLLOWED, Reading, read_source
from .resource_prompt_files import load_surface
from .tool_arguments import load_tool_arguments, surface_clashes
from .tool_examples import check_secret_arguments, check_tool_examples, compile_tool_schemas


@dataclass
class LoadResult:
    """The model when the sources are valid, and every diagnostic found either way."""

    project: Project | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def load_project(schemas_dir: Path, reading: Reading, *, lenient: bool = False, only: str | None = None) -> LoadResult:
    """Load every contract under `schemas_dir/contracts/`; no model if anything is wrong.

    Every file is read as `reading` says (the project's limits, the symlink guard): the
    caller passes it, `api` from the settings, so no command reads sources without them.

    `lenient` reads sources written for an earlier version of the tool (`breaking` reads
    old revisions so): contract.yaml keys it no longer knows are dropped, and catalogue or
    tool keys that no `columns:` declares are declared from their values.

    `only` loads the folder of that name alone (a command that serves or judges with one
    contract reads no other): a project of no contract when there is none.
    """
    contracts_dir = schemas_dir / "contracts"
    if not reading.files.is_dir(contracts_dir):
        return LoadResult(None, [Diagnostic(reading.name(contracts_dir), None, None, "no such folder")])
    diagnostics: list[Diagnostic] = []
    contracts: list[Contract] = []
    if _stopped(contracts_dir, reading):
        return LoadResult(None, [Diagnostic(reading.name(contracts_dir), None, None, NOT_FOLLOWED)])
    folders = [p for p in reading.files.folders(contracts_dir) if not p.name.startswith(".")]
    if not folders:
        diagnostics.append(Diagnostic(reading.name(contracts_dir), None, None, "holds no contract folder"))
    for folder in folders if only is None else [p for p in folders if p.name == only]:
        if _stopped(folder, reading):  # said once, not of each file it would hold
            diagnostics.append(Diagnostic(reading.name(folder), None, None, NOT_FOLLOWED))
            continue
        contract, problems = _load_contract(folder, reading, lenient)
        diagnostics += problems
        if contract is not None:
            contracts.append(contract)
    diagnostics += _check_unique_modules(contracts, contracts_dir, reading)
    if diagnostics:
        return LoadResult(None, sorted(diagnostics, key=Diagnostic.sort_key))
    return LoadResult(Project(tuple(contracts)))


def contract_names(schemas_dir: Path, reading: Reading) -> list[str]:
    """The names of the contract folders under `schemas_dir/contracts/` (each its contract's
    name, which contract.yaml must repeat), sorted."""
    contracts_dir = schemas_dir / "contracts"
    if not reading.files.is_dir(contracts_dir) or _stopped(contracts_dir, reading):
        return []
    return sorted(p.name for p in reading.files.folders(contracts_dir) if not p.name.startswith("."))


def _stopped(folder: Path, reading: Reading) -> bool:
    """Whether `folder` is a symlink (or one is on the way to it), which is not followed: a
    folder a symlink stops lists itself (`Files.folders`)."""
    return reading.files.folders(folder) == [folder]


def _check_unique_modules(contracts: list[Contract], contracts_dir: Path, reading: Reading) -> list[Diagnostic]:
    seen: dict[str, str] = {}
    problems = []
    for contract in contracts:
        if contract.module in seen:
            where = reading.name(contracts_dir / contract.name / "contract.yaml")
            message = f"module {contract.module!r} is already used by contract {seen[contract.module]!r}"
            problems.append(Diagnostic(where, None, None, message))
        seen.setdefault(contract.module, contract.name)
    return problems


def _mapped(identity: Document, reading: Reading) -> dict[str, Path]:
    """`references:` of contract.yaml: URI prefixes mapped to folders, relative to the contract
    folder (the project's, where `reading.contracts` says a copy is read)."""
    folder = identity.path.parent
    if reading.contracts is not None:
        folder = reading.contracts / folder.name
    return {prefix: folder / target for prefix, target in identity.data.get("references", {}).items()}


def _references(identity: Document, reading: Reading) -> dict[str, Path]:
    """The `references:` folders read: those that lead out of the project left out
    (`_references_outside` says so)."""
    return {prefix: path for prefix, path in _mapped(identity, reading).items() if reading.within_project(path)}


def _references_outside(identity: Document, reading: Reading) -> list[Diagnostic]:
    """A `references:` folder out of the project (`/etc`, `../../../../..`): contract.yaml is
    a file a pull request edits, so a `$ref` never reads what lies beyond the repository."""
    written = identity.data.get("references", {})
    return [
        identity.diagnostic(
            ["references", prefix],
            f"{written[prefix]!r} leads out of the project: a `references:` folder must be inside it",
        )
        for prefix, path in _mapped(identity, reading).items()
        if not reading.within_project(path)
    ]


def _load_contract(folder: Path, reading: Reading, lenient: bool = False) -> tuple[Contract | None, list[Diagnostic]]:
    """One contract, or every problem of it: each stage runs when its own sources are sound,
    so that one run reports the problems of every file together."""
    documents, problems = read_documents(folder, reading, lenient)
    identity, envelope = documents.get("contract.yaml"), documents.get("envelope.schema.json")
    errors, tools = documents.get("errors.yaml"), documents.get("tools.yaml")
    compiled = None
    formats = identity is not None and identity.data.get("formats", "annotate") == "assert"
    references = _references(identity, reading) if identity is not None else {}  # where `$ref`s lead
    if envelope is not None and identity is not None:
        problems += _references_outside(identity, reading)
        result = compile_envelope(envelope, folder.name, references, formats, reading)
        if isinstance(result, Diagnostic):
            problems.append(result)
        else:
            compiled = result
    if identity is not None:
        if identity.data["name"] != folder.name:
            problems.append(identity.diagnostic(["name"], f"must equal the folder name {folder.name!r}"))
        if keyword.iskeyword(identity.data["module"]):
            problems.append(identity.diagnostic(["module"], "a Python keyword cannot name a module"))
        problems += _check_code_pattern(identity)
    columns = declared_columns(identity.data if identity is not None else {})
    catalogue = manifest = builders = None
    catalogue_sound, bound = False, list[Diagnostic]()  # no problem of errors.yaml or a binding to say again
    if errors is not None:
        catalogue, found = build_catalogue(errors, columns)
        problems += found
        catalogue_sound = not found
    if tools is not None:
        manifest, found = build_manifest(tools, columns["tools"], catalogue.codes() if catalogue else None)
        problems += found
    if identity is not None and envelope is not None and errors is not None and catalogue is not None:
        bound = _check_bindings(identity, envelope, catalogue)
        builders, found = build_builders(identity, envelope.data, catalogue, compiled.view if compiled else None)
        problems += bound + found
    examples: tuple[Example, ...] = ()
    arguments: tuple[ToolArguments, ...] = ()
    if compiled is not None:
        examples, found = _load_examples(folder / "examples", compiled.judge, reading)
        problems += found
        if tools is not None and manifest is not None:
            validators, unsound = compile_tool_schemas(tools, manifest)
            problems += unsound + check_secret_arguments(tools, manifest)
            if not found and not unsound:
                problems += check_tool_examples(tools, manifest, examples, builders, validators)
            if not unsound and not lenient and identity is not None:  # an old revision's code is history
                arguments, found = load_tool_arguments(tools, manifest, references, formats, reading)
                problems += found
    buildable = catalogue_sound and not bound and not lenient  # an old revision's catalogue is history
    if buildable and errors is not None and catalogue is not None and builders is not None and compiled is not None:
        problems += unbuildable(errors, catalogue, builders, compiled.judge, examples)
    modules: tuple[Module, ...] = ()
    surface, surface_documents = Surface(), dict[str, Document]()
    if identity is not None:
        modules, found = _load_modules(identity, reading)
        problems += found
        surface, surface_documents, found = load_surface(
            folder, reading, (references, formats), _protocol(identity.data)
        )
        problems += found
        if tools is not None and manifest is not None:
            problems += surface_clashes(tools, manifest, surface)
    accepted: tuple[AcceptedBreak, ...] = ()
    if not lenient:  # an old revision's record of accepted breaks is history: never read
        accepted, found = load_accepted(folder, reading)
        problems += found
    if problems or identity is None or envelope is None or compiled is None or catalogue is None or manifest is None:
        return None, problems
    meta = identity.data
    contract = Contract(
        name=meta["name"],
        title=meta["title"],
        version=meta["version"],
        summary=meta["summary"],
        module=meta["module"],
        source_dir=f"schemas/contracts/{folder.name}",
        view=compiled.view,
        bundle=compiled.bundle,
        judge=compiled.judge,
        catalogue=catalogue,
        manifest=manifest,
        examples=examples,
        builders=builders,
        modules=modules,
        protocol=_protocol(meta),
        error_results=ErrorResults(**meta.get("error_results", {})),
        extra_tools=meta.get("extra_tools", "error"),
        rules={**meta.get("lint", {}).get("rules", {}), **meta.get("rules", {})},
        places=Places({**documents, **surface_documents, **compiled.documents}),
        accepted=accepted,
        surface=surface,
        arguments=arguments,
    )
    return contract, []


def _protocol(meta: dict[str, Any]) -> tuple[str, ...]:
    """The revisions a contract serves (`protocol:` in contract.yaml), in the table's order."""
    return tuple(v for v in VERSIONS if v in meta.get("protocol", VERSIONS))


# The modules `generate` writes into every contract package: a hand-written one may not replace them.
GENERATED_MODULES = (
    *("__init__.py", "models.py", "errors.py", "judge.py", "builders.py", "resources.py", "prompts.py"),
    "tools.py",
    "resource_models.py",  # stands beside the package `resource_models/` of JSON resources' models
    "tool_arguments.py",  # stands beside the package `tool_arguments/` of the tools' arguments
)


def _load_modules(identity: Document, reading: Reading) -> tuple[tuple[Module, ...], list[Diagnostic]]:
    """`modules:` of contract.yaml: Python files beside it, checked to parse, not to clash."""
    modules, problems = [], []
    for index, name in enumerate(identity.data.get("modules", [])):
        path = identity.path.parent / name
        if name in GENERATED_MODULES:
            problems.append(identity.diagnostic(["modules", index], f"{name} is a module `generate` writes"))
            continue
        text = read_source(path, reading)
        if isinstance(text, Diagnostic):
            problems.append(text)
            continue
        try:
            ast.parse(text, filename=name)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            line = exc.lineno if isinstance(exc, SyntaxError) else None
            problems.append(Diagnostic(reading.name(path), line, None, f"not Python: {exc}"))
            continue
        modules.append(Module(name, text))
    return tuple(modules), problems


def _check_code_pattern(identity: Document) -> list[Diagnostic]:
    """`error_results.code_pattern` is a regular expression with a group named `code`."""
    pattern = identity.data.get("error_results", {}).get("code_pattern")
    if pattern is None:
        return []
    try:
        compiled = re.compile(pattern)
    except (re.error, RecursionError, OverflowError) as exc:
        return [identity.diagnostic(["error_results", "code_pattern"], f"not a regular expression: {exc}")]
    if "code" not in compiled.groupindex:
        return [identity.diagnostic(["error_results", "code_pattern"], "needs a group named `code`: (?P<code>...)")]
    return []


def _check_bindings(identity: Document, envelope: Document, catalogue: Catalogue) -> list[Diagnostic]:
    """Each bound enum of the envelope lists exactly the catalogue codes its selection picks."""
    problems = []
    for index, binding in enumerate(identity.data.get("catalogue_bindings", [])):
        pointer, select = binding["pointer"], binding.get("select", {})
        try:
            target = resolve_pointer(envelope.data, pointer)
        except KeyError:
            where = ["catalogue_bindings", index, "pointer"]
            problems.append(identity.diagnostic(where, f"{pointer} is not in envelope.schema.json"))
            continue
        if not isinstance(target, dict) or not isinstance(target.get("enum"), list):
            problems.append(
                Diagnostic(envelope.name, None, pointer, "a catalogue binding must point to a schema with an enum")
            )
            continue
        wanted = [
            e.code
            for e in catalogue.errors.entries
            if all(e.get(k) == v and type(e.get(k)) is type(v) for k, v in select.items())
        ]
        listed = target["enum"]
        listed_set, wanted_set = set(map(json.dumps, listed)), set(wanted)  # sets: linear, not quadratic
        missing = [c for c in wanted if json.dumps(c) not in listed_set]
        extra = [c for c in listed if not isinstance(c, str) or c not in wanted_set]
        selection = " with " + ", ".join(f"{k}={v}" for k, v in sorted(select.items())) if select else ""
        for codes, said in ((missing, "lacks the codes of"), (extra, "lists codes that are not in")):
            if codes:
                message = f"{said} errors.yaml{selection}: {', '.join(map(str, codes))}"
                problems.append(Diagnostic(envelope.name, None, pointer + "/enum", message))
    return problems


def _load_examples(folder: Path, judge: Judge, reading: Reading) -> tuple[tuple[Example, ...], list[Diagnostic]]:
    """Example envelopes: each must be valid JSON that the envelope schema accepts."""
    if not reading.files.is_dir(folder):
        return (), []
    examples, problems = [], []
    for path in reading.files.glob(folder, "*.json", recursive=False):
        document = read_json(path, reading)
        if isinstance(document, Diagnostic):
            problems.append(document)
            continue
        for violation in judge.violations(document.data):
            problems.append(
                document.diagnostic(violation.path, "example breaks the envelope schema: " + violation.message)
            )
        examples.append(Example(path.stem, document.data))
    return tuple(examples), problems
