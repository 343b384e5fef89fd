"""The `mcp-contracts` command: parse flags, call `generator.api`, map results to exit codes.

Exit codes: 0 success, 1 drift (check), findings (lint, breaking, conform) or invalid
documents (validate), 2 invalid sources or usage, or a server that cannot be reached.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from . import __version__, cli_params
from .protocol import VERSIONS

# Only typer and what parsing needs are imported here: each command imports what it uses
# when it runs, so `--version`, `--help` and `check` answered from the cache import no
# loader, renderer, pydantic, jinja2 or black (tests/test_startup.py), and the MCP SDK
# (0.6 s) only `mock` and `conform`.
if TYPE_CHECKING:
    from .config import Settings
    from .diagnostics import Diagnostic
    from .findings.finding import Outcome
    from .mcp.conform import Target
    from .mcp.served import ServedContract
    from .validate import Verdict
    from .write import Drift

cli_params.install()  # flag values converted without importing pydantic, as typer converts them
app = typer.Typer(
    name="mcp-contracts",
    help="Schema-first code generator for the response contracts of MCP tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_DRIFT = 1
EXIT_INVALID = 2

# The server `conform` and `import` talk to: a command after `--`, or a URL with its headers.
CommandArgument = Annotated[
    list[str] | None, typer.Argument(help="After --: the command that starts the server over stdio.")
]
UrlOption = Annotated[str | None, typer.Option("--url", help="The server's streamable HTTP URL.")]
HeaderOption = Annotated[
    list[str] | None, typer.Option("--header", help="'Name: value' sent with every HTTP request; repeatable.")
]
SchemasOption = Annotated[
    Path | None, typer.Option("--schemas", help="Folder of canonical sources. [config: schemas; default: schemas]")
]
OutOption = Annotated[
    Path | None, typer.Option("--out", help="Folder of generated outputs. [config: output; default: generated]")
]
TemplatesOption = Annotated[
    Path | None,
    typer.Option("--templates", help="Folder of templates that override built-in ones by path. [config: templates]"),
]
PackageOption = Annotated[
    str | None,
    typer.Option("--package", help="Import package of the generated Python. [config: package; default: contracts]"),
]
# The version of the JSON that `check --format json` and `validate --format json` print.
JSON_FORMAT_VERSION = 1


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mcp-contracts {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Schema-first code generator for the response contracts of MCP tools."""


def _settings(
    schemas: Path | None = None, out: Path | None = None, templates: Path | None = None, package: str | None = None
) -> Settings:
    """The project's settings with the flags in their place; exit 2 when they are invalid."""
    from . import api

    chosen = api.settings(schemas, out, templates, package=package)
    if isinstance(chosen, list):
        _report_invalid(chosen, OutputFormat.text)
        raise typer.Exit(EXIT_INVALID)
    return chosen


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


class ReportFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"


def _report_invalid(diagnostics: list[Diagnostic], output: OutputFormat) -> None:
    if output is OutputFormat.json:
        import json

        payload = {"version": JSON_FORMAT_VERSION, "valid": False, "errors": [_diagnostic_json(d) for d in diagnostics]}
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
    from .diagnostics import printable

    return (
        [f"changed  {printable(p)}" for p in drift.changed]
        + [f"missing  {printable(p)}" for p in drift.missing]
        + [f"extra    {printable(p)}" for p in drift.extra]
    )


@app.command()
def generate(
    schemas: SchemasOption = None,
    out: OutOption = None,
    templates: TemplatesOption = None,
    package: PackageOption = None,
) -> None:
    """Render every output from the sources and write them atomically."""
    from . import api
    from .diagnostics import display_path, printable, working_folder

    chosen = _settings(schemas, out, templates, package)
    shown = display_path(chosen.output)  # before the swap, which may replace the working folder
    outcome = api.generate_with(chosen)
    if outcome.drift is None:
        _report_invalid(outcome.diagnostics, OutputFormat.text)
        raise typer.Exit(EXIT_INVALID)
    drift = outcome.drift
    for path in drift.missing:
        typer.echo(f"created  {shown}/{path}")
    for path in drift.changed:
        typer.echo(f"updated  {shown}/{path}")
    for path in drift.extra:
        typer.echo(f"removed  {shown}/{printable(path)}")
    count = len(drift.changed) + len(drift.missing) + len(drift.extra)
    typer.echo(f"{count} file(s) changed in {shown}." if count else f"{shown} is up to date.")
    if drift.left_behind is not None:  # the new tree is in; the old one could not go
        problem = drift.left_behind
        where = display_path(Path(problem.filename)) if problem.filename else shown
        typer.echo(
            f"warning: {where}: the old tree could not be removed ({problem.strerror or problem}):"
            " the next `mcp-contracts generate` removes it",
            err=True,
        )
    if working_folder() is None:
        typer.echo(f"note: {shown} held the working folder and was replaced: `cd .` to see the new files", err=True)


@app.command()
def check(
    schemas: SchemasOption = None,
    out: OutOption = None,
    templates: TemplatesOption = None,
    package: PackageOption = None,
    output_format: Annotated[
        ReportFormat,
        typer.Option("--format", help="text, JSON (schemas/meta/check-report.schema.json), or github annotations."),
    ] = ReportFormat.text,
    full: Annotated[
        bool,
        typer.Option(
            "--full", help="Render and compare every file even when this machine's cache says nothing changed."
        ),
    ] = False,
) -> None:
    """Fail when the output folder is not exactly what the sources produce.

    A cache of this machine (outside the repository: the user cache folder) answers without
    rendering when the sources, settings, tool and every output file are what a full
    comparison or `generate` here last verified; anything else, a fresh clone included, is
    rendered and compared in full.
    """
    from . import api
    from .diagnostics import display_path, printable

    chosen = _settings(schemas, out, templates, package)
    outcome = api.check_with(chosen, full=full)
    shown = display_path(chosen.output)
    if outcome.drift is None:
        if output_format is ReportFormat.github:
            from .findings.formats.github import message_value

            for problem in outcome.diagnostics:
                where = f"file={problem.file},line={problem.line or 1}"
                typer.echo(f"::error {where},title=invalid source::{message_value(problem.message)}")
        _report_invalid(
            outcome.diagnostics, OutputFormat.json if output_format is ReportFormat.json else OutputFormat.text
        )
        raise typer.Exit(EXIT_INVALID)
    drift = outcome.drift
    if output_format is ReportFormat.github:
        for kind, paths in (("changed", drift.changed), ("missing", drift.missing), ("extra", drift.extra)):
            for path in paths:
                where = f"{shown}/{printable(path)}"
                typer.echo(f"::error file={where},title=drift::{kind}: run `mcp-contracts generate` and commit")
    if output_format is ReportFormat.json:
        import json

        payload = {
            "version": JSON_FORMAT_VERSION,
            "valid": True,
            "clean": drift.clean,
            "changed": list(drift.changed),
            "missing": list(drift.missing),
            "extra": list(drift.extra),
            "diffs": drift.diffs,
            "answered": outcome.answered,
        }
        typer.echo(json.dumps(payload, indent=2))
    elif output_format is ReportFormat.github:
        pass  # the annotations above say it all
    elif drift.clean:
        typer.echo(f"{shown} is up to date.")
    else:
        for line in _summary_lines(drift):
            typer.echo(line)
        for diff in drift.diffs.values():
            sys.stdout.write(diff)
        typer.echo(f"{shown} has drifted from the sources: run `mcp-contracts generate`.")
    if not drift.clean:
        raise typer.Exit(EXIT_DRIFT)


class FindingsFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"
    junit = "junit"
    markdown = "markdown"


FormatOption = Annotated[
    FindingsFormat,
    typer.Option(
        "--format",
        help="text (file:line:col: RULE [level] message), json (schemas/meta/findings-report.schema.json),"
        " github annotations, sarif (2.1.0, for code scanning), junit (XML), or markdown (a step summary).",
    ),
]
ReportOption = Annotated[
    list[str] | None,
    typer.Option(
        "--report",
        metavar="FORMAT:PATH",
        help=f"Also write the report in FORMAT ({', '.join(FindingsFormat)}) to PATH; repeatable.",
    ),
]


def _reports(given: list[str] | None) -> list[tuple[str, Path]]:
    """`--report FORMAT:PATH` values, checked before anything runs; exit 2 for a bad one."""
    from .findings.formats import FORMATS

    reports = []
    for value in given or ():
        name, colon, path = value.partition(":")
        if not colon or name not in FORMATS or not path:
            typer.echo(
                f"error: --report {value!r} is not FORMAT:PATH with FORMAT one of {', '.join(FORMATS)}", err=True
            )
            raise typer.Exit(EXIT_INVALID)
        reports.append((name, Path(path)))
    return reports


def _print_outcome(outcome: Outcome, output_format: FindingsFormat, reports: list[tuple[str, Path]]) -> None:
    """Print `outcome` in its format, write each `--report`, and exit with the outcome's code
    (2 too when a report cannot be written)."""
    from .diagnostics import printable
    from .findings.formats import printed
    from .findings.formats.text import streams
    from .findings.report_file import write_report

    if output_format is FindingsFormat.text:
        out, err = streams(outcome)  # the problems of sources that do not load are errors
        sys.stdout.write(out)
        sys.stderr.write(err)
    else:
        sys.stdout.write(printed(output_format.value, outcome))
    sys.stdout.flush()
    if outcome.problem is not None:  # the server could not be judged at all (conform)
        typer.echo(f"error: {outcome.problem}", err=True)
    code = outcome.exit_code
    for name, path in reports:
        problem = write_report(path, printed(name, outcome))
        if problem is not None:
            typer.echo(f"error: {printable(str(path))}: cannot write the {name} report: {problem}", err=True)
            code = EXIT_INVALID
    if code:
        raise typer.Exit(code)


@app.command()
def lint(
    schemas: SchemasOption = None,
    output_format: FormatOption = FindingsFormat.text,
    report: ReportOption = None,
) -> None:
    """Judge the conventions of every contract: exit 1 on an error, 2 when sources do not load, else 0."""
    from . import api

    reports = _reports(report)
    _print_outcome(api.lint(schemas), output_format, reports)  # settings that do not load: in every format


@app.command()
def breaking(
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            help="A git revision, a folder of other sources, merge-base or last-tag"
            " (default: [tool.mcp-contracts.breaking] against, merge-base).",
        ),
    ] = None,
    schemas: SchemasOption = None,
    output_format: FormatOption = FindingsFormat.text,
    report: ReportOption = None,
) -> None:
    """What the sources break for clients since REF: exit 1 when anything breaks or a version is too low."""
    from . import api

    reports = _reports(report)
    _print_outcome(api.breaking(against, schemas), output_format, reports)


@app.command()
def init(
    name: Annotated[str, typer.Argument(help="The new contract's name, in kebab case.")],
    schemas: SchemasOption = None,
    templates: TemplatesOption = None,
) -> None:
    """Scaffold a new contract folder that `generate` accepts at once.

    A project without a `[tool.mcp-contracts]` section gets one in its pyproject.toml.
    """
    from . import api
    from .diagnostics import Diagnostic, display_path

    chosen = _settings(schemas, None, templates)
    created = api.init_with(chosen, name)
    if isinstance(created, Diagnostic):
        typer.echo(f"error: {created}", err=True)
        raise typer.Exit(EXIT_INVALID)
    for path in created:
        typer.echo(f"created  {display_path(path)}")
    typer.echo("Edit them, then run `mcp-contracts generate`.")


@app.command()
def docs(
    out: OutOption = None,
    site: Annotated[
        Path | None, typer.Option("--site", help="Folder the HTML site is written to. [default: site]")
    ] = None,
) -> None:
    """Build the generated Markdown into an HTML site with `mkdocs build --strict`."""
    from . import api
    from .diagnostics import display_path

    built = api.docs_with(_settings(None, out), site)
    if built.problem is not None:
        typer.echo(built.output, err=True, nl=False)
        typer.echo(f"error: {built.problem}", err=True)
        raise typer.Exit(EXIT_INVALID)
    typer.echo(f"Site written to {display_path(built.site)}/index.html")


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(help="JSON documents to judge; - reads standard input.")],
    contract: Annotated[str, typer.Option("--contract", help="The contract to judge against.")],
    definition: Annotated[
        str | None, typer.Option("--definition", help="Judge against this entry of the schema's $defs.")
    ] = None,
    schemas: SchemasOption = None,
    output_format: Annotated[
        OutputFormat,
        typer.Option("--format", help="Report as text or JSON (see schemas/meta/validate-report.schema.json)."),
    ] = OutputFormat.text,
    out: Annotated[Path | None, typer.Option("--out", hidden=True)] = None,
    package: Annotated[str | None, typer.Option("--package", hidden=True)] = None,
) -> None:
    """Judge JSON documents with the contract's schema, as the sources say it now.

    The judge is the one `mock` and `conform` use (and `generate` bundles), so a stale
    output folder changes nothing. Exit 0 when every document is valid, 1 when any is
    invalid, 2 for sources that do not load, an unknown contract or definition, or a
    document that cannot be read or parsed.
    """
    from . import api

    if out is not None or package is not None:  # the options of the generated-package judge it once used
        flag = "--out" if out is not None else "--package"
        typer.echo(f"error: validate judges with the sources, not the output: drop {flag} (--schemas DIR)", err=True)
        raise typer.Exit(EXIT_INVALID)
    chosen = _settings(schemas)
    result = api.validate_with(chosen, contract, files, definition)
    if result.problem is not None:
        for line in map(str, result.diagnostics) if result.diagnostics else [result.problem]:
            typer.echo(f"error: {line}", err=True)
        raise typer.Exit(EXIT_INVALID)
    verdicts = result.verdicts
    if output_format is OutputFormat.json:
        import json

        payload = {"version": JSON_FORMAT_VERSION, "documents": [v.as_json() for v in verdicts]}
        typer.echo(json.dumps(payload, indent=2))
    else:
        for verdict in verdicts:
            _print_verdict(verdict)
    if any(v.problem is not None for v in verdicts):
        raise typer.Exit(EXIT_INVALID)
    if not all(v.valid for v in verdicts):
        raise typer.Exit(EXIT_DRIFT)


class Handshake(StrEnum):
    auto = "auto"
    legacy = "legacy"


class Transport(StrEnum):
    stdio = "stdio"
    http = "http"


# The MCP SDK releases `mock` and `conform` run on (the `mcp` extra).
SDK_RELEASES = ((2, 3), (3, 0))


def _require_sdk(command: str) -> None:
    """`mock` and `conform` run on the official MCP SDK 2.x: when this environment lacks it,
    or holds the 1.x line a server of its own depends on, say how to run them, exit 2."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found: str | None = version("mcp")
    except PackageNotFoundError:
        found = None
    release = tuple(int(part) for part in (found or "").split(".")[:2] if part.isdigit())
    if found is not None and SDK_RELEASES[0] <= release < SDK_RELEASES[1]:
        return
    has = f"this environment has mcp {found}" if found else "this environment has no mcp"
    typer.echo(
        f"error: `{command}` needs the MCP SDK, mcp>=2.3,<3 ({has}): install 'mcp-contracts[mcp]', or run"
        " the tool in an environment of its own: pipx install 'mcp-contracts[mcp]' (or uv tool install)",
        err=True,
    )
    raise typer.Exit(EXIT_INVALID)


def _require_fuzzing() -> None:
    """`conform --fuzz` draws arguments with hypothesis-jsonschema (the `mcp` extra): when this
    environment lacks it, say how to get it, exit 2."""
    missing = []
    for name in ("hypothesis", "hypothesis_jsonschema"):
        try:
            __import__(name)  # `--fuzz` imports them anyway
        except ImportError:
            missing.append(name)
    if missing:
        typer.echo(
            f"error: `conform --fuzz` needs hypothesis and hypothesis-jsonschema (this environment lacks"
            f" {', '.join(missing)}): install 'mcp-contracts[mcp]'",
            err=True,
        )
        raise typer.Exit(EXIT_INVALID)


def _served(schemas: Path | None, contract: str) -> ServedContract:
    from . import api

    loaded = api.served_contract(_settings(schemas), contract)
    if isinstance(loaded, list):
        for diagnostic in loaded:
            typer.echo(f"error: {diagnostic}", err=True)
        raise typer.Exit(EXIT_INVALID)
    return loaded


@app.command()
def mock(
    contract: Annotated[str, typer.Option("--contract", help="The contract to serve.")],
    transport: Annotated[Transport, typer.Option("--transport", help="stdio, or streamable HTTP.")] = Transport.stdio,
    host: Annotated[str, typer.Option("--host", help="The address HTTP listens on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port HTTP listens on; 0 picks a free one.")] = 8000,
    schemas: SchemasOption = None,
) -> None:
    """Serve a contract's tools as an MCP server that answers as the contract says.

    Each call is answered with its example's result, else a success the contract accepts; a
    call whose `_meta` holds `"mcp-contracts/error": CODE` gets that code's error envelope.
    Over HTTP the URL is printed on standard error once the server accepts connections.
    """
    _require_sdk("mock")
    from .interrupt import run
    from .mcp.mock import Mock, announce_to_stderr, bind, build_server, serve_http, serve_stdio

    served_contract = _served(schemas, contract)
    server = build_server(Mock(served_contract))
    if transport is Transport.stdio:
        run(serve_stdio, server)
        return
    sock = bind(host, port)
    if isinstance(sock, str):
        typer.echo(f"error: {sock}", err=True)
        raise typer.Exit(EXIT_INVALID)
    run(serve_http, server, sock, announce_to_stderr)


@app.command()
def conform(
    contract: Annotated[str, typer.Option("--contract", help="The contract the server must meet.")],
    command: CommandArgument = None,
    url: UrlOption = None,
    header: HeaderOption = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds each request may take.", min=0.1)] = 10.0,
    probe_errors: Annotated[
        bool, typer.Option("--probe-errors", help="Ask for each declared error code (see `mock`).")
    ] = False,
    handshake: Annotated[
        Handshake,
        typer.Option(
            "--handshake",
            help="auto: every revision asked for; legacy: only those opened with initialize "
            "(for a server that quits on server/discover).",
        ),
    ] = Handshake.auto,
    protocol: Annotated[
        list[str] | None,
        typer.Option(
            "--protocol",
            metavar="REVISION",
            help=f"A protocol revision to check ({', '.join(VERSIONS)}); repeatable. "
            "Default: those the contract declares.",
        ),
    ] = None,
    tool: Annotated[
        list[str] | None,
        typer.Option("--tool", help="Compare and call only this tool; repeatable. Other listed tools are not extra."),
    ] = None,
    fuzz: Annotated[
        int,
        typer.Option(
            "--fuzz",
            metavar="N",
            min=0,
            help="Call each read-only tool with N argument sets its inputSchema accepts and N that break it "
            "by one keyword (at the newest revision checked). 0: none.",
        ),
    ] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="The seed of --fuzz (default: one is picked and reported).")
    ] = None,
    call_tool: Annotated[
        list[str] | None,
        typer.Option(
            "--call-tool",
            metavar="TOOL",
            help="--fuzz this tool too, though it is not annotated read-only; repeatable.",
        ),
    ] = None,
    schemas: SchemasOption = None,
    output_format: FormatOption = FindingsFormat.text,
    report: ReportOption = None,
) -> None:
    """Hold a live MCP server to a contract: its tools/list, and the result of every example call.

    Each protocol revision is checked in a session of its own, expecting what that revision
    carries. Exit 0 when the server conforms, 1 when it does not, 2 when it cannot be reached or the
    contract is invalid. Give either `--url URL` or `-- COMMAND ARGS...`; a command is started
    with this environment, as you would start it.
    """
    _require_sdk("conform")
    if fuzz:
        _require_fuzzing()
    elif seed is not None or call_tool:
        typer.echo("error: --seed and --call-tool go with --fuzz N", err=True)
        raise typer.Exit(EXIT_INVALID)

    from . import api
    from .mcp.conform import ConformOptions

    reports = _reports(report)
    target, headers = _target(command, url, header)
    for version in protocol or ():
        if version not in VERSIONS:
            typer.echo(f"error: --protocol {version!r} is not a revision of MCP ({', '.join(VERSIONS)})", err=True)
            raise typer.Exit(EXIT_INVALID)
    protocols, tools = tuple(protocol) if protocol else None, tuple(tool) if tool else None
    options = ConformOptions(
        timeout, probe_errors, headers, handshake.value, protocols, tools, fuzz, seed, tuple(call_tool or ())
    )
    _print_outcome(api.conform(contract, target, options, schemas), output_format, reports)


@app.command("import")
def import_(
    name: Annotated[str, typer.Argument(help="The contract to write: <schemas>/contracts/NAME/.")],
    command: CommandArgument = None,
    url: UrlOption = None,
    header: HeaderOption = None,
    call: Annotated[
        bool,
        typer.Option("--call", help="Call each tool the server annotates read-only; record the answers as examples."),
    ] = False,
    call_tool: Annotated[
        list[str] | None,
        typer.Option("--call-tool", metavar="TOOL", help="Call this tool too, read-only or not; repeatable."),
    ] = None,
    write: Annotated[
        bool, typer.Option("--write", help="Write the changes into a contract that exists (else only shown).")
    ] = False,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds each request may take.", min=0.1)] = 10.0,
    schemas: SchemasOption = None,
    output_format: FormatOption = FindingsFormat.text,
    report: ReportOption = None,
) -> None:
    """Write a contract from a live MCP server: its info, every tool it lists, their schemas and hints.

    Asks at every protocol revision; the contract declares those the server speaks. No tool is
    called unless asked: `--call` (read-only tools), `--call-tool TOOL`. For a contract that
    exists, shows what the server changed (as `breaking` findings) and writes only with
    `--write`, keeping descriptions, the catalogue and columns: exit 1 while changes are
    unwritten. Exit 2 when the server cannot be read.
    """
    _require_sdk("import")

    from . import api
    from .mcp.importer import ImportOptions

    reports = _reports(report)
    target, headers = _target(command, url, header)
    chosen = _settings(schemas)
    options = ImportOptions(timeout, headers, call, tuple(call_tool or ()))
    outcome, notes = api.import_with(chosen, name, target, options, write=write)
    for note in notes:
        typer.echo(f"note: {note}", err=True)
    _print_outcome(outcome, output_format, reports)


def _target(command: list[str] | None, url: str | None, header: list[str] | None) -> tuple[Target, dict[str, str]]:
    """The server `conform` and `import` talk to, a URL or a command, and the headers sent to
    a URL; exit 2 unless exactly one is given."""
    from mcp import StdioServerParameters

    argv = command or []
    if (url is None) == (not argv):
        typer.echo("error: give either --url URL or -- COMMAND ARGS... (one of them)", err=True)
        raise typer.Exit(EXIT_INVALID)
    headers = _headers(header or [], url)
    return (url if url is not None else StdioServerParameters(command=argv[0], args=argv[1:])), headers


def _headers(given: list[str], url: str | None) -> dict[str, str]:
    """`--header` values as a mapping; exit 2 for one that is not `Name: value`, or without --url."""
    if given and url is None:
        typer.echo("error: --header goes with --url (a command started over stdio has no headers)", err=True)
        raise typer.Exit(EXIT_INVALID)
    headers = {}
    for text in given:
        name, colon, value = text.partition(":")
        if not colon or not name.strip() or any(c in text for c in "\r\n"):
            typer.echo(f"error: --header {text!r} is not 'Name: value'", err=True)
            raise typer.Exit(EXIT_INVALID)
        headers[name.strip()] = value.strip()
    return headers


def _print_verdict(verdict: Verdict) -> None:
    from .diagnostics import printable

    if verdict.problem is not None:
        typer.echo(f"{printable(verdict.path)}: error: {verdict.problem}")
        return
    typer.echo(f"{printable(verdict.path)}: {'valid' if verdict.valid else 'invalid'}")
    for violation in verdict.errors:
        typer.echo(f"  {violation.pointer or '(root)'}: {violation.message}")


def main() -> None:
    if sys.argv[1:] == ["--version"]:  # answered before typer builds every command's parameters (13 ms)
        sys.stdout.write(f"mcp-contracts {__version__}\n")
        return
    from . import interrupt

    interrupt.install()  # SIGINT and SIGTERM: exit 130 and 143, once the command has cleaned up
    try:
        app()
    except BaseException:
        # Whatever the command made of the signal (a library may wrap it in an error of its own),
        # it was stopped by it: 130 or 143.
        code = interrupt.exit_code()
        if code is None:
            raise
        interrupt.leave(code)
