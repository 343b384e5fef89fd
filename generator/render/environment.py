"""The Jinja environment: strict, whitespace-predictable, with the escaping filters."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..resources import TEMPLATES_DIR
from .escape import md, prose, py, toml, ts, tsdoc, yaml


def template_environment(overrides: Path | None = None) -> Environment:
    """Built-in templates, each replaceable by a file at the same relative path in `overrides`.

    The built-ins alone are one environment for the process, which keeps each template compiled
    (a render compiles about a dozen); a folder of overrides,
    whose files may come and go between renders, gets an environment of its own each time."""
    return _environment(str(overrides)) if overrides is not None else _built_in()


@cache
def _built_in() -> Environment:
    return _environment()


def _environment(*first: str) -> Environment:
    env = Environment(
        loader=FileSystemLoader([*first, str(TEMPLATES_DIR)]),
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
