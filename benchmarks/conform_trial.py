"""The eight-server trial of issue 47: `mcp-contracts conform` against eight real servers, the
findings of each counted, for the issue's closing note ("the finding counts before and after").

The servers: the bookshop of tests/contracts/books on the Python SDK's `MCPServer`
(tests/servers/books_mcpserver.py), honest and with each of its six planted faults, and the
reference server mcp-server-git (pinned as tests/reference_servers.py pins it, installed into
an environment of its own, `--reference-env`), held to the contract `mcp-contracts import`
writes of it. Where that server cannot be installed (no package index), the eighth is the
honest bookshop on the low-level `Server` (tests/servers/books_lowlevel.py), and the table
says so. The honest servers are fuzzed (`--fuzz 20 --seed 1`); the faults are not.

Each run is `conform --report json:PATH` (the counts, by level and by rule) with its text on
standard output and error (its lines counted, the server's stderr among them). The contract
is generated (`--package books_contracts`) and judged in a temporary folder by the same
generator; `--generator DIR` runs another checkout's (a folder that holds the package
`mcp_contracts_generator`, put first on PYTHONPATH: the commit before issue 47, say), and
`--strip-column argument_error` removes a catalogue column such a checkout cannot load.
Not part of benchmarks/run.py: nothing here is a time. Run from the repository as

    .venv/bin/python benchmarks/conform_trial.py [--generator DIR] [--strip-column NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fresh_env import BIN, fresh_environment, pip_run  # noqa: E402  (the tests' helpers)

PYTHON = sys.executable
BOOKS = ROOT / "tests" / "contracts" / "books"
SERVERS = ROOT / "tests" / "servers"
# The planted faults of books_mcpserver.py, each about one example call or one listing.
FAULTS = (
    "success-for-error",
    "other-code",
    "crash-on-error",
    "retryable-contradicts",
    "missing-code",
    "drops-argument",
)
FUZZ = ("--fuzz", "20", "--seed", "1")
GIT_PIN = "mcp-server-git==2026.10.19"  # as tests/reference_servers.py pins it
LEVELS = ("error", "warning", "note")


@dataclass(frozen=True)
class Server:
    """One server of the trial: its name in the table, the contract, the command, its flags."""

    name: str
    contract: str
    command: tuple[str, ...]
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """What `conform` said of one server."""

    server: Server
    exit: int
    levels: Counter[str]
    rules: Counter[str]
    lines: int
    seconds: float
    problem: str | None


def _environment(generator: Path | None, generated: Path) -> dict[str, str]:
    """The conform process's environment: the generator under trial first, then the generated
    bookshop package (which the servers it starts inherit)."""
    paths = [str(generator)] if generator is not None else []
    paths += [str(generated / "python"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def _tool(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [PYTHON, "-m", "mcp_contracts_generator", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800, check=False)


def _books_sources(schemas: Path, strip: Sequence[str]) -> None:
    """tests/contracts/books copied under `schemas`, without the catalogue columns `strip` names."""
    folder = schemas / "contracts" / "books"
    shutil.copytree(BOOKS, folder)
    for column in strip:
        contract = folder / "contract.yaml"
        declared = re.compile(rf"^    {re.escape(column)}:\n(?:^      .*\n)+", re.MULTILINE)
        contract.write_text(declared.sub("", contract.read_text(encoding="utf-8")), encoding="utf-8")
        errors = folder / "errors.yaml"
        value = re.compile(rf"^    {re.escape(column)}: .*\n", re.MULTILINE)
        errors.write_text(value.sub("", errors.read_text(encoding="utf-8")), encoding="utf-8")


def _git_repository(folder: Path) -> Path:
    """A git repository with one commit (as tests/reference_servers.py makes it), for mcp-server-git."""
    folder.mkdir(parents=True)
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    env |= {"GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    ident = ["-c", "user.name=Trial", "-c", "user.email=trial@example.invalid"]
    (folder / "README.md").write_text("# A repository for mcp-server-git\n", encoding="utf-8")
    for step in (["init", "-q", "-b", "main"], ["add", "README.md"], [*ident, "commit", "-q", "-m", "First commit"]):
        subprocess.run(["git", *step], cwd=folder, env=env, check=True, capture_output=True)
    return folder


def _git_server(environment: Path, work: Path) -> tuple[str, ...] | str:
    """mcp-server-git's command (installed into `environment` unless it is there), or why not."""
    script = environment / BIN / "mcp-server-git"
    if not script.is_file():
        done = pip_run(fresh_environment(environment), "install", GIT_PIN, timeout=900)
        if done.returncode != 0 or not script.is_file():
            said = [line for line in done.stderr.splitlines() if line and not line.startswith("WARNING: Location")]
            return f"pip install {GIT_PIN} exited {done.returncode}: {' '.join(said[-2:])}"
    return (str(script), "--repository", str(_git_repository(work / "repository")))


def _eighth(environment: Path | None, work: Path, schemas: Path, env: dict[str, str]) -> tuple[Server, str]:
    """The reference server held to the contract `import` writes of it, else the honest bookshop
    on the low-level SDK; and a line that says which, and why."""
    lowlevel = Server("books, low-level Server, honest", "books", (PYTHON, str(SERVERS / "books_lowlevel.py")), FUZZ)
    if environment is None:
        return lowlevel, "the eighth server: the honest low-level bookshop (--no-reference)"
    command = _git_server(environment, work)
    if isinstance(command, str):
        return lowlevel, f"the eighth server: the honest low-level bookshop, since {command}"
    imported = _tool("import", "git", "--schemas", str(schemas), "--", *command, env=env)
    if imported.returncode != 0:
        tail = (imported.stdout + imported.stderr).strip().splitlines()[-1:]
        return lowlevel, f"the eighth server: the honest low-level bookshop, since import failed: {tail}"
    return Server("mcp-server-git (imported contract)", "git", command, FUZZ), f"the eighth server: {GIT_PIN}"


def _servers() -> list[Server]:
    mcpserver = (PYTHON, str(SERVERS / "books_mcpserver.py"))
    honest = Server("books, MCPServer, honest", "books", mcpserver, FUZZ)
    return [honest, *(Server(f"books, MCPServer, {f}", "books", (*mcpserver, "--fault", f)) for f in FAULTS)]


def _conform(server: Server, schemas: Path, work: Path, env: dict[str, str]) -> Outcome:
    report = work / f"report-{len(list(work.glob('report-*')))}.json"
    args = ["conform", "--schemas", str(schemas), "--contract", server.contract, "--report", f"json:{report}"]
    started = time.perf_counter()
    done = _tool(*args, *server.flags, "--", *server.command, env=env)
    seconds = time.perf_counter() - started
    lines = len((done.stdout + done.stderr).splitlines())
    if not report.is_file():
        problem = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["no report"]
        return Outcome(server, done.returncode, Counter(), Counter(), lines, seconds, problem[0])
    findings = json.loads(report.read_text(encoding="utf-8"))
    listed = findings.get("findings", [])
    levels = Counter(f["level"] for f in listed)
    rules = Counter(f"{f['rule']} [{f['level']}]" for f in listed)
    return Outcome(server, done.returncode, levels, rules, lines, seconds, findings.get("problem"))


def _table(outcomes: Sequence[Outcome]) -> str:
    head = "| server | exit | errors | warnings | notes | findings by rule | output lines | seconds |"
    rows = [head, "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for outcome in outcomes:
        flags = " ".join(outcome.server.flags)
        name = f"{outcome.server.name} ({flags})" if flags else outcome.server.name
        rules = ", ".join(f"{rule} x{count}" for rule, count in sorted(outcome.rules.items())) or "—"
        if outcome.problem:
            rules = f"{rules}; problem: {outcome.problem}"
        counts = " | ".join(str(outcome.levels.get(level, 0)) for level in LEVELS)
        rows.append(f"| {name} | {outcome.exit} | {counts} | {rules} | {outcome.lines} | {outcome.seconds:.1f} |")
    return "\n".join(rows)


def trial(generator: Path | None, strip: Sequence[str], reference: Path | None, work: Path) -> tuple[str, str]:
    """The table of the eight runs, and the line that names the eighth server."""
    schemas, generated = work / "schemas", work / "generated"
    _books_sources(schemas, strip)
    env = _environment(generator, generated)
    made = _tool(
        "generate", "--schemas", str(schemas), "--out", str(generated), "--package", "books_contracts", env=env
    )
    if made.returncode != 0:
        raise SystemExit(f"generate of the books contract failed (exit {made.returncode}):\n{made.stdout}{made.stderr}")
    eighth, said = _eighth(reference, work, schemas, env)
    outcomes = [_conform(server, schemas, work, env) for server in (*_servers(), eighth)]
    return _table(outcomes), said


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generator", type=Path, help="a folder holding the mcp_contracts_generator to try")
    parser.add_argument("--strip-column", action="append", default=[], help="a catalogue column to remove")
    parser.add_argument(
        "--reference-env",
        type=Path,
        default=Path(tempfile.gettempdir()) / "mcp-contracts-trial-git",
        help="the environment of mcp-server-git (made when missing)",
    )
    parser.add_argument("--no-reference", action="store_true", help="the low-level bookshop as the eighth server")
    options = parser.parse_args(argv)
    reference = None if options.no_reference else options.reference_env
    with tempfile.TemporaryDirectory(prefix="conform-trial-") as place:
        table, said = trial(options.generator, options.strip_column, reference, Path(place))
    print(table)
    print(f"\n{said}")


if __name__ == "__main__":
    main()
