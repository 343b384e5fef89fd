"""Every command reads the sources as the settings say: the limits of
`[tool.mcp-contracts.limits]` and the symlink guard reach `check`, `generate`, `lint` and
`breaking` alike (the old sources of `breaking` too), because all of them load through `api`
with the settings passed as a value, never through ambient state.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, SCHEMAS, run_cli

CONTRACT = Path("schemas") / "contracts" / "jsonrpc"
GENERATOR = ROOT / "generator"
LIMITED = '[tool.mcp-contracts]\npackage = "judged"\n\n[tool.mcp-contracts.limits]\nsource_bytes = {limit}\n'
SYMLINK_OUT = "a symlink: not followed"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True, capture_output=True
    )


def _project(tmp_path: Path, limit: int = 2_000_000) -> Path:
    """A one-contract project committed to a git repository of its own."""
    project = tmp_path / "project"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / CONTRACT)
    (project / "pyproject.toml").write_text(LIMITED.format(limit=limit), encoding="utf-8")
    _git(project, "init", "--quiet")
    _git(project, "add", ".")
    _git(project, "commit", "--quiet", "-m", "base")
    return project


def _errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("error: ")]


def _refusals(project: Path) -> dict[str, tuple[int, list[str]]]:
    """The exit code and the error lines of each command that loads the sources."""
    commands = {
        "check": ("check",),
        "generate": ("generate",),
        "lint": ("lint",),
        "breaking": ("breaking", "--against", "HEAD"),
    }
    found = {}
    for name, args in commands.items():
        result = run_cli(*args, cwd=project)
        assert "Traceback" not in result.stdout + result.stderr
        found[name] = (result.returncode, _errors(result.stderr))
    return found


@pytest.mark.parametrize(
    ("limit", "refused"),
    [
        (100, ["contract.yaml", "envelope.schema.json", "errors.yaml", "tools.yaml"]),
        (1_200, ["canonical.py", "envelope.schema.json"]),  # a module `modules:` names, too
    ],
)
def test_every_command_refuses_the_files_over_the_projects_limits(
    tmp_path: Path, limit: int, refused: list[str]
) -> None:
    project = _project(tmp_path, limit)
    refusals = _refusals(project)
    code, errors = refusals["check"]
    assert code == 2
    assert [line.split(": ")[1].rsplit("/", 1)[1] for line in errors] == refused
    assert all(line.endswith(f"bytes, over limits.source_bytes ({limit:,})") for line in errors)
    assert refusals == {name: (2, errors) for name in refusals}
    assert not (project / "generated").exists()


def test_the_old_sources_of_breaking_are_read_within_the_same_limits(tmp_path: Path) -> None:
    """A revision whose errors.yaml is over the limit is refused, though today's sources fit."""
    errors = tmp_path / "project" / CONTRACT / "errors.yaml"
    original = (SCHEMAS / "contracts" / "jsonrpc" / "errors.yaml").read_text(encoding="utf-8")
    largest = max(path.stat().st_size for path in (SCHEMAS / "contracts" / "jsonrpc").rglob("*") if path.is_file())
    project = _project(tmp_path, limit=largest)
    errors.write_text(original + "#" * (largest + 1) + "\n", encoding="utf-8")
    _git(project, "commit", "--quiet", "-am", "padded")
    errors.write_text(original, encoding="utf-8")
    assert run_cli("check", cwd=project).returncode in (0, 1)  # today's sources load
    result = run_cli("breaking", "--against", "HEAD", cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    (line,) = _errors(result.stderr)
    assert line.startswith("error: HEAD:schemas/contracts/jsonrpc/errors.yaml: ")
    size = len(original.encode()) + largest + 2
    where = "HEAD:schemas/contracts/jsonrpc/errors.yaml"
    assert line.endswith(f"{where}: {size:,} bytes, over limits.source_bytes ({largest:,})"), line

    folder = tmp_path / "old"  # a folder of other sources, as `--against DIR`
    shutil.copytree(project / "schemas", folder / "schemas")
    (folder / CONTRACT / "errors.yaml").write_text(original + "#" * largest, encoding="utf-8")
    result = run_cli("breaking", "--against", str(folder), cwd=project)
    assert result.returncode == 2
    assert "over limits.source_bytes" in result.stderr


def _link_out(folder: Path, outside: Path) -> None:
    """Replace the contract's errors.yaml by a symlink to a copy outside the sources."""
    errors = folder / "contracts" / "jsonrpc" / "errors.yaml"
    outside.mkdir(parents=True, exist_ok=True)
    shutil.copy(errors, outside / "errors.yaml")
    errors.unlink()
    errors.symlink_to(os.path.relpath(outside / "errors.yaml", errors.parent))


def test_a_symlink_out_of_the_sources_is_refused_by_every_command(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _link_out(project / "schemas", tmp_path / "outside")
    refusals = _refusals(project)
    code, errors = refusals["check"]
    assert code == 2
    # named by its place in the project, not where it leads
    assert errors == [f"error: schemas/contracts/jsonrpc/errors.yaml: {SYMLINK_OUT}"]
    assert refusals == {name: (2, errors) for name in refusals}


def test_breaking_guards_the_old_sources_in_their_own_folder(tmp_path: Path) -> None:
    project = _project(tmp_path)
    folder = tmp_path / "old"  # `--against DIR`: the guard is rooted at DIR
    shutil.copytree(project / "schemas", folder / "schemas")
    _link_out(folder / "schemas", tmp_path / "elsewhere")
    result = run_cli("breaking", "--against", str(folder), cwd=project)
    assert result.returncode == 2
    assert f"{folder.as_posix()}/schemas/contracts/jsonrpc/errors.yaml: {SYMLINK_OUT}" in result.stderr

    # A committed symlink that leads out of the revision's tree is not followed either.
    _link_out(project / "schemas", tmp_path / "outside")
    _git(project, "add", ".")
    _git(project, "commit", "--quiet", "-m", "linked")
    (project / CONTRACT / "errors.yaml").unlink()  # today's sources hold the file itself
    shutil.copy(tmp_path / "outside" / "errors.yaml", project / CONTRACT / "errors.yaml")
    result = run_cli("breaking", "--against", "HEAD", cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    (line,) = _errors(result.stderr)
    where = "HEAD:schemas/contracts/jsonrpc/errors.yaml"
    assert line == f"error: {where}: {SYMLINK_OUT}"


def _ambient(path: Path) -> list[str]:
    """How the module at `path` would find settings on its own, if it does."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    found = []
    # A context variable of anything but rendered plans (`api.plans_cached`, a cache the caller
    # opts into, holding no setting) is a way to read settings ambiently.
    plans = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.AnnAssign) and ast.unparse(node.annotation) == "ContextVar[PlanCache | None]"
    ]
    other_uses = sum(isinstance(n, ast.Name) and n.id == "ContextVar" for n in ast.walk(tree)) - 2 * len(plans)
    if other_uses > 0 or ("contextvars" in imported and not plans):
        found.append("a ContextVar")
    if "threading" in imported and "local" in names:
        found.append("a thread-local")
    if "load_settings" in names and path.name not in ("api.py", "config.py"):
        found.append("load_settings outside the API edge")
    return found


def test_no_module_reads_settings_ambiently() -> None:
    """Settings are a value handed down: no context variable, no thread-local, and only the
    API edge (`api`, and `config` that defines it) finds the project's settings on its own."""
    found = {path.relative_to(GENERATOR).as_posix(): _ambient(path) for path in sorted(GENERATOR.rglob("*.py"))}
    assert len(found) > 40
    assert {name: ways for name, ways in found.items() if ways} == {}


def test_the_command_line_loads_nothing_itself() -> None:
    """cli.py parses flags, calls `api` and prints: it imports no loader, linter or comparer."""
    tree = ast.parse((GENERATOR / "cli.py").read_text(encoding="utf-8"))
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    bypass = {"load", "lint", "breaking", "scaffold", "render"} | {m for m in imported if m.startswith("load.")}
    assert not imported & bypass, imported & bypass


def test_a_revision_is_never_an_option_of_git(tmp_path: Path) -> None:
    project = _project(tmp_path)
    result = run_cli("breaking", "--against=--output=stolen.tar", cwd=project)
    assert result.returncode == 2
    assert "a revision never starts with '-'" in result.stderr
    assert not (project / "stolen.tar").exists()
