"""`import` leaves what it cannot read as it was, and reads a server within bounds (issue 51).

A listing that fails (an error, a crash, no answer in time, a result that is not one, a
`nextCursor` that loops) leaves its file byte for byte; a read that crashes the server or
gets no answer ends its session and the others are read in a new one; the run is held to
`limits.server_bytes` and `limits.server_seconds`, and the reads they cut short are one note.

The server is tests/servers/unreliable_surface.py, a bare server that fails where a test says.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_cli
from forkserver import python
from mcp_contracts_generator import api

SERVER = ROOT / "tests" / "servers" / "unreliable_surface.py"
CAPABILITIES = {"tools": {}, "resources": {}, "prompts": {}}
TEXT = {"mimeType": "text/plain"}
SPEC: dict[str, Any] = {
    "capabilities": CAPABILITIES,
    "tools": [{"name": "ping", "inputSchema": {"type": "object"}}],
    "resources": [
        {"uri": "file:///config.json", "name": "config", "mimeType": "application/json"},
        {"uri": "file:///a.txt", "name": "a", **TEXT},
        {"uri": "file:///b.txt", "name": "b", **TEXT},
    ],
    "resourceTemplates": [{"uriTemplate": "file:///items/{id}", "name": "item"}],
    "prompts": [{"name": "review", "arguments": [{"name": "code", "required": True}]}],
    "contents": {
        "file:///config.json": [{"uri": "file:///config.json", "mimeType": "application/json", "text": '{"a": 1}'}],
        "file:///a.txt": [{"uri": "file:///a.txt", "mimeType": "text/plain", "text": "alpha"}],
        "file:///b.txt": [{"uri": "file:///b.txt", "mimeType": "text/plain", "text": "beta"}],
    },
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project").mkdir()
    return tmp_path / "project"


def server(tmp_path: Path, spec: dict[str, Any], name: str = "spec.json") -> tuple[str, ...]:
    path = tmp_path / name
    path.write_text(json.dumps(spec), encoding="utf-8")
    return ("--", *python(str(SERVER), str(path)))


def folder(project: Path) -> Path:
    return project / "schemas" / "contracts" / "imported"


def notes(stderr: str) -> list[str]:
    return [line.removeprefix("note: ") for line in stderr.splitlines() if line.startswith("note: ")]


def files_of(path: Path) -> dict[str, bytes]:
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def limits(project: Path, **values: int) -> None:
    lines = "".join(f"{key} = {value}\n" for key, value in values.items())
    (project / "pyproject.toml").write_text(f"[tool.mcp-contracts.limits]\n{lines}", encoding="utf-8")


def _imported_by_hand(tmp_path: Path, project: Path) -> dict[str, bytes]:
    """A contract imported from SPEC with its resources read, then given a hand-written
    `schema:` and comments in resources.yaml and prompts.yaml, and `messages:`: its files."""
    result = run_cli("import", "imported", "--read-resources", *server(tmp_path, SPEC, "good.json"), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    resources = folder(project) / "resources.yaml"
    typed = "    mimeType: application/json\n"
    text = resources.read_text(encoding="utf-8").replace(typed, f"{typed}    schema: {{type: object}}  # ours\n", 1)
    resources.write_text("# kept by hand\n" + text, encoding="utf-8")
    prompts = folder(project) / "prompts.yaml"
    messages = '    messages:\n      - role: user\n        content: {type: text, text: "Review {code}."}\n'
    prompts.write_text("# ours too\n" + prompts.read_text(encoding="utf-8") + messages, encoding="utf-8")
    loaded = api.load(project / "schemas")
    assert loaded.project is not None, [str(d) for d in loaded.diagnostics]
    return files_of(folder(project))


FAULTS = [
    ("resources/list", "crash", "resources.yaml"),
    pytest.param("resources/list", "hang", "resources.yaml", marks=pytest.mark.slow),  # the deadline's seconds
    ("resources/list", {"result": {"resources": 5}}, "resources.yaml"),
    ("resources/list", "error", "resources.yaml"),
    ("resources/templates/list", {"result": {"resourceTemplates": "none"}}, "resources.yaml"),
    ("prompts/list", "error", "prompts.yaml"),
    ("prompts/list", "crash", "prompts.yaml"),
]


@pytest.mark.parametrize(
    ("method", "fault", "file"),
    FAULTS,
    ids=["crash", "timeout", "malformed", "error", "templates", "prompts", "prompts-crash"],
)
def test_a_listing_that_fails_leaves_its_file_as_it_was(
    tmp_path: Path, project: Path, method: str, fault: Any, file: str
) -> None:
    """The hand-written `schema:`, `messages:` and comments of a file whose listing failed
    stay byte for byte, and the contents files it names with them; a note says why."""
    before = _imported_by_hand(tmp_path, project)
    spec = {**SPEC, "faults": {method: fault}}
    result = run_cli(
        "import", "imported", "--write", "--read-resources", "--timeout", "1", *server(tmp_path, spec), cwd=project
    )
    assert result.returncode == 0, result.stdout + result.stderr
    after = files_of(folder(project))
    assert after[file] == before[file]
    assert {p for p in after if p.startswith("examples/")} == {p for p in before if p.startswith("examples/")}
    said = [n for n in notes(result.stderr) if n.startswith(f"{file}: left as it was, its listing not read: ")]
    assert len(said) == 1 and method in said[0], result.stderr
    assert "up to date" not in result.stdout and "not every listing was read" in result.stdout, result.stdout


@pytest.mark.parametrize("method", ["resources/list", "resources/templates/list", "prompts/list"])
@pytest.mark.parametrize("fault", ["loop", "count"])
def test_a_surface_listing_that_never_ends_writes_nothing_of_it(
    tmp_path: Path, project: Path, method: str, fault: str
) -> None:
    """A `nextCursor` given before, or one still there after 100 pages: that listing is not
    read to its end, so its file is not written as if it were."""
    file = "prompts.yaml" if method == "prompts/list" else "resources.yaml"
    result = run_cli("import", "imported", *server(tmp_path, {**SPEC, "faults": {method: fault}}), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (folder(project) / file).exists()
    said = [n for n in notes(result.stderr) if n.startswith(f"{file}: not written, its listing not read: {method}: ")]
    why = "the listing loops" if fault == "loop" else "still a nextCursor after 100 pages"
    assert len(said) == 1 and why in said[0], result.stderr


@pytest.mark.parametrize("fault", ["loop", "count"])
def test_a_tool_listing_that_never_ends_is_an_error(tmp_path: Path, project: Path, fault: str) -> None:
    result = run_cli("import", "imported", *server(tmp_path, {**SPEC, "faults": {"tools/list": fault}}), cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    why = "the listing loops" if fault == "loop" else "still a nextCursor after 100 pages"
    assert "cannot read the tools of" in result.stderr and why in result.stderr, result.stderr
    assert not folder(project).exists()


def test_a_read_that_crashes_the_server_is_noted_and_the_others_are_read_anew(tmp_path: Path, project: Path) -> None:
    spec = {**SPEC, "faults": {"file:///a.txt": "crash"}}
    result = run_cli("import", "imported", "--read-resources", *server(tmp_path, spec), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    reads = [n for n in notes(result.stderr) if n.startswith("resources/read")]
    assert len(reads) == 1 and reads[0].startswith("resources/read file:///a.txt: not recorded: "), result.stderr
    assert "status 3" in reads[0] and "crashing on purpose" in reads[0], reads
    contents = folder(project) / "examples" / "resources"
    assert sorted(p.name for p in contents.iterdir()) == ["b.txt", "config.json"]


def test_a_read_without_an_answer_ends_its_session_and_the_others_are_read_anew(tmp_path: Path, project: Path) -> None:
    """The server hangs on the first resource: waiting out one timeout, not one per read."""
    spec = {**SPEC, "faults": {"file:///config.json": "hang"}}
    result = run_cli("import", "imported", "--read-resources", "--timeout", "1", *server(tmp_path, spec), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    reads = [n for n in notes(result.stderr) if n.startswith("resources/read")]
    assert len(reads) == 1 and reads[0].startswith("resources/read file:///config.json: not recorded: "), reads
    contents = folder(project) / "examples" / "resources"
    assert sorted(p.name for p in contents.iterdir()) == ["a.txt", "b.txt"]


def test_reads_past_the_servers_bytes_are_one_note(tmp_path: Path, project: Path) -> None:
    """20 resources of 3,000 bytes, 30,000 bytes for the run: some are read and written, the
    rest are one note naming the bound; the contract is written with what was read."""
    limits(project, server_bytes=30_000)
    spec = {"capabilities": CAPABILITIES, "resources": [], "generated": {"count": 20, "size": 3_000}}
    result = run_cli("import", "imported", "--read-resources", *server(tmp_path, spec), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    reads = [n for n in notes(result.stderr) if n.startswith("resources/read")]
    bound = "the server's messages exceeded limits.server_bytes (30,000 bytes in all)"
    assert len(reads) == 1 and reads[0].startswith("resources/read: ") and reads[0].endswith(bound), reads
    written = list((folder(project) / "examples" / "resources").iterdir())
    left = int(reads[0].removeprefix("resources/read: ").split()[0])
    assert 0 < len(written) < 20 and len(written) + left == 20, (len(written), reads)


def test_reads_past_the_deadline_are_one_note(tmp_path: Path, project: Path) -> None:
    """Each read waits out a second; the run has 4: those left at the deadline are one note."""
    limits(project, server_seconds=4)
    spec = {
        "capabilities": CAPABILITIES,
        "resources": [],
        "generated": {"count": 12, "size": 10},
        "faults": {f"file:///r{i}.txt": {"sleep": 1.0} for i in range(12)},
    }
    started = time.monotonic()
    result = run_cli("import", "imported", "--read-resources", *server(tmp_path, spec), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert time.monotonic() - started < 10
    reads = [n for n in notes(result.stderr) if n.startswith("resources/read")]
    bound = "the run reached limits.server_seconds (4 s in all)"
    assert len(reads) == 1 and reads[0].endswith(bound), reads
    left = int(reads[0].removeprefix("resources/read: ").split()[0])
    written = folder(project) / "examples" / "resources"
    assert 0 < left <= 12 and len(list(written.iterdir()) if written.exists() else []) + left == 12


@pytest.mark.fires("endless-tool-list")
@pytest.mark.parametrize("method", ["resources/list", "prompts/list"])
def test_conform_says_a_surface_listing_that_loops_at_once(tmp_path: Path, project: Path, method: str) -> None:
    """`conform` reads a listing as `import` does: a `nextCursor` given before is a loop,
    said on the page it comes, not after a hundred pages of the same entries."""
    _imported_by_hand(tmp_path, project)
    spec = {**SPEC, "faults": {method: "loop"}}
    command = ("conform", "--contract", "imported", "--format", "json", "--protocol", "2025-06-18")
    result = run_cli(*command, *server(tmp_path, spec), cwd=project)
    report = json.loads(result.stdout)
    found = [f for f in report["findings"] if f["rule"] == "endless-tool-list" and f["subject"] == method]
    assert result.returncode == 1 and len(found) == 1, report["findings"]
    assert "the listing loops" in found[0]["message"], found
