"""Flag values of the plain kinds this command line takes, converted without pydantic.

typer 0.29 converts every parameter's value through a pydantic `TypeAdapter` it builds on
first use, `--help` included: that imports pydantic (about 100 ms) in every command,
`--help` of a command and `check` answered from the cache among them. `install` puts
a converter in front for the kinds those commands take (a string, a path, a choice of an
enum, a flag, an integer's default, a list of those), made of typer's own pydantic-free
steps (`coerce_cli_path`, `coerce_cli_choice`), so the values are the ones typer gives. Any
other kind (a number with bounds...) and any value the converter does not accept as it is
(an integer given as text) go to typer's own
conversion, which says what is wrong in its own words. When typer's internals are not the
ones this was written for, `install` changes nothing.

The options several commands share, and the longer ones of `conform`, are declared here
once (their names, metavars, help texts and the one `--format` enum), so that cli.py holds
commands; `Command` is the class of each, which shows an argument by its metavar.
"""

from __future__ import annotations

import os
from enum import Enum, StrEnum
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

import typer
from typer.core import TyperArgument, TyperCommand

from .protocol import VERSIONS

_NOT_PLAIN = object()


def _plain(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """`value` converted as typer converts it to `annotation`, or `_NOT_PLAIN`."""
    from typer._param_types import coerce_cli_choice, coerce_cli_path

    if get_origin(annotation) is list:
        (item,) = get_args(annotation) or (Any,)
        if not isinstance(value, list | tuple):
            return _NOT_PLAIN
        items = [_plain(item, info, one, param, ctx) for one in value]
        return _NOT_PLAIN if any(one is _NOT_PLAIN for one in items) else items
    if get_origin(annotation) is not None or info.parser is not None:
        return _NOT_PLAIN
    if annotation is bool:
        return value if isinstance(value, bool) else _NOT_PLAIN
    if annotation is str:
        return value if isinstance(value, str) else _NOT_PLAIN
    if annotation is int and getattr(info, "min", None) is None and getattr(info, "max", None) is None:
        return value if type(value) is int else _NOT_PLAIN  # a default; text goes to typer
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        try:
            return coerce_cli_choice(value, choices=tuple(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
        except ValueError:
            return _NOT_PLAIN
    if annotation is Path and info.path_type is None and isinstance(value, str | os.PathLike):
        return coerce_cli_path(Path(value), info, path_type=None, param=param, ctx=ctx)
    return _NOT_PLAIN


def install() -> None:
    """Put the plain converter in front of typer's own for every parameter of this process."""
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer.core import _TyperParameter
    except ImportError:  # another typer: its own conversion, unchanged
        return
    if getattr(_TyperParameter.get_runtime_param, "plain", False) or not hasattr(RuntimeParam, "_coerce_value"):
        return

    class PlainRuntimeParam(RuntimeParam):
        """typer's conversion, without building it while the value is a plain one."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            plain = _plain(self.annotation, self.parameter_info, value, param, ctx)
            if plain is not _NOT_PLAIN:
                return plain
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            if descriptor.file_annotation is not None:
                self._runtime_param = build_runtime_param(descriptor)
            else:
                self._runtime_param = PlainRuntimeParam(descriptor.parameter_info, descriptor.annotation)
        return self._runtime_param

    get_runtime_param.plain = True  # type: ignore[attr-defined]
    _TyperParameter.get_runtime_param = get_runtime_param  # type: ignore[method-assign]


class Argument(TyperArgument):
    """An argument as click shows one: `NAME`, `FILE...`, `[COMMAND]...` in the usage, and its
    metavar alone in its row of the help. typer's own (`{name}`, `command... <list[str]>`)
    reads as Python, not as words; a metavar is given to each argument here."""

    def _usage_display_name(self) -> str:
        name = self.metavar or self.name.upper()
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def _rich_display_name(self) -> str:
        return (self.metavar or self.name.upper()) + ("..." if self.nargs != 1 else "")

    def display_type_rich(self, ctx: Any) -> str | None:
        return None  # the metavar says what the argument is


class Command(TyperCommand):
    """Every command of the CLI (`cls=`): its arguments shown as `Argument` shows them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = Argument  # typer builds its own: the same object, shown otherwise


class Format(StrEnum):
    """The one format enum: a printer of `findings/formats/` each."""

    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"
    junit = "junit"
    markdown = "markdown"


class Handshake(StrEnum):
    auto = "auto"
    legacy = "legacy"


class Transport(StrEnum):
    stdio = "stdio"
    http = "http"


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
SchemasOption = Annotated[
    Path | None,
    typer.Option("--schemas", metavar="DIR", help="Folder of canonical sources. [config: schemas; default: schemas]"),
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", metavar="DIR", help="Folder of generated outputs. [config: output; default: generated]"),
]
TemplatesOption = Annotated[
    Path | None,
    typer.Option(
        "--templates",
        metavar="DIR",
        help="Folder of templates that override built-in ones by path. [config: templates]",
    ),
]
PackageOption = Annotated[
    str | None,
    typer.Option(
        "--package",
        metavar="NAME",
        help="Import package of the generated Python. [config: package; default: <project>_contracts]",
    ),
]

# The server `conform` and `import` talk to: a command after `--`, or a URL with its headers.
CommandArgument = Annotated[
    list[str] | None, typer.Argument(metavar="COMMAND", help="After --: the command that starts the server over stdio.")
]
UrlOption = Annotated[str | None, typer.Option("--url", metavar="URL", help="The server's streamable HTTP URL.")]
HeaderOption = Annotated[
    list[str] | None,
    typer.Option("--header", metavar="HEADER", help="'Name: value' sent with every HTTP request; repeatable."),
]
TimeoutOption = Annotated[
    float, typer.Option("--timeout", metavar="SECONDS", help="Seconds each request may take.", min=0.1)
]
ServerLogOption = Annotated[
    Path | None,
    typer.Option(
        "--server-log",
        metavar="PATH",
        help="Keep the standard error of the server started after -- in PATH (a new file, or a log of an"
        " earlier run, emptied first; - is this standard error). Default: a file of this machine's cache"
        " folder per contract and command, which a note names once the server wrote to it. A finding of a"
        " crash quotes its last lines.",
    ),
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

# `conform`'s own.
HandshakeOption = Annotated[
    Handshake,
    typer.Option(
        "--handshake",
        help="auto: every revision asked for; legacy: only those opened with initialize "
        "(for a server that quits on server/discover).",
    ),
]
ProtocolOption = Annotated[
    list[str] | None,
    typer.Option(
        "--protocol",
        metavar="REVISION",
        help=f"A protocol revision to check ({', '.join(VERSIONS)}); repeatable. Default: those the contract declares.",
    ),
]
ToolOption = Annotated[
    list[str] | None,
    typer.Option(
        "--tool", metavar="TOOL", help="Compare and call only this tool; repeatable. Other listed tools are not extra."
    ),
]
FuzzOption = Annotated[
    int,
    typer.Option(
        "--fuzz",
        metavar="N",
        min=0,
        help="Call each read-only, closed-world tool with N argument sets its inputSchema accepts and N that "
        "break it by one keyword (at the newest revision checked). 0: none.",
    ),
]
SeedOption = Annotated[
    int | None, typer.Option("--seed", metavar="N", help="The seed of --fuzz (default: one is picked and reported).")
]
FuzzToolOption = Annotated[
    list[str] | None,
    typer.Option(
        "--call-tool",
        metavar="TOOL",
        help="--fuzz this tool too, though not read-only, closed-world and not destructive; repeatable.",
    ),
]
FuzzBudgetOption = Annotated[
    float | None,
    typer.Option(
        "--fuzz-budget",
        metavar="SECONDS",
        min=0.1,
        help="Stop --fuzz once it has taken this long (what was found is reported; the stop is a note).",
    ),
]

# The options of one command each.
FullOption = Annotated[
    bool,
    typer.Option("--full", help="Render and compare every file even when this machine's cache says nothing changed."),
]
AgainstOption = Annotated[
    str | None,
    typer.Option(
        "--against",
        metavar="REF",
        help="A git revision, a folder of other sources, merge-base or last-tag"
        " (default: [tool.mcp-contracts.breaking] against, merge-base).",
    ),
]
NameArgument = Annotated[str, typer.Argument(metavar="NAME", help="The new contract's name, in kebab case.")]
SiteOption = Annotated[
    Path | None, typer.Option("--site", metavar="DIR", help="Folder the HTML site is written to. [default: site]")
]
FilesArgument = Annotated[
    list[str], typer.Argument(metavar="FILE", help="JSON documents to judge; - reads standard input.")
]
JudgedContractOption = Annotated[str, typer.Option("--contract", metavar="NAME", help="The contract to judge against.")]
DefinitionOption = Annotated[
    str | None, typer.Option("--definition", metavar="NAME", help="Judge against this entry of the schema's $defs.")
]
HiddenOutOption = Annotated[Path | None, typer.Option("--out", hidden=True)]  # validate's, once: refused
HiddenPackageOption = Annotated[str | None, typer.Option("--package", hidden=True)]
ServedContractOption = Annotated[str, typer.Option("--contract", metavar="NAME", help="The contract to serve.")]
TransportOption = Annotated[Transport, typer.Option("--transport", help="stdio, or streamable HTTP.")]
HostOption = Annotated[str, typer.Option("--host", metavar="HOST", help="The address HTTP listens on.")]
PortOption = Annotated[
    int, typer.Option("--port", metavar="PORT", help="The port HTTP listens on; 0 picks a free one.")
]
MetContractOption = Annotated[
    str, typer.Option("--contract", metavar="NAME", help="The contract the server must meet.")
]
ProbeErrorsOption = Annotated[
    bool, typer.Option("--probe-errors", help="Ask for each declared error code (see `mock`).")
]
ImportedNameArgument = Annotated[
    str, typer.Argument(metavar="NAME", help="The contract to write: <schemas>/contracts/NAME/.")
]
CallOption = Annotated[
    bool,
    typer.Option("--call", help="Call each read-only, closed-world tool; record its answer as an example."),
]
CallToolOption = Annotated[
    list[str] | None,
    typer.Option("--call-tool", metavar="TOOL", help="Call this tool too, read-only or not; repeatable."),
]
ReadResourcesOption = Annotated[
    bool,
    typer.Option(
        "--read-resources",
        help="Read each resource the server lists, once; write its contents under examples/resources/.",
    ),
]
WriteOption = Annotated[
    bool, typer.Option("--write", help="Write the changes into a contract that exists (else only shown).")
]
