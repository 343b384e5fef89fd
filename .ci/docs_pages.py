"""The generated pages of the docs site: the CLI reference and the rules page.

`python .ci/docs_pages.py` writes them under docs/reference/; `--check` writes nothing and
exits 1, with a diff, when a page is not what the commands and the rule registry say now
(tests/test_docs_site.py and `.ci/run` run it). The CLI reference is read from the command
tree typer builds (each command's help, usage and every option's help record, as `--help`
gets them), never copied by hand; the rules page is the one `generate` renders for a
project's docs, from the same registry. Every string of a help text goes through the
generated docs' Markdown filter for descriptions (`render.escape.prose`): its code spans
(`generate`) show as code, as in a contract's description, and nothing else in it can break a
table or become HTML (`md`, which escapes a backtick too, showed the backticks as text).
"""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path
from typing import Any

import typer
from mcp_contracts_generator.cli import app
from mcp_contracts_generator.render.environment import template_environment
from mcp_contracts_generator.render.escape import prose
from mcp_contracts_generator.render.plan import rule_sections
from mcp_contracts_generator.rules import LEVELS, RULES, SETTINGS
from mcp_contracts_generator.rules.common import FIXED
from mcp_contracts_generator.rules.lint import LINT_RULES, LOADING_TOO

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"
META = ROOT / "schemas" / "meta"
UPDATE = "python .ci/docs_pages.py"
PROGRAM = "mcp-contracts"


def _paragraphs(text: str) -> list[str]:
    """A help text's paragraphs, each one line of escaped Markdown."""
    return [prose(part) for part in text.split("\n\n") if part.strip()]


def _options(command: Any, context: Any) -> list[str]:
    """A table of `command`'s arguments and options, as its `--help` lists them."""
    rows = ["| Option | What it does |", "| --- | --- |"]
    for param in command.get_params(context):
        record = param.get_help_record(context)
        if record is not None:  # None: a hidden parameter
            names, help_text = record
            rows.append(f"| `{names}` | {prose(help_text)} |")
    return rows


def _command(name: str, command: Any, parent: Any) -> list[str]:
    """The section of one command: its usage, its help and its options."""
    context = command.context_class(command, info_name=name, parent=parent)
    usage = " ".join([PROGRAM, name, *command.collect_usage_pieces(context)])
    return [f"## {name}", "", f"`{usage}`", "", *_joined(_paragraphs(command.help or "")), *_options(command, context)]


def _joined(paragraphs: list[str]) -> list[str]:
    return [line for paragraph in paragraphs for line in (paragraph, "")]


def cli_page() -> str:
    """The CLI reference: every command of `mcp-contracts`, from the command tree."""
    root = typer.main.get_command(app)
    context = root.context_class(root, info_name=PROGRAM)
    names = root.list_commands(context)
    lines = [
        "# CLI reference",
        "",
        f"Generated from the commands themselves by `{UPDATE}`: what `{PROGRAM} COMMAND --help`",
        "says, word for word. [Commands](../commands.md) tells what each one does at length.",
        "",
        f"`{' '.join([PROGRAM, *root.collect_usage_pieces(context)])}`",
        "",
        *_joined(_paragraphs(root.help or "")),
        *_options(root, context),
        "",
        "| Command | What it does |",
        "| --- | --- |",
        *(f"| [{name}](#{name}) | {prose(root.commands[name].get_short_help_str(limit=200))} |" for name in names),
    ]
    for name in names:
        lines += ["", *_command(name, root.commands[name], context)]
    return "\n".join(lines) + "\n"


def rules_page() -> str:
    """The rules page of generated docs, rendered from the rule registry as `generate` renders it."""
    page = template_environment().get_template("docs/rules.md.jinja").render(sections=rule_sections())
    return page.rstrip("\n") + "\n"


def meta_schemas() -> dict[Path, str]:
    """The meta-schemas with their enums of rule IDs and levels as the registry has them (only
    those enums are written: schemas/meta/ stays the source, readable as it is)."""
    settable = [r.id for r in RULES if r.id not in FIXED]
    in_lint = [r.id for r in LINT_RULES if r.id not in LOADING_TOO]  # `lint.rules`, the old table
    enums: dict[str, dict[tuple[str, ...], list[str]]] = {
        "contract": {
            ("properties", "rules", "propertyNames"): settable,
            ("properties", "rules", "additionalProperties"): list(SETTINGS),
            ("properties", "lint", "properties", "rules", "propertyNames"): in_lint,
            ("properties", "lint", "properties", "rules", "additionalProperties"): list(SETTINGS),
        },
        "findings-report": {("$defs", "finding", "properties", "level"): list(LEVELS)},
    }
    written = {}
    for name, places in enums.items():
        path = META / f"{name}.schema.json"
        if not path.is_file():  # a copy of the script alone (its own test) has no schemas
            continue
        schema = json.loads(path.read_text(encoding="utf-8"))
        for keys, values in places.items():
            node = schema
            for key in keys:
                node = node[key]
            node["enum"] = values
        written[path] = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    return written


def pages() -> dict[Path, str]:
    return {REFERENCE / "cli.md": cli_page(), REFERENCE / "rules.md": rules_page(), **meta_schemas()}


def main(argv: list[str]) -> int:
    stale = []
    for path, text in pages().items():
        old = path.read_text(encoding="utf-8") if path.is_file() else ""
        if old == text:
            continue
        if "--check" in argv:
            where = path.relative_to(ROOT).as_posix()
            stale.append("".join(difflib.unified_diff(old.splitlines(True), text.splitlines(True), where, where)))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT).as_posix()}")
    if stale:
        print(
            f"The generated docs pages are stale: run `{UPDATE}` and commit docs/reference/ and schemas/meta/.",
            file=sys.stderr,
        )
        print("".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
