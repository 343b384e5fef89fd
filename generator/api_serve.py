"""The commands that talk MCP, as `api.run` runs them: `mock` serves a contract of the sources,
`conform` holds a server to one, `import` writes one from a server; the file a started server's
standard error is kept in (`--server-log`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from . import api_sources as sources
from . import options as _options
from .config import Settings
from .diagnostics import Refused, display_path

if TYPE_CHECKING:  # the MCP SDK is imported when a command that talks to a server runs
    from .conformance.conform import ConformOptions, Target
    from .findings import finding as findings
    from .importing.importer import ImportOptions

# The session options of `conform` and `import`: both bounded alike (`_ServerLog.bounding`).
_Session = TypeVar("_Session", "ConformOptions", "ImportOptions")


def run_mock(chosen: Settings, flags: _options.Mock) -> findings.Outcome:
    """Serve the contract until the server is stopped; an outcome with a `problem` when it
    cannot be served (each problem of the sources, `error: ` before all but the first)."""
    from .findings.finding import Outcome
    from .interrupt import run as run_until_stopped
    from .serving.mock import Mock, announce_to_stderr, bind, build_server, serve_http, serve_stdio

    found = sources.served_contract(chosen, flags.contract)
    if isinstance(found, list):
        return Outcome("mock", (), (), problem="\nerror: ".join(map(str, found)))
    server = build_server(Mock(found))
    if flags.transport == "stdio":
        run_until_stopped(serve_stdio, server)
        return Outcome("mock", (), ())
    bound = bind(flags.host, flags.port)
    if isinstance(bound, Refused):
        return Outcome("mock", (), (), problem=str(bound))
    run_until_stopped(serve_http, server, bound, announce_to_stderr)
    return Outcome("mock", (), ())


def run_conform(chosen: Settings, flags: _options.Conform) -> findings.Outcome:
    """Hold the MCP server at `target` (a URL, or a command's `StdioServerParameters`) to the
    contract: its findings at the levels of `[tool.mcp-contracts.rules]` and the contract's
    `rules:` (`extra_tools:` sets `extra-tool`); sources that do not load are `source-invalid`
    findings, an unknown contract or a server not reached the outcome's `problem`."""
    from .conformance.conform import ConformOptions, conform, describe
    from .findings import finding as findings
    from .findings.outcome_facts import ConformFacts
    from .serving.served import served

    contract, target = flags.contract, flags.target
    loaded = sources.load(chosen)
    if loaded.project is None:
        return findings.Outcome.refused("conform", loaded.diagnostics)
    found = next((c for c in loaded.project.contracts if c.name == contract), None)
    if found is None:
        unknown = sources.source_contract(chosen, contract)  # says which names are close
        facts = ConformFacts(contract, describe(target), False)
        problem = "; ".join(map(str, unknown)) if isinstance(unknown, list) else f"unknown contract {contract!r}"
        return findings.Outcome("conform", (), (), facts=facts, problem=problem)
    options = flags.session or ConformOptions()
    log = _server_log(chosen, "conform", contract, target, options.server_log)
    if log.problem is not None:
        facts = ConformFacts(contract, describe(target), False)
        return findings.Outcome("conform", (), (), facts=facts, problem=log.problem)
    bounded = log.bounding(options, chosen)
    report = conform(served(found), target, bounded)
    outcome = report.outcome(sources.policy(chosen, loaded.project.contracts))
    if outcome.problem is not None:  # one error, first and last: it names the file itself
        return replace(outcome, problem=outcome.problem + "".join(f"; {n.message}" for n in log.notes()))
    return replace(outcome, notes=(*outcome.notes, *log.notes()))


@dataclass(frozen=True)
class _ServerLog:
    """Where a run keeps the standard error of the server it starts (`client.server_log`):
    `path` (None: a server at a URL, whose standard error is its own, or `--server-log -`),
    `temporary` when it is a new file of the system's temporary folder; or why it cannot be
    kept where `--server-log` says (`problem`)."""

    path: Path | None = None
    problem: str | None = None
    temporary: bool = False

    def bounding(self, options: _Session, chosen: Settings) -> _Session:
        """A session's `options` within the project's limits, the server's standard error kept here."""
        limits = chosen.limits
        return replace(
            options,
            message_bytes=limits.message_bytes,
            server_bytes=limits.server_bytes,
            server_seconds=limits.server_seconds,
            server_log=self.path,
        )

    def notes(self) -> tuple[findings.Note, ...]:
        """A note that names the file, once the run is over and the server wrote to it (a
        temporary one it left empty is removed)."""
        from .client.server_log import kept
        from .findings.finding import Note
        from .rules import Level

        if self.path is None:
            return ()
        if not kept(self.path):
            if self.temporary:
                self.path.unlink(missing_ok=True)
            return ()
        return (Note(Level.NOTE, f"the server's standard error is kept in {display_path(self.path)}"),)


def _server_log(chosen: Settings, command: str, contract: str, target: Target, given: Path | None) -> _ServerLog:
    """The file a run of `command` keeps a started server's standard error in, emptied: `given`
    (`--server-log`, refused inside the project's sources, output, templates, settings or git's
    files; `-`: none, this process's standard error), else one of this machine's cache folder
    for this project, command, contract and server command line (`client.server_log.default_path`),
    else a new file of the system's temporary folder."""
    import os
    import tempfile

    from .client.server_log import begin, default_path
    from .diagnostics import printable
    from .findings.report_file import guarded_problem

    if isinstance(target, str):
        said = "--server-log goes with a command: a server at a URL keeps its standard error"
        return _ServerLog(problem=said if given is not None else None)
    if given is not None and str(given) == "-":  # our own standard error, as the server writes it
        return _ServerLog()
    if given is not None:
        named = f"--server-log {printable(str(given))}"
        guarded = guarded_problem(given, chosen)
        if guarded is not None:  # its words are a report's: where it is, said again
            where = guarded.split(":")[0]
            return _ServerLog(problem=f"{named}: {where}, which is no place for the server's standard error")
        problem = begin(given)
        return _ServerLog(given) if problem is None else _ServerLog(problem=f"{named}: {problem}")
    path = default_path(chosen.root, command, contract, [target.command, *target.args])
    if path is not None and begin(path) is None:
        return _ServerLog(path)
    try:
        handle, made = tempfile.mkstemp(prefix=f"mcp-contracts-{command}-", suffix=".log")  # O_EXCL, 0600
    except OSError:  # nowhere to keep it: on our own standard error, as the server writes it
        return _ServerLog()
    os.close(handle)
    return _ServerLog(Path(made), temporary=True)


def run_import(chosen: Settings, flags: _options.Import) -> findings.Outcome:
    """Read the MCP server at `target` and write contract `name` from what it lists (see
    `generator.importing`); the notes of the run (revisions not spoken, tools not called) are
    the outcome's `notes`.

    A new contract is written at once. For one that exists, the outcome's findings are what an
    import changes (`breaking`'s rules at the project's levels) and nothing is written unless
    `write`; `pending` (exit 1) when there are changes left unwritten. A server not read is the
    outcome's `problem`; files that would not load are `source-invalid` findings, and nothing
    is written."""
    from .findings.finding import Note
    from .rules import Level

    outcome, notes = _imported(chosen, flags)
    return replace(outcome, notes=(*(Note(Level.NOTE, note) for note in notes), *outcome.notes))


def _imported(chosen: Settings, flags: _options.Import) -> tuple[findings.Outcome, list[str]]:
    """`run_import`'s outcome, and its notes apart."""
    import tempfile

    from .client.connect import describe
    from .findings import finding as findings
    from .findings.outcome_facts import ImportFacts
    from .importing.importer import ImportOptions, read_server
    from .importing.pipeline import import_contract
    from .scaffold import name_problem

    name, target, options, write = flags.name, flags.target, flags.session or ImportOptions(), flags.write
    facts = ImportFacts(name, describe(target), [], [], False)
    problem = name_problem(chosen, name)
    if problem is not None:
        return findings.Outcome("import", (), (), facts=facts, problem=str(problem)), []
    log = _server_log(chosen, "import", name, target, options.server_log)
    if log.problem is not None:
        return findings.Outcome("import", (), (), facts=facts, problem=log.problem), []
    bounded = log.bounding(options, chosen)
    with tempfile.TemporaryDirectory(prefix="mcp-contracts-import-read-") as staging:  # the contents read
        reading = read_server(target, bounded, Path(staging))
        said = [note.message for note in log.notes()]
        if reading.facts is None or reading.problem is not None:  # one error: it names the file itself
            unread = (reading.problem or "") + "".join(f"; {message}" for message in said)
            return findings.Outcome("import", (), (), facts=facts, problem=unread or None), reading.notes
        imported = import_contract(chosen, name, reading.facts, write=write)
    notes = reading.notes + imported.notes + said
    written = [display_path(path) for path in imported.written]
    removed = [display_path(path) for path in imported.removed]
    facts = ImportFacts(name, describe(target), written, removed, imported.changed)
    if imported.diagnostics:  # (a write that failed midway names what it wrote before)
        return findings.Outcome.refused("import", imported.diagnostics, facts), notes
    policy = sources.policy(chosen, [])
    found = tuple(policy.apply(imported.changes))
    where = display_path(imported.folder)
    if imported.created:
        summary = f"wrote {where} ({len(written)} file(s)); next: mcp-contracts generate"
    elif not imported.changed and reading.facts.unlisted:  # a file left as it was is not up to date
        summary = f"{where}: nothing changed, but not every listing was read (see the notes)."
    elif not imported.changed:
        summary = f"{where} is up to date with the server."
    elif write:
        taken = f", removed {len(removed)} ({', '.join(removed)})" if removed else ""
        summary = f"wrote {len(written)} file(s) of {where} ({', '.join(written)}){taken}: {len(found)} change(s)."
    else:
        named = ", ".join(imported.changed_files)
        summary = (
            f"{len(found)} change(s) to {where} ({len(imported.changed_files)} file(s): {named}), not written:"
            " run again with --write to write them."
        )
    pending = imported.changed and not write and not imported.created
    ran = policy.ran("breaking")
    outcome = findings.Outcome("import", found, ran, facts=facts, summary=summary, pending=pending, failing=False)
    return outcome, notes
