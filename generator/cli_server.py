"""What `mock`, `conform` and `import` need before they talk to a server, from their flags:
the MCP SDK in this environment, the server (a URL with its headers, or a command), the
client's capabilities, the options of a `conform` run. Each answer is a value, or a
`Refused` that the CLI says and exits 2 with."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .diagnostics import Refused, printable
from .protocol import VERSIONS

if TYPE_CHECKING:
    from pathlib import Path

    from .conformance.conform import ConformOptions, Target
    from .importing.importer import ImportOptions

# The MCP SDK releases `mock`, `conform` and `import` run on (the `mcp` extra).
SDK_RELEASES = ((2, 3), (3, 0))


def sdk_problem(command: str) -> Refused | None:
    """`command` runs on the official MCP SDK 2.x: when this environment lacks it, or holds the
    1.x line a server of its own depends on, how to run it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found: str | None = version("mcp")
    except PackageNotFoundError:
        found = None
    release = tuple(int(part) for part in (found or "").split(".")[:2] if part.isdigit())
    if found is not None and SDK_RELEASES[0] <= release < SDK_RELEASES[1]:
        return None
    has = f"this environment has mcp {found}" if found else "this environment has no mcp"
    return Refused(
        f"`{command}` needs the MCP SDK, mcp>=2.3,<3 ({has}): install 'mcp-contracts[mcp]', or run"
        " the tool in an environment of its own: pipx install 'mcp-contracts[mcp]' (or uv tool install)"
    )


def fuzzing_problem(fuzz: int, seed: int | None, call_tool: list[str] | None, budget: float | None) -> Refused | None:
    """`conform --fuzz` draws arguments with hypothesis-jsonschema (the `mcp` extra): when this
    environment lacks it, how to get it; without `--fuzz`, the flags that go with it are a problem."""
    if not fuzz:
        given = seed is not None or call_tool or budget is not None
        return Refused("--seed, --call-tool and --fuzz-budget go with --fuzz N") if given else None
    missing = []
    for name in ("hypothesis", "hypothesis_jsonschema"):
        try:
            __import__(name)  # `--fuzz` imports them anyway
        except ImportError:
            missing.append(name)
    if not missing:
        return None
    return Refused(
        f"`conform --fuzz` needs hypothesis and hypothesis-jsonschema (this environment lacks"
        f" {', '.join(missing)}): install 'mcp-contracts[mcp]'"
    )


def target(
    command: list[str] | None, url: str | None, header: list[str] | None
) -> tuple[Target, dict[str, str]] | Refused:
    """The server `conform` and `import` talk to, a URL or a command, and the headers sent to
    a URL; a problem unless exactly one is given."""
    from mcp import StdioServerParameters

    argv = command or []
    if (url is None) == (not argv):
        return Refused("give either --url URL or -- COMMAND ARGS... (one of them)")
    headers = _headers(header or [], url)
    if isinstance(headers, Refused):
        return headers
    return (url if url is not None else StdioServerParameters(command=argv[0], args=argv[1:])), headers


def _headers(given: list[str], url: str | None) -> dict[str, str] | Refused:
    """`--header` values as a mapping; a problem for one that is not `Name: value`, or without --url."""
    if given and url is None:
        return Refused("--header goes with --url (a command started over stdio has no headers)")
    headers = {}
    for text in given:
        name, colon, value = text.partition(":")
        if not colon or not name.strip() or any(c in text for c in "\r\n"):
            return Refused(f"--header {text!r} is not 'Name: value'")
        headers[name.strip()] = value.strip()
    return headers


def capabilities(text: str) -> frozenset[str] | Refused:
    """`--client-capabilities` as the capabilities it names; a problem for one that is none."""
    from .client.client_side import parsed

    try:
        return parsed(text)
    except ValueError as exc:
        return Refused(str(exc))


def conform_options(
    *,
    timeout: float,
    probe_errors: bool,
    headers: dict[str, str],
    handshake: str,
    protocol: list[str] | None,
    tool: list[str] | None,
    fuzz: int,
    seed: int | None,
    call_tool: list[str] | None,
    fuzz_budget: float | None,
    client_capabilities: str,
    server_log: Path | None = None,
) -> ConformOptions | Refused:
    """How `conform` talks to the server, from its flags (see `ConformOptions`), or why not: a
    revision `--protocol` names that is not one of MCP, a capability that is none."""
    from .conformance.conform import ConformOptions

    for version in protocol or ():
        if version not in VERSIONS:
            return Refused(f"--protocol {version!r} is not a revision of MCP ({', '.join(VERSIONS)})")
    declared = capabilities(client_capabilities)
    if isinstance(declared, Refused):
        return declared
    return ConformOptions(
        timeout=timeout,
        probe_errors=probe_errors,
        headers=headers,
        handshake=handshake,
        protocols=tuple(protocol) if protocol else None,
        tools=tuple(tool) if tool else None,
        fuzz=fuzz,
        seed=seed,
        call_tools=tuple(call_tool or ()),
        fuzz_budget=fuzz_budget,
        client_capabilities=declared,
        server_log=server_log,
    )


def import_options(
    *,
    timeout: float,
    headers: dict[str, str],
    call: bool,
    call_tool: list[str] | None,
    client_capabilities: str,
    read_resources: bool = False,
    server_log: Path | None = None,
) -> ImportOptions | Refused:
    """How `import` talks to the server, from its flags, or why not (a capability that is none)."""
    from .importing.importer import ImportOptions

    declared = capabilities(client_capabilities)
    if isinstance(declared, Refused):
        return declared
    return ImportOptions(
        timeout=timeout,
        headers=headers,
        call=call,
        call_tools=tuple(call_tool or ()),
        read_resources=read_resources,
        client_capabilities=declared,
        server_log=server_log,
    )


def server_log_problem(server_log: Path | None, url: str | None) -> Refused | None:
    """Why `--server-log PATH` cannot be: given with `--url` (a server at a URL keeps its own
    standard error), or a PATH that is not a regular file (a symlink, a folder, a FIFO) or lies
    in no folder (`client.server_log.path_problem`); None when it can be, or is not given."""
    if server_log is None or (str(server_log) == "-" and url is None):
        return None
    if url is not None:
        return Refused("--server-log goes with -- COMMAND ARGS...: a server at a URL keeps its standard error")
    from .client.server_log import path_problem

    problem = path_problem(server_log)
    return None if problem is None else Refused(f"--server-log {printable(str(server_log))}: {problem}")
