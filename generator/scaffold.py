"""`mcp-contracts init`: a new contract folder that `generate` accepts at once."""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from generator.diagnostics import Diagnostic, display_path
from generator.render.environment import template_environment
from generator.write import replace_tree

NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
# template -> file, relative to the new contract folder
FILES = {
    "init/contract.yaml.jinja": "contract.yaml",
    "init/envelope.schema.json.jinja": "envelope.schema.json",
    "init/errors.yaml.jinja": "errors.yaml",
    "init/tools.yaml.jinja": "tools.yaml",
    "init/success.json.jinja": "examples/success.json",
}


def scaffold_contract(schemas_dir: Path, name: str, templates: Path | None = None) -> list[Path] | Diagnostic:
    """Write `schemas_dir/contracts/NAME/`; nothing is written when it cannot be."""
    folder = schemas_dir / "contracts" / name
    if not NAME.match(name):
        return Diagnostic(
            display_path(folder), None, None, "a contract name is kebab case: lower-case letters, digits, hyphens"
        )
    if keyword.iskeyword(name.replace("-", "_")):
        return Diagnostic(display_path(folder), None, None, "a Python keyword cannot name the contract's module")
    if folder.exists():
        return Diagnostic(display_path(folder), None, None, "already exists")
    env = template_environment(templates)
    context = {
        "name": name,
        "module": name.replace("-", "_"),
        "title": f"{name} envelope",
        "root_model": "".join(part.capitalize() for part in name.split("-")) + "Envelope",
    }
    files = {relative: env.get_template(template).render(**context).encode() for template, relative in FILES.items()}
    replace_tree(files, folder)
    return [folder / relative for relative in FILES.values()]
