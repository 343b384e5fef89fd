"""`mcp-contracts breaking --against REF`, judged against real git repositories made here.

A project is committed, one kind of edit is made on top of it, and the command must name
it (rule and level), in the direction that matters: responses are read by clients, tool
inputs by servers. The version must be raised as much as the changes need. Every rule on
an `init` scaffold: tests/test_breaking_rules.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import SCHEMAS, assert_report, run_cli

HISTORY = Path(__file__).parent / "history"
CONTRACT = Path("schemas") / "contracts" / "jsonrpc"
INPUT = {"type": "object", "properties": {"path": {"type": "string"}, "mode": {"enum": ["a", "b"]}}}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", tmp_path / CONTRACT)
    (tmp_path / "pyproject.toml").write_text('[tool.mcp-contracts]\npackage = "judged"\n', encoding="utf-8")
    tools = tmp_path / CONTRACT / "tools.yaml"
    data = {"tools": [{"name": "fetch", "possible_error_codes": ["TOOL_NOT_FOUND"], "inputSchema": INPUT}]}
    tools.write_text(json.dumps(data), encoding="utf-8")
    _json(tmp_path, "envelope.schema.json", lambda s: s.update(additionalProperties=False))  # closed, to be opened
    _git(tmp_path, "init", "--quiet")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "base")
    return tmp_path


def _json(repo: Path, name: str, change: Callable[[Any], None]) -> None:
    path = repo / CONTRACT / name
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _text(repo: Path, name: str, old: str, new: str) -> None:
    path = repo / CONTRACT / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def _drop_params(repo: Path) -> None:
    def drop(schema: Any) -> None:
        schema["properties"].pop("params")
        schema["required"].remove("params")

    _json(repo, "envelope.schema.json", drop)
    _json(repo, "examples/tool-invoke.json", lambda example: example.pop("params"))


def _bump(repo: Path, version: str) -> None:
    _text(repo, "contract.yaml", 'version: "0.1.0"', f'version: "{version}"')


EDITS: dict[str, tuple[Callable[[Path], None], str, str]] = {
    "code removed": (
        lambda r: _text(r, "errors.yaml", "  - code: INTERNAL_ERROR\n", "  - code: INTERNAL_ERROR_GONE\n"),
        "code-removed",
        "error",
    ),
    "http status changed": (
        lambda r: _text(r, "errors.yaml", "http_status: 404", "http_status: 410"),
        "code-value-changed",
        "error",
    ),
    "code added": (
        lambda r: _text(r, "errors.yaml", "errors:\n", "errors:\n  - code: NEW_ONE\n"),
        "code-added",
        "warning",
    ),
    "property removed": (
        _drop_params,
        "property-removed",
        "error",
    ),
    "required made optional": (
        lambda r: _json(r, "envelope.schema.json", lambda s: s["required"].remove("params")),
        "property-optional",
        "error",
    ),
    "object opened": (
        lambda r: _json(r, "envelope.schema.json", lambda s: s.update(additionalProperties=True)),
        "object-opened",
        "error",
    ),
    "input made required": (
        lambda r: _json(r, "tools.yaml", lambda t: t["tools"][0]["inputSchema"].update(required=["path"])),
        "input-required",
        "error",
    ),
    "input enum narrowed": (
        lambda r: _json(
            r, "tools.yaml", lambda t: t["tools"][0]["inputSchema"]["properties"]["mode"].update(enum=["a"])
        ),
        "input-enum-narrowed",
        "error",
    ),
    "tool gains a code": (
        lambda r: _json(r, "tools.yaml", lambda t: t["tools"][0]["possible_error_codes"].append("INTERNAL_ERROR")),
        "tool-code-added",
        "warning",
    ),
    "tool removed": (lambda r: _json(r, "tools.yaml", lambda t: t.update(tools=[])), "tool-removed", "error"),
}


def _findings(repo: Path, *args: str) -> tuple[int, list[dict[str, Any]]]:
    result = run_cli("breaking", "--against", "HEAD", "--format", "json", *args, cwd=repo)
    return result.returncode, json.loads(result.stdout)["findings"]


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_each_kind_of_edit_is_judged(repo: Path, edit: str) -> None:
    change, rule, level = EDITS[edit]
    change(repo)
    code, findings = _findings(repo)
    assert (rule, level, "jsonrpc") in {(f["rule"], f["level"], f["contract"]) for f in findings}, findings
    assert code == 1  # a break, or a version not raised for an addition


def test_a_major_bump_clears_the_version_but_not_the_break(repo: Path) -> None:
    _text(repo, "errors.yaml", "  - code: INTERNAL_ERROR\n", "  - code: INTERNAL_ERROR_GONE\n")
    assert "version-not-bumped" in run_cli("breaking", "--against", "HEAD", cwd=repo).stdout
    _bump(repo, "1.0.0")
    result = run_cli("breaking", "--against", "HEAD", cwd=repo)
    assert "version-not-bumped" not in result.stdout and result.returncode == 1


def test_additions_are_not_breaking_and_the_other_direction_is(repo: Path) -> None:
    _json(repo, "envelope.schema.json", lambda s: s["properties"].update(note={"type": "string"}))
    _json(repo, "tools.yaml", lambda t: t["tools"][0]["inputSchema"]["properties"]["mode"].update(enum=["a", "b", "c"]))
    _bump(repo, "0.2.0")
    result = run_cli("breaking", "--against", "HEAD", cwd=repo)
    assert result.returncode == 0, result.stdout
    assert "property-added [note] a new property 'note' (envelope /note;" in result.stdout
    # Back again, from the edited tree to the commit: removing what was added breaks.
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-am", "add")
    _git(repo, "checkout", "--quiet", "HEAD~1", "--", ".")
    back = run_cli("breaking", "--against", "HEAD", cwd=repo)
    assert "property-removed [error] 'note' is gone (envelope /note;" in back.stdout
    assert back.returncode == 1


def test_a_folder_works_as_the_reference_and_a_bad_one_is_exit_two(repo: Path, tmp_path_factory: Any) -> None:
    old = tmp_path_factory.mktemp("old")
    shutil.copytree(repo / "schemas", old / "schemas")
    _text(repo, "errors.yaml", "http_status: 404", "http_status: 410")
    judged = run_cli("breaking", "--against", str(old), cwd=repo).stdout
    assert "code-value-changed [error] TOOL_NOT_FOUND.http_status: 404 became 410 (code TOOL_NOT_FOUND" in judged
    missing = run_cli("breaking", "--against", "no-such-revision", cwd=repo)
    assert missing.returncode == 2 and "git cannot read it" in missing.stderr


def test_settings_that_do_not_load_report_against_as_null_as_the_report_schema_says(repo: Path) -> None:
    """No `--against`, and the settings that would name it do not load: the JSON report says
    what it was compared with is not known (`against`: null), and meets its meta-schema."""
    (repo / "pyproject.toml").write_text("[tool.mcp-contracts]\nagainst = 3\n", encoding="utf-8")
    result = run_cli("breaking", "--format", "json", cwd=repo)
    assert result.returncode == 2, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["facts"] == {"against": None, "commit": None} and report["loaded"] is False
    assert_report(report, "findings-report")


def test_the_built_in_contracts_against_this_repository(tmp_path: Path) -> None:
    """HEAD of this repository against its work tree (unchanged: nothing), and an edit of a
    built-in contract in a copy, judged against HEAD."""
    unchanged = run_cli("breaking", "--against", "HEAD")
    assert unchanged.returncode == 0, unchanged.stdout + unchanged.stderr
    assert unchanged.stdout == "0 breaking change(s), 0 other finding(s).\n"  # not even a note
    copy = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, copy)
    tools = copy / "contracts" / "tuitbot" / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8").replace("mutation: false", "mutation: true", 1))
    result = run_cli("breaking", "--against", str(SCHEMAS.parent), "--schemas", str(copy))
    assert "tool-value-changed [error] " in result.stdout and " column mutation; was " in result.stdout
    assert result.returncode == 1


def test_the_built_ins_since_the_first_commit_of_this_repository(tmp_path: Path) -> None:
    """The sources of the first commit were written in an earlier format (no `columns:`, a
    `seed:` key); they are read leniently, and the contracts have not broken since but on
    purpose: code-scalpel (2.0.0) and foundry (3.0.0) took their real servers' tools, and
    their accepted-breaks.yaml accept each break. What else changed is notes (a response that
    guarantees more, hints the old format did not derive), which need a bump the other
    versions did not get.

    The first commit's `schemas/` (tests/history/, from `git archive 5bf9f8b schemas`) is
    committed in a repository made here, so that a shallow clone runs the test too."""
    with tarfile.open(HISTORY / "first-commit-schemas.tar.gz") as archive:
        archive.extractall(tmp_path, filter="data")
    _git(tmp_path, "init", "--quiet")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "first")
    shutil.rmtree(tmp_path / "schemas")
    shutil.copytree(SCHEMAS, tmp_path / "schemas")
    code, findings = _findings(tmp_path)
    errors = {f["rule"] for f in findings if f["level"] == "error"}
    assert errors == {"version-not-bumped"}, findings
    assert {f["level"] for f in findings if f["rule"] != "version-not-bumped"} == {"note"}
    assert {f["contract"] for f in findings if f["rule"] == "version-not-bumped"} == {"jsonrpc", "tuitbot"}
    accepted = {(f["contract"], f["rule"]) for f in findings if f["accepted"] is not None}
    taken = {("code-scalpel", "result-unstructured"), ("foundry", "result-unstructured"), ("foundry", "tool-removed")}
    assert accepted == taken
    assert code == 1


def test_an_old_format_revision_is_read_leniently(repo: Path) -> None:
    contract = repo / CONTRACT / "contract.yaml"
    current = contract.read_text(encoding="utf-8")
    old = current.split("# Each canonical error maps", 1)[0] + 'seed: "003"\n'  # no columns, an old key
    contract.write_text(old, encoding="utf-8")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-am", "old format")
    contract.write_text(current, encoding="utf-8")
    result = run_cli("breaking", "--against", "HEAD", cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr
