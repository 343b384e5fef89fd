"""How every command reads its sources and renders them in memory (`api` and `api_serve` run
the commands on these): within the project's limits and inside its sources folder, through one
loader (`load`), one renderer (`render`, with the caller's plan cache) and one policy of rule
levels (`policy`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .config import Settings
from .diagnostics import Diagnostic, display_path

# Each command imports the stages it uses when it runs: `check` answered from the cache,
# `--help` and `--version` import no loader, renderer, pydantic or jinja2.
if TYPE_CHECKING:
    from .findings.policy import Policy
    from .load.project import LoadResult
    from .load.reading import Reading
    from .model import Contract
    from .render.plan import Plan, RenderProblem
    from .serving.served import ServedContract


@dataclass(frozen=True)
class RenderResult:
    """The plan when the sources are valid; otherwise every diagnostic. `inputs` is the
    fingerprint of what the plan was rendered from (`fingerprint.inputs`), when it has one."""

    plan: Plan | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    inputs: dict[str, Any] | None = None


def render(chosen: Settings) -> RenderResult:
    """The plan of `chosen`'s sources, from the caller's cache when it holds one (`plans_cached`)."""
    templates = chosen.templates
    if templates is not None and not templates.is_dir():
        return RenderResult(None, [Diagnostic(display_path(templates), None, None, "no such templates folder")])
    from .fingerprint import inputs

    recorded = inputs(chosen)  # before reading: a source edited meanwhile is not taken for the old one
    cache = _PLAN_CACHE.get()
    key = json.dumps(recorded, sort_keys=True) if cache is not None and recorded is not None else None
    if cache is not None and key is not None and key in cache.plans:
        return RenderResult(dict(cache.plans[key]), inputs=recorded)
    rendered = _render_sources(chosen)
    if rendered.plan is None:
        return rendered
    if cache is not None and key is not None:
        cache.keep(key, rendered.plan)
    return replace(rendered, inputs=recorded)


@dataclass
class PlanCache:
    """Plans of valid sources by the fingerprint of their inputs (`fingerprint.inputs`: every
    byte a render reads), the last `size` of them: for a caller that renders the same sources
    many times in one process (an editor, a test suite). It is off unless the caller opts in
    with `plans_cached`: a command run renders once and keeps nothing."""

    size: int = 8
    plans: dict[str, Plan] = field(default_factory=dict)

    def keep(self, key: str, plan: Plan) -> None:
        if len(self.plans) >= self.size:
            self.plans.pop(next(iter(self.plans)))
        self.plans[key] = plan


_PLAN_CACHE: ContextVar[PlanCache | None] = ContextVar("mcp_contracts_plan_cache", default=None)


@contextmanager
def plans_cached(cache: PlanCache | None) -> Iterator[PlanCache | None]:
    """Render through `cache` within this block (this thread and the tasks it starts); `None`
    turns a cache around the block off."""
    token = _PLAN_CACHE.set(cache)
    try:
        yield cache
    finally:
        _PLAN_CACHE.reset(token)


def reading(chosen: Settings) -> Reading:
    """How the sources of `chosen` are read: within its limits, inside its sources folder, its
    `references:` inside the project that holds that folder (not the working folder's)."""
    from .config import project_root
    from .load.reading import Reading

    return Reading.within(chosen.schemas, chosen.limits, project_root(chosen.schemas.absolute()))


def load(chosen: Settings) -> LoadResult:
    """The sources, read within the project's limits: the one way every command loads."""
    from .load import load_project

    loaded = load_project(chosen.schemas, reading(chosen))
    return replace(loaded, diagnostics=outside_project(chosen, loaded.diagnostics))


# Said after the first problem of a command run outside any project: a new user's first run.
NO_PROJECT = "no project here (no pyproject.toml with [tool.mcp-contracts]): start one with `mcp-contracts init <name>`"


def outside(chosen: Settings) -> bool:
    """Whether the command runs outside any project: no pyproject.toml here or above has a
    `[tool.mcp-contracts]` section, and there is no sources folder."""
    return chosen.config is None and not chosen.schemas.exists()


def outside_project(chosen: Settings, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """`diagnostics`, the first saying how to start a project when the command runs outside any."""
    if not diagnostics or not outside(chosen):
        return diagnostics
    first = diagnostics[0]
    return [replace(first, message=f"{first.message}: {NO_PROJECT}"), *diagnostics[1:]]


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
    loaded = load(chosen)
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
    from .load.resource_prompt_files import RESOURCES_FILE

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


def policy(chosen: Settings, contracts: Sequence[Contract]) -> Policy:
    """The level of each rule per contract: the registry's, `[tool.mcp-contracts.rules]`, the
    contract's `rules:` (`extra_tools:` in contract.yaml is the level of `extra-tool`)."""
    from .findings.policy import Policy
    from .rules.conform import EXTRA_TOOL

    own = {}
    for contract in contracts:
        extra = {EXTRA_TOOL.id: "off" if contract.extra_tools == "ignore" else contract.extra_tools}
        own[contract.name] = {**(extra if contract.extra_tools != "error" else {}), **contract.rules}
    return Policy(project=dict(chosen.rules), contracts=own)
