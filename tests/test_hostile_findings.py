"""The second round of hostile findings (issue 17): each test is one finding of a tester.

They run the real thing: real FIFOs and devices, real subprocesses (with a timeout, where
the finding was a hang), real umasks, real permissions and a real SIGKILL.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import JSONRPC, run_cli, run_process, tree_bytes
from hostile.cases import CASES, Case
from mcp_contracts_generator import write
from mcp_contracts_generator.write import FileSystem

CONTRACT = JSONRPC


@pytest.fixture
def project(jsonrpc_project: Path) -> Path:
    return jsonrpc_project


def run(*args: str, cwd: Path, timeout: float = 60, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """`mcp-contracts ARGS` in a process of its own, as a user runs it."""
    return run_process(*args, cwd=cwd, timeout=timeout, input=input)


# 1. A FIFO, a device or a folder given to `validate` is refused at once, named.


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_validate_refuses_what_is_not_a_regular_file_at_once(project: Path, kind: str) -> None:
    name = {"fifo": "pipe.json", "device": "/dev/zero", "folder": "folder.json"}[kind]
    if kind == "fifo":
        os.mkfifo(project / name)  # no writer: an open() for reading would wait forever
    elif kind == "folder":
        (project / name).mkdir()
    (project / "good.json").write_text('{"id": "1", "jsonrpc": "2.0", "method": "m", "params": {}}')
    result = run("validate", "--contract", "jsonrpc", name, "good.json", cwd=project, timeout=30)
    what = {"fifo": "a FIFO", "device": "a character device", "folder": "a folder"}[kind]
    assert result.returncode == 2, result.stderr
    assert f"{name}: error: cannot read: {what}, not a regular file" in result.stdout
    assert "good.json: valid" in result.stdout  # the other documents are still judged
    assert "Traceback" not in result.stderr


def test_validate_still_reads_standard_input(project: Path) -> None:
    document = '{"id": "1", "jsonrpc": "2.0", "method": "m", "params": {}}'
    result = run("validate", "--contract", "jsonrpc", "-", cwd=project, input=document)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "<stdin>: valid" in result.stdout


def test_a_fifo_among_the_sources_is_refused_at_once(project: Path) -> None:
    os.mkfifo(project / CONTRACT / "examples" / "pipe.json")
    before = tree_bytes(project / "generated")
    result = run("generate", cwd=project, timeout=60)
    assert result.returncode == 2
    assert "pipe.json: a FIFO, not a regular file: not read" in result.stderr
    assert tree_bytes(project / "generated") == before


# 3. The output's folders and files get the modes the umask gives, as mkdir and open do.


def _modes(folder: Path) -> set[tuple[str, int]]:
    paths = [folder, *folder.rglob("*")]
    return {("folder" if p.is_dir() else "file", p.stat().st_mode & 0o7777) for p in paths}


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o002])
def test_the_output_gets_the_modes_of_the_umask(project: Path, umask: int) -> None:
    """The umask of this process, set for the two runs (in-process: a worker runs one test
    at a time, and the umask is restored after)."""
    shutil.rmtree(project / "generated")
    before = os.umask(umask)
    try:
        assert run_cli("generate", cwd=project).returncode == 0  # a new output folder
        assert _modes(project / "generated") == {("folder", 0o777 & ~umask), ("file", 0o666 & ~umask)}
        tools = project / CONTRACT / "tools.yaml"
        tools.write_text(tools.read_text().replace("Loads a document", "Loads one document"))
        result = run_cli("generate", cwd=project)  # an output folder replaced
    finally:
        os.umask(before)
    assert result.returncode == 0 and "file(s) changed" in result.stdout, result.stderr
    assert _modes(project / "generated") == {("folder", 0o777 & ~umask), ("file", 0o666 & ~umask)}


# 2. What a killed `generate` left beside the output goes at the next `generate`, even one
# that finds nothing to change; `check` neither removes it nor calls it drift.


def _leftovers(project: Path) -> list[str]:
    return sorted(p.name for p in project.iterdir() if p.name.startswith((".generated.new-", ".generated.old-")))


def test_generate_with_nothing_to_change_removes_leftovers(project: Path) -> None:
    staging = project / ".generated.new-k1ll3d"
    (staging / "python").mkdir(parents=True)
    (staging / "python" / "half.py").write_text("# half written\n")
    (project / ".generated.old-k1ll3d" / "tree").mkdir(parents=True)
    before = tree_bytes(project / "generated")
    checked = run_cli("check", cwd=project)
    assert checked.returncode == 0 and "is up to date" in checked.stdout  # not drift
    assert _leftovers(project) == [".generated.new-k1ll3d", ".generated.old-k1ll3d"]  # check writes nothing
    result = run_cli("generate", cwd=project)
    assert result.returncode == 0 and "generated is up to date." in result.stdout
    assert _leftovers(project) == []
    assert tree_bytes(project / "generated") == before


# A real `generate` process that kills itself with SIGKILL after its third file in the staging
# folder: the moment is fixed, not raced (a faster `generate` left a busy-waiting test no window).
_KILLED_WHILE_WRITING = """
import os, signal, sys
from mcp_contracts_generator import write
from mcp_contracts_generator.cli import main

written = write.FileSystem.write
count = 0


def write_then_die(self, path, content):
    global count
    written(self, path, content)
    count += 1
    if count == 3:
        os.kill(os.getpid(), signal.SIGKILL)


write.FileSystem.write = write_then_die
sys.argv = ["mcp-contracts", "generate"]
main()
"""


def test_what_a_sigkilled_generate_left_goes_at_the_next_generate(project: Path) -> None:
    """A real `generate`, killed while its staging folder is half written."""
    tools = project / CONTRACT / "tools.yaml"
    old_text = tools.read_text()
    tools.write_text(old_text.replace("Loads a document", "Loads one document"))
    before = tree_bytes(project / "generated")
    killed = subprocess.run([sys.executable, "-c", _KILLED_WHILE_WRITING], cwd=project, capture_output=True)
    assert killed.returncode == -9, killed.stderr
    assert [name.startswith(".generated.new-") for name in _leftovers(project)] == [True]
    assert tree_bytes(project / "generated") == before  # killed before the swap: the old tree
    tools.write_text(old_text)
    result = run_cli("generate", cwd=project)  # the next run finds nothing to change
    assert result.returncode == 0 and "generated is up to date." in result.stdout, result.stdout + result.stderr
    assert _leftovers(project) == []


# 4. `generate` run from inside the output folder replaces it and says so, without a traceback.


@pytest.mark.parametrize("out", [None, ".."], ids=["configured", "--out .."])
def test_generate_from_inside_the_output_folder(project: Path, out: str | None) -> None:
    tools = project / CONTRACT / "tools.yaml"
    tools.write_text(tools.read_text().replace("Loads a document", "Loads one document"))
    args = ("generate",) if out is None else ("generate", "--out", out)
    result = run(*args, cwd=project / "generated" / "python")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "updated  ../docs/jsonrpc.md" in result.stdout
    assert "file(s) changed in .." in result.stdout
    assert "note: .. held the working folder and was replaced: `cd .` to see the new files" in result.stderr
    checked = run_cli("check", cwd=project)
    assert checked.returncode == 0, checked.stdout
    assert sorted(p.name for p in project.iterdir()) == ["generated", "pyproject.toml", "schemas"]


# 7. A file's name is shown on one line, whatever it holds: control characters escaped.


def test_a_newline_in_a_source_name_stays_on_the_diagnostic_line(project: Path) -> None:
    (project / CONTRACT / "examples" / "bad\nname.json").write_text("{")
    result = run("generate", cwd=project)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines == [
        "error: schemas/contracts/jsonrpc/examples/bad\\nname.json:1: invalid JSON:"
        " Expecting property name enclosed in double quotes (column 2)",
        "1 problem(s); nothing was written.",
    ]


def test_names_in_the_output_folder_and_documents_are_escaped(project: Path) -> None:
    os.mkdir(project / "generated" / "odd")
    (project / "generated" / "odd" / "x\ny").write_text("x")
    (project / "generated" / "odd" / os.fsdecode(b"\xff.md")).write_text("x")
    checked = run("check", cwd=project)
    assert checked.returncode == 1, checked.stderr
    assert "extra    odd/x\\ny\n" in checked.stdout and "extra    odd/\\xff.md\n" in checked.stdout
    generated = run("generate", cwd=project)
    assert generated.returncode == 0, generated.stderr
    assert "removed  generated/odd/x\\ny\n" in generated.stdout
    (project / "red\x1b[31m.json").write_text("{}")
    validated = run("validate", "--contract", "jsonrpc", "red\x1b[31m.json", cwd=project)
    assert validated.stdout.splitlines()[0] == "red\\x1b[31m.json: invalid"


# 5. A lone surrogate escape is named as one: in a document (line and column), and in a
# source (file and line, or JSON pointer), where it used to end in a UnicodeEncodeError.

LONE = "\\ud800"  # the six characters of the escape, as a file holds them


@pytest.mark.parametrize(
    ("document", "where"),
    [
        (f'"{LONE}"', "line 1, column 2"),
        (f'{{"id": "1",\n "method": "a{LONE}b"}}', "line 2, column 14"),
        (f'["{LONE}\\u0041"]', "line 1, column 3"),
        ('["\\udc00"]', "line 1, column 3"),
        (f'{{"{LONE}": 1}}', "line 1, column 3"),
    ],
)
def test_validate_names_a_lone_surrogate_escape(project: Path, document: str, where: str) -> None:
    (project / "d.json").write_text(document)
    result = run_cli("validate", "--contract", "jsonrpc", "d.json", cwd=project)
    assert result.returncode == 2
    escape = "\\udc00" if "udc00" in document else LONE
    message = f"d.json: error: not JSON: a lone surrogate escape {escape} at {where}: half of a UTF-16 pair"
    assert message in result.stdout


def test_a_surrogate_pair_and_an_escaped_backslash_are_no_lone_surrogate(project: Path) -> None:
    document = '{"id": "\\ud83d\\ude00", "jsonrpc": "2.0", "method": "\\\\ud800", "params": {}}'
    (project / "d.json").write_text(document)
    result = run_cli("validate", "--contract", "jsonrpc", "d.json", cwd=project)
    assert (result.returncode, result.stdout) == (0, "d.json: valid\n")


@pytest.mark.parametrize(
    ("source", "old", "new", "where"),
    [
        ("examples/tool-invoke.json", '"docs/sample.md"', f'"{LONE}"', "examples/tool-invoke.json#/params/input/path"),
        ("errors.yaml", "message: Invalid MCP envelope", f'message: "x{LONE}"', "errors.yaml:7"),
        ("tools.yaml", "description: Loads a document by path.", f'description: "{LONE}"', "tools.yaml:4"),
        ("envelope.schema.json", '"title": "JsonRpcEnvelope"', f'"title": "{LONE}"', "envelope.schema.json#/title"),
        ("contract.yaml", "  errors:\n", f'  errors:\n    "{LONE}":\n', "contract.yaml:19"),
    ],
)
def test_generate_names_a_lone_surrogate_in_a_source(
    project: Path, source: str, old: str, new: str, where: str
) -> None:
    path = project / CONTRACT / source
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    before = tree_bytes(project / "generated")
    result = run_cli("generate", cwd=project)
    assert result.returncode == 2, result.stdout
    assert f"/jsonrpc/{where}: a lone surrogate escape \\ud800: half of a UTF-16 pair" in result.stderr
    assert "Traceback" not in result.stderr
    assert tree_bytes(project / "generated") == before


def test_a_template_that_writes_a_lone_surrogate_is_named(project: Path) -> None:
    (project / "tpl").mkdir()
    (project / "tpl" / "README.md.jinja").write_text('# Generated by mcp-contracts\n{{ "' + LONE + '" }}\n')
    before = tree_bytes(project / "generated")
    result = run_cli("generate", "--templates", "tpl", cwd=project)
    assert result.returncode == 2
    assert result.stderr.startswith("error: tpl: template: wrote \\ud800, which UTF-8 cannot hold\n")
    assert tree_bytes(project / "generated") == before


# 6. An output tree this user cannot remove is refused before anything changes; when the
# old tree still cannot go after the swap, `generate` says what it did.


def _as_a_user(args: list[str]) -> list[str]:
    """`args`, run so that file permissions hold: as this user, or, for root (whom they do
    not bind), without the capabilities that override them (setpriv); skip when neither."""
    if os.geteuid() != 0:
        return args
    setpriv = shutil.which("setpriv")
    drop = [setpriv or "setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
    if setpriv is None or subprocess.run([*drop, "true"], check=False, capture_output=True).returncode != 0:
        pytest.skip("runs as root, whom permissions do not bind, and setpriv cannot drop the capabilities")
    return [*drop, *args]


def test_a_read_only_output_is_refused_before_any_change(project: Path) -> None:
    tools = project / CONTRACT / "tools.yaml"
    tools.write_text(tools.read_text().replace("Loads a document", "Loads one document"))
    before = tree_bytes(project / "generated")
    folders = sorted(p for p in (project / "generated").rglob("*") if p.is_dir())
    for folder in folders:  # chmod -R a-w generated/*/
        folder.chmod(folder.stat().st_mode & ~0o222)
    try:
        command = _as_a_user([sys.executable, "-m", "mcp_contracts_generator", "generate"])
        result = subprocess.run(command, cwd=project, capture_output=True, text=True, check=False, timeout=60)
    finally:
        for folder in folders:
            folder.chmod(folder.stat().st_mode | 0o200)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "cannot write: this user cannot remove what the folder holds (read-only?)" in result.stderr
    assert result.stderr.startswith("error: generated/")
    assert tree_bytes(project / "generated") == before
    assert _leftovers(project) == []
    assert run_cli("generate", cwd=project).returncode == 0  # writable again: it goes through


class _CannotRemove(FileSystem):
    """A file system on which no tree can be removed (a file made immutable, say)."""

    def remove_tree(self, path: Path) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted", str(path / "docs"))


def test_an_old_tree_that_stays_after_the_swap_is_reported_as_such(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = project / CONTRACT / "tools.yaml"
    tools.write_text(tools.read_text().replace("Loads a document", "Loads one document"))
    monkeypatch.setattr(write, "FS", _CannotRemove())
    result = run_cli("generate", cwd=project)
    assert result.returncode == 0, result.stderr
    assert "5 file(s) changed in generated." in result.stdout
    assert "nothing was written" not in result.stderr
    assert "the old tree could not be removed (Operation not permitted)" in result.stderr
    assert run_cli("check", cwd=project).returncode == 0  # the new tree is in place
    monkeypatch.undo()
    assert run_cli("generate", cwd=project).returncode == 0  # the next run removes the old one
    assert _leftovers(project) == []


# 8. No lint rule is dropped for raising: each judges any contract that loads (and any
# whose files meet their meta-schemas), and lint ends in a verdict on every hostile case.


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_lint_ends_in_a_verdict_on_every_hostile_case(case: Case, jsonrpc_generated: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(jsonrpc_generated, project, symlinks=True)
    case.setup(project)
    result = run_cli("lint", cwd=project)  # an exception would propagate: no traceback is hidden
    assert result.returncode in (0, 1, 2), result.stdout + result.stderr
    summary = re.search(r"^\d+ error\(s\), \d+ warning\(s\), \d+ note\(s\)\.$", result.stdout, re.MULTILINE)
    # Sources that do not load: their problems and their count, no lint summary before them.
    refused = result.returncode == 2 and result.stderr.endswith(" problem(s) in the sources.\n")
    settings_refused = result.returncode == 2 and "pyproject.toml" in result.stderr  # before any rule
    assert summary or refused or settings_refused, result.stdout + result.stderr


def _edit(relative: str, pattern: str, replacement: str) -> Callable[[Path], None]:
    def change(project: Path) -> None:
        path = project / CONTRACT / relative
        text, count = re.subn(pattern, replacement, path.read_text(), flags=re.MULTILINE)
        assert count, (relative, pattern)
        path.write_text(text)

    return change


def _both(*changes: Callable[[Path], None]) -> Callable[[Path], None]:
    return lambda project: [change(project) for change in changes] and None


RETRYABLE = "    retryable:\n      type: string\n      role: retryable\n      description: d\n"
LOADABLE = {
    "status as text": _both(
        _edit("contract.yaml", r"(http_status:\n      type:) integer", r"\1 string"),
        _edit("errors.yaml", r"http_status: (\d+)$", r'http_status: "\1"'),
    ),
    "code as array": _both(
        _edit("contract.yaml", r"(jsonrpc_code:\n      type:) integer", r"\1 array"),
        _edit("errors.yaml", r"jsonrpc_code: (-?\d+)$", r'jsonrpc_code: ["\1"]'),
    ),
    "retryable as text": _both(
        _edit("contract.yaml", r"^(  errors:\n)", r"\1" + RETRYABLE),
        _edit("errors.yaml", r"^(    http_status: 400)$", r'\1\n    retryable: "yes"'),
    ),
    "no errors, no descriptions": _both(
        _edit("errors.yaml", r"^errors:\n(  .*\n|    .*\n)*", "errors: []\n"),
        _edit("tools.yaml", r"^    description: .*\n", ""),
    ),
}


@pytest.mark.parametrize("change", LOADABLE.values(), ids=list(LOADABLE))
def test_lint_judges_contracts_that_load_however_odd(change: Callable[[Path], None], project: Path) -> None:
    change(project)
    assert run_cli("check", cwd=project).returncode in (0, 1)  # it loads
    result = run_cli("lint", cwd=project)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    assert re.search(r"^\d+ error\(s\), \d+ warning\(s\), \d+ note\(s\)\.$", result.stdout, re.MULTILINE), result.stdout


def test_a_rule_keeps_its_findings_beside_a_value_it_cannot_judge(project: Path) -> None:
    """def-unused used to raise on a `definitions` that is not an object, and lose its
    finding about `$defs` with it."""
    path = project / CONTRACT / "envelope.schema.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["Unused"] = {"type": "string", "description": "d"}
    schema["definitions"] = [1]
    path.write_text(json.dumps(schema, indent=2))
    result = run_cli("lint", cwd=project)
    assert result.returncode == 2  # the envelope does not load: `definitions` is not an object
    assert "def-unused [warning] 'Unused' is not referenced" in result.stdout


# A file whose name is not UTF-8 beside the sources (found in review: `check` hashed the
# names as text and failed on one).


def test_a_name_that_is_not_utf8_beside_the_sources_is_no_traceback(project: Path) -> None:
    with open(os.fsencode(project / CONTRACT) + b"/\xffnotes.txt", "w", encoding="utf-8") as stray:
        stray.write("not a source")
    for command in ("check", "lint"):
        result = run(command, cwd=project)
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode in (0, 1), result.stdout + result.stderr
