"""The library API behind the CLI: load, render, then write or compare."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.diagnostics import Diagnostic
from generator.load import load_project
from generator.render.models_code import ModelGenerationError
from generator.render.plan import Plan, build_plan
from generator.write import Drift, compare, write_plan


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
    loaded = load_project(schemas_dir)
    if loaded.project is None:
        return RenderResult(None, loaded.diagnostics)
    try:
        return RenderResult(build_plan(loaded.project, templates))
    except ModelGenerationError as exc:
        return RenderResult(None, [exc.diagnostic])


def generate(schemas_dir: Path, out_dir: Path, templates: Path | None = None) -> Outcome:
    """Write every output atomically; on invalid sources write nothing."""
    rendered = render(schemas_dir, templates)
    if rendered.plan is None:
        return Outcome(None, rendered.diagnostics)
    return Outcome(write_plan(rendered.plan, out_dir))


def check(schemas_dir: Path, out_dir: Path, templates: Path | None = None) -> Outcome:
    """Compare the output folder with what the sources produce."""
    rendered = render(schemas_dir, templates)
    if rendered.plan is None:
        return Outcome(None, rendered.diagnostics)
    return Outcome(compare(rendered.plan, out_dir))
