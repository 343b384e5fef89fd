"""`check` names every drifted file with a diff; `generate` repairs it and says what changed."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import SCHEMAS, assert_report, run_cli


def test_check_reports_changed_missing_and_extra_files_with_diffs(out_copy: Path) -> None:
    (out_copy / "docs" / "tuitbot.md").write_text("# edited by hand\n", encoding="utf-8")
    (out_copy / "manifests" / "jsonrpc.json").unlink()
    (out_copy / "docs" / "notes.md").write_text("stray\n", encoding="utf-8")
    result = run_cli("check", "--out", str(out_copy))
    assert result.returncode == 1
    assert "changed  docs/tuitbot.md" in result.stdout
    assert "missing  manifests/jsonrpc.json" in result.stdout
    assert "extra    docs/notes.md" in result.stdout
    assert "-# edited by hand" in result.stdout
    assert "+# TuitBot tool envelope" in result.stdout


@pytest.mark.fires("output-drift")
def test_check_json_format_lists_drift(out_copy: Path) -> None:
    (out_copy / "manifests" / "tuitbot.json").write_text("{}\n", encoding="utf-8")
    result = run_cli("check", "--out", str(out_copy), "--format", "json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert_report(report, "findings-report")
    facts = report["facts"]
    assert facts["clean"] is False
    assert facts["changed"] == ["manifests/tuitbot.json"]
    assert facts["missing"] == [] and facts["extra"] == []
    assert facts["diffs"]["manifests/tuitbot.json"].startswith("--- a/generated/manifests/tuitbot.json")
    (finding,) = report["findings"]
    assert (finding["rule"], finding["file"]) == ("output-drift", f"{out_copy.as_posix()}/manifests/tuitbot.json")


def test_check_ignores_bytecode_left_by_imports(out_copy: Path) -> None:
    cache = out_copy / "python" / "mcp_contracts" / "__pycache__"
    cache.mkdir(exist_ok=True)
    (cache / "__init__.cpython-311.pyc").write_bytes(b"\x00")
    assert run_cli("check", "--out", str(out_copy)).returncode == 0


def test_generate_repairs_drift_and_reports_it(out_copy: Path) -> None:
    (out_copy / "docs" / "foundry.md").write_text("old\n", encoding="utf-8")
    (out_copy / "stray.txt").write_text("x\n", encoding="utf-8")
    result = run_cli("generate", "--out", str(out_copy))
    assert result.returncode == 0, result.stderr
    assert f"updated  {out_copy.as_posix()}/docs/foundry.md" in result.stdout
    assert f"removed  {out_copy.as_posix()}/stray.txt" in result.stdout
    assert run_cli("check", "--out", str(out_copy)).returncode == 0
    again = run_cli("generate", "--out", str(out_copy))
    assert "is up to date" in again.stdout


def test_generate_creates_a_missing_output_folder(tmp_path: Path) -> None:
    out = tmp_path / "fresh" / "generated"
    result = run_cli("generate", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert (out / "python" / "mcp_contracts" / "tuitbot" / "models.py").is_file()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")], "no staging folder is left behind"


def test_a_failed_write_leaves_the_output_as_it_was(out_copy: Path) -> None:
    from mcp_contracts_generator.drift import read_tree
    from mcp_contracts_generator.write import replace_tree

    before = read_tree(out_copy)
    conflicting = {"docs/index.md": b"new\n", "docs/index.md/child.md": b"cannot exist\n"}
    with pytest.raises(OSError):
        replace_tree(conflicting, out_copy)
    assert read_tree(out_copy) == before
    assert [p.name for p in out_copy.parent.iterdir()] == ["generated"], "no staging folder is left behind"


def test_check_prints_drift_as_github_annotations(out_copy: Path) -> None:
    (out_copy / "manifests" / "tuitbot.json").write_text("{}\n", encoding="utf-8")
    result = run_cli("check", "--out", str(out_copy), "--format", "github")
    assert result.returncode == 1
    assert result.stdout == (
        f"::error file={out_copy.as_posix()}/manifests/tuitbot.json,line=1,title=output-drift::changed:"
        " the file differs from what the sources produce; run `mcp-contracts generate` and commit\n"
    )


def test_an_entry_that_is_not_a_regular_file_is_drift_said_by_what_it_is(out_copy: Path, tmp_path: Path) -> None:
    """A symlink to a file of the very bytes the plan holds, and a dangling one: each is named,
    in the JSON report too, by what it is; neither is followed, and `generate` replaces both
    (FIFOs, sockets and devices: tests/hostile/cases.py, in processes with a time limit)."""
    page = out_copy / "docs" / "tuitbot.md"
    copy = tmp_path / "tuitbot.md"
    copy.write_bytes(page.read_bytes())
    page.unlink()
    page.symlink_to(copy)
    (out_copy / "docs" / "gone.md").symlink_to("no-such-file")
    result = run_cli("check", "--out", str(out_copy), "--format", "json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert_report(report, "findings-report")
    facts = report["facts"]
    assert facts["changed"] == ["docs/tuitbot.md"] and facts["extra"] == ["docs/gone.md"]
    assert [finding["message"] for finding in report["findings"]] == [
        "extra: the sources do not produce this file (it is a symlink, not read);"
        " run `mcp-contracts generate` and commit",
        "changed: the file differs from what the sources produce (it is a symlink, not read);"
        " run `mcp-contracts generate` and commit",
    ]
    assert facts["diffs"] == {
        "docs/gone.md": "Not read: generated/docs/gone.md is a symlink\n",
        "docs/tuitbot.md": "Not read: generated/docs/tuitbot.md is a symlink\n",
    }
    generated = run_cli("generate", "--out", str(out_copy))
    assert generated.returncode == 0, generated.stderr
    assert not page.is_symlink() and not os.path.lexists(out_copy / "docs" / "gone.md")
    assert run_cli("check", "--out", str(out_copy)).returncode == 0


def test_an_output_flag_through_a_symlink_of_the_project_that_leads_out_is_refused(tmp_path: Path) -> None:
    """`--out` may name a folder outside the project, but not a folder of the project that a
    symlink leads out of: the repository put that symlink there."""
    project = tmp_path / "project"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / "schemas" / "contracts" / "jsonrpc")
    (project / "pyproject.toml").write_text("[tool.mcp-contracts]\n", encoding="utf-8")
    (tmp_path / "outside").mkdir()
    (project / "out").symlink_to(tmp_path / "outside")
    for command in ("check", "generate"):
        result = run_cli(command, "--out", "out", cwd=project)
        assert result.returncode == 2, result.stdout
        assert "the output folder leads outside the project" in result.stderr
    assert list((tmp_path / "outside").iterdir()) == []
