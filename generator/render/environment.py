"""The Jinja environment: strict, whitespace-predictable, with the escaping filters."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..resources import TEMPLATES_DIR
from .escape import md, prose, py, toml, ts, tsdoc, yaml


def template_environment(overrides: Path | None = None) -> Environment:
    """Built-in templates, each replaceable by a file at the same relative path in `overrides`."""
    search = [str(overrides), str(TEMPLATES_DIR)] if overrides is not None else [str(TEMPLATES_DIR)]
    env = Environment(
        loader=FileSystemLoader(search),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["py"] = py
    env.filters["md"] = md
    env.filters["prose"] = prose
    env.filters["yaml"] = yaml
    env.filters["toml"] = toml
    env.filters["ts"] = ts
    env.filters["tsdoc"] = tsdoc
    return env
