"""The `mcp-contracts` command: parse flags, call `generator.api`, map results to exit codes.

Exit codes: 0 success, 1 drift (check), findings (lint, breaking, conform) or invalid
documents (validate), 2 invalid sources or usage, or a server that cannot be reached.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import replace
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
    from .conformance.conform import Target
    from .findings.finding import Outcome
    from .serving.served import ServedContract

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
ClientCapabilitiesOption = Annotated[
    str,
    typer.Option(
        "--client-capabilities",
        metavar="LIST",
        help="What the client declares, which may change what the server lists: some of roots, sampling, "
        "elicitation (comma-separated), or none. Requests they let the server make are answered at once "
        "(no roots, sampling refused, elicitation declined).",
    ),
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


class Format(StrEnum):
    """The one format enum: a printer of `findings/formats/` each."""

    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"
    junit = "junit"
    markdown = "markdown"


FormatOption = Annotated[
    Format,
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
        help=f"Also write the report in FORMAT ({', '.join(Format)}) to PATH (- is standard output); repeatable.",
    ),
]


def _settings(
    schemas: Path | None = None,
    out: Path | None = None,
    templates: Path | None = None,
    package: str | None = None,
    *,
    command: str,
    output_format: Format = Format.text,
    reports: list[tuple[str, Path]] | None = None,
) -> Settings:
    """The project's settings with the flags in their place; when they are invalid, the
    problems are `command`'s outcome in its format, and exit 2."""
    from . import api
    from .findings.finding import Outcome

    chosen = api.settings(schemas, out, templates, package=package)
    if isinstance(chosen, list):
        _print_outcome(Outcome.refused(command, chosen), output_format, reports or [])
        raise typer.Exit(EXIT_INVALID)  # _print_outcome has exited already: for the type checker
    return chosen


@app.command()
def generate(
    schemas: SchemasOption = None,
    out: OutOption = None,
    templates: TemplatesOption = None,
    package: PackageOption = None,
    output_format: FormatOption = Format.text,
    report: ReportOption = None,
) -> None:
    """Render every output from the sources and write them atomically."""
    from . import api

    reports = _reports(report)
    chosen = _settings(
        schemas, out, templates, package, command="generate", output_format=output_format, reports=reports
    )
    _print_outcome(api.generate_report(chosen), output_format, reports)


@app.command()
def check(
    schemas: SchemasOption = None,
    out: OutOption = None,
    templates: TemplatesOption = None,
    package: PackageOption = None,
    output_format: FormatOption = Format.text,
    report: ReportOption = None,
    full: Annotated[
        bool,
        typer.Option(
            "--full", help="Render and compare every file even when this machine's cache says nothing changed."
        ),
    ] = False,
) -> None:
    """Fail when the output folder is not exactly what the sources produce.

    Each file that differs is a finding of `output-drift` (in text: the paths, then their
    diffs). A cache of this machine (outside the repository: the user cache folder) answers
    without rendering when the sources, settings, tool and every output file are what a full
    comparison or `generate` here last verified; anything else, a fresh clone included, is
    rendered and compared in full.
    """
    from . import api

    reports = _reports(report)
    chosen = _settings(schemas, out, templates, package, command="check", output_format=output_format, reports=reports)
    _print_outcome(api.check_report(chosen, full=full), output_format, reports)


def _reports(given: list[str] | None) -> list[tuple[str, Path]]:
    """`--report FORMAT:PATH` values, checked before anything runs: exit 2 for one that is not
    FORMAT:PATH, or whose PATH is not a regular file or a new one (a FIFO, a device, a
    socket, a folder, any symlink: see `findings.report_file`). `-` is standard output."""
    from .diagnostics import printable
    from .findings.formats import FORMATS
    from .findings.report_file import report_problem

    reports = []
    for value in given or ():
        name, colon, path = value.partition(":")
        if not colon or name not in FORMATS or not path:
            typer.echo(
                f"error: --report {value!r} is not FORMAT:PATH with FORMAT one of {', '.join(FORMATS)}", err=True
            )
            raise typer.Exit(EXIT_INVALID)
        problem = report_problem(Path(path))
        if problem is not None:
            typer.echo(f"error: {printable(path)}: cannot write the {name} report: {problem}", err=True)
            raise typer.Exit(EXIT_INVALID)
        reports.append((name, Path(path)))
    return reports


def _print_outcome(outcome: Outcome, output_format: Format, reports: list[tuple[str, Path]]) -> None:
    """Print `outcome` in its format, write each `--report` (`-` to standard output, after
    it), say its notes and its problem on standard error, and exit with the outcome's code
    (2 too when a report cannot be written)."""
    from .diagnostics import printable
    from .findings.formats import printed
    from .findings.formats.text import streams
    from .findings.report_file import STDOUT, write_report

    if output_format is Format.text:
        out, err = streams(outcome)  # the problems of sources that do not load are errors
        sys.stdout.write(out)
        sys.stderr.write(err)
    else:
        sys.stdout.write(printed(output_format.value, outcome))
    code = outcome.exit_code
    for name, path in reports:
        if str(path) == STDOUT:
            sys.stdout.write(printed(name, outcome))
            continue
        problem = write_report(path, printed(name, outcome))
        if problem is not None:
            typer.echo(f"error: {printable(str(path))}: cannot write the {name} report: {problem}", err=True)
            code = EXIT_INVALID
    sys.stdout.flush()
    for note in outcome.notes:
        typer.echo(note, err=True)
    if outcome.problem is not None:  # the command could not judge or build at all
        typer.echo(f"error: {outcome.problem}", err=True)
    if code:
        raise typer.Exit(code)


@app.command()
def lint(
    schemas: SchemasOption = None,
    output_format: FormatOption = Format.text,
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
    output_format: FormatOption = Format.text,
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
    output_format: FormatOption = Format.text,
    report: ReportOption = None,
) -> None:
    """Scaffold a new contract folder that `generate` accepts at once.

    A project without a `[tool.mcp-contracts]` section gets one in its pyproject.toml.
    """
    from . import api

    reports = _reports(report)
    chosen = _settings(schemas, None, templates, command="init", output_format=output_format, reports=reports)
    _print_outcome(api.init_report(chosen, name), output_format, reports)


@app.command()
def docs(
    out: OutOption = None,
    site: Annotated[
        Path | None, typer.Option("--site", help="Folder the HTML site is written to. [default: site]")
    ] = None,
    output_format: FormatOption = Format.text,
    report: ReportOption = None,
) -> None:
    """Build the generated Markdown into an HTML site with `mkdocs build --strict`."""
    from . import api

    reports = _reports(report)
    chosen = _settings(None, out, command="docs", output_format=output_format, reports=reports)
    _print_outcome(api.docs_report(chosen, site), output_format, reports)


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(help="JSON documents to judge; - reads standard input.")],
    contract: Annotated[str, typer.Option("--contract", help="The contract to judge against.")],
    definition: Annotated[
        str | None, typer.Option("--definition", help="Judge against this entry of the schema's $defs.")
    ] = None,
    schemas: SchemasOption = None,
    output_format: FormatOption = Format.text,
    report: ReportOption = None,
    out: Annotated[Path | None, typer.Option("--out", hidden=True)] = None,
    package: Annotated[str | None, typer.Option("--package", hidden=True)] = None,
) -> None:
    """Judge JSON documents with the contract's schema, as the sources say it now.

    The judge is the one `mock` and `conform` use (and `generate` bundles), so a stale
    output folder changes nothing. Each violation is a finding of `document-invalid`. Exit 0
    when every document is valid, 1 when any is invalid, 2 for sources that do not load, an
    unknown contract or definition, or a document that cannot be read or parsed.
    """
    from . import api

    if out is not None or package is not None:  # the options of the generated-package judge it once used
        flag = "--out" if out is not None else "--package"
        typer.echo(f"error: validate judges with the sources, not the output: drop {flag} (--schemas DIR)", err=True)
        raise typer.Exit(EXIT_INVALID)
    reports = _reports(report)
    chosen = _settings(schemas, command="validate", output_format=output_format, reports=reports)
    _print_outcome(api.validate_report(chosen, contract, files, definition), output_format, reports)


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

    loaded = api.served_contract(_settings(schemas, command="mock"), contract)
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
    from .serving.mock import Mock, announce_to_stderr, bind, build_server, serve_http, serve_stdio

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
            help="Call each read-only, closed-world tool with N argument sets its inputSchema accepts and N that "
            "break it by one keyword (at the newest revision checked). 0: none.",
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
            help="--fuzz this tool too, though not read-only, closed-world and not destructive; repeatable.",
        ),
    ] = None,
    fuzz_budget: Annotated[
        float | None,
        typer.Option(
            "--fuzz-budget",
            metavar="SECONDS",
            min=0.1,
            help="Stop --fuzz once it has taken this long (what was found is reported; the stop is a note).",
        ),
    ] = None,
    client_capabilities: ClientCapabilitiesOption = "roots,sampling,elicitation",
    schemas: SchemasOption = None,
    output_format: FormatOption = Format.text,
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
    elif seed is not None or call_tool or fuzz_budget is not None:
        typer.echo("error: --seed, --call-tool and --fuzz-budget go with --fuzz N", err=True)
        raise typer.Exit(EXIT_INVALID)

    from . import api
    from .conformance.conform import ConformOptions

    reports = _reports(report)
    target, headers = _target(command, url, header)
    for version in protocol or ():
        if version not in VERSIONS:
            typer.echo(f"error: --protocol {version!r} is not a revision of MCP ({', '.join(VERSIONS)})", err=True)
            raise typer.Exit(EXIT_INVALID)
    protocols, tools = tuple(protocol) if protocol else None, tuple(tool) if tool else None
    named = tuple(call_tool or ())
    options = ConformOptions(
        timeout, probe_errors, headers, handshake.value, protocols, tools, fuzz, seed, named, fuzz_budget
    )
    options = replace(options, client_capabilities=_capabilities(client_capabilities))
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
    client_capabilities: ClientCapabilitiesOption = "roots,sampling,elicitation",
    schemas: SchemasOption = None,
    output_format: FormatOption = Format.text,
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
    from .importing.importer import ImportOptions

    reports = _reports(report)
    target, headers = _target(command, url, header)
    chosen = _settings(schemas, command="import", output_format=output_format, reports=reports)
    options = ImportOptions(timeout, headers, call, tuple(call_tool or ()))
    options = replace(options, client_capabilities=_capabilities(client_capabilities))
    outcome, notes = api.import_with(chosen, name, target, options, write=write)
    said = tuple(f"note: {note}" for note in notes)
    _print_outcome(dataclasses.replace(outcome, notes=(*said, *outcome.notes)), output_format, reports)


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


def _capabilities(text: str) -> frozenset[str]:
    """`--client-capabilities` as the capabilities it names; exit 2 for one that is none."""
    from .client.client_side import parsed

    try:
        return parsed(text)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_INVALID) from None


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
