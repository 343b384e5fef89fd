"""The flags every command declares: the options several commands share, and the longer ones
of `conform`, are declared here once (their names, metavars, help texts and the one `--format`
enum), so that cli.py holds commands; `Command` is the class of each, which shows an argument
by its metavar. Their values are converted by typer's own conversion (which imports pydantic).
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand

from .protocol import VERSIONS


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


# `Argument` overrides typer's private display hooks: only on the typer releases it is tested on
# (first in, first out); on another, typer shows arguments its own way.
TYPER_TESTED = ((0, 29), (0, 30))


def shows_arguments(version: str = typer.__version__) -> bool:
    """Whether `Argument` shows the arguments on this typer (a pre-release counts as outside)."""
    parts = version.split(".")
    if not all(part.isdigit() for part in parts):
        return False
    low, high = TYPER_TESTED
    return low <= tuple(map(int, parts))[:2] < high


ARGUMENTS_SHOWN = shows_arguments()


class Command(TyperCommand):
    """Every command of the CLI (`cls=`): its arguments shown as `Argument` shows them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if ARGUMENTS_SHOWN and type(param) is TyperArgument:
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
