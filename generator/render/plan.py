"""Render stage: the intermediate model becomes one plan of relative path -> bytes.

`generate` writes the plan and `check` compares it with the disk, so the two can
never disagree about what the sources produce.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment

from generator.model import Contract, Project
from generator.render.docs import doc_sections, example_blocks, index_entries
from generator.render.environment import template_environment
from generator.render.models_code import models_code
from generator.render.rules import rule_bases
from generator.render.tables import enum_tables

Plan = dict[str, bytes]
PACKAGE = "mcp_contracts"


def build_plan(project: Project, templates: Path | None = None) -> Plan:
    """Every output file of the project, keyed by its path under the output folder."""
    env = template_environment(templates)
    entries = index_entries(project)
    files: dict[str, str] = {
        f"python/{PACKAGE}/__init__.py": env.get_template("python/package/__init__.py.jinja").render(
            contracts=project.contracts
        ),
        "docs/index.md": _markdown(env.get_template("docs/index.md.jinja").render(entries=entries)),
        "mkdocs.yml": env.get_template("docs/mkdocs.yml.jinja").render(entries=entries),
    }
    for contract in project.contracts:
        files.update(_contract_files(env, contract))
    return {path: files[path].encode("utf-8") for path in sorted(files)}


def _contract_files(env: Environment, contract: Contract) -> dict[str, str]:
    package = f"python/{PACKAGE}/{contract.module}"
    tables = enum_tables(contract.catalogue)
    error_exports = ("ERRORS", "ErrorCode", "error_info")
    files = {
        f"{package}/__init__.py": env.get_template("python/contract/__init__.py.jinja").render(
            contract=contract,
            error_exports=error_exports,
            all_exports=sorted((*error_exports, contract.root_model, "Envelope")),
        ),
        f"{package}/errors.py": env.get_template("python/contract/errors.py.jinja").render(
            contract=contract, tables=tables
        ),
        f"{package}/models.py": models_code(contract),
        f"manifests/{contract.name}.json": env.get_template("manifests/manifest.json.jinja").render(
            manifest_json=contract.manifest.as_json()
        ),
        f"docs/{contract.name}.md": _markdown(
            env.get_template("docs/contract.md.jinja").render(
                contract=contract,
                python_module=f"{PACKAGE}.{contract.module}",
                sections=doc_sections(contract),
                examples=example_blocks(contract),
            )
        ),
    }
    builders = f"python/contracts/{contract.name}/builders.py.jinja"
    if builders in env.list_templates():
        files[f"{package}/builders.py"] = env.get_template(builders).render(contract=contract)
    if contract.field_rules:
        files[f"{package}/rules.py"] = env.get_template("python/contract/rules.py.jinja").render(
            bases=rule_bases(contract)
        )
    return files


def _markdown(text: str) -> str:
    """A page ends with exactly one newline, whatever the template's last block left."""
    return text.rstrip("\n") + "\n"
