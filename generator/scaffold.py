"""`mcp-contracts init`: a new contract folder that `generate` accepts at once.

A project without a `[tool.mcp-contracts]` section gets one, in the pyproject.toml of
its root (made when there is none), so that every later command finds the same folders.
"""

from __future__ import annotations

import json
import keyword
import os
import re
from pathlib import Path

from .config import PYPROJECT, Settings, section_text
from .diagnostics import Diagnostic, display_path
from .render.environment import template_environment
from .write import replace_tree

NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
# template -> file, relative to the new contract folder
FILES = {
    "init/contract.yaml.jinja": "contract.yaml",
    "init/envelope.schema.json.jinja": "envelope.schema.json",
    "init/errors.yaml.jinja": "errors.yaml",
    "init/tools.yaml.jinja": "tools.yaml",
    "init/success.json.jinja": "examples/success.json",
}


def scaffold_contract(settings: Settings, name: str) -> list[Path] | Diagnostic:
    """Write `<schemas>/contracts/NAME/` (and the settings section when the project has none);
    nothing is written when it cannot be."""
    folder = settings.schemas / "contracts" / name
    problem = name_problem(settings, name)
    if problem is not None:
        return problem
    if folder.exists():
        return Diagnostic(display_path(folder), None, None, "already exists")
    env = template_environment(settings.templates)
    context = {
        "name": name,
        "module": name.replace("-", "_"),
        "title": f"{name} envelope",
        "root_model": "".join(part.capitalize() for part in name.split("-")) + "Envelope",
    }
    files = {relative: env.get_template(template).render(**context).encode() for template, relative in FILES.items()}
    replace_tree(files, folder)
    created = [folder / relative for relative in FILES.values()]
    if settings.config is None:
        created.append(add_section(settings))
    return created


def name_problem(settings: Settings, name: str) -> Diagnostic | None:
    """Why `name` cannot name a contract (its folder, its module), or None."""
    folder = settings.schemas / "contracts" / name
    if not NAME.match(name):
        return Diagnostic(
            display_path(folder), None, None, "a contract name is kebab case: lower-case letters, digits, hyphens"
        )
    if keyword.iskeyword(name.replace("-", "_")):
        return Diagnostic(display_path(folder), None, None, "a Python keyword cannot name the contract's module")
    return None


def add_section(settings: Settings) -> Path:
    """Append `[tool.mcp-contracts]`, with the folders these settings use, to the root's pyproject."""
    pyproject = settings.root / PYPROJECT
    before = pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""
    section = section_text(settings.package)
    schemas = Path(os.path.relpath(settings.schemas.resolve(), settings.root.resolve())).as_posix()
    section = section.replace('schemas = "schemas"', f"schemas = {json.dumps(schemas)}")
    text = before.rstrip("\n") + "\n" + section if before.strip() else section.lstrip("\n")
    pyproject.write_text(text, encoding="utf-8")
    return pyproject
