"""The `mcp-contracts` command: flags → `generator.api` → the findings printer → exit code.

Exit codes: 0 success, 1 drift (check), findings (lint, breaking, conform) or invalid
documents (validate), 2 invalid sources or usage, or a server that cannot be reached. The
flags are declared in `cli_params`; what a server command checks before it talks to a
server is `cli_server`; every outcome is printed by `findings.printer`.
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, TypeVar

import typer

from . import __version__, debug, options
from . import cli_params as opt
from .cli_params import Format, Handshake, Transport

# Only typer and what parsing needs are imported here: each command imports what it uses
# when it runs, so `--version`, `--help` and `check` answered from the cache import no
# loader, renderer, jinja2 or black (tests/test_startup.py; typer's conversion of the flags
# imports pydantic), and the MCP SDK (0.6 s) only `mock`, `conform` and `import`.
if TYPE_CHECKING:
    from .config import Settings
    from .diagnostics import Diagnostic, Refused
    from .findings.finding import Outcome
    from .findings.printer import Reports
    from .options import Options

__all__ = ["Format", "app", "main"]

app = typer.Typer(
    name="mcp-contracts",
    help="Schema-first code generator for the response contracts of MCP tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts as written: rich markup took `[tool.mcp-contracts]` for a tag
)

_command = partial(app.command, cls=opt.Command)  # each command's arguments shown as words (NAME, FILE...)
EXIT_INVALID = 2
T = TypeVar("T")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mcp-contracts {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
    tracebacks: Annotated[
        bool, typer.Option("--debug", help=f"Show the traceback behind each failure handled ({debug.VARIABLE}=1).")
    ] = False,
) -> None:
    """Schema-first code generator for the response contracts of MCP tools."""
    if tracebacks:  # for this process and the ones it starts
        os.environ[debug.VARIABLE] = "1"
    debug.start()


def _refuse(problem: Refused | str) -> NoReturn:
    """A usage problem: said on standard error, exit 2."""
    typer.echo(f"error: {problem}", err=True)
    raise typer.Exit(EXIT_INVALID)


def _or_refuse(answer: T | Refused) -> T:
    """`answer`, unless it is `Refused`: then said, exit 2 (None is no problem)."""
    from .diagnostics import Refused  # here: `--help` imports no more than it needs

    if isinstance(answer, Refused):
        _refuse(answer)
    return answer


def _reports(given: list[str] | None) -> Reports:
    """`--report FORMAT:PATH` values, checked before anything runs (`findings.printer`)."""
    from .findings.printer import report_targets

    return _or_refuse(report_targets(given or []))


def _guard_reports(
    reports: Reports,
    chosen: Settings | list[Diagnostic],
    schemas: Path | None = None,
    out: Path | None = None,
    templates: Path | None = None,
) -> None:
    """Refused (exit 2) before the command runs: a report onto the project's settings, sources,
    output, templates or git's files (`findings.printer.guarded_reports`); when the settings do
    not load, the project as far as it is known."""
    if not reports:
        return
    from .findings.printer import guarded_reports
    from .findings.report_file import known_project

    project = known_project(schemas, out, templates) if isinstance(chosen, list) else chosen
    _or_refuse(guarded_reports(reports, project))


def _print_outcome(outcome: Outcome, output_format: Format, reports: Reports) -> None:
    """The one output path: `outcome` printed and reported (`findings.printer.emit`), and
    the command's exit code."""
    from .findings.printer import emit

    code = emit(outcome, output_format.value, reports)
    if code:
        raise typer.Exit(code)


def _run(chosen: Options, output_format: Format, reports: Reports) -> None:
    """Command `chosen` on the project's settings with its flags in their place (`api.run`), or,
    when they are invalid, their problems as its outcome; printed, then its exit."""
    from . import api

    resolved = api.settings_of(chosen)
    _guard_reports(reports, resolved, *(getattr(chosen, name, None) for name in ("schemas", "out", "templates")))
    _print_outcome(api.run(chosen, resolved), output_format, reports)


@_command()
def generate(
    schemas: opt.SchemasOption = None,
    out: opt.OutOption = None,
    templates: opt.TemplatesOption = None,
    package: opt.PackageOption = None,
    output_format: opt.FormatOption = Format.text,
    report: opt.ReportOption = None,
) -> None:
    """Render every output from the sources and write them atomically."""
    _run(
        options.Generate(schemas=schemas, out=out, templates=templates, package=package),
        output_format,
        _reports(report),
    )


@_command()
def check(
    schemas: opt.SchemasOption = None,
    out: opt.OutOption = None,
    templates: opt.TemplatesOption = None,
    package: opt.PackageOption = None,
    output_format: opt.FormatOption = Format.text,
    report: opt.ReportOption = None,
    full: opt.FullOption = False,
) -> None:
    """Fail when the output folder is not exactly what the sources produce.

    Each file that differs is a finding of `output-drift` (in text: the paths, then their
    diffs). A cache of this machine (outside the repository: the user cache folder) answers
    without rendering when the sources, settings, tool and every output file are what a full
    comparison or `generate` here last verified; anything else, a fresh clone included, is
    rendered and compared in full.
    """
    chosen = options.Check(schemas=schemas, out=out, templates=templates, package=package, full=full)
    _run(chosen, output_format, _reports(report))


@_command()
def lint(
    schemas: opt.SchemasOption = None,
    output_format: opt.FormatOption = Format.text,
    report: opt.ReportOption = None,
) -> None:
    """Judge the conventions of every contract: exit 1 on an error, 2 when sources do not load, else 0."""
    _run(options.Lint(schemas=schemas), output_format, _reports(report))


@_command()
def breaking(
    against: opt.AgainstOption = None,
    schemas: opt.SchemasOption = None,
    output_format: opt.FormatOption = Format.text,
    report: opt.ReportOption = None,
) -> None:
    """What the sources break for clients since --against REF: exit 1 when anything breaks or a version is too low."""
    _run(options.Breaking(against=against, schemas=schemas), output_format, _reports(report))


@_command()
def init(
    name: opt.NameArgument,
    schemas: opt.SchemasOption = None,
    templates: opt.TemplatesOption = None,
    output_format: opt.FormatOption = Format.text,
    report: opt.ReportOption = None,
) -> None:
    """Scaffold a new contract folder that `generate` accepts at once.

    A project without a `[tool.mcp-contracts]` section gets one in its pyproject.toml.
    """
    _run(options.Init(name=name, schemas=schemas, templates=templates), output_format, _reports(report))


@_command()
def docs(
    out: opt.OutOption = None,
    site: opt.SiteOption = None,
    output_format: opt.FormatOption = Format.text,
    report: opt.ReportOption = None,
) -> None:
    """Build the generated Markdown into an HTML site with `mkdocs build --strict`."""
    _run(options.Docs(out=out, site=site), output_format, _reports(report))


@_command()
def validate(
    files: opt.FilesArgument,
    contract: opt.JudgedContractOption,
    definition: opt.DefinitionOption = None,
    schemas: opt.SchemasOption = None,
    output_format: opt.FormatOption = Format.text,
    report: opt.ReportOption = None,
    out: opt.HiddenOutOption = None,
    package: opt.HiddenPackageOption = None,
) -> None:
    """Judge JSON documents with the contract's schema, as the sources say it now.

    The judge is the one `mock` and `conform` use (and `generate` bundles), so a stale
    output folder changes nothing. Each violation is a finding of `document-invalid`. Exit 0
    when every document is valid, 1 when any is invalid, 2 for sources that do not load, an
    unknown contract or definition, or a document that cannot be read or parsed.
    """
    if out is not None or package is not None:  # the options of the generated-package judge it once used
        flag = "--out" if out is not None else "--package"
        _refuse(f"validate judges with the sources, not the output: drop {flag} (--schemas DIR)")
    reports = _reports(report)
    judged_here = {os.path.realpath(name) for name in files if name != "-"}
    onto = next((path for _, path in reports if str(path) != "-" and os.path.realpath(path) in judged_here), None)
    if onto is not None:  # the document would be replaced by its own verdict
        from .diagnostics import printable

        _refuse(f"{printable(str(onto))}: a report never replaces a document it judges")
    chosen = options.Validate(contract=contract, documents=tuple(files), definition=definition, schemas=schemas)
    _run(chosen, output_format, reports)


@_command()
def mock(
    contract: opt.ServedContractOption,
    transport: opt.TransportOption = Transport.stdio,
    host: opt.HostOption = "127.0.0.1",
    port: opt.PortOption = 8000,
    schemas: opt.SchemasOption = None,
) -> None:
    """Serve a contract's tools as an MCP server that answers as the contract says.

    Each call is answered with its example's result, else a success the contract accepts; a
    call whose `_meta` holds `"mcp-contracts/error": CODE` gets that code's error envelope.
    Over HTTP the URL is printed on standard error once the server accepts connections.
    """
    from . import api, cli_server

    _or_refuse(cli_server.sdk_problem("mock"))
    chosen = options.Mock(contract=contract, transport=transport.value, host=host, port=port, schemas=schemas)
    served = api.run(chosen)
    if served.problem is not None:
        _refuse(served.problem)


@_command()
def conform(
    contract: opt.MetContractOption,
    command: opt.CommandArgument = None,
    url: opt.UrlOption = None,
    header: opt.HeaderOption = None,
    timeout: opt.TimeoutOption = 10.0,
    probe_errors: opt.ProbeErrorsOption = False,
    handshake: opt.HandshakeOption = Handshake.auto,
    protocol: opt.ProtocolOption = None,
    tool: opt.ToolOption = None,
    fuzz: opt.FuzzOption = 0,
    seed: opt.SeedOption = None,
    call_tool: opt.FuzzToolOption = None,
    fuzz_budget: opt.FuzzBudgetOption = None,
    client_capabilities: opt.ClientCapabilitiesOption = "roots,sampling,elicitation",
    server_log: opt.ServerLogOption = None,
    schemas: opt.SchemasOption = None,
    output_format: opt.FormatOption = Format.text,
    report: opt.ReportOption = None,
) -> None:
    """Hold a live MCP server to a contract: its tools/list, and the result of every example call.

    Each protocol revision is checked in a session of its own, expecting what that revision
    carries. Exit 0 when the server conforms, 1 when it does not, 2 when it cannot be reached or the
    contract is invalid. Give either `--url URL` or `-- COMMAND ARGS...`; a command is started
    with this environment, as you would start it, and its standard error is kept in a file
    (`--server-log`), out of the report.
    """
    from . import cli_server

    _or_refuse(cli_server.sdk_problem("conform") or cli_server.fuzzing_problem(fuzz, seed, call_tool, fuzz_budget))
    reports = _reports(report)
    target, headers = _or_refuse(cli_server.target(command, url, header))
    _or_refuse(cli_server.server_log_problem(server_log, url))
    session = cli_server.conform_options(
        timeout=timeout,
        probe_errors=probe_errors,
        headers=headers,
        handshake=handshake.value,
        protocol=protocol,
        tool=tool,
        fuzz=fuzz,
        seed=seed,
        call_tool=call_tool,
        fuzz_budget=fuzz_budget,
        client_capabilities=client_capabilities,
        server_log=server_log,
    )
    chosen = options.Conform(contract=contract, target=target, session=_or_refuse(session), schemas=schemas)
    _run(chosen, output_format, reports)


@_command("import")
def import_(
    name: opt.ImportedNameArgument,
    command: opt.CommandArgument = None,
    url: opt.UrlOption = None,
    header: opt.HeaderOption = None,
    call: opt.CallOption = False,
    call_tool: opt.CallToolOption = None,
    read_resources: opt.ReadResourcesOption = False,
    write: opt.WriteOption = False,
    timeout: opt.TimeoutOption = 10.0,
    client_capabilities: opt.ClientCapabilitiesOption = "roots,sampling,elicitation",
    server_log: opt.ServerLogOption = None,
    schemas: opt.SchemasOption = None,
    output_format: opt.FormatOption = Format.text,
    report: opt.ReportOption = None,
) -> None:
    """Write a contract from a live MCP server: its info, every tool it lists, their schemas and hints.

    Asks at every protocol revision; the contract declares those the server speaks. Its resources,
    templates and prompts are recorded as listed. No tool is called unless asked: `--call`
    (read-only, closed-world tools), `--call-tool TOOL`; no resource is read unless
    `--read-resources`. For a contract that exists, shows what the server changed (as
    `breaking` findings) and writes only with `--write`, keeping descriptions, the catalogue
    and columns: exit 1 while changes are unwritten. Exit 2 when the server cannot be read.
    """
    from . import cli_server

    _or_refuse(cli_server.sdk_problem("import"))
    reports = _reports(report)
    target, headers = _or_refuse(cli_server.target(command, url, header))
    _or_refuse(cli_server.server_log_problem(server_log, url))
    session = cli_server.import_options(
        timeout=timeout,
        headers=headers,
        call=call,
        call_tool=call_tool,
        client_capabilities=client_capabilities,
        read_resources=read_resources,
        server_log=server_log,
    )
    chosen = options.Import(name=name, target=target, session=_or_refuse(session), write=write, schemas=schemas)
    _run(chosen, output_format, reports)


def main() -> None:
    """The command line (`--version` alone is answered before this module is imported: `__main__`)."""
    from . import interrupt

    interrupt.install()  # SIGINT and SIGTERM: exit 130 and 143, once the command has cleaned up
    try:
        app()
    except BaseException as exc:
        # Whatever the command made of the signal (a library may wrap it in an error of its own),
        # it was stopped by it: 130 or 143.
        code = interrupt.exit_code()
        if code is None:
            raise
        debug.handled(exc)
        interrupt.leave(code)
