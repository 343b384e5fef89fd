"""The library API behind the CLI: load, render, then write or compare; judge documents.

Each function reads the project's `[tool.mcp-contracts]` settings (see `config`) from the
working folder up, and takes its arguments in their place; each `*_with` function takes
settings already resolved. Every command loads its sources through `_load`, so all of them
read within the project's limits and inside the sources folder. Problems come back as
values (`Diagnostic`s, or a message), never as exceptions.

    from mcp_contracts_generator import api

    outcome = api.generate()            # like `mcp-contracts generate`
    assert outcome.drift is not None, outcome.diagnostics
    drift = api.check().drift           # like `mcp-contracts check`: drift.clean
    result = api.validate("billing-api", ["response.json"])  # judged by the sources' contract
    assert result.problem is None and all(v.valid for v in result.verdicts)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .config import Settings, load_settings, output_problem, package_problem
from .diagnostics import Diagnostic, display_path

# Each command imports the stages it uses when it runs: `check` answered from the cache,
# `--help` and `--version` import no loader, renderer, pydantic or jinja2.
if TYPE_CHECKING:
    from .conformance.conform import ConformOptions, Target
    from .findings import finding as findings
    from .findings.policy import Policy
    from .importing.importer import ImportOptions
    from .load.documents import Reading
    from .load.project import LoadResult
    from .model import Contract
    from .render.plan import Plan, RenderProblem
    from .serving.served import ServedContract
    from .validate import Verdict
    from .write import Drift


@dataclass(frozen=True)
class RenderResult:
    """The plan when the sources are valid; otherwise every diagnostic. `inputs` is the
    fingerprint of what the plan was rendered from (`fingerprint.inputs`), when it has one."""

    plan: Plan | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    inputs: dict[str, Any] | None = None


@dataclass(frozen=True)
class OutputResult:
    """What `generate` changed or `check` found in the output folder; `drift` is None when the
    sources or the output setting are invalid. `answered` says how `check` found it: from this
    machine's cache of what it verified (`fingerprint.verified`), or by comparing the rendered
    plan with the disk. The commands report it as a `findings.Outcome` (`generate_report`,
    `check_report`)."""

    drift: Drift | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    answered: Literal["cache", "comparison"] | None = None


@dataclass(frozen=True)
class Validation:
    """One verdict per document; `problem` says why none could be given (unknown contract...),
    and `diagnostics` are the problems of the sources when that is why."""

    verdicts: list[Verdict]
    problem: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def settings(
    schemas_dir: Path | None = None,
    out_dir: Path | None = None,
    templates: Path | None = None,
    *,
    package: str | None = None,
) -> Settings | list[Diagnostic]:
    """The project's settings with the given arguments in place of the file's values."""
    loaded = load_settings()
    if isinstance(loaded, list):
        return loaded
    # Absolute from here on: `generate` may replace the working folder itself (run inside
    # the output folder), after which a relative path leads nowhere.
    absolute = [_absolute(path) if path is not None else None for path in (schemas_dir, out_dir, templates)]
    chosen = loaded.with_flags(schemas=absolute[0], output=absolute[1], templates=absolute[2], package=package)
    problem = package_problem(chosen.package)
    if problem is not None:
        return [Diagnostic(display_path(chosen.config or Path("--package")), None, None, problem)]
    return chosen


def _absolute(path: Path) -> Path:
    """`path` from the root, its folder resolved (`--out ..` names the folder above by its
    name); a symlink in the last place is kept, for `generate` swaps what it points to."""
    if path.name in ("", ".", ".."):
        return path.resolve()
    return path.absolute().parent.resolve() / path.name


def render(
    schemas_dir: Path | None = None, templates: Path | None = None, *, package: str | None = None
) -> RenderResult:
    """Load and render in memory; nothing touches the disk."""
    chosen = settings(schemas_dir, None, templates, package=package)
    if isinstance(chosen, list):
        return RenderResult(None, chosen)
    return _render(chosen)


# Plans of valid sources, by the fingerprint of their inputs (`fingerprint.inputs`: every
# byte a render reads): a long-lived process (the API, a test suite, an editor) renders the
# same sources once.
_PLANS: dict[str, Plan] = {}
_MAX_PLANS = 8


def _render(chosen: Settings) -> RenderResult:
    templates = chosen.templates
    if templates is not None and not templates.is_dir():
        return RenderResult(None, [Diagnostic(display_path(templates), None, None, "no such templates folder")])
    from .fingerprint import inputs

    recorded = inputs(chosen)  # before reading: a source edited meanwhile is not taken for the old one
    key = json.dumps(recorded, sort_keys=True) if recorded is not None else None
    if key is None or key not in _PLANS:
        rendered = _render_sources(chosen)
        if rendered.plan is None or key is None:
            return rendered
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.pop(next(iter(_PLANS)))
        _PLANS[key] = rendered.plan
    return RenderResult(dict(_PLANS[key]), inputs=recorded)


def reading(chosen: Settings) -> Reading:
    """How the sources of `chosen` are read: within its limits, inside its sources folder, its
    `references:` inside the project that holds that folder (not the working folder's)."""
    from .config import project_root
    from .load.documents import Reading

    return Reading.within(chosen.schemas, chosen.limits, project_root(chosen.schemas.absolute()))


def _load(chosen: Settings, *, lenient: bool = False) -> LoadResult:
    """The sources, read within the project's limits: the one way every command loads."""
    from .load import load_project

    loaded = load_project(chosen.schemas, reading(chosen), lenient=lenient)
    return replace(loaded, diagnostics=outside_project(chosen, loaded.diagnostics))


# Said after the first problem of a command run outside any project: a new user's first run.
NO_PROJECT = "no project here (no pyproject.toml with [tool.mcp-contracts]): start one with `mcp-contracts init <name>`"


def _outside(chosen: Settings) -> bool:
    """Whether the command runs outside any project: no pyproject.toml here or above has a
    `[tool.mcp-contracts]` section, and there is no sources folder."""
    return chosen.config is None and not chosen.schemas.exists()


def outside_project(chosen: Settings, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """`diagnostics`, the first saying how to start a project when the command runs outside any."""
    if not diagnostics or not _outside(chosen):
        return diagnostics
    first = diagnostics[0]
    return [replace(first, message=f"{first.message}: {NO_PROJECT}"), *diagnostics[1:]]


def load(schemas_dir: Path | None = None) -> LoadResult:
    """The project model of the sources, as `generate` loads them; nothing is rendered."""
    from .load.project import LoadResult

    chosen = settings(schemas_dir)
    return LoadResult(None, chosen) if isinstance(chosen, list) else _load(chosen)


def load_with(chosen: Settings) -> LoadResult:
    """`load` with settings already resolved."""
    return _load(chosen)


def _render_sources(chosen: Settings) -> RenderResult:
    from jinja2 import TemplateError, TemplateSyntaxError

    from .render.pins import environment, pin_problem

    # The releases of black and datamodel-code-generator the Python bytes need (TypeScript alone
    # needs neither).
    refused = pin_problem() if "python" in chosen.languages else None
    if refused is not None:
        return RenderResult(None, [Diagnostic(display_path(environment()), None, None, refused)])
    from .render.plan import build_plan

    templates = chosen.templates
    loaded = _load(chosen)
    if loaded.project is None:
        return RenderResult(None, loaded.diagnostics)
    try:
        plan = build_plan(
            loaded.project,
            chosen.package,
            templates,
            chosen.languages,
            rules_page=chosen.rules_page,
            distribution=(chosen.distribution, chosen.distribution_version),
        )
    except TemplateSyntaxError as exc:
        return RenderResult(
            None, [Diagnostic(exc.filename or str(exc.name), exc.lineno, None, f"template: {exc.message}")]
        )
    except TemplateError as exc:
        return RenderResult(None, [Diagnostic(str(templates or "templates"), None, None, f"template: {exc}")])
    except UnicodeEncodeError as exc:  # the sources hold none (loading refuses them): a template wrote it
        where = display_path(templates) if templates is not None else "templates"
        text = exc.object[exc.start : exc.end].encode("unicode-escape").decode("ascii")
        return RenderResult(None, [Diagnostic(where, None, None, f"template: wrote {text}, which UTF-8 cannot hold")])
    if isinstance(plan, list):
        return RenderResult(None, sorted((_render_diagnostic(chosen, p) for p in plan), key=Diagnostic.sort_key))
    return RenderResult(plan)


def _render_diagnostic(chosen: Settings, problem: RenderProblem) -> Diagnostic:
    """A contract that cannot be rendered, named by its envelope file and, where known, the
    JSON pointer of the schema part that failed (another file of the folder is named in the
    message)."""
    from urllib.parse import unquote

    from .load.bundle import ENVELOPE, ROOT_URI, VIRTUAL_ROOT
    from .load.surface import RESOURCES_FILE

    where = display_path(chosen.schemas / "contracts" / problem.contract / ENVELOPE)
    location = problem.location
    if location is None:
        return Diagnostic(where, None, None, problem.message)
    if location.startswith(VIRTUAL_ROOT + RESOURCES_FILE + "?"):  # a JSON resource's schema
        where = display_path(chosen.schemas / "contracts" / problem.contract / RESOURCES_FILE)
        return Diagnostic(where, None, None, f"{problem.message} (at {unquote(location)})")
    if location == "" or location.startswith(ROOT_URI + "#"):
        return Diagnostic(where, None, unquote(location.removeprefix(ROOT_URI + "#")), problem.message)
    return Diagnostic(where, None, None, f"{problem.message} (at {location})")


def generate(
    schemas_dir: Path | None = None,
    out_dir: Path | None = None,
    templates: Path | None = None,
    *,
    package: str | None = None,
) -> OutputResult:
    """Write every output atomically; on invalid sources write nothing."""
    chosen = settings(schemas_dir, out_dir, templates, package=package)
    return OutputResult(None, chosen) if isinstance(chosen, list) else generate_with(chosen)


def generate_with(chosen: Settings) -> OutputResult:
    """`generate` with settings already resolved (the CLI resolves them once). What it wrote
    is recorded in this machine's cache, for `check` (see `generator.fingerprint`)."""
    from .fingerprint import remember
    from .write import UnsafeOutput, write_plan

    refused = output_problem(chosen)
    if refused is not None:
        return OutputResult(None, [refused])
    rendered = _render(chosen)
    if rendered.plan is None:
        return OutputResult(None, rendered.diagnostics)
    try:
        drift = write_plan(rendered.plan, chosen.output)
        remember(chosen, rendered.inputs, rendered.plan)
        return OutputResult(drift)
    except UnsafeOutput as exc:
        return OutputResult(None, [Diagnostic(display_path(chosen.output), None, None, str(exc))])
    except OSError as exc:  # a read-only folder, a full disk: the output is as it was
        where = display_path(Path(exc.filename)) if exc.filename else display_path(chosen.output)
        return OutputResult(None, [Diagnostic(where, None, None, f"cannot write: {exc.strerror or exc}")])


def check(
    schemas_dir: Path | None = None,
    out_dir: Path | None = None,
    templates: Path | None = None,
    *,
    package: str | None = None,
    full: bool = False,
) -> OutputResult:
    """Compare the output folder with what the sources produce (`full`: render and compare
    even when this machine's cache answers; see `check_with`)."""
    chosen = settings(schemas_dir, out_dir, templates, package=package)
    return OutputResult(None, chosen) if isinstance(chosen, list) else check_with(chosen, full=full)


def check_with(chosen: Settings, *, full: bool = False) -> OutputResult:
    """`check` with settings already resolved.

    An output setting `generate` refuses is refused first, before anything is read. Unless
    `full`, this machine's cache answers next (`fingerprint.verified`): when the inputs and
    every output file are what a full comparison or a `generate` here last verified, the
    folder is clean, found without loading or rendering. Otherwise (a fresh clone, anything
    changed) the sources are rendered and the plan compared with the disk, which is the judge
    of what differs; a clean comparison is recorded in the cache. Nothing the repository
    holds is taken for a verdict.
    """
    from .fingerprint import remember, verified
    from .write import Drift, compare

    refused = output_problem(chosen)
    if refused is not None:
        return OutputResult(None, [refused])
    if not full and verified(chosen):
        return OutputResult(Drift(), answered="cache")
    rendered = _render(chosen)
    if rendered.plan is None:
        return OutputResult(None, rendered.diagnostics, answered="comparison")
    try:
        drift = compare(rendered.plan, chosen.output)
    except OSError as exc:  # a folder of the output that cannot be listed
        where = display_path(Path(exc.filename)) if exc.filename else display_path(chosen.output)
        return OutputResult(None, [Diagnostic(where, None, None, f"cannot read: {exc.strerror or exc}")])
    if drift.clean:
        remember(chosen, rendered.inputs, rendered.plan)
    return OutputResult(drift, answered="comparison")


def check_report(chosen: Settings, *, full: bool = False) -> findings.Outcome:
    """`check` as every format reports it (`check_with`'s drift as `output-drift` findings,
    the paths, diffs and how it was answered as facts)."""
    from .findings.commands import checked

    outcome = check_with(chosen, full=full)
    return checked(outcome.drift, outcome.diagnostics, outcome.answered, display_path(chosen.output))


def generate_report(chosen: Settings) -> findings.Outcome:
    """`generate` as every format reports it: the files it created, updated and removed."""
    from .findings.commands import generated

    shown = display_path(chosen.output)  # before the swap, which may replace the working folder
    outcome = generate_with(chosen)
    return generated(outcome.drift, outcome.diagnostics, shown)


def lint(schemas_dir: Path | None = None) -> findings.Outcome:
    """Judge the conventions of every contract (see `generator.lint`)."""
    chosen = settings(schemas_dir)
    return _not_loaded("lint", chosen) if isinstance(chosen, list) else lint_with(chosen)


def lint_with(chosen: Settings) -> findings.Outcome:
    """`lint` with settings already resolved: findings at the levels of `[tool.mcp-contracts.rules]`
    and each contract's `rules:`."""
    from .lint import lint as lint_sources

    return lint_sources(chosen.schemas, _load(chosen), reading(chosen), dict(chosen.rules))


def _not_loaded(
    command: str, diagnostics: Sequence[Diagnostic], facts: Mapping[str, object] | None = None
) -> findings.Outcome:
    """The outcome of a command whose settings or sources do not load: `source-invalid`
    findings (the printers count them; the text format says them as `check` does)."""
    from .findings.finding import Outcome

    return Outcome.refused(command, diagnostics, facts)


def breaking(against: str | None = None, schemas_dir: Path | None = None) -> findings.Outcome:
    """What the sources break for clients since `against`, a git revision or a folder (by
    default `[tool.mcp-contracts.breaking] against`: the merge-base with the main branch)."""
    chosen = settings(schemas_dir)
    if isinstance(chosen, list):
        return _not_loaded("breaking", chosen, {"against": against, "commit": None})
    return breaking_with(chosen, against)


def breaking_with(chosen: Settings, against: str | None = None) -> findings.Outcome:
    """`breaking` with settings already resolved: the findings re-levelled by the policy,
    then the version each contract needs for those that remain, then the breaks accepted on
    purpose. A revision is verified as a commit first and read from git's objects (see
    `generator.against`); the old sources load as the new ones do, with the same limits."""
    from .breaking import changes_between, version_findings
    from .breaking.accepted import accept
    from .breaking.against import Nothing, load_old
    from .breaking.against import resolve as resolve_against
    from .findings import finding as findings

    old_side = resolve_against(against, chosen.against, chosen.branch, chosen.schemas)
    if isinstance(old_side, Diagnostic):  # nothing to compare with: a usage problem, not the sources'
        facts = {"against": against or chosen.against, "commit": None}
        return findings.Outcome("breaking", (), (), facts=facts, problem=str(old_side))
    facts = old_side.facts()
    new = _load(chosen)
    if new.project is None:
        return _not_loaded("breaking", new.diagnostics, facts)
    if isinstance(old_side, Nothing):
        return findings.Outcome("breaking", (), (), facts=facts, summary=old_side.message)
    old = load_old(old_side, chosen.limits)
    if old.project is None:
        return _not_loaded("breaking", old.diagnostics, facts)  # each at its place, named `REF:path`
    project = new.project
    policy = _policy(chosen, project.contracts)
    found = policy.apply(changes_between(old.project, project))
    versions = version_findings(old.project, project, found)
    # accepted-breaks.yaml, then the policy again: for `accepted-break-unused` (accepted ones keep their note)
    found = policy.apply(accept(found + policy.apply(versions), project, old.project))
    return findings.Outcome("breaking", tuple(found), policy.ran("breaking"), facts=facts, summary=_counted(found))


def _counted(found: Sequence[findings.Finding]) -> str:
    """`breaking`'s summary: the breaks (errors of a rule of what changed) apart from a version
    too low (`version-not-bumped`, which a compatible edit raises too) and from the rest."""
    from .rules import rule

    low = sum(f.rule == "version-not-bumped" and f.level == "error" for f in found)
    breaks = sum(f.level == "error" and rule(f.rule).category not in ("version", "comparison") for f in found)
    accepted = sum(f.accepted is not None for f in found)
    counts = [f"{breaks} breaking change(s)", *([f"{accepted} accepted"] if accepted else [])]
    counts += [f"{low} version too low"] if low else []
    return ", ".join([*counts, f"{len(found) - breaks - low - accepted} other finding(s)."])


def init_with(chosen: Settings, name: str) -> list[Path] | Diagnostic:
    """Scaffold contract `name` under the sources folder (see `generator.scaffold`): the
    files made, or why nothing was."""
    from .scaffold import scaffold_contract

    return scaffold_contract(chosen, name)


def init_report(chosen: Settings, name: str) -> findings.Outcome:
    """`init` as every format reports it: the files made (and the pyproject.toml it appended
    the settings to), or why none were."""
    from .findings.commands import initialised
    from .scaffold import scaffold

    return initialised(scaffold(chosen, name))


@dataclass(frozen=True)
class Site:
    """Where `docs` built the HTML site; `problem` (and mkdocs' `output`) when it did not."""

    site: Path
    problem: str | None = None
    output: str = ""


def docs_with(chosen: Settings, site: Path | None = None) -> Site:
    """Build the generated Markdown into an HTML site with `mkdocs build --strict`
    (`site` defaults to `site/` of the project root); a folder `docs` may not empty
    (`generator.site`) is the problem, and left as it is."""
    import subprocess
    import sys
    from importlib.util import find_spec

    from .site import MKDOCS, mark, site_problem

    site = site if site is not None else chosen.root / "site"
    config = chosen.output / "mkdocs.yml"
    if not config.is_file():
        next_step = NO_PROJECT if _outside(chosen) else "run `mcp-contracts generate` first"
        return Site(site, f"{display_path(config)} is missing: {next_step}")
    if find_spec("mkdocs") is None:  # the `docs` extra: nothing else needs it
        said = f"docs needs mkdocs, which this environment ({display_path(Path(sys.prefix))}) lacks: install it"
        ways = f"uv tool install --with '{MKDOCS}' ..., pipx inject mcp-contracts '{MKDOCS}' or pip install '{MKDOCS}'"
        return Site(site, f"{said} where the tool is ({ways})")
    problem = site_problem(site, chosen)
    if problem is not None:
        return Site(site, problem)
    try:
        mark(site)
    except OSError as exc:
        return Site(site, f"{display_path(site)}: cannot write the site there: {exc.strerror}")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir"]
    result = subprocess.run([*command, str(site.resolve())], check=False, capture_output=True, text=True)
    if result.returncode != 0:
        return Site(site, "mkdocs build --strict failed", result.stdout + result.stderr)
    return Site(site)


def docs_report(chosen: Settings, site: Path | None = None) -> findings.Outcome:
    """`docs` as every format reports it: where the site is, or why it was not built."""
    from .findings.commands import built_site

    built = docs_with(chosen, site)
    return built_site(built.site, built.problem, built.output)


def validate(
    contract: str,
    documents: Sequence[str],
    *,
    schemas_dir: Path | None = None,
    definition: str | None = None,
) -> Validation:
    """Judge JSON files (`-` is standard input) with the judge of the contract in the sources:
    the one `mock` and `conform` judge with, whatever the output folder holds."""
    chosen = settings(schemas_dir)
    if isinstance(chosen, list):
        return Validation([], "; ".join(map(str, chosen)), chosen)
    return validate_with(chosen, contract, documents, definition)


def validate_with(
    chosen: Settings, contract: str, documents: Sequence[str], definition: str | None = None
) -> Validation:
    """`validate` with settings already resolved."""
    from .validate import UnknownDefinition, Verdict, contract_judge, read_document

    found = source_contract(chosen, contract)
    if isinstance(found, list):
        return Validation([], "; ".join(map(str, found)), found)
    try:
        judge = contract_judge(found, definition, chosen.limits.document_depth)
    except UnknownDefinition as exc:
        return Validation([], _near_definition(str(exc), definition or "", found.judge.definitions()))
    verdicts = []
    for name in documents:
        document = read_document(name, chosen.limits.document_bytes)
        label = "<stdin>" if name == "-" else name
        verdicts.append(
            Verdict(label, False, problem=document) if isinstance(document, str) else judge.judge_bytes(label, document)
        )
    return Validation(verdicts)


def _near_definition(problem: str, definition: str, names: list[str]) -> str:
    """`problem` (an unknown `--definition`) with the name it was likely meant to be, if any."""
    import difflib

    close = difflib.get_close_matches(definition, names, n=1)
    return f"{problem}: did you mean {close[0]!r}?" if close else problem


def validate_report(
    chosen: Settings, contract: str, documents: Sequence[str], definition: str | None = None
) -> findings.Outcome:
    """`validate` as every format reports it: a `document-invalid` finding per violation."""
    from .findings.commands import validated

    result = validate_with(chosen, contract, documents, definition)
    return validated(contract, result.verdicts, result.problem, result.diagnostics)


def served_contract(chosen: Settings, name: str) -> ServedContract | list[Diagnostic]:
    """Contract `name` of the sources as an MCP server publishes it (`mock`, `conform`)."""
    from .serving.served import served

    found = source_contract(chosen, name)
    return found if isinstance(found, list) else served(found)


def source_contract(chosen: Settings, name: str) -> Contract | list[Diagnostic]:
    """Contract `name` as loaded from the sources (what `validate`, `mock` and `conform`
    judge with), or why not: the sources' problems, or an unknown name."""
    import difflib

    from .load.project import contract_names, load_project

    loaded = load_project(chosen.schemas, reading(chosen), only=name)
    if loaded.project is None:
        return outside_project(chosen, loaded.diagnostics)
    if not loaded.project.contracts:
        names = contract_names(chosen.schemas, reading(chosen))
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        known = ", ".join(names) or "none"
        return [
            Diagnostic(display_path(chosen.schemas), None, None, f"unknown contract {name!r}: {hint}it has: {known}")
        ]
    return loaded.project.contracts[0]


def conform(
    contract: str, target: Target, options: ConformOptions | None = None, schemas_dir: Path | None = None
) -> findings.Outcome:
    """Hold the MCP server at `target` to the contract (see `conform_with`), with the project's settings."""
    chosen = settings(schemas_dir)
    if isinstance(chosen, list):
        return _not_loaded("conform", chosen)
    return conform_with(chosen, contract, target, options)


def conform_with(
    chosen: Settings, contract: str, target: Target, options: ConformOptions | None = None
) -> findings.Outcome:
    """Hold the MCP server at `target` (a URL, or a command's `StdioServerParameters`) to the
    contract: its findings at the levels of `[tool.mcp-contracts.rules]` and the contract's
    `rules:` (`extra_tools:` sets `extra-tool`); sources that do not load are `source-invalid`
    findings, an unknown contract or a server not reached the outcome's `problem`."""
    from .conformance.conform import ConformOptions, conform, describe
    from .findings import finding as findings
    from .serving.served import served

    loaded = _load(chosen)
    if loaded.project is None:
        return _not_loaded("conform", loaded.diagnostics)
    found = next((c for c in loaded.project.contracts if c.name == contract), None)
    if found is None:
        unknown = source_contract(chosen, contract)  # says which names are close
        facts = {"contract": contract, "target": describe(target), "conforms": False}
        problem = "; ".join(map(str, unknown)) if isinstance(unknown, list) else f"unknown contract {contract!r}"
        return findings.Outcome("conform", (), (), facts=facts, problem=problem)
    limits = chosen.limits
    options = options or ConformOptions()
    log = _server_log(chosen, "conform", contract, target, options.server_log)
    if log.problem is not None:
        facts = {"contract": contract, "target": describe(target), "conforms": False}
        return findings.Outcome("conform", (), (), facts=facts, problem=log.problem)
    bounded = replace(
        options,
        message_bytes=limits.message_bytes,
        server_bytes=limits.server_bytes,
        server_seconds=limits.server_seconds,
        server_log=log.path,
    )
    report = conform(served(found), target, bounded)
    outcome = report.outcome(_policy(chosen, loaded.project.contracts))
    if outcome.problem is not None:  # one error, first and last: it names the file itself
        return replace(outcome, problem=outcome.problem + "".join(f"; {n.message}" for n in log.notes()))
    return replace(outcome, notes=(*outcome.notes, *log.notes()))


@dataclass(frozen=True)
class _ServerLog:
    """Where a run keeps the standard error of the server it starts (`client.server_log`):
    `path` (None: a server at a URL, whose standard error is its own, or `--server-log -`),
    `temporary` when it is a new file of the system's temporary folder; or why it cannot be
    kept where `--server-log` says (`problem`)."""

    path: Path | None = None
    problem: str | None = None
    temporary: bool = False

    def notes(self) -> tuple[findings.Note, ...]:
        """A note that names the file, once the run is over and the server wrote to it (a
        temporary one it left empty is removed)."""
        from .client.server_log import kept
        from .findings.finding import Note

        if self.path is None:
            return ()
        if not kept(self.path):
            if self.temporary:
                self.path.unlink(missing_ok=True)
            return ()
        return (Note("note", f"the server's standard error is kept in {display_path(self.path)}"),)


def _server_log(chosen: Settings, command: str, contract: str, target: Target, given: Path | None) -> _ServerLog:
    """The file a run of `command` keeps a started server's standard error in, emptied: `given`
    (`--server-log`, refused inside the project's sources, output, templates, settings or git's
    files; `-`: none, this process's standard error), else one of this machine's cache folder
    for this project, command, contract and server command line (`client.server_log.default_path`),
    else a new file of the system's temporary folder."""
    import os
    import tempfile

    from .client.server_log import begin, default_path
    from .diagnostics import printable
    from .findings.report_file import guarded_problem

    if isinstance(target, str):
        said = "--server-log goes with a command: a server at a URL keeps its standard error"
        return _ServerLog(problem=said if given is not None else None)
    if given is not None and str(given) == "-":  # our own standard error, as the server writes it
        return _ServerLog()
    if given is not None:
        named = f"--server-log {printable(str(given))}"
        guarded = guarded_problem(given, chosen)
        if guarded is not None:  # its words are a report's: where it is, said again
            where = guarded.split(":")[0]
            return _ServerLog(problem=f"{named}: {where}, which is no place for the server's standard error")
        problem = begin(given)
        return _ServerLog(given) if problem is None else _ServerLog(problem=f"{named}: {problem}")
    path = default_path(chosen.root, command, contract, [target.command, *target.args])
    if path is not None and begin(path) is None:
        return _ServerLog(path)
    try:
        handle, made = tempfile.mkstemp(prefix=f"mcp-contracts-{command}-", suffix=".log")  # O_EXCL, 0600
    except OSError:  # nowhere to keep it: on our own standard error, as the server writes it
        return _ServerLog()
    os.close(handle)
    return _ServerLog(Path(made), temporary=True)


def import_server(
    name: str,
    target: Target,
    options: ImportOptions | None = None,
    schemas_dir: Path | None = None,
    *,
    write: bool = False,
) -> findings.Outcome:
    """Write contract `name` from the MCP server at `target` (see `import_with`), with the
    project's settings."""
    from .importing.importer import ImportOptions

    chosen = settings(schemas_dir)
    if isinstance(chosen, list):
        return _not_loaded("import", chosen)
    return import_with(chosen, name, target, options or ImportOptions(), write=write)


def import_with(
    chosen: Settings, name: str, target: Target, options: ImportOptions, *, write: bool = False
) -> findings.Outcome:
    """Read the MCP server at `target` and write contract `name` from what it lists (see
    `generator.importing`); the notes of the run (revisions not spoken, tools not called) are
    the outcome's `notes`.

    A new contract is written at once. For one that exists, the outcome's findings are what an
    import changes (`breaking`'s rules at the project's levels) and nothing is written unless
    `write`; `pending` (exit 1) when there are changes left unwritten. A server not read is the
    outcome's `problem`; files that would not load are `source-invalid` findings, and nothing
    is written."""
    from .findings.finding import Note

    outcome, notes = _import(chosen, name, target, options, write=write)
    return replace(outcome, notes=(*(Note("note", note) for note in notes), *outcome.notes))


def _import(
    chosen: Settings, name: str, target: Target, options: ImportOptions, *, write: bool
) -> tuple[findings.Outcome, list[str]]:
    """`import_with`'s outcome, and its notes apart."""
    import tempfile

    from .client.connect import describe
    from .findings import finding as findings
    from .importing.importer import read_server
    from .importing.pipeline import import_contract
    from .scaffold import name_problem

    facts = {"contract": name, "target": describe(target), "written": [], "removed": [], "changed": False}
    problem = name_problem(chosen, name)
    if problem is not None:
        return findings.Outcome("import", (), (), facts=facts, problem=str(problem)), []
    limits = chosen.limits
    log = _server_log(chosen, "import", name, target, options.server_log)
    if log.problem is not None:
        return findings.Outcome("import", (), (), facts=facts, problem=log.problem), []
    bounded = replace(
        options,
        message_bytes=limits.message_bytes,
        server_bytes=limits.server_bytes,
        server_seconds=limits.server_seconds,
        server_log=log.path,
    )
    with tempfile.TemporaryDirectory(prefix="mcp-contracts-import-read-") as staging:  # the contents read
        reading = read_server(target, bounded, Path(staging))
        said = [note.message for note in log.notes()]
        if reading.facts is None or reading.problem is not None:  # one error: it names the file itself
            unread = (reading.problem or "") + "".join(f"; {message}" for message in said)
            return findings.Outcome("import", (), (), facts=facts, problem=unread or None), reading.notes
        imported = import_contract(chosen, name, reading.facts, write=write)
    notes = reading.notes + imported.notes + said
    written = [display_path(path) for path in imported.written]
    removed = [display_path(path) for path in imported.removed]
    facts.update(written=written, removed=removed, changed=imported.changed)
    if imported.diagnostics:  # (a write that failed midway names what it wrote before)
        return _not_loaded("import", imported.diagnostics, facts), notes
    policy = _policy(chosen, [])
    found = tuple(policy.apply(imported.changes))
    where = display_path(imported.folder)
    if imported.created:
        summary = f"wrote {where} ({len(written)} file(s)); next: mcp-contracts generate"
    elif not imported.changed and reading.facts.unlisted:  # a file left as it was is not up to date
        summary = f"{where}: nothing changed, but not every listing was read (see the notes)."
    elif not imported.changed:
        summary = f"{where} is up to date with the server."
    elif write:
        taken = f", removed {len(removed)} ({', '.join(removed)})" if removed else ""
        summary = f"wrote {len(written)} file(s) of {where} ({', '.join(written)}){taken}: {len(found)} change(s)."
    else:
        named = ", ".join(imported.changed_files)
        summary = (
            f"{len(found)} change(s) to {where} ({len(imported.changed_files)} file(s): {named}), not written:"
            " run again with --write to write them."
        )
    pending = imported.changed and not write and not imported.created
    ran = policy.ran("breaking")
    outcome = findings.Outcome("import", found, ran, facts=facts, summary=summary, pending=pending, failing=False)
    return outcome, notes


def _policy(chosen: Settings, contracts: Sequence[Contract]) -> Policy:
    """The level of each rule per contract: the registry's, `[tool.mcp-contracts.rules]`, the
    contract's `rules:` (`extra_tools:` in contract.yaml is the level of `extra-tool`)."""
    from .findings.policy import Policy

    own = {}
    for contract in contracts:
        extra = {"extra-tool": "off" if contract.extra_tools == "ignore" else contract.extra_tools}
        own[contract.name] = {**(extra if contract.extra_tools != "error" else {}), **contract.rules}
    return Policy(project=dict(chosen.rules), contracts=own)
