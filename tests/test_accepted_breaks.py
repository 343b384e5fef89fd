"""accepted-breaks.yaml: breaks reviewed and accepted on purpose, read at load and applied
by `accept` to the findings of `breaking` (generator/breaking/accepted.py)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from mcp_contracts_generator.breaking.accepted import accept
from mcp_contracts_generator.config import Limits
from mcp_contracts_generator.findings.finding import Finding
from mcp_contracts_generator.findings.policy import Policy
from mcp_contracts_generator.load import load_project
from mcp_contracts_generator.load.reading import Reading
from mcp_contracts_generator.model import Project

OPTIONAL_DATA = "envelope [success=true]/data"
ENTRY = {
    "rule": "property-optional",
    "subject": OPTIONAL_DATA,
    "reason": "data is absent for empty results (announced in #123)",
    "version": "1.0.0",
}


def _yaml(entries: list[dict[str, str]]) -> str:
    lines = ["# breaks reviewed and accepted", "accepted:"]
    for entry in entries:
        lines += [
            f"  - {key}: {value!r}" if i == 0 else f"    {key}: {value!r}"
            for i, (key, value) in enumerate(entry.items())
        ]
    return "\n".join(lines) + "\n"


def _scaffold(root: Path, version: str = "1.0.0", accepted: str | None = None, name: str = "demo") -> Path:
    """A project made by `mcp-contracts init NAME` at `version`, with `accepted` as its
    accepted-breaks.yaml; the contract folder."""
    if not (root / "schemas" / "contracts" / name).is_dir():
        assert run_cli("init", name, cwd=root).returncode == 0
    folder = root / "schemas" / "contracts" / name
    identity = folder / "contract.yaml"
    text = identity.read_text(encoding="utf-8")
    identity.write_text(text.replace('version: "0.1.0"', f'version: "{version}"'), encoding="utf-8")
    if accepted is not None:
        (folder / "accepted-breaks.yaml").write_text(accepted, encoding="utf-8")
    return folder


def _load(root: Path, *, lenient: bool = False) -> Project:
    schemas = root / "schemas"
    loaded = load_project(schemas, Reading.within(schemas, Limits()), lenient=lenient)
    assert loaded.project is not None, loaded.diagnostics
    return loaded.project


def _problems(root: Path) -> list[str]:
    schemas = root / "schemas"
    loaded = load_project(schemas, Reading.within(schemas, Limits()))
    assert loaded.project is None
    return [f"{Path(d.file).name}:{d.line}: {d.message}" for d in loaded.diagnostics]


def _finding(rule: str = "property-optional", subject: str | None = OPTIONAL_DATA, contract: str = "demo") -> Finding:
    """A finding as `breaking` makes one, at the place the scaffold's envelope gives it."""
    return Finding(
        rule,
        "error",
        f"schemas/contracts/{contract}/envelope.schema.json",
        17,
        7,
        "/$defs/SuccessEnvelope/required",
        "a required property of the response became optional: data",
        contract=contract,
        subject=subject,
    )


def _version_short(contract: str = "demo") -> Finding:
    return Finding(
        "version-not-bumped",
        "error",
        f"schemas/contracts/{contract}/contract.yaml",
        4,
        10,
        "/version",
        "'0.1.0' to '0.1.1': the changes need a major bump",
        contract=contract,
        subject="version",
    )


# --- accept ---------------------------------------------------------------------------------


@pytest.mark.quiet("accepted-break-unused")
def test_an_entry_accepts_its_finding_as_a_note_with_the_reason(tmp_path: Path) -> None:
    _scaffold(tmp_path, accepted=_yaml([ENTRY]))
    other = _finding("property-removed", "envelope [success=false]/data")
    found = accept([_finding(), other], _load(tmp_path))
    assert [(f.rule, f.level, f.accepted) for f in found] == [
        ("property-optional", "note", ENTRY["reason"]),
        ("property-removed", "error", None),
    ]
    assert found[0].message == _finding().message and found[0].place == _finding().place


@pytest.mark.quiet("accepted-break-unused")
def test_an_entry_names_its_version_as_semver_compares_it(tmp_path: Path) -> None:
    """`1.0.0+build.7` in the record is the contract's `1.0.0`: semver's precedence leaves the
    build aside (found in review, with `1.0`, which is no semantic version and now refused)."""
    _scaffold(tmp_path, accepted=_yaml([{**ENTRY, "version": "1.0.0+build.7"}]))
    (found,) = accept([_finding()], _load(tmp_path))
    assert (found.level, found.accepted) == ("note", ENTRY["reason"])


def test_an_entry_for_a_pre_release_does_not_accept_for_the_release(tmp_path: Path) -> None:
    """2.0.0-rc.1 comes before 2.0.0: its entry is history at 2.0.0, not an acceptance."""
    _scaffold(tmp_path, version="2.0.0", accepted=_yaml([{**ENTRY, "version": "2.0.0-rc.1"}]))
    (found,) = accept([_finding()], _load(tmp_path))
    assert (found.level, found.accepted) == ("error", None)


@pytest.mark.parametrize(
    "finding",
    [
        pytest.param(_finding(subject="envelope [success=true]/data/id"), id="another subject"),
        pytest.param(_finding(subject="envelope [success=true]/Data"), id="a subject in another case"),
        pytest.param(_finding(rule="property-removed"), id="another rule"),
        pytest.param(_finding(contract="other"), id="another contract"),
        pytest.param(_finding(subject=None), id="no subject"),
    ],
)
def test_an_entry_matches_its_rule_subject_and_contract_exactly(tmp_path: Path, finding: Finding) -> None:
    _scaffold(tmp_path, accepted=_yaml([ENTRY]))
    found = accept([finding], _load(tmp_path))
    assert [(f.rule, f.level, f.accepted) for f in found if f.rule == finding.rule] == [(finding.rule, "error", None)]


@pytest.mark.quiet("accepted-break-unused")
def test_without_the_bump_the_finding_stands_and_says_the_entry_waits_for_it(tmp_path: Path) -> None:
    _scaffold(tmp_path, accepted=_yaml([ENTRY]))
    found = accept([_finding(), _version_short()], _load(tmp_path))
    optional = next(f for f in found if f.rule == "property-optional")
    assert (optional.level, optional.accepted) == ("error", None)
    assert optional.message.startswith(_finding().message)
    assert "accepted-breaks.yaml:3 accepts it for version 1.0.0 only once the version is raised" in optional.message
    # The entry matches, so it is not unused: the version finding and the break, and nothing else.
    assert [f.rule for f in found] == ["version-not-bumped", "property-optional"]


def test_another_contracts_missing_bump_does_not_hold_an_entry_back(tmp_path: Path) -> None:
    _scaffold(tmp_path, accepted=_yaml([ENTRY]))
    found = accept([_finding(), _version_short("other")], _load(tmp_path))
    assert [(f.rule, f.level) for f in found if f.contract == "demo"] == [("property-optional", "note")]


@pytest.mark.quiet("accepted-break-unused")
def test_entries_of_earlier_versions_are_history(tmp_path: Path) -> None:
    earlier = {**ENTRY, "version": "0.9.0"}
    _scaffold(tmp_path, version="1.0.0", accepted=_yaml([earlier]))
    found = accept([_finding()], _load(tmp_path))
    assert [(f.rule, f.level, f.accepted) for f in found] == [("property-optional", "error", None)]


@pytest.mark.quiet("accepted-break-unused")
def test_an_entry_of_a_later_version_waits_for_contract_yaml_to_reach_it(tmp_path: Path) -> None:
    entries = [{**ENTRY, "version": "3.0.0"}, {**ENTRY, "version": "2.0.0"}, {**ENTRY, "version": "0.9.0"}]
    _scaffold(tmp_path, version="1.0.0", accepted=_yaml(entries))
    (found,) = accept([_finding()], _load(tmp_path))
    assert (found.level, found.accepted) == ("error", None)
    assert found.message.startswith(_finding().message + "; ")
    assert found.message.endswith(
        "/accepted-breaks.yaml:7 accepts it for version 2.0.0, which contract.yaml's `version` is not yet"
    )


@pytest.mark.fires("accepted-break-unused")
def test_an_entry_of_the_current_version_that_matches_nothing_is_a_warning_at_its_line(tmp_path: Path) -> None:
    typo = {**ENTRY, "subject": "envelope [success=true]/dat"}
    _scaffold(tmp_path, accepted=_yaml([{**ENTRY, "version": "0.9.0"}, typo]))
    found = accept([_finding()], _load(tmp_path))
    unused = [f for f in found if f.rule == "accepted-break-unused"]
    assert len(unused) == 1
    warning = unused[0]
    assert (warning.level, warning.contract, Path(warning.file).name) == ("warning", "demo", "accepted-breaks.yaml")
    assert (warning.line, warning.column, warning.pointer) == (7, 5, "/accepted/1")
    assert "property-optional of 'envelope [success=true]/dat' for version 1.0.0" in warning.message
    assert f"did you mean {OPTIONAL_DATA!r}?" in warning.message
    assert next(f for f in found if f.rule == "property-optional").level == "error"


@pytest.mark.fires("accepted-break-unused")
def test_with_no_findings_every_current_entry_is_unused(tmp_path: Path) -> None:
    second = {**ENTRY, "rule": "tool-removed", "subject": "tool demo_tool"}
    _scaffold(tmp_path, accepted=_yaml([ENTRY, second]))
    found = accept([], _load(tmp_path))
    assert [(f.rule, f.line) for f in found] == [("accepted-break-unused", 3), ("accepted-break-unused", 7)]
    assert all("did you mean" not in f.message for f in found)


@pytest.mark.parametrize(
    ("old_version", "warned"),
    [
        pytest.param(
            "1.0.0", False, id="the base already ships the version", marks=pytest.mark.quiet("accepted-break-unused")
        ),
        pytest.param(
            "0.9.0", True, id="the change raises the version", marks=pytest.mark.fires("accepted-break-unused")
        ),
    ],
)
def test_an_entry_of_a_version_the_base_already_ships_is_not_unused(
    tmp_path: Path, old_version: str, warned: bool
) -> None:
    """After the pull request that shipped a break, the next ones compare with a base that
    holds it: the entry finds nothing to match, and rightly so."""
    (tmp_path / "old").mkdir()
    _scaffold(tmp_path / "old", version=old_version)
    _scaffold(tmp_path, version="1.0.0", accepted=_yaml([ENTRY]))
    found = accept([], _load(tmp_path), _load(tmp_path / "old"))
    assert [f.rule for f in found] == (["accepted-break-unused"] if warned else [])


@pytest.mark.quiet("accepted-break-unused")
def test_a_contract_without_the_file_accepts_nothing(tmp_path: Path) -> None:
    _scaffold(tmp_path)
    project = _load(tmp_path)
    assert project.contracts[0].accepted == ()
    assert accept([_finding()], project) == [_finding()]


def test_the_order_is_one_whatever_the_order_of_the_findings(tmp_path: Path) -> None:
    unused = {**ENTRY, "rule": "code-removed", "subject": "code gone"}
    _scaffold(tmp_path, accepted=_yaml([ENTRY, unused]))
    project = _load(tmp_path)
    findings = [_finding(), _finding("property-removed", "envelope [success=false]/data"), _version_short("other")]
    first = accept(findings, project)
    for seed in range(5):
        shuffled = findings[:]
        random.Random(seed).shuffle(shuffled)
        assert accept(shuffled, project) == first
    assert first == sorted(first, key=Finding.sort_key)


def test_the_policy_after_accept_switches_the_warning_and_keeps_accepted_notes(tmp_path: Path) -> None:
    """api applies the policy again after `accept`: `accepted-break-unused` can be re-levelled
    or switched off like any rule, and an accepted finding stays a note."""
    unused = {**ENTRY, "rule": "code-removed", "subject": "code gone"}
    _scaffold(tmp_path, accepted=_yaml([ENTRY, unused]))
    found = accept([_finding()], _load(tmp_path))
    raised = Policy(project={"accepted-break-unused": "error", "property-optional": "error"}).apply(found)
    assert [(f.rule, f.level) for f in raised] == [("accepted-break-unused", "error"), ("property-optional", "note")]
    assert [f.rule for f in Policy(contracts={"demo": {"accepted-break-unused": "off"}}).apply(found)] == [
        "property-optional"
    ]


# --- loading ----------------------------------------------------------------------------------


def test_entries_are_loaded_in_order_with_their_places(tmp_path: Path) -> None:
    second = {**ENTRY, "rule": "tool-removed", "subject": "tool demo_tool", "version": "0.9.0"}
    _scaffold(tmp_path, accepted=_yaml([ENTRY, second]))
    (contract,) = _load(tmp_path).contracts
    assert [(e.rule, e.subject, e.version) for e in contract.accepted] == [
        ("property-optional", OPTIONAL_DATA, "1.0.0"),
        ("tool-removed", "tool demo_tool", "0.9.0"),
    ]
    assert contract.accepted[0].reason == ENTRY["reason"]
    assert [(Path(e.place.file).name, e.place.line, e.place.pointer) for e in contract.accepted] == [
        ("accepted-breaks.yaml", 3, "/accepted/0"),
        ("accepted-breaks.yaml", 7, "/accepted/1"),
    ]


BAD = [
    pytest.param(
        "accepted:\n  - rule: property-optional\n",
        [f'accepted-breaks.yaml:2: "{key}" is a required property' for key in ("reason", "subject", "version")],
        id="missing keys",
    ),
    pytest.param(
        _yaml([{**ENTRY, "version": "1.0.0"}]).replace("'1.0.0'", "1.0"),
        ["accepted-breaks.yaml:6: 1.0 is not a semantic version (semver.org 2.0.0: MAJOR.MINOR.PATCH"],
        id="a version that is a number",
    ),
    pytest.param(
        _yaml([{**ENTRY, "version": "latest"}]),
        ['accepted-breaks.yaml:6: "latest" is not a semantic version'],
        id="a version that is not semantic",
    ),
    pytest.param(
        _yaml([{**ENTRY, "ticket": "#1"}]),
        ["accepted-breaks.yaml:7: 'ticket' is not allowed here"],
        id="an unknown key",
    ),
    pytest.param(_yaml([{**ENTRY, "reason": "  "}]), ["accepted-breaks.yaml:5:"], id="a blank reason"),
    pytest.param("accepted: {}\n", ["accepted-breaks.yaml:1:"], id="not a list"),
    pytest.param("accepted: [\n", ["accepted-breaks.yaml:2: invalid YAML"], id="not YAML"),
    pytest.param(
        _yaml([{**ENTRY, "rule": "property-optionl"}]),
        [
            "accepted-breaks.yaml:3: 'property-optionl' is not a rule of `breaking` that a change breaks"
            " (did you mean property-optional?)"
        ],
        id="an unknown rule",
    ),
    pytest.param(
        _yaml([{**ENTRY, "rule": "version-not-bumped", "subject": "version"}]),
        ["accepted-breaks.yaml:3: version-not-bumped cannot be accepted"],
        id="the bump itself",
    ),
    pytest.param(
        _yaml([{**ENTRY, "rule": "code-style"}]),
        ["accepted-breaks.yaml:3: 'code-style' is not a rule of `breaking`"],
        id="a lint rule",
    ),
    pytest.param(
        _yaml([ENTRY, {**ENTRY, "reason": "again"}]),
        ["accepted-breaks.yaml:7: accepts the same break for the same version as the entry at line 3"],
        id="the same break twice",
    ),
]


@pytest.mark.parametrize(("text", "expected"), BAD)
def test_a_bad_file_is_refused_at_the_line_of_the_bad_value(tmp_path: Path, text: str, expected: list[str]) -> None:
    _scaffold(tmp_path, accepted=text)
    problems = _problems(tmp_path)
    assert len(problems) == len(expected), problems
    for problem, start in zip(problems, expected, strict=True):
        assert problem.startswith(start), problem


def test_check_and_generate_refuse_a_bad_file_with_exit_two(tmp_path: Path) -> None:
    _scaffold(tmp_path, accepted=_yaml([{**ENTRY, "rule": "no-such-rule"}]))
    for command in ("check", "generate"):
        result = run_cli(command, cwd=tmp_path)
        assert result.returncode == 2, result
        assert "schemas/contracts/demo/accepted-breaks.yaml:3: 'no-such-rule' is not a rule" in result.stderr


def test_a_symlink_out_of_the_sources_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(_yaml([ENTRY]), encoding="utf-8")
    folder = _scaffold(tmp_path)
    (folder / "accepted-breaks.yaml").symlink_to(outside)
    assert _problems(tmp_path) == ["accepted-breaks.yaml:None: a symlink: not followed"]


def test_an_old_revision_never_reads_the_file(tmp_path: Path) -> None:
    """`breaking` loads the old sources leniently: their record is history, even a bad one."""
    _scaffold(tmp_path, accepted="accepted: [oops]\n")
    assert _load(tmp_path, lenient=True).contracts[0].accepted == ()


# --- end to end: `mcp-contracts breaking` on a real git repository -------------------------


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True, capture_output=True
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository made by `init`, committed once at version 0.1.0."""
    _scaffold(tmp_path, version="0.1.0")
    _git(tmp_path, "init", "--quiet")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "--quiet", "-m", "base")
    return tmp_path


def _data_made_optional(repo: Path, version: str, entries: list[dict[str, str]]) -> None:
    """The success branch's `data` made optional, the version set, the acceptance recorded: committed."""
    envelope = repo / "schemas" / "contracts" / "demo" / "envelope.schema.json"
    schema = json.loads(envelope.read_text(encoding="utf-8"))
    schema["$defs"]["SuccessEnvelope"]["required"] = ["success"]
    envelope.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    _scaffold(repo, version=version, accepted=_yaml(entries))
    _git(repo, "add", ".")
    _git(repo, "commit", "--quiet", "-m", "data optional")


def _breaking(repo: Path, *args: str) -> tuple[int, str, list[dict[str, Any]]]:
    text = run_cli("breaking", "--against", "HEAD~1", *args, cwd=repo)
    report = run_cli("breaking", "--against", "HEAD~1", "--format", "json", cwd=repo)
    return text.returncode, text.stdout, json.loads(report.stdout)["findings"]


@pytest.mark.quiet("accepted-break-unused")
def test_a_recorded_break_with_its_major_bump_passes(repo: Path) -> None:
    _data_made_optional(repo, "1.0.0", [ENTRY])
    code, text, findings = _breaking(repo)
    assert code == 0, text
    assert "property-optional [note]" in text and f"accepted: {ENTRY['reason']}" in text
    (optional,) = [f for f in findings if f["rule"] == "property-optional"]
    assert (optional["level"], optional["subject"], optional["accepted"]) == ("note", OPTIONAL_DATA, ENTRY["reason"])
    assert not [f for f in findings if f["level"] == "error"]


@pytest.mark.parametrize(
    ("version", "recorded", "said"),
    [
        ("0.1.0", "0.1.0", "accepts it for version 0.1.0 only once the version is raised"),
        ("0.2.0", "0.2.0", "accepts it for version 0.2.0 only once the version is raised"),
        ("0.1.0", "1.0.0", "accepts it for version 1.0.0, which contract.yaml's `version` is not yet"),
    ],
)
def test_without_the_major_bump_the_break_still_fails(repo: Path, version: str, recorded: str, said: str) -> None:
    _data_made_optional(repo, version, [{**ENTRY, "version": recorded}])
    code, text, findings = _breaking(repo)
    assert code == 1, text
    (optional,) = [f for f in findings if f["rule"] == "property-optional"]
    assert (optional["level"], optional["accepted"]) == ("error", None)
    assert said in optional["message"]
    assert [f["rule"] for f in findings if f["level"] == "error"].count("version-not-bumped") == 1
    assert not [f for f in findings if f["rule"] == "accepted-break-unused"]


@pytest.mark.parametrize("version", ["latest", "v2.0.0"])
def test_a_version_that_is_not_semantic_passes_no_break(repo: Path, version: str) -> None:
    """`latest` (or `v2.0.0`, which servers say) switched off version-not-bumped, and an entry
    for it accepted the break, exit 0: now contract.yaml is refused at its line."""
    _data_made_optional(repo, version, [{**ENTRY, "version": version}])
    result = run_cli("breaking", "--against", "HEAD~1", cwd=repo)
    assert result.returncode == 2, result.stdout
    said = result.stdout + result.stderr
    assert f'contract.yaml:4: "{version}" is not a semantic version' in said
    assert f'accepted-breaks.yaml:6: "{version}" is not a semantic version' in said


def test_an_old_revision_written_before_semantic_versions_is_read_as_one(repo: Path) -> None:
    """A base whose version was `1.0` is 1.0.0: the break on `1.0.0` still needs its bump."""
    identity = repo / "schemas" / "contracts" / "demo" / "contract.yaml"
    text = identity.read_text(encoding="utf-8")
    identity.write_text(text.replace('version: "0.1.0"', 'version: "1.0"'), encoding="utf-8")
    _git(repo, "commit", "--quiet", "-am", "old version")
    identity.write_text(text.replace('version: "0.1.0"', 'version: "1.0.0"'), encoding="utf-8")
    _data_made_optional(repo, "1.0.0", [{**ENTRY, "version": "2.0.0"}])
    code, text, findings = _breaking(repo)
    assert code == 1, text
    (bump,) = [f for f in findings if f["rule"] == "version-not-bumped"]
    assert "'1.0.0' to '1.0.0': the changes need a major bump" in bump["message"]


@pytest.mark.quiet("accepted-break-unused")
def test_after_the_release_the_record_is_quiet_against_a_base_that_holds_it(repo: Path) -> None:
    _data_made_optional(repo, "1.0.0", [ENTRY])
    (repo / "NOTES.md").write_text("another change, after the release\n", encoding="utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "--quiet", "-m", "later")
    code, text, findings = _breaking(repo)
    assert (code, findings) == (0, []), text
    assert run_cli("breaking", "--against", "HEAD~2", cwd=repo).returncode == 0  # the release itself still passes


@pytest.mark.fires("accepted-break-unused")
def test_an_unused_entry_warns_at_its_line(repo: Path) -> None:
    stale = {**ENTRY, "rule": "tool-removed", "subject": "tool demo_gone"}
    _data_made_optional(repo, "1.0.0", [ENTRY, stale])
    code, text, findings = _breaking(repo)
    assert code == 0, text
    (unused,) = [f for f in findings if f["rule"] == "accepted-break-unused"]
    assert (unused["level"], unused["file"], unused["line"]) == (
        "warning",
        "schemas/contracts/demo/accepted-breaks.yaml",
        7,
    )
    assert "schemas/contracts/demo/accepted-breaks.yaml:7:5: accepted-break-unused [warning]" in text
