"""`mcp-contracts import`: what a live server lists, read as `conform` reads it.

The server is asked at every protocol revision, each in a session of its own (the transport
code is `conform`'s, `client.connect`, declaring the client capabilities `client_side` says);
the revisions it answers as asked become the contract's `protocol:`, and the newest of them
gives the listing (its resources, templates and prompts too: `importing.listed_resources`), the
server's info and, when asked for, the calls. The resources are read when asked for, after
every revision is asked, in sessions of the newest: a new one after a read that ends its
session (a crash, no answer in time, an answer over `limits.message_bytes`).

A session that cannot be opened at one revision because the server did not answer in time
(`NotOpened.timed_out`), or could not be started, ends the run with that one error: a slow
server would otherwise lose a revision it speaks from the contract's `protocol:`.

The run is held to a `Budget` (`limits.server_bytes` read from the server in all, and
`limits.server_seconds`): a listing it cuts short is no listing (nothing is written); reads
it cuts short are noted together, and the contract is written with what was read. A tool is
called only when asked (`example_calls`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import mcp.types as types

from .. import debug, interrupt
from ..client import client_side
from ..client.bounded import (
    DEFAULT_MESSAGE_BYTES,
    DEFAULT_SERVER_BYTES,
    DEFAULT_SERVER_SECONDS,
    Budget,
    BudgetSpent,
    MessageTooLarge,
    UnheldNumber,
    first_in_result,
)
from ..client.connect import (
    NotOpened,
    Stopped,
    Target,
    connected,
    describe,
    innermost,
    leaf,
    list_tools,
    sdk_logs_silenced,
    timed_out,
)
from ..client.report import Report
from ..diagnostics import without_secrets
from ..protocol import VERSIONS, Revision, revision
from ..rules.conform import ENDLESS_TOOL_LIST
from ..schema.compare import schema_difference
from .example_calls import record_calls, to_call
from .facts import ServerFacts, as_listed
from .listed_resources import Listed, list_surface, read_contents


class _Unreadable(Exception):
    """The server's listing is not what MCP defines (the message says where)."""


class _Unheld(Exception):
    """The server's listing holds a number no contract can (the message says where): no
    revision is asked further, and nothing is written."""


def _fails_everywhere(exc: BaseException) -> bool:
    """Whether `exc` says the server could not be started, or did not answer in time (to open
    a session, or to list its tools): nothing about the revision asked, which the contract
    would otherwise leave out."""
    if isinstance(exc, NotOpened):
        return exc.timed_out or exc.not_started
    return timed_out(exc)


def _not_opened(exc: BaseException, version: str) -> str:
    """The one error of a server that could not be started, or did not answer in time at `version`."""
    if isinstance(exc, NotOpened) and exc.not_started:
        return str(exc)
    return f"cannot read the tools at {version}: {leaf(exc)}; a slow server may be given more time with --timeout"


def _why_none(notes: list[str], unopened: list[str]) -> str:
    """Why no revision was read, from each one's note; when no session opened at any (a server
    that exits before it answers, whatever it is asked), once: what the oldest revision met."""
    if unopened and len(unopened) == len(notes):
        return unopened[-1]
    return "; ".join(note.replace(" not spoken:", ":", 1) for note in notes) or "no answer"


def _unheld_in(exc: BaseException) -> str | None:
    """The message of an `_Unheld` that `exc` is or holds, or None."""
    return str(innermost(exc)) if isinstance(innermost(exc), _Unheld) else None


def _said(exc: BaseException) -> str:
    exc = innermost(exc)
    return str(exc) if isinstance(exc, _Unreadable) else leaf(exc)


@dataclass(frozen=True)
class ImportOptions:
    """How `import` talks to the server: `call` (the read-only tools) and `call_tools` (named
    ones) say which tools are called, `read_resources` whether each listed resource is read;
    `timeout`, `headers`, `message_bytes` and
    `client_capabilities` (what the client declares: `client_side`) as for `conform`;
    `server_bytes` and `server_seconds`, what the whole run may take (`Budget`); `server_log`,
    the file a server started over stdio writes its standard error to (None: ours)."""

    timeout: float = 10.0
    headers: Mapping[str, str] = field(default_factory=dict)
    call: bool = False
    call_tools: tuple[str, ...] = ()
    read_resources: bool = False
    message_bytes: int = DEFAULT_MESSAGE_BYTES
    client_capabilities: frozenset[str] = client_side.DEFAULT
    server_bytes: int = DEFAULT_SERVER_BYTES
    server_seconds: int = DEFAULT_SERVER_SECONDS
    server_log: Path | None = None


@dataclass
class Reading:
    """What a run learnt: the facts (None when the server could not be read), why not, and
    what people should know (a tool not called, a revision refused)."""

    facts: ServerFacts | None = None
    problem: str | None = None
    notes: list[str] = field(default_factory=list)
    unread: list[dict[str, Any]] = field(default_factory=list)  # resources still to read, in order
    listed: Listed = field(default_factory=Listed)  # of the newest revision's session


def read_server(target: Target, options: ImportOptions, staging: Path) -> Reading:
    """The server's facts, asked at every revision of the protocol, newest first; then, when
    asked, each resource read (its contents to a file of `staging`)."""
    reading = Reading()
    budget = Budget(options.server_bytes, options.server_seconds)
    answered: list[str] = []
    unopened: list[str] = []  # why no session opened, at each revision where none did
    capped = False  # a message over limits.message_bytes: not a matter of credentials
    for version in reversed(VERSIONS):
        try:
            with sdk_logs_silenced():  # an answer the SDK cannot parse is said in a line (`leaf`)
                interrupt.run(_ask, target, revision(version), options, answered, reading, budget)
        except Exception as exc:  # the SDK's transports raise what they meet, often in groups
            debug.handled(exc)
            refused = _unheld_in(exc)
            if refused is not None:
                return Reading(problem=refused)
            if isinstance(innermost(exc), BudgetSpent):  # a listing cut short is none
                return Reading(problem=f"the server's listings were not read to their end at {version}: {_said(exc)}")
            if _fails_everywhere(innermost(exc)):  # not a revision it does not speak: the one error
                return Reading(problem=without_secrets(_not_opened(innermost(exc), version)))
            ended = "the session ended" if version in answered else "not spoken"
            reading.notes.append(f"{version} {ended}: {_said(exc)}")
            if isinstance(innermost(exc), NotOpened):
                unopened.append(_said(exc))
            capped = capped or isinstance(innermost(exc), MessageTooLarge)
    if reading.facts is None:
        said = _why_none(reading.notes, unopened)
        asks = isinstance(target, str) and not capped
        hint = " (a server that wants credentials takes them with --header)" if asks else ""
        reading.problem = without_secrets(f"cannot read the tools of {describe(target)} at any revision: {said}{hint}")
        reading.notes.clear()
        return reading
    reading.facts = replace(reading.facts, revisions=tuple(sorted(answered, key=VERSIONS.index)))
    if options.read_resources and reading.problem is None:
        reading.unread = list(reading.facts.resources)
        with sdk_logs_silenced():
            _read_resources(target, revision(reading.facts.negotiated), options, reading, (budget, staging))
    reading.notes = [without_secrets(note) for note in reading.notes]  # a server's words, printed
    reading.problem = without_secrets(reading.problem) if reading.problem is not None else None
    return reading


async def _ask(
    target: Target, at: Revision, options: ImportOptions, answered: list[str], reading: Reading, budget: Budget
) -> None:
    """Open a session at `at` and read the listing. The first session the server answers as
    asked (the newest revision it speaks) gives the facts and makes the calls asked for; an
    older revision is declared only when it lists the same tools, with the same inputs."""
    heard: list[UnheldNumber] = []
    opened = connected(
        target,
        at,
        options.timeout,
        options.headers,
        options.message_bytes,
        unheld=heard,
        capabilities=options.client_capabilities,
        budget=budget,
        server_log=options.server_log,
    )
    async with opened as (session, version):
        if version != at.version:
            reading.notes.append(f"{at.version} not spoken: asked for it, the server answered {version}")
            return
        findings, wire = Report("import", describe(target)), dict[str, dict[str, Any]]()
        try:
            listed = await list_tools(session, findings, wire)
        except Stopped:
            raise _Unreadable(findings.findings[-1].message if findings.findings else "no listing") from None
        endless = next((f for f in findings.findings if f.rule == ENDLESS_TOOL_LIST.id), None)
        if endless is not None:  # a listing not read to its end is none: never written as whole
            raise _Unreadable(f"tools/list: {endless.message}")
        reading.notes += [f"{at.version}: {finding.message}" for finding in findings.findings]
        _refuse_unheld(heard)
        tools = tuple(as_listed(tool, wire.get(name, {})) for name, tool in listed.items())
        if reading.facts is not None:
            other = _listed_otherwise(reading.facts.tools, tools)
            if other is not None:
                reading.notes.append(f"{at.version} not declared: the server lists {other} there")
            else:
                answered.append(version)
            return
        answered.append(version)
        info = session.server_info
        unknown = [name for name in options.call_tools if all(t["name"] != name for t in tools)]
        if unknown:  # before any call: nothing is called on a request that cannot be met
            known = ", ".join(t["name"] for t in tools) or "none"
            reading.problem = f"--call-tool {unknown[0]!r} is not a tool the server lists (it lists: {known})"
        chosen, not_called = to_call(tools, options.call, options.call_tools)
        reading.notes += not_called
        # The facts stand before anything else is asked: a server that goes away while its
        # resources and prompts are listed, or during a call or a read, loses only those.
        reading.facts = ServerFacts(
            name=info.name if info is not None else describe(target),
            title=info.title if info is not None else None,
            version=info.version if info is not None else None,
            summary=_summary(session.instructions, info),
            revisions=(version,),
            tools=tools,
            calls={},
        )
        try:
            await list_surface(session, reading.notes, heard, reading.listed)
        finally:  # what was listed before the session ended stands; the rest failed
            surface = reading.listed
            reading.facts = replace(
                reading.facts,
                resources=surface.resources,
                templates=surface.templates,
                prompts=surface.prompts,
                unlisted=dict(surface.failed),
            )
        if not unknown:
            await record_calls(session, chosen, options.timeout, reading.facts.calls, reading.notes, heard)


def _read_resources(
    target: Target, at: Revision, options: ImportOptions, reading: Reading, run: tuple[Budget, Path]
) -> None:
    """Read `reading.unread` in sessions at `at`, a new one each time a read ends one: the
    read that did is noted (a crash, no answer in time, an answer over
    `limits.message_bytes`) and the others go on. When the run's budget is spent, or a new
    session cannot be had, the resources left are noted together and the run ends."""
    budget, staging = run
    while reading.unread:
        spent = budget.spent()
        if spent is not None:
            _not_read(reading, spent)
            return
        opened: list[bool] = []
        try:
            done = interrupt.run(_read_some, target, at, options, reading, (budget, staging), opened)
        except Exception as exc:  # the SDK's transports raise what they meet, often in groups
            debug.handled(exc)
            if isinstance(innermost(exc), BudgetSpent) or not opened or not reading.unread:
                _not_read(reading, _said(exc) if opened else f"no new session: {_said(exc)}")
                return
            reading.notes.append(f"resources/read {reading.unread.pop(0).get('uri')}: not recorded: {_ended(exc)}")
            continue
        if done:
            return


def _ended(exc: BaseException) -> str:
    """Why a read ended its session, as its note says it."""
    first = innermost(exc)
    if isinstance(first, MessageTooLarge):
        return f"its answer exceeded limits.message_bytes ({first.limit:,} bytes)"
    return f"the connection ended: {_said(exc)}"


async def _read_some(
    target: Target, at: Revision, options: ImportOptions, reading: Reading, run: tuple[Budget, Path], opened: list[bool]
) -> bool:
    """Read resources of `reading.unread` in one new session until they are done (True) or
    one gets no answer in time (False); `opened` gains True once the session is open."""
    assert reading.facts is not None  # a read needs the listing's facts
    budget, staging = run
    limits = (options.timeout, options.headers, options.message_bytes)
    async with connected(
        target, at, *limits, capabilities=options.client_capabilities, budget=budget, server_log=options.server_log
    ) as (session, _):
        opened.append(True)
        contents = reading.facts.contents
        return await read_contents(session, reading.unread, options.timeout, contents, staging, reading.notes)


def _not_read(reading: Reading, why: str) -> None:
    """One note for the resources left unread, and none left."""
    uris = [str(r.get("uri")) for r in reading.unread]
    shown = ", ".join(uris[:3]) + (f" and {len(uris) - 3} more" if len(uris) > 3 else "")
    reading.notes.append(f"resources/read: {len(uris)} resource(s) not recorded ({shown}): {why}")
    reading.unread.clear()


def _refuse_unheld(heard: list[UnheldNumber]) -> None:
    """Raise `_Unheld` at the first number of the listing that no double holds as written (a
    server's `1e400` or `1e-400`, which the SDK has read as infinity or 0: `bounded`)."""
    found = first_in_result(heard, "/tools/")
    if found is not None:
        where, why = found
        raise _Unheld(f"the server's tools/list result holds a number no contract can hold at {where[1:]}: {why}")


def _listed_otherwise(newest: tuple[dict[str, Any], ...], tools: tuple[dict[str, Any], ...]) -> str | None:
    """What an older revision's listing says otherwise than the newest's: other tools, or
    another input schema (output schemas differ by revision as the protocol says)."""
    names, older = [t["name"] for t in newest], {t["name"]: t for t in tools}
    missing, extra = [n for n in names if n not in older], [n for n in older if n not in names]
    if missing or extra:
        return (
            "other tools"
            + (f" (not {', '.join(missing)})" if missing else "")
            + (f" (also {', '.join(extra)})" if extra else "")
        )
    for tool in newest:
        difference = schema_difference(tool.get("inputSchema"), older[tool["name"]].get("inputSchema"))
        if difference is not None:
            return f"another inputSchema of {tool['name']} ({difference.said()})"
    return None


def _summary(instructions: str | None, info: types.Implementation | None) -> str | None:
    for text in (instructions, info.description if info is not None else None):
        if isinstance(text, str) and text.strip():
            return text.strip()
    return None
