"""The library API behind the CLI: load, render, then write or compare."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import TemplateError, TemplateSyntaxError

from generator.diagnostics import Diagnostic, display_path
from generator.load import load_project
from generator.render.models_code import ModelGenerationError
from generator.render.plan import Plan, build_plan
from generator.write import Drift, UnsafeOutput, compare, write_plan


@dataclass(frozen=True)
class RenderResult:
    """The plan when the sources are valid; otherwise every diagnostic."""

    plan: Plan | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """What `generate` changed or `check` found; `drift` is None when the sources are invalid."""

    drift: Drift | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def render(schemas_dir: Path, templates: Path | None = None) -> RenderResult:
    """Load and render in memory; nothing touches the disk."""
    if templates is not None and not templates.is_dir():
        return RenderResult(None, [Diagnostic(display_path(templates), None, None, "no such templates folder")])
    loaded = load_project(schemas_dir)
    if loaded.project is None:
        return RenderResult(None, loaded.diagnostics)
    try:
        return RenderResult(build_plan(loaded.project, templates))
    except ModelGenerationError as exc:
        where = display_path(schemas_dir / "contracts" / exc.contract / "envelope.schema.json")
        return RenderResult(None, [Diagnostic(where, None, None, exc.message)])
    except TemplateSyntaxError as exc:
        return RenderResult(
            None, [Diagnostic(exc.filename or str(exc.name), exc.lineno, None, f"template: {exc.message}")]
        )
    except TemplateError as exc:
        return RenderResult(None, [Diagnostic(str(templates or "templates"), None, None, f"template: {exc}")])


def generate(schemas_dir: Path, out_dir: Path, templates: Path | None = None) -> Outcome:
    """Write every output atomically; on invalid sources write nothing."""
    overlap = _overlap(schemas_dir, out_dir)
    if overlap is not None:
        return Outcome(None, [overlap])
    rendered = render(schemas_dir, templates)
    if rendered.plan is None:
        return Outcome(None, rendered.diagnostics)
    try:
        return Outcome(write_plan(rendered.plan, out_dir))
    except UnsafeOutput as exc:
        return Outcome(None, [Diagnostic(display_path(out_dir), None, None, str(exc))])


def _overlap(schemas_dir: Path, out_dir: Path) -> Diagnostic | None:
    """The output replaces its folder whole: it must neither hold nor sit inside the sources."""
    schemas, out = schemas_dir.resolve(), out_dir.resolve()
    if schemas == out or out in schemas.parents or schemas in out.parents:
        return Diagnostic(display_path(out_dir), None, None, "the output folder overlaps the sources folder")
    return None


def check(schemas_dir: Path, out_dir: Path, templates: Path | None = None) -> Outcome:
    """Compare the output folder with what the sources produce."""
    rendered = render(schemas_dir, templates)
    if rendered.plan is None:
        return Outcome(None, rendered.diagnostics)
    return Outcome(compare(rendered.plan, out_dir))
