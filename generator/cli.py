"""The `mcp-contracts` command: parse flags, call `generator.api`, map results to exit codes.

Exit codes: 0 success, 1 drift (check), 2 invalid sources or usage.
"""

from __future__ import annotations

import json
import subprocess
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from generator import api
from generator.diagnostics import Diagnostic
from generator.scaffold import scaffold_contract
from generator.validate import UnknownContract, UnknownDefinition, Verdict, load_judge, read_document
from generator.write import Drift

app = typer.Typer(
    name="mcp-contracts",
    help="Schema-first code generator for the response contracts of MCP tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_DRIFT = 1
EXIT_INVALID = 2

SchemasOption = Annotated[Path, typer.Option("--schemas", help="Folder of canonical sources.")]
OutOption = Annotated[Path, typer.Option("--out", help="Folder of generated outputs.")]
TemplatesOption = Annotated[
    Path | None, typer.Option("--templates", help="Folder of templates that override built-in ones by path.")
]


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def _report_invalid(diagnostics: list[Diagnostic], output: OutputFormat) -> None:
    if output is OutputFormat.json:
        payload = {"valid": False, "errors": [_diagnostic_json(d) for d in diagnostics]}
        typer.echo(json.dumps(payload, indent=2))
    for diagnostic in diagnostics:
        typer.echo(f"error: {diagnostic}", err=True)
    typer.echo(f"{len(diagnostics)} problem(s); nothing was written.", err=True)


def _diagnostic_json(diagnostic: Diagnostic) -> dict[str, object]:
    return {
        "file": diagnostic.file,
        "line": diagnostic.line,
        "pointer": diagnostic.pointer,
        "message": diagnostic.message,
    }


def _summary_lines(drift: Drift) -> list[str]:
    return (
        [f"changed  {p}" for p in drift.changed]
        + [f"missing  {p}" for p in drift.missing]
        + [f"extra    {p}" for p in drift.extra]
    )


@app.command()
def generate(
    schemas: SchemasOption = Path("schemas"),
    out: OutOption = Path("generated"),
    templates: TemplatesOption = None,
) -> None:
    """Render every output from the sources and write them atomically."""
    outcome = api.generate(schemas, out, templates)
    if outcome.drift is None:
        _report_invalid(outcome.diagnostics, OutputFormat.text)
        raise typer.Exit(EXIT_INVALID)
    drift = outcome.drift
    for path in drift.missing:
        typer.echo(f"created  {out.as_posix()}/{path}")
    for path in drift.changed:
        typer.echo(f"updated  {out.as_posix()}/{path}")
    for path in drift.extra:
        typer.echo(f"removed  {out.as_posix()}/{path}")
    count = len(drift.changed) + len(drift.missing) + len(drift.extra)
    typer.echo(f"{count} file(s) changed in {out.as_posix()}." if count else f"{out.as_posix()} is up to date.")


@app.command()
def check(
    schemas: SchemasOption = Path("schemas"),
    out: OutOption = Path("generated"),
    templates: TemplatesOption = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="Report as text or JSON.")
    ] = OutputFormat.text,
) -> None:
    """Fail when the output folder is not exactly what the sources produce."""
    outcome = api.check(schemas, out, templates)
    if outcome.drift is None:
        _report_invalid(outcome.diagnostics, output_format)
        raise typer.Exit(EXIT_INVALID)
    drift = outcome.drift
    if output_format is OutputFormat.json:
        payload = {
            "valid": True,
            "clean": drift.clean,
            "changed": list(drift.changed),
            "missing": list(drift.missing),
            "extra": list(drift.extra),
            "diffs": drift.diffs,
        }
        typer.echo(json.dumps(payload, indent=2))
    elif drift.clean:
        typer.echo(f"{out.as_posix()} is up to date.")
    else:
        for line in _summary_lines(drift):
            typer.echo(line)
        for diff in drift.diffs.values():
            sys.stdout.write(diff)
        typer.echo(f"{out.as_posix()} has drifted from the sources: run `mcp-contracts generate`.")
    if not drift.clean:
        raise typer.Exit(EXIT_DRIFT)


@app.command()
def init(
    name: Annotated[str, typer.Argument(help="The new contract's name, in kebab case.")],
    schemas: SchemasOption = Path("schemas"),
    templates: TemplatesOption = None,
) -> None:
    """Scaffold a new contract folder that `generate` accepts at once."""
    created = scaffold_contract(schemas, name, templates)
    if isinstance(created, Diagnostic):
        typer.echo(f"error: {created}", err=True)
        raise typer.Exit(EXIT_INVALID)
    for path in created:
        typer.echo(f"created  {path.as_posix()}")
    typer.echo("Edit them, then run `mcp-contracts generate`.")


@app.command()
def docs(
    out: OutOption = Path("generated"),
    site: Annotated[Path, typer.Option("--site", help="Folder the HTML site is written to.")] = Path("site"),
) -> None:
    """Build the generated Markdown into an HTML site with `mkdocs build --strict`."""
    config = out / "mkdocs.yml"
    if not config.is_file():
        typer.echo(f"error: {config.as_posix()} is missing: run `mcp-contracts generate` first", err=True)
        raise typer.Exit(EXIT_INVALID)
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir"]
    result = subprocess.run([*command, str(site.resolve())], check=False)
    if result.returncode != 0:
        typer.echo("error: mkdocs build --strict failed", err=True)
        raise typer.Exit(EXIT_INVALID)
    typer.echo(f"Site written to {site.as_posix()}/index.html")


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(help="JSON documents to judge; - reads standard input.")],
    contract: Annotated[str, typer.Option("--contract", help="The contract to judge against.")],
    definition: Annotated[
        str | None, typer.Option("--definition", help="Judge against this entry of the schema's $defs.")
    ] = None,
    out: OutOption = Path("generated"),
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="Report as text or JSON.")
    ] = OutputFormat.text,
) -> None:
    """Judge JSON documents with a contract's generated validators.

    Exit 0 when every document is valid, 1 when any is invalid, 2 for an unknown
    contract or a document that cannot be read or parsed.
    """
    try:
        judge = load_judge(contract, out, definition)
    except UnknownContract:
        typer.echo(f"error: unknown contract {contract!r} (is it generated under {out.as_posix()}?)", err=True)
        raise typer.Exit(EXIT_INVALID) from None
    except UnknownDefinition as problem:
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(EXIT_INVALID) from None
    verdicts = []
    for name in files:
        document = read_document(name)
        label = "<stdin>" if name == "-" else name
        verdicts.append(
            Verdict(label, False, problem=document) if isinstance(document, str) else judge.judge_bytes(label, document)
        )
    if output_format is OutputFormat.json:
        typer.echo(json.dumps([v.as_json() for v in verdicts], indent=2))
    else:
        for verdict in verdicts:
            _print_verdict(verdict)
    if any(v.problem is not None for v in verdicts):
        raise typer.Exit(EXIT_INVALID)
    if not all(v.valid for v in verdicts):
        raise typer.Exit(EXIT_DRIFT)


def _print_verdict(verdict: Verdict) -> None:
    if verdict.problem is not None:
        typer.echo(f"{verdict.path}: error: {verdict.problem}")
        return
    typer.echo(f"{verdict.path}: {'valid' if verdict.valid else 'invalid'}")
    for violation in verdict.errors:
        typer.echo(f"  {violation.pointer or '(root)'}: {violation.message}")


def main() -> None:
    app()
