"""What `breaking` compares with, in real git repositories made here: `--against` is
verified as a commit before git reads it as anything else, a revision's sources are read
from git's objects (nothing extracted, hostile symlinks refused with `REF:path`), and
without `--against` the setting decides: the merge-base with the main branch, the last tag,
or nothing to compare with (exit 0, said in one line).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import SCHEMAS, run_cli, run_process
from mcp_contracts_generator import api, options
from mcp_contracts_generator.breaking.git_tree import GitTree
from mcp_contracts_generator.config import Limits
from mcp_contracts_generator.findings.outcome_facts import BreakingFacts, Facts
from mcp_contracts_generator.load.project import load_project

CONTRACT = Path("schemas") / "contracts" / "jsonrpc"
PYPROJECT = '[tool.mcp-contracts]\npackage = "judged"\n'
SYMLINK_OUT = "a symlink: not followed"
NOT_LOADED = "error: HEAD:schemas/contracts/jsonrpc/"


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True, capture_output=True
    )
    return done.stdout.decode().strip()


def _project(tmp_path: Path, settings: str = "", *, commit: bool = True) -> Path:
    """A one-contract project on branch main, committed unless told not to."""
    project = tmp_path / "project"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / CONTRACT)
    (project / "pyproject.toml").write_text(PYPROJECT + settings, encoding="utf-8")
    _git(project, "init", "--quiet", "-b", "main")
    if commit:
        _git(project, "add", ".")
        _git(project, "commit", "--quiet", "-m", "base")
    return project


def _break(project: Path) -> None:
    """Give TOOL_NOT_FOUND another HTTP status: a break of the catalogue."""
    errors = project / CONTRACT / "errors.yaml"
    text = errors.read_text(encoding="utf-8")
    assert "http_status: 404" in text
    errors.write_text(text.replace("http_status: 404", "http_status: 410"), encoding="utf-8")


BREAK = "TOOL_NOT_FOUND"  # named by the finding, whatever the format of the text says around it


def _files(folder: Path) -> set[Path]:
    return {path for path in folder.rglob("*") if ".git" not in path.relative_to(folder).parts}


# -- the ref is a commit, never an option


@pytest.mark.parametrize("ref", ["--output={out}/stolen.tar", "--remote=x", "-h", "--upload-pack=touch {out}/ran"])
def test_an_option_like_ref_is_refused_and_nothing_is_written(tmp_path: Path, ref: str) -> None:
    project = _project(tmp_path)
    before = _files(tmp_path)
    ref = ref.format(out=tmp_path)
    result = run_cli("breaking", f"--against={ref}", cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    refused = "neither a folder nor a revision: a revision never starts with '-'"
    assert result.stderr.splitlines()[0] == f"error: {ref}: {refused}"
    assert _files(tmp_path) == before


@pytest.mark.parametrize(
    ("ref", "kind"), [("HEAD:pyproject.toml", "blob"), ("HEAD^{tree}", "tree"), ("HEAD:schemas", "tree")]
)
def test_a_ref_that_names_no_commit_is_refused(tmp_path: Path, ref: str, kind: str) -> None:
    project = _project(tmp_path)
    result = run_cli("breaking", "--against", ref, cwd=project)
    assert result.returncode == 2
    refused = f"a {kind}, not a commit: only the sources of a commit are compared"
    assert result.stderr.splitlines()[0] == f"error: {ref}: {refused}"


def test_a_ref_that_names_nothing_is_refused(tmp_path: Path) -> None:
    project = _project(tmp_path)
    result = run_cli("breaking", "--against", "no-such-branch", cwd=project)
    assert result.returncode == 2
    assert "neither a folder nor a revision: git cannot read it as a commit" in result.stderr
    result = run_cli("breaking", "--against=", cwd=project)  # not the working folder
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == "error: --against: empty: name a git revision or a folder of other sources"


def test_a_commit_by_its_hash_and_a_folder_are_compared_with(tmp_path: Path) -> None:
    project = _project(tmp_path)
    base = _git(project, "rev-parse", "HEAD")
    folder = tmp_path / "old"
    shutil.copytree(project / "schemas", folder / "schemas")
    _break(project)
    for ref in (base, base[:10], str(folder)):
        result = run_cli("breaking", "--against", ref, cwd=project)
        assert result.returncode == 1, result.stdout + result.stderr
        assert BREAK in result.stdout


# -- a revision's files come from git's objects


def _commit_in_place_of_errors(project: Path, *, link: str | None = None, submodule: bool = False) -> None:
    """Commit errors.yaml as a symlink to `link` (or as a submodule), then put the regular
    file back in the work tree: today's sources load, the revision's hold the hostile entry."""
    errors = project / CONTRACT / "errors.yaml"
    kept = errors.read_bytes()
    errors.unlink()
    if submodule:
        head = _git(project, "rev-parse", "HEAD")
        _git(project, "update-index", "--force-remove", str(CONTRACT / "errors.yaml"))
        _git(project, "update-index", "--add", "--cacheinfo", f"160000,{head},{CONTRACT / 'errors.yaml'}")
    else:
        assert link is not None
        errors.symlink_to(link)
        _git(project, "add", "-A")
    _git(project, "commit", "--quiet", "-m", "hostile")
    if errors.is_symlink():
        errors.unlink()
    errors.write_bytes(kept)


@pytest.mark.parametrize(
    ("link", "message"),
    [
        pytest.param("/etc/passwd", SYMLINK_OUT, id="absolute"),
        pytest.param("../../../x", SYMLINK_OUT, id="out-of-the-sources-folder"),
        pytest.param("../../../../../../../../x", SYMLINK_OUT, id="out-of-the-repository"),
        pytest.param("errors.yaml", SYMLINK_OUT, id="itself"),
        pytest.param("loop", SYMLINK_OUT, id="loop"),
        pytest.param(None, "a submodule, not a regular file: not read", id="submodule"),
    ],
)
def test_a_hostile_entry_of_a_revision_is_refused_by_name(tmp_path: Path, link: str | None, message: str) -> None:
    project = _project(tmp_path)
    if link == "loop":
        (project / CONTRACT / "loop").symlink_to("errors.yaml")
    _commit_in_place_of_errors(project, link=link, submodule=link is None)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    before = _files(tmp_path)
    result = run_process("breaking", "--against", "HEAD", cwd=project, env={"TMPDIR": str(scratch)})
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert result.stderr.splitlines()[0] == f"{NOT_LOADED}errors.yaml: {message}"
    assert str(tmp_path) not in result.stderr and "mcp-contracts-revision" not in result.stderr
    assert _files(tmp_path) == before  # nothing extracted, in the temporary folder or anywhere


def test_a_symlink_inside_the_sources_folder_is_not_followed_either(tmp_path: Path) -> None:
    """errors.yaml and the examples folder are symlinks to elsewhere in `schemas/`: neither is
    followed, in the work tree nor in a revision (a link that stays inside today may be
    retargeted by the next pull request), and each is named where it stands."""
    project = _project(tmp_path)
    errors, examples = project / CONTRACT / "errors.yaml", project / CONTRACT / "examples"
    shutil.move(errors, project / "schemas" / "shared-errors.yaml")
    shutil.move(examples, project / "schemas" / "shared-examples")
    errors.symlink_to("../../shared-errors.yaml")
    examples.symlink_to("../../shared-examples")
    result = run_cli("breaking", "--against", "HEAD", cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"error: schemas/contracts/jsonrpc/errors.yaml: {SYMLINK_OUT}" in result.stderr.splitlines()
    assert f"error: schemas/contracts/jsonrpc/examples: {SYMLINK_OUT}" in result.stderr.splitlines()

    _git(project, "add", "-A")
    _git(project, "commit", "--quiet", "-m", "linked")
    errors.unlink()
    examples.unlink()  # today's sources hold the files themselves
    shutil.copy(project / "schemas" / "shared-errors.yaml", errors)
    shutil.copytree(project / "schemas" / "shared-examples", examples)
    _break(project)
    result = run_cli("breaking", "--against", "HEAD", cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{NOT_LOADED}errors.yaml: {SYMLINK_OUT}" in result.stderr.splitlines()
    assert f"{NOT_LOADED}examples: {SYMLINK_OUT}" in result.stderr.splitlines()


def test_a_file_over_the_limit_is_refused_from_its_size_before_it_is_read(tmp_path: Path) -> None:
    project = _project(tmp_path)
    errors = project / CONTRACT / "errors.yaml"
    size = errors.stat().st_size
    limits = Limits(source_bytes=size - 1)
    commit = _git(project, "rev-parse", "HEAD")
    mount = Path("/revision")
    with GitTree.open(project, commit, "HEAD", "schemas", mount) as tree:
        refused = tree.text(mount / "contracts" / "jsonrpc" / "errors.yaml", tree.reading(limits))
        assert tree.reader._process is None  # no blob was asked of git: the size alone refused it
    assert (
        str(refused)
        == f"HEAD:schemas/contracts/jsonrpc/errors.yaml: {size:,} bytes, over limits.source_bytes ({size - 1:,})"
    )

    with GitTree.open(project, commit, "HEAD", "schemas", mount) as tree:  # the whole load, within the limit
        loaded = load_project(mount, tree.reading(Limits()), lenient=True)
    assert loaded.project is not None, loaded.diagnostics
    assert loaded.project.contracts[0].places.at("errors.yaml").file == "HEAD:schemas/contracts/jsonrpc/errors.yaml"


def test_a_revision_without_the_sources_folder_is_said_so(tmp_path: Path) -> None:
    project = _project(tmp_path, commit=False)
    (project / "README").write_text("first", encoding="utf-8")
    _git(project, "add", "README")
    _git(project, "commit", "--quiet", "-m", "before the sources")
    result = run_cli("breaking", "--against", "HEAD", cwd=project)
    assert result.returncode == 2
    first, *_ = result.stderr.splitlines()
    assert first == "error: HEAD:schemas/contracts: no such folder"


# -- without --against: the setting


def _breaking_facts(project: Path, monkeypatch: pytest.MonkeyPatch) -> Facts:
    monkeypatch.chdir(project)
    chosen = api.settings()
    assert not isinstance(chosen, list)
    return api.run(options.Breaking(), chosen).facts


def test_no_commit_yet_is_nothing_to_compare_with(tmp_path: Path) -> None:
    project = _project(tmp_path, commit=False)
    for settings, asked in (("", "merge-base"), ('[tool.mcp-contracts.breaking]\nagainst = "last-tag"\n', "last-tag")):
        (project / "pyproject.toml").write_text(PYPROJECT + settings, encoding="utf-8")
        result = run_cli("breaking", cwd=project)
        assert (result.returncode, result.stdout) == (0, f"nothing to compare with ({asked}): no commit yet\n")


def test_the_merge_base_on_the_branch_itself_is_head(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On main, with no remote: the edits not yet committed are judged."""
    project = _project(tmp_path)
    assert run_cli("breaking", cwd=project).returncode == 0
    _break(project)
    result = run_cli("breaking", cwd=project)
    assert result.returncode == 1 and BREAK in result.stdout
    assert _breaking_facts(project, monkeypatch) == BreakingFacts("HEAD", _git(project, "rev-parse", "HEAD"))


def test_the_merge_base_of_a_feature_branch_is_where_it_left_main(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path)
    base = _git(project, "rev-parse", "HEAD")
    _git(project, "switch", "--quiet", "-c", "feature")
    _break(project)
    _git(project, "commit", "--quiet", "-am", "a break, committed on the branch")
    result = run_cli("breaking", cwd=project)
    assert result.returncode == 1 and BREAK in result.stdout
    assert _breaking_facts(project, monkeypatch) == BreakingFacts("main", base)

    _git(project, "switch", "--quiet", "main")  # main moves on: the merge-base stays
    (project / "README").write_text("later", encoding="utf-8")
    _git(project, "add", "README")
    _git(project, "commit", "--quiet", "-m", "main moves")
    _git(project, "switch", "--quiet", "feature")
    assert _breaking_facts(project, monkeypatch) == BreakingFacts(base[:7], base)


def test_the_remote_branch_comes_first_and_the_setting_names_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path)
    pushed = _git(project, "rev-parse", "HEAD")
    _git(project, "update-ref", "refs/remotes/origin/main", pushed)  # as a fetch leaves it
    _break(project)
    _git(project, "commit", "--quiet", "-am", "a break, committed on main, not pushed")
    result = run_cli("breaking", cwd=project)
    assert result.returncode == 1 and BREAK in result.stdout
    assert _breaking_facts(project, monkeypatch) == BreakingFacts("origin/main", pushed)

    settings = PYPROJECT + '[tool.mcp-contracts.breaking]\nbranch = "main"\n'
    (project / "pyproject.toml").write_text(settings, encoding="utf-8")
    assert run_cli("breaking", cwd=project).returncode == 0  # on main itself: HEAD, nothing edited since
    (project / "pyproject.toml").write_text(settings.replace('"main"', '"trunk"'), encoding="utf-8")
    result = run_cli("breaking", cwd=project)
    assert result.returncode == 2
    assert result.stderr.startswith("error: trunk: names no commit: [tool.mcp-contracts.breaking] branch")


def test_no_main_branch_is_nothing_to_compare_with(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _git(project, "branch", "-m", "main", "trunk")
    result = run_cli("breaking", cwd=project)
    assert result.returncode == 0
    assert result.stdout.startswith("nothing to compare with (merge-base): no branch origin/HEAD, origin/main")


def test_the_last_tag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = _project(tmp_path, '[tool.mcp-contracts.breaking]\nagainst = "last-tag"\n')
    result = run_cli("breaking", cwd=project)
    assert (result.returncode, result.stdout) == (0, "nothing to compare with (last-tag): no tag yet\n")
    _git(project, "tag", "v1.0.0")
    tagged = _git(project, "rev-parse", "HEAD")
    _break(project)
    _git(project, "commit", "--quiet", "-am", "a break after the tag")
    result = run_cli("breaking", cwd=project)
    assert result.returncode == 1 and BREAK in result.stdout
    assert _breaking_facts(project, monkeypatch) == BreakingFacts("v1.0.0", tagged)
    assert run_cli("breaking", "--against", "HEAD", cwd=project).returncode == 0  # the flag wins


def test_outside_a_repository_there_is_nothing_to_compare_with(tmp_path: Path) -> None:
    project = _project(tmp_path, commit=False)
    shutil.rmtree(project / ".git")
    alone = {"GIT_CEILING_DIRECTORIES": str(tmp_path)}  # never a repository around the temporary folder
    result = run_process("breaking", cwd=project, env=alone)
    assert (result.returncode, result.stdout) == (0, "nothing to compare with (merge-base): not in a git repository\n")
    result = run_process("breaking", "--against", "HEAD", cwd=project, env=alone)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == "error: HEAD: neither a folder nor a revision: not in a git repository"


def test_a_folder_of_a_revision_that_leads_out_is_refused(tmp_path: Path) -> None:
    project = _project(tmp_path)
    examples = project / CONTRACT / "examples"
    kept = tmp_path / "examples"
    shutil.move(examples, kept)
    examples.symlink_to("/")
    _git(project, "add", "-A")
    _git(project, "commit", "--quiet", "-m", "examples lead to the root folder")
    examples.unlink()
    shutil.copytree(kept, examples)
    result = run_cli("breaking", "--against", "HEAD", cwd=project)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == f"{NOT_LOADED}examples: {SYMLINK_OUT}"

    (project / "schemas" / "contracts" / "other").symlink_to("/etc")  # a contract folder that leads out
    _git(project, "add", "-A")
    _git(project, "commit", "--quiet", "-m", "a contract folder out of the sources")
    (project / "schemas" / "contracts" / "other").unlink()
    result = run_cli("breaking", "--against", "HEAD", cwd=project)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == f"error: HEAD:schemas/contracts/other: {SYMLINK_OUT}"  # once


# -- revisions as git spells them (found in review)


def _break(project: Path) -> None:
    errors = project / CONTRACT / "errors.yaml"
    errors.write_text(errors.read_text(encoding="utf-8").replace("http_status: 404", "http_status: 410", 1), "utf-8")


@pytest.mark.parametrize("ref", [":/base", "v1", "v1^{}", "HEAD~0"])
def test_every_spelling_of_a_commit_is_compared(tmp_path: Path, ref: str) -> None:
    """`:/message` takes what follows as its pattern, and an annotated tag is peeled to its commit."""
    project = _project(tmp_path)
    _git(project, "tag", "-a", "v1", "-m", "release")
    _break(project)
    result = run_cli("breaking", "--against", ref, cwd=project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "code-value-changed [error]" in result.stdout


def test_the_last_tag_is_found_whatever_bytes_its_name_holds(tmp_path: Path) -> None:
    project = _project(tmp_path, '\n[tool.mcp-contracts.breaking]\nagainst = "last-tag"\n')
    subprocess.run(["git", "tag", b"v\xff1"], cwd=project, check=True)  # a name that is not UTF-8
    _break(project)
    result = run_cli("breaking", cwd=project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "code-value-changed [error]" in result.stdout and "Traceback" not in result.stderr
