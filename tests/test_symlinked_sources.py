"""No path of a contract is read through a symlink below the sources folder (issue 51).

A committed symlink, the folder of a resource's contents, the examples folder, a folder a
`$ref` leads into, a contract folder, is never followed: every command that loads the
sources (`generate`, `lint`, `check`, `validate`, `mock`, `conform`, `breaking` of the work
tree) refuses it by name, at the line that names the path where one does, and no byte of
what it leads to reaches a message, a report or an answer. The walker itself
(`files.read_beneath` and its kin) is tested below, and tests/test_layout.py keeps every
file read of the load stage on it.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, run_cli
from mcp_contracts_generator.files import (
    Linked,
    NotRegular,
    entry_beneath,
    listing_beneath,
    names,
    read_beneath,
    read_regular,
)

FIXTURES = ROOT / "tests" / "contracts" / "conformance-fixtures"
NAME = "conformance-fixtures"
FOLDER = Path("schemas") / "contracts" / NAME
SECRET = "SECRET-TOKEN-123"
NOT_FOLLOWED = "is a symlink: not followed"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True, capture_output=True
    )


def _outside(tmp_path: Path) -> Path:
    """A folder beside the project holding files a hostile link leads to: the contents files
    of the example contract, each of them now a secret its schema refuses."""
    outside = tmp_path / "outside"
    shutil.copytree(FIXTURES / "examples" / "resources", outside)
    (outside / "config.json").write_text(f'{{"theme": "{SECRET}", "retries": "{SECRET}"}}', encoding="utf-8")
    (outside / "static-text.txt").write_text(SECRET, encoding="utf-8")
    return outside


def _resources_folder_out(project: Path, outside: Path) -> str:
    resources = project / FOLDER / "examples" / "resources"
    shutil.rmtree(resources)
    resources.symlink_to(os.path.relpath(outside, resources.parent))  # committed, relative
    return f"{FOLDER.as_posix()}/examples/resources"


def _examples_folder_out(project: Path, outside: Path) -> str:
    examples = project / FOLDER / "examples"
    shutil.rmtree(examples)
    (outside.parent / "examples-out").mkdir()
    shutil.copytree(outside, outside.parent / "examples-out" / "resources")
    examples.symlink_to(os.path.relpath(outside.parent / "examples-out", examples.parent))
    return f"{FOLDER.as_posix()}/examples"


def _resources_folder_inside(project: Path, outside: Path) -> str:
    """A link that stays in the sources today: the next pull request may retarget it."""
    resources = project / FOLDER / "examples" / "resources"
    shared = project / "schemas" / "shared-resources"
    shutil.move(resources, shared)
    resources.symlink_to(os.path.relpath(shared, resources.parent))
    return f"{FOLDER.as_posix()}/examples/resources"


def _contents_file_out(project: Path, outside: Path) -> str:
    config = project / FOLDER / "examples" / "resources" / "config.json"
    config.unlink()
    config.symlink_to(outside / "config.json")
    return f"{FOLDER.as_posix()}/examples/resources/config.json"


LAYOUTS: dict[str, Callable[[Path, Path], str]] = {
    "resources folder out of the project": _resources_folder_out,
    "examples folder out of the project": _examples_folder_out,
    "resources folder inside the sources": _resources_folder_inside,
    "a contents file out of the project": _contents_file_out,
}


def _project(tmp_path: Path, layout: Callable[[Path, Path], str]) -> tuple[Path, str]:
    project = tmp_path / "project"
    shutil.copytree(FIXTURES, project / FOLDER)
    (project / "pyproject.toml").write_text('[tool.mcp-contracts]\npackage = "linked"\n', encoding="utf-8")
    (project / "answer.json").write_text('{"success": true, "data": {}}', encoding="utf-8")
    _git(project, "init", "--quiet")
    _git(project, "add", ".")
    _git(project, "commit", "--quiet", "-m", "base")
    link = layout(project, _outside(tmp_path))
    return project, link


COMMANDS = {
    "generate": ("generate",),
    "check": ("check", "--format", "github"),
    "lint": ("lint", "--format", "json"),
    "validate": ("validate", "--contract", NAME, "answer.json"),
    "breaking": ("breaking", "--against", "HEAD"),
    "mock": ("mock", "--contract", NAME),
    "conform": ("conform", "--contract", NAME, "--", sys.executable, "-c", "pass"),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_symlink_on_the_way_to_a_contents_file_is_refused_by_every_command(tmp_path: Path, layout: str) -> None:
    project, link = _project(tmp_path, LAYOUTS[layout])
    before = sorted(p.relative_to(project).as_posix() for p in project.rglob("*"))
    for name, args in COMMANDS.items():
        result = run_cli(*args, cwd=project)
        said = result.stdout + result.stderr
        assert result.returncode == 2, (name, said)
        assert "Traceback" not in said, name
        assert SECRET not in said, (name, said)  # no byte of the target reaches a message or a report
        assert link.removeprefix(f"{FOLDER.as_posix()}/") in said and "a symlink: not followed" in said, (name, said)
    # refused at the line that names the path (`contents:` of the resource in resources.yaml)
    result = run_cli("lint", cwd=project)
    line = next(
        n
        for n, text in enumerate((project / FOLDER / "resources.yaml").read_text().splitlines(), 1)
        if "contents: config.json" in text
    )
    assert f"{FOLDER.as_posix()}/resources.yaml:{line}:" in result.stdout + result.stderr
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*")) == before  # nothing written


def test_a_symlinked_folder_a_reference_leads_into_is_refused(tmp_path: Path) -> None:
    project, _ = _project(tmp_path, lambda project, outside: "")
    folder = project / FOLDER
    (tmp_path / "parts").mkdir()
    shutil.move(folder / "resource-parts.schema.json", tmp_path / "parts" / "resource-parts.schema.json")
    (folder / "parts").symlink_to(tmp_path / "parts")
    resources = folder / "resources.yaml"
    resources.write_text(
        resources.read_text().replace('"resource-parts.schema.json#', '"parts/resource-parts.schema.json#')
    )
    result = run_cli("generate", cwd=project)
    assert result.returncode == 2
    assert f"{FOLDER.as_posix()}/parts {NOT_FOLLOWED}" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("target", ["absolute", "../../../..", "a symlink in the project"])
def test_a_references_folder_out_of_the_project_is_refused(tmp_path: Path, target: str) -> None:
    """contract.yaml is a file a pull request edits: `references:` may name a folder of the
    project (vendored schemas), never one beyond it, however it is written."""
    project, _ = _project(tmp_path, lambda project, outside: "")
    folder = project / FOLDER
    (tmp_path / "parts").mkdir()
    shutil.move(folder / "resource-parts.schema.json", tmp_path / "parts" / "resource-parts.schema.json")
    written = {"absolute": str(tmp_path / "parts"), "../../../..": "../../../../parts"}.get(target, "../../vendor")
    if target == "a symlink in the project":
        (project / "schemas" / "vendor").symlink_to(tmp_path / "parts")
    with (folder / "contract.yaml").open("a", encoding="utf-8") as file:
        file.write(f'references:\n  "https://example.com/parts/": "{written}"\n')
    resources = folder / "resources.yaml"
    resources.write_text(
        resources.read_text().replace(
            '"resource-parts.schema.json#', '"https://example.com/parts/resource-parts.schema.json#'
        )
    )
    result = run_cli("generate", cwd=project)
    assert result.returncode == 2
    line = len((folder / "contract.yaml").read_text().splitlines())
    assert (
        f"{FOLDER.as_posix()}/contract.yaml:{line}: {written!r} leads out of the project" in result.stderr
    ), result.stderr

    shutil.copytree(tmp_path / "parts", project / "shared")  # a folder of the project: read
    (folder / "contract.yaml").write_text((folder / "contract.yaml").read_text().replace(written, "../../../shared"))
    result = run_cli("generate", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_project_that_bounds_references_is_the_one_holding_the_sources(tmp_path: Path) -> None:
    """Not the working folder's: from a folder of no project, `references: /` is refused all
    the same, and a folder of the sources' project is read."""
    project, _ = _project(tmp_path, lambda project, outside: "")
    elsewhere = tmp_path / "elsewhere"  # no pyproject.toml nor .git above it but the tmp root's
    elsewhere.mkdir()
    identity = project / FOLDER / "contract.yaml"
    original = identity.read_text()
    identity.write_text(original + 'references:\n  "https://example.com/all/": "/"\n')
    result = run_cli("lint", "--schemas", str(project / "schemas"), cwd=elsewhere)
    assert result.returncode == 2 and "'/' leads out of the project" in result.stdout + result.stderr
    (project / "shared").mkdir()
    identity.write_text(original + 'references:\n  "https://example.com/all/": "../../../shared"\n')
    result = run_cli("lint", "--schemas", str(project / "schemas"), cwd=elsewhere)
    assert "leads out of the project" not in result.stdout + result.stderr
    assert result.returncode in (0, 1), result.stdout + result.stderr


@pytest.mark.slow  # CI runs it; the README's command leaves it out (its 4 minutes)
def test_import_holds_references_inside_the_project_and_reads_them_from_it(tmp_path: Path) -> None:
    """`import` loads a copy of the contract in a folder of its own: a relative `references:`
    is still read from the project's contract folder, and one out of the project is refused."""
    server = ("--", sys.executable, str(ROOT / "tests" / "servers" / "import_server.py"), "shared")
    project = tmp_path / "project"
    project.mkdir()
    assert run_cli("import", "shop", "--write", *server, cwd=project).returncode == 0
    identity = project / "schemas" / "contracts" / "shop" / "contract.yaml"
    original = identity.read_text()
    (project / "shared").mkdir()
    identity.write_text(original + 'references:\n  "https://example.com/all/": "../../../shared"\n')
    result = run_cli("import", "shop", *server, cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    identity.write_text(original + 'references:\n  "https://example.com/all/": "/"\n')
    result = run_cli("import", "shop", *server, cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "'/' leads out of the project" in result.stdout + result.stderr


def test_a_symlinked_contract_folder_is_refused_once(tmp_path: Path) -> None:
    project, _ = _project(tmp_path, lambda project, outside: "")
    shutil.move(project / FOLDER, tmp_path / "elsewhere")
    (project / FOLDER).symlink_to(tmp_path / "elsewhere")
    result = run_cli("check", cwd=project)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert errors == [f"error: {FOLDER.as_posix()}: a symlink: not followed"], result.stderr


def test_a_symlinked_folder_of_contracts_is_refused_and_names_no_contract(tmp_path: Path) -> None:
    project, _ = _project(tmp_path, lambda project, outside: "")
    contracts = project / "schemas" / "contracts"
    shutil.move(contracts, tmp_path / "contracts")
    contracts.symlink_to(tmp_path / "contracts")
    result = run_cli("lint", cwd=project)
    assert result.returncode == 2
    assert "error: schemas/contracts: a symlink: not followed" in result.stderr.splitlines(), result.stderr
    result = run_cli("validate", "--contract", NAME, "answer.json", cwd=project)
    assert result.returncode == 2 and "it has: contracts" not in result.stdout + result.stderr


# -- the walker


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """base/a/b/file.txt, and beside base a secret that links lead to."""
    base = tmp_path / "base"
    (base / "a" / "b").mkdir(parents=True)
    (base / "a" / "b" / "file.txt").write_text("inside", encoding="utf-8")
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "file.txt").write_text(SECRET, encoding="utf-8")
    return base


def test_the_walker_reads_a_file_below_its_base(tree: Path) -> None:
    assert read_beneath(tree, ("a", "b", "file.txt"), 100) == b"inside"
    assert entry_beneath(tree, ("a", "b", "file.txt")) is not None
    assert entry_beneath(tree, ("a", "missing")) is None
    assert [name for name, _ in listing_beneath(tree, ("a", "b"))] == ["file.txt"]


@pytest.mark.parametrize("level", ["a", "a/b", "a/b/file.txt"])
def test_the_walker_follows_no_symlink_at_any_level(tree: Path, level: str) -> None:
    target = tree / level
    shutil.move(target, tree.parent / "moved")
    target.symlink_to(tree.parent / "moved")
    with pytest.raises(Linked) as raised:
        read_beneath(tree, ("a", "b", "file.txt"), 100)
    assert raised.value.link == level
    if level != "a/b/file.txt":
        with pytest.raises(Linked):
            listing_beneath(tree, tuple(level.split("/")))


def test_the_walker_opens_no_special_file(tree: Path) -> None:
    os.mkfifo(tree / "pipe")
    with pytest.raises(NotRegular):
        read_beneath(tree, ("pipe",), 100)  # refused, never waited on
    with pytest.raises(NotRegular):
        read_beneath(tree, ("a",), 100)
    assert stat.S_ISFIFO(entry_beneath(tree, ("pipe",)) or 0)


def test_a_limit_far_above_the_file_allocates_nothing_for_it(tree: Path) -> None:
    """A read takes what the file holds, a chunk at a time: 1 TiB as the limit is no
    MemoryError nor OverflowError."""
    assert read_beneath(tree, ("a", "b", "file.txt"), 2**40) == b"inside"
    assert read_regular(tree / "a" / "b" / "file.txt", 2**40) == b"inside"
    assert read_beneath(tree, ("a", "b", "file.txt"), 3) == b"insi"  # limit + 1: the caller judges


@pytest.mark.parametrize(
    ("relative", "parts"),
    [
        ("a/b.json", ("a", "b.json")),
        ("./a//b.json", ("a", "b.json")),
        ("../a.json", None),
        ("a/../../b", None),
        ("/etc/passwd", None),
        ("", None),
        ("a\0b", None),
    ],
)
def test_a_relative_path_never_leaves_its_folder(relative: str, parts: tuple[str, ...] | None) -> None:
    assert names(relative) == parts
