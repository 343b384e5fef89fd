"""The library API behind the CLI: one entry per command, `run(options)`, and beside it what is
no command (the settings, rendering and loading in memory, the plan cache, the contract a
command judges with).

`run` reads the project's `[tool.mcp-contracts]` settings (see `config`) from the working
folder up, with the options' fields in place of the file's values, and returns the command's
`findings.Outcome`, as every report format prints it. Every command loads its sources through
`api_sources.load`, so all of them read within the project's limits and inside the sources
folder. Problems come back as values (findings, a `problem`), never as exceptions.

    from mcp_contracts_generator import api, options

    outcome = api.run(options.Generate())   # like `mcp-contracts generate`
    assert outcome.exit_code == 0, [str(f) for f in outcome.findings]
    checked = api.run(options.Check())      # like `mcp-contracts check`: checked.facts.clean
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import api_serve
from . import api_sources as sources
from . import options as _options
from .api_sources import PlanCache, RenderResult, plans_cached, reading, served_contract, source_contract
from .config import Settings, load_settings, output_problem, package_problem
from .diagnostics import Diagnostic, Refused, display_path

if TYPE_CHECKING:
    from .findings import finding as findings
    from .load.project import LoadResult

__all__ = [
    "PlanCache",
    "RenderResult",
    "load",
    "plans_cached",
    "reading",
    "render",
    "run",
    "served_contract",
    "settings",
    "settings_of",
    "source_contract",
]


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
    return sources.render(chosen)


def load(schemas_dir: Path | None = None) -> LoadResult:
    """The project model of the sources, as `generate` loads them; nothing is rendered."""
    from .load.project import LoadResult

    chosen = settings(schemas_dir)
    return LoadResult(None, chosen) if isinstance(chosen, list) else sources.load(chosen)


def settings_of(chosen: _options.Options) -> Settings | list[Diagnostic]:
    """The project's settings with a command's flags in place of the file's values (`run`)."""
    given = {name: getattr(chosen, name, None) for name in ("schemas", "out", "templates")}
    return settings(given["schemas"], given["out"], given["templates"], package=getattr(chosen, "package", None))


def run(chosen: _options.Options, resolved: Settings | list[Diagnostic] | None = None) -> findings.Outcome:
    """Command `chosen` run as the command line runs it, its outcome as every format reports it:
    the one entry per command (`options` holds one dataclass each). The settings are read from
    the project with the flags in their place (`settings_of`), unless `resolved` already are;
    settings that do not load are the outcome's `source-invalid` findings."""
    from .findings.finding import Outcome
    from .findings.outcome_facts import BreakingFacts

    project = settings_of(chosen) if resolved is None else resolved
    if isinstance(project, list):
        facts = BreakingFacts(chosen.against, None) if isinstance(chosen, _options.Breaking) else None
        return Outcome.refused(chosen.command, project, facts)
    return _RUNS[type(chosen)](project, chosen)


def _generate(chosen: Settings, _: _options.Generate) -> findings.Outcome:
    """Write every output atomically; on invalid sources write nothing. What it wrote is
    recorded in this machine's cache, for `check` (see `generator.fingerprint`)."""
    from .findings.commands import generated
    from .fingerprint import remember
    from .write import UnsafeOutput, write_plan

    shown = display_path(chosen.output)  # before the swap, which may replace the working folder
    refused = output_problem(chosen)
    if refused is not None:
        return generated([refused], shown)
    rendered = sources.render(chosen)
    if rendered.plan is None:
        return generated(rendered.diagnostics, shown)
    try:
        drift = write_plan(rendered.plan, chosen.output)
        remember(chosen, rendered.inputs, rendered.plan)
        return generated(drift, shown)
    except UnsafeOutput as exc:
        return generated([Diagnostic(display_path(chosen.output), None, None, str(exc))], shown)
    except OSError as exc:  # a read-only folder, a full disk: the output is as it was
        where = display_path(Path(exc.filename)) if exc.filename else display_path(chosen.output)
        return generated([Diagnostic(where, None, None, f"cannot write: {exc.strerror or exc}")], shown)


def _check(chosen: Settings, flags: _options.Check) -> findings.Outcome:
    """Compare the output folder with what the sources produce.

    An output setting `generate` refuses is refused first, before anything is read. Unless
    `full`, this machine's cache answers next (`fingerprint.verified`): when the inputs and
    every output file are what a full comparison or a `generate` here last verified, the
    folder is clean, found without loading or rendering. Otherwise (a fresh clone, anything
    changed) the sources are rendered and the plan compared with the disk, which is the judge
    of what differs; a clean comparison is recorded in the cache. Nothing the repository
    holds is taken for a verdict.
    """
    from .drift import Drift, compare
    from .findings.commands import checked
    from .fingerprint import remember, verified

    shown = display_path(chosen.output)
    refused = output_problem(chosen)
    if refused is not None:
        return checked([refused], None, shown)
    if not flags.full and verified(chosen):
        return checked(Drift(), "cache", shown)
    rendered = sources.render(chosen)
    if rendered.plan is None:
        return checked(rendered.diagnostics, "comparison", shown)
    try:
        drift = compare(rendered.plan, chosen.output)
    except OSError as exc:  # a folder of the output that cannot be listed
        where = display_path(Path(exc.filename)) if exc.filename else shown
        return checked([Diagnostic(where, None, None, f"cannot read: {exc.strerror or exc}")], None, shown)
    if drift.clean:
        remember(chosen, rendered.inputs, rendered.plan)
    return checked(drift, "comparison", shown)


def _lint(chosen: Settings, _: _options.Lint) -> findings.Outcome:
    """Judge the conventions of every contract (see `generator.lint`): findings at the levels
    of `[tool.mcp-contracts.rules]` and each contract's `rules:`."""
    from .lint import lint as lint_sources

    return lint_sources(chosen.schemas, sources.load(chosen), sources.reading(chosen), dict(chosen.rules))


def _breaking(chosen: Settings, flags: _options.Breaking) -> findings.Outcome:
    """What the sources break for clients since `against`, a git revision or a folder (by
    default `[tool.mcp-contracts.breaking] against`: the merge-base with the main branch): the
    findings re-levelled by the policy,
    then the version each contract needs for those that remain, then the breaks accepted on
    purpose. A revision is verified as a commit first and read from git's objects (see
    `generator.against`); the old sources load as the new ones do, with the same limits."""
    from .breaking import changes_between, version_findings
    from .breaking.accepted import accept
    from .breaking.against import Nothing, load_old
    from .breaking.against import resolve as resolve_against
    from .findings import finding as findings
    from .findings.outcome_facts import BreakingFacts

    against = flags.against
    old_side = resolve_against(against, chosen.against, chosen.branch, chosen.schemas)
    if isinstance(old_side, Diagnostic):  # nothing to compare with: a usage problem, not the sources'
        facts = BreakingFacts(against or chosen.against, None)
        return findings.Outcome("breaking", (), (), facts=facts, problem=str(old_side))
    facts = old_side.facts()
    new = sources.load(chosen)
    if new.project is None:
        return findings.Outcome.refused("breaking", new.diagnostics, facts)
    if isinstance(old_side, Nothing):
        return findings.Outcome("breaking", (), (), facts=facts, summary=old_side.message)
    old = load_old(old_side, chosen.limits)
    if old.project is None:
        return findings.Outcome.refused("breaking", old.diagnostics, facts)  # each at its place, named `REF:path`
    project = new.project
    policy = sources.policy(chosen, project.contracts)
    found = policy.apply(changes_between(old.project, project))
    versions = version_findings(old.project, project, found)
    # accepted-breaks.yaml, then the policy again: for `accepted-break-unused` (accepted ones keep their note)
    found = policy.apply(accept(found + policy.apply(versions), project, old.project))
    return findings.Outcome("breaking", tuple(found), policy.ran("breaking"), facts=facts, summary=_counted(found))


def _counted(found: Sequence[findings.Finding]) -> str:
    """`breaking`'s summary: the breaks (errors of a rule of what changed) apart from a version
    too low (`version-not-bumped`, which a compatible edit raises too) and from the rest."""
    from .rules import rule
    from .rules.breaking import VERSION_NOT_BUMPED

    low = sum(f.rule == VERSION_NOT_BUMPED.id and f.level == "error" for f in found)
    breaks = sum(f.level == "error" and rule(f.rule).category not in ("version", "comparison") for f in found)
    accepted = sum(f.accepted is not None for f in found)
    counts = [f"{breaks} breaking change(s)", *([f"{accepted} accepted"] if accepted else [])]
    counts += [f"{low} version too low"] if low else []
    return ", ".join([*counts, f"{len(found) - breaks - low - accepted} other finding(s)."])


def _init(chosen: Settings, flags: _options.Init) -> findings.Outcome:
    from .findings.commands import initialised
    from .scaffold import scaffold

    return initialised(scaffold(chosen, flags.name))


def _docs(chosen: Settings, flags: _options.Docs) -> findings.Outcome:
    """Build the generated Markdown into an HTML site with `mkdocs build --strict`
    (`site` defaults to `site/` of the project root); a folder `docs` may not empty
    (`generator.site`) is the problem, and left as it is."""
    from .findings.commands import built_site

    site = flags.site if flags.site is not None else chosen.root / "site"
    problem, said = _build_site(chosen, site)
    return built_site(site, problem, said)


def _build_site(chosen: Settings, site: Path) -> tuple[str | None, str]:
    """Why `docs` built no site at `site` (None: it did), and what mkdocs said when it failed."""
    import subprocess
    import sys
    from importlib.util import find_spec

    from .site import MKDOCS, mark, site_problem

    config = chosen.output / "mkdocs.yml"
    if not config.is_file():
        next_step = sources.NO_PROJECT if sources.outside(chosen) else "run `mcp-contracts generate` first"
        return f"{display_path(config)} is missing: {next_step}", ""
    if find_spec("mkdocs") is None:  # the `docs` extra: nothing else needs it
        said = f"docs needs mkdocs, which this environment ({display_path(Path(sys.prefix))}) lacks: install it"
        ways = f"uv tool install --with '{MKDOCS}' ..., pipx inject mcp-contracts '{MKDOCS}' or pip install '{MKDOCS}'"
        return f"{said} where the tool is ({ways})", ""
    problem = site_problem(site, chosen)
    if problem is not None:
        return problem, ""
    try:
        mark(site)
    except OSError as exc:
        return f"{display_path(site)}: cannot write the site there: {exc.strerror}", ""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir"]
    result = subprocess.run([*command, str(site.resolve())], check=False, capture_output=True, text=True)
    if result.returncode != 0:
        return "mkdocs build --strict failed", result.stdout + result.stderr
    return None, ""


def _validate(chosen: Settings, flags: _options.Validate) -> findings.Outcome:
    """Judge JSON files (`-` is standard input) with the judge of the contract in the sources:
    the one `mock` and `conform` judge with, whatever the output folder holds."""
    from .findings.commands import validated
    from .validate import UnknownDefinition, Verdict, contract_judge, read_document

    found = sources.source_contract(chosen, flags.contract)
    if isinstance(found, list):
        return validated(flags.contract, [], None, found)
    try:
        judge = contract_judge(found, flags.definition, chosen.limits.document_depth)
    except UnknownDefinition as exc:
        near = _near_definition(str(exc), flags.definition or "", found.judge.definitions())
        return validated(flags.contract, [], near, ())
    verdicts = []
    for name in flags.documents:
        document = read_document(name, chosen.limits.document_bytes)
        label = "<stdin>" if name == "-" else name
        verdicts.append(
            Verdict(label, False, problem=str(document))
            if isinstance(document, Refused)
            else judge.judge_bytes(label, document)
        )
    return validated(flags.contract, verdicts, None, ())


def _near_definition(problem: str, definition: str, names: list[str]) -> str:
    """`problem` (an unknown `--definition`) with the name it was likely meant to be, if any."""
    import difflib

    close = difflib.get_close_matches(definition, names, n=1)
    return f"{problem}: did you mean {close[0]!r}?" if close else problem


_RUNS: dict[type, Callable[[Settings, Any], findings.Outcome]] = {
    _options.Generate: _generate,
    _options.Check: _check,
    _options.Lint: _lint,
    _options.Breaking: _breaking,
    _options.Init: _init,
    _options.Docs: _docs,
    _options.Validate: _validate,
    _options.Mock: api_serve.run_mock,
    _options.Conform: api_serve.run_conform,
    _options.Import: api_serve.run_import,
}
