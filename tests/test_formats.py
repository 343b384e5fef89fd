"""One printer per format (text, json, github, sarif, junit, markdown) for `lint`, `breaking`
and `conform`: each a pure function of an `Outcome`, checked against what reads it — the
published SARIF 2.1.0 schema, an XML parser, the findings-report schema, GitHub's workflow
command syntax, Markdown tables — and end to end through the CLI, sources that do not load
included."""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import stat
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SCHEMAS, assert_report, load_json, run_cli
from mcp_contracts_generator.diagnostics import printable
from mcp_contracts_generator.findings.finding import Finding, Outcome, merged
from mcp_contracts_generator.findings.formats import FORMATS, printed
from mcp_contracts_generator.findings.outcome_facts import BreakingFacts, CheckFacts, ConformFacts, InitFacts
from mcp_contracts_generator.model import Place
from mcp_contracts_generator.render.escape import md, prose
from mcp_contracts_generator.rules import BY_ID, of_command
from mcp_contracts_generator.rules.conform import EXTRA_TOOL
from report_checks import GITHUB_LINE, SARIF_DATA, SARIF_DIGEST, SARIF_SCHEMA, assert_sarif

HOSTILE = "a | b `c` <script>x</script> 100% done\r\nnext line, key: value * _d_ [e](f) \x07\x00"


def _finding(rule: str, level: str, line: int | None, **context: Any) -> Finding:
    return Finding(rule, level, "schemas/contracts/shop/errors.yaml", line, 3 if line else None, "/errors/0", **context)


LINT = Outcome(
    "lint",
    (
        _finding("http-range", "error", 9, message="200 is not an error status (400..599)", contract="shop"),
        _finding("code-described", "warning", 12, message=HOSTILE, contract="shop"),
        _finding("def-unused", "note", None, message="'Unused' is not referenced", contract="shop"),
    ),
    tuple(r.id for r in of_command("lint") if r.profile is None),
    summary="1 error(s), 2 warning(s).",
)
BREAKING = Outcome(
    "breaking",
    (
        Finding(
            "property-optional",
            "error",
            "schemas/contracts/shop/envelope.schema.json",
            20,
            7,
            "/oneOf/0/required",
            "no longer always present",
            "shop",
            before=Place("HEAD:schemas/contracts/shop/envelope.schema.json", 18, 7, "/oneOf/0/required"),
            subject="envelope [success=true]/data",
        ),
        Finding(
            "tool-removed",
            "note",
            "schemas/contracts/shop/tools.yaml",
            None,
            None,
            None,
            "the tool is gone",
            "shop",
            subject="tool old_tool",
            accepted="retired in 2.0.0, see #12",
        ),
    ),
    tuple(r.id for r in of_command("breaking")),
    facts=BreakingFacts("HEAD", None),
    summary="1 breaking change(s), 1 other(s).",
)
CONFORM_PROBLEM = Outcome(
    "conform",
    (),
    tuple(r.id for r in of_command("conform")),
    facts=ConformFacts("shop", "http://127.0.0.1:9/mcp", False),
    problem="cannot talk to the server at 2026-07-28: connection refused",
)
NOT_LOADED = Outcome(
    "lint",
    (
        Finding("source-invalid", "error", "schemas/contracts/shop/tools.yaml", 23, None, None, "invalid YAML: <end>"),
        Finding("source-invalid", "error", "/abs/path with space/errors.yaml", None, None, "/errors", "no such file"),
    ),
    ("source-invalid",),
    loaded=False,
)
OUTCOMES = {"lint": LINT, "breaking": BREAKING, "conform-problem": CONFORM_PROBLEM, "not-loaded": NOT_LOADED}


def test_the_sarif_schema_kept_as_test_data_is_the_published_one() -> None:
    assert hashlib.sha256((SARIF_DATA / "sarif-schema-2.1.0.json").read_bytes()).hexdigest() == SARIF_DIGEST
    assert SARIF_SCHEMA["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/")
    assert (SARIF_DATA / "LICENSE.md").read_text(encoding="utf-8").count("OASIS") >= 3


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_every_format_is_a_pure_function_of_the_outcome(name: str) -> None:
    for output_format in FORMATS:
        first = printed(output_format, OUTCOMES[name])
        assert first == printed(output_format, OUTCOMES[name])
        assert first.endswith("\n") or first == ""  # whole lines, or nothing to say


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_sarif_meets_the_published_schema_and_points_at_each_rule(name: str) -> None:
    outcome = OUTCOMES[name]
    log = assert_sarif(printed("sarif", outcome))
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["informationUri"]) == ("mcp-contracts", "https://pypi.org/project/mcp-contracts/")
    rules = driver["rules"]
    ran = set(outcome.rules) | {f.rule for f in outcome.findings}
    assert {r["id"] for r in rules} == ran
    for rule in rules:
        assert rule["shortDescription"]["text"] == BY_ID[rule["id"]].purpose
        assert rule["defaultConfiguration"]["level"] == BY_ID[rule["id"]].level
        assert rule["properties"]["category"] == BY_ID[rule["id"]].category
    assert len(run["results"]) == len(outcome.findings)
    for result, finding in zip(run["results"], outcome.findings, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == finding.rule
        assert result["level"] == finding.level
        (where,) = result["locations"]
        region = where["physicalLocation"]["region"]
        assert region["startLine"] == (finding.line or 1)
        assert region.get("startColumn") == finding.column
        if finding.pointer is not None:
            assert where["logicalLocations"][0]["fullyQualifiedName"] == finding.pointer
    assert run["invocations"][0]["executionSuccessful"] is (outcome.exit_code != 2)
    assert "Time" not in json.dumps(log)  # no clock: the same outcome gives the same bytes


def test_sarif_names_files_relative_to_the_checkout_and_where_a_break_was_before() -> None:
    (run,) = assert_sarif(printed("sarif", BREAKING))["runs"]
    moved, accepted = run["results"]
    artifact = moved["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "schemas/contracts/shop/envelope.schema.json", "uriBaseId": "%SRCROOT%"}
    (before,) = moved["relatedLocations"]
    assert before["physicalLocation"]["region"] == {"startLine": 18, "startColumn": 7}
    assert accepted["suppressions"] == [{"kind": "external", "justification": "retired in 2.0.0, see #12"}]
    (run,) = assert_sarif(printed("sarif", NOT_LOADED))["runs"]
    absolute = run["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert absolute == {"uri": "file:///abs/path%20with%20space/errors.yaml"}


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_json_meets_the_findings_report_schema_with_every_finding_field(name: str) -> None:
    outcome = OUTCOMES[name]
    report = json.loads(printed("json", outcome))
    assert_report(report, "findings-report")
    assert (report["version"], report["command"], report["loaded"]) == (2, outcome.command, outcome.loaded)
    assert report["findings"] == [f.as_json() for f in outcome.findings]
    assert (report["rules"], report["facts"], report["exit_code"]) == (
        list(outcome.rules),
        outcome.facts.as_json(),
        outcome.exit_code,
    )


def test_facts_are_json_in_field_order_without_what_a_refused_command_never_learnt() -> None:
    """A field that defaults to None is left out while None; one without a default is always there."""
    assert list(CheckFacts("generated", None).as_json().items()) == [("output", "generated"), ("answered", None)]
    drifted = CheckFacts("out", "cache", False, ["a"], [], [], {"a": "diff"}).as_json()
    assert list(drifted) == ["output", "answered", "clean", "changed", "missing", "extra", "diffs"]
    assert InitFacts(["x"]).as_json() == {"created": ["x"]} and BreakingFacts("v1", None).as_json()["commit"] is None
    assert json.loads(printed("json", CONFORM_PROBLEM))["facts"] == {
        "contract": "shop",
        "target": "http://127.0.0.1:9/mcp",
        "conforms": False,
    }
    assert json.loads(printed("json", LINT))["facts"] == {}


@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_every_github_annotation_has_a_file_and_a_line_and_one_line_of_its_own(name: str) -> None:
    outcome = OUTCOMES[name]
    lines = printed("github", outcome).splitlines()
    annotations = [line for line in lines if "file=" in line]
    assert len(annotations) == len(outcome.findings)
    for line in annotations:
        assert GITHUB_LINE.match(line), line
    commands = [line.split(" ", 1)[0] for line in annotations]
    assert commands == [
        {"error": "::error", "warning": "::warning", "note": "::notice"}[f.level] for f in outcome.findings
    ]
    assert len(lines) == len(outcome.findings) + (outcome.problem is not None)


def test_github_escapes_what_would_end_a_value() -> None:
    hostile = Finding("http-range", "error", "a,b:c%.yaml", 2, None, None, HOSTILE)
    (line,) = printed("github", Outcome("lint", (hostile,), ("http-range",))).splitlines()
    assert line.startswith("::error file=a%2Cb%3Ac%25.yaml,line=2,title=http-range::a | b")
    assert "100%25 done%0D%0Anext line, key: value" in line


def test_junit_parses_with_a_case_per_rule_failing_with_its_errors() -> None:
    root = ET.fromstring(printed("junit", LINT))
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == list(LINT.rules)
    assert suite.get("tests") == root.get("tests") == str(len(LINT.rules))
    assert (suite.get("failures"), suite.get("errors")) == ("1", "0")
    failed = {c.get("name"): c for c in cases if c.find("failure") is not None}
    assert list(failed) == ["http-range"]
    assert "schemas/contracts/shop/errors.yaml:9:3: [error] 200 is not an error status" in failed[
        "http-range"
    ].findtext("failure", "")
    warned = next(c for c in cases if c.get("name") == "code-described")
    assert warned.find("failure") is None
    assert "\\u0007\\u0000" in warned.findtext("system-out", "")  # XML 1.0 cannot hold them: escaped, not dropped


def test_junit_fails_with_load_problems_and_errs_with_a_server_not_reached() -> None:
    suite = ET.fromstring(printed("junit", NOT_LOADED)).find("testsuite")
    assert suite is not None
    (case,) = suite.findall("testcase")
    assert case.get("name") == "source-invalid" and case.find("failure") is not None
    assert case.find("failure").get("message") == "2 error(s)"  # type: ignore[union-attr]
    suite = ET.fromstring(printed("junit", CONFORM_PROBLEM)).find("testsuite")
    assert suite is not None and suite.get("errors") == "1" and suite.get("failures") == "0"
    assert suite.findall("testcase")[-1].find("error").get("message") == CONFORM_PROBLEM.problem  # type: ignore[union-attr]


def test_markdown_is_a_table_no_message_can_break() -> None:
    text = printed("markdown", LINT)
    assert text.startswith("### mcp-contracts lint: failed\n")
    lines = text.splitlines()
    header = lines.index("| level | rule | contract | place | message |")
    rows = lines[header + 2 : header + 2 + len(LINT.findings)]
    for row, finding in zip(rows, LINT.findings, strict=True):
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", row)]
        assert len(cells) == 7, row  # five cells between the outer bars: nothing split one
        assert cells[1:4] == [finding.level, md(finding.rule), "shop"]
        assert cells[5].startswith(md(printable(finding.message)))
    assert "<script>" not in text and "\r" not in text and "\x00" not in text
    assert "| 1 | 1 | 1 |" in text  # errors, warnings, notes


def test_text_is_one_finding_a_line_then_the_summary() -> None:
    lines = printed("text", LINT).splitlines()
    assert (
        lines[0] == "schemas/contracts/shop/errors.yaml:9:3: http-range [error] 200 is not an error status (400..599)"
    )
    assert lines[-1] == LINT.summary
    assert printed("text", NOT_LOADED).splitlines()[:2] == [
        "error: schemas/contracts/shop/tools.yaml:23: invalid YAML: <end>",
        "error: /abs/path with space/errors.yaml#/errors: no such file",
    ]


# End to end: the CLI prints only through these printers.


def _project(tmp_path: Path) -> Path:
    """A project made by `init`, in a git repository, with one lint error and one warning."""
    assert run_cli("init", "shop", cwd=tmp_path).returncode == 0
    folder = tmp_path / "schemas" / "contracts" / "shop"
    assert "      role: http_status\n" in (folder / "contract.yaml").read_text(encoding="utf-8")
    errors = (folder / "errors.yaml").read_text(encoding="utf-8")
    (folder / "errors.yaml").write_text(errors.replace("http_status: 400", "http_status: 200"), encoding="utf-8")
    return tmp_path


def _git(repo: Path, *args: str) -> None:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
    subprocess.run(command, cwd=repo, check=True, capture_output=True)


@pytest.mark.fires("http-range")
def test_lint_prints_each_format_and_writes_the_same_as_reports(tmp_path: Path) -> None:
    project = _project(tmp_path)
    reports = [f"--report={name}:out/{name}.report" for name in FORMATS]
    (project / "out").mkdir()
    for output_format in FORMATS:
        result = run_cli("lint", "--format", output_format, *reports, cwd=project)
        assert result.returncode == 1, result.stdout + result.stderr
        assert result.stdout == (project / "out" / f"{output_format}.report").read_text(encoding="utf-8")
    assert sorted(p.name for p in (project / "out").iterdir()) == sorted(f"{n}.report" for n in FORMATS)
    sarif = assert_sarif((project / "out" / "sarif.report").read_text(encoding="utf-8"))
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "http-range"]
    errors = (project / "schemas" / "contracts" / "shop" / "errors.yaml").read_text(encoding="utf-8")
    line = errors.splitlines().index("    http_status: 200") + 1
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == line
    github = (project / "out" / "github.report").read_text(encoding="utf-8")
    assert f"::error file=schemas/contracts/shop/errors.yaml,line={line}," in github


@pytest.mark.fires("source-invalid")
@pytest.mark.parametrize("command", ["lint", "breaking"])
def test_sources_that_do_not_load_are_reported_in_every_format(tmp_path: Path, command: str) -> None:
    project = _project(tmp_path)
    _git(project, "init", "--quiet")
    _git(project, "add", ".")
    _git(project, "commit", "--quiet", "-m", "base")
    tools = project / "schemas" / "contracts" / "shop" / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8") + "broken: [\n", encoding="utf-8")
    line = len(tools.read_text(encoding="utf-8").splitlines()) + 1
    args = (command, "--against", "HEAD") if command == "breaking" else (command,)
    outputs = {}
    for output_format in FORMATS:
        result = run_cli(*args, "--format", output_format, cwd=project)
        assert result.returncode == 2, result.stdout + result.stderr
        assert "Traceback" not in result.stderr
        outputs[output_format] = result
    report = json.loads(outputs["json"].stdout)
    assert_report(report, "findings-report")
    assert report["loaded"] is False and report["exit_code"] == 2
    (finding,) = report["findings"]
    assert (finding["rule"], finding["file"], finding["line"]) == (
        "source-invalid",
        "schemas/contracts/shop/tools.yaml",
        line,
    )
    (annotation,) = outputs["github"].stdout.splitlines()
    assert annotation.startswith(f"::error file=schemas/contracts/shop/tools.yaml,line={line},title=source-invalid::")
    (result,) = assert_sarif(outputs["sarif"].stdout)["runs"][0]["results"]
    assert result["ruleId"] == "source-invalid" and result["level"] == "error"
    failure = ET.fromstring(outputs["junit"].stdout).find("testsuite/testcase[@name='source-invalid']/failure")
    assert failure is not None and "tools.yaml" in (failure.text or "")
    assert "sources do not load" in outputs["markdown"].stdout
    assert f"error: schemas/contracts/shop/tools.yaml:{line}: " in outputs["text"].stderr
    assert "source-invalid" not in outputs["text"].stdout  # load problems are errors, on standard error


@pytest.mark.fires("source-invalid")
@pytest.mark.parametrize("command", ["lint", "breaking", "conform"])
def test_settings_that_do_not_load_are_reported_in_every_format(tmp_path: Path, command: str) -> None:
    """A mistake in `[tool.mcp-contracts]` is a place in pyproject.toml, in JSON and SARIF too."""
    project = _project(tmp_path)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + '\n[tool.mcp-contracts.rules]\nno-such-rule = "off"\n')
    line = pyproject.read_text(encoding="utf-8").splitlines().index('no-such-rule = "off"') + 1
    args = {"lint": (), "breaking": ("--against", "HEAD"), "conform": ("--contract", "shop", "--", "true")}[command]
    result = run_cli(command, "--format", "json", "--report", "sarif:out.sarif", *args, cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert_report(report, "findings-report")
    (finding,) = report["findings"]
    assert (finding["rule"], finding["file"], finding["line"]) == ("source-invalid", "pyproject.toml", line)
    (sarif,) = assert_sarif((project / "out.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]
    assert sarif["ruleId"] == "source-invalid"


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_one_fault_at_several_revisions_is_one_finding_that_lists_them_in_every_format(name: str) -> None:
    """conform finds a fault once per protocol revision: it is one finding, each format lists
    its revisions; a fault of another message stays a finding of its own."""
    place = Place("tools.yaml", 4, 1, "/tools")
    found = [
        Finding.of(EXTRA_TOOL, place, "x", contract="c", revisions=(r,), subject="tools/list")
        for r in ("2025-11-25", "2025-06-18", "2025-11-25")
    ]
    found.append(Finding.of(EXTRA_TOOL, place, "y", contract="c", revisions=("2025-06-18",)))
    kept = merged(found)
    assert [(f.message, f.revisions) for f in kept] == [("x", ("2025-06-18", "2025-11-25")), ("y", ("2025-06-18",))]
    text = printed(name, Outcome("conform", tuple(kept), ("extra-tool",)))
    if name == "json":
        revisions = [f["revisions"] for f in json.loads(text)["findings"]]
        assert revisions == [["2025-06-18", "2025-11-25"], ["2025-06-18"]]
    elif name == "sarif":
        results = assert_sarif(text)["runs"][0]["results"]
        assert [r["properties"]["revisions"] for r in results] == [["2025-06-18", "2025-11-25"], ["2025-06-18"]]
        assert len({r["partialFingerprints"]["mcpContracts/v1"] for r in results}) == 2
    else:
        assert text.count("MCP 2025-06-18, 2025-11-25") == 1 and text.count("2025-11-25") == 1


@pytest.mark.quiet("source-invalid")
def test_breaking_against_a_revision_in_every_format(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _git(project, "init", "--quiet")
    _git(project, "add", ".")
    _git(project, "commit", "--quiet", "-m", "base")
    errors = project / "schemas" / "contracts" / "shop" / "errors.yaml"
    errors.write_text(
        errors.read_text(encoding="utf-8").replace("http_status: 200", "http_status: 503"), encoding="utf-8"
    )
    result = run_cli(
        "breaking", "--against", "HEAD", "--format", "sarif", "--report", "json:breaking.json", cwd=project
    )
    assert result.returncode == 1, result.stdout + result.stderr
    rules = {r["ruleId"] for r in assert_sarif(result.stdout)["runs"][0]["results"]}
    assert "code-value-changed" in rules and "source-invalid" not in rules
    report = json.loads((project / "breaking.json").read_text(encoding="utf-8"))
    assert_report(report, "findings-report")
    assert report["facts"]["against"] == "HEAD" and report["loaded"] is True
    github = run_cli("breaking", "--against", "HEAD", "--format", "github", cwd=project).stdout.splitlines()
    assert github and all(GITHUB_LINE.match(line) for line in github), github


@pytest.mark.parametrize(
    ("report", "problem"),
    [
        ("sarif", "is not FORMAT:PATH"),
        ("xml:out.xml", "is not FORMAT:PATH"),
        ("json:", "is not FORMAT:PATH"),
        ("json:no/such/folder/out.json", "cannot write the json report"),
    ],
)
def test_a_bad_report_is_exit_two_on_standard_error(tmp_path: Path, report: str, problem: str) -> None:
    project = _project(tmp_path)
    result = run_cli("lint", "--report", report, cwd=project)
    assert result.returncode == 2
    assert problem in result.stderr and "Traceback" not in result.stderr
    assert [p.name for p in project.iterdir() if p.name.startswith(".")] == []


def _special(project: Path, kind: str) -> str:
    """A PATH for `--report` that is not a regular file (or a symlink to one); made in `project`."""
    if kind == "fifo":
        os.mkfifo(project / "report.json")
    elif kind == "socket":
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(os.path.relpath(project / "report.json"))  # a relative name: AF_UNIX names are short
    elif kind == "folder":
        (project / "report.json").mkdir()
    elif kind == "symlink to standard output":
        (project / "report.json").symlink_to("/dev/stdout")
    elif kind == "symlink to a file":
        (project / "elsewhere.json").write_text("kept\n", encoding="utf-8")
        (project / "report.json").symlink_to("elsewhere.json")
    else:
        return "/dev/null"  # a character device
    return "report.json"


def _entry(path: Path) -> tuple[int, str | None]:
    """What `path` is, without following it: its type bits and, for a symlink, where it leads."""
    return stat.S_IFMT(os.lstat(path).st_mode), os.readlink(path) if path.is_symlink() else None


@pytest.mark.parametrize(
    ("kind", "problem"),
    [
        ("fifo", "a FIFO, not a regular file"),
        ("socket", "a socket, not a regular file"),
        ("folder", "a folder, not a regular file"),
        ("device", "a character device, not a regular file"),
        ("symlink to standard output", "a symlink"),
        ("symlink to a file", "a symlink"),
    ],
)
def test_a_report_path_that_is_not_a_regular_file_is_refused_before_the_command_runs(
    tmp_path: Path, kind: str, problem: str
) -> None:
    """A rename over a FIFO, a device or a link would replace it with a file: refused, exit 2,
    the entry as it was; any symlink is refused, whatever it leads to."""
    project = _project(tmp_path)
    os.chdir(project)  # the socket's relative name
    try:
        path = _special(project, kind)
    finally:
        os.chdir(ROOT)
    where = project / path
    before = _entry(where)
    for command in ("lint", "check"):
        result = run_cli(command, "--report", f"json:{path}", cwd=project)
        assert result.returncode == 2, result.stdout + result.stderr
        assert result.stdout == ""  # nothing ran
        assert result.stderr == f"error: {path}: cannot write the json report: {problem}: a report replaces" + (
            " only a regular file\n"
        )
        assert _entry(where) == before
    if kind == "symlink to a file":
        assert (project / "elsewhere.json").read_text(encoding="utf-8") == "kept\n"


def test_a_report_replaces_the_file_whole(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "lint.xml").write_text("x" * 100_000, encoding="utf-8")
    assert run_cli("lint", "--report", "junit:lint.xml", cwd=project).returncode == 1
    ET.parse(project / "lint.xml")
    assert sorted(p.name for p in project.iterdir()) == ["lint.xml", "pyproject.toml", "schemas", "shop_server.py"]


def test_the_findings_report_schema_is_a_schema() -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(load_json(SCHEMAS / "meta" / "findings-report.schema.json"))


def test_the_rules_page_lists_every_rule_of_the_registry_under_its_command() -> None:
    from mcp_contracts_generator.rules import RULES

    page = (ROOT / "generated" / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = [line for line in page.splitlines() if line.startswith("## ")]
    assert headings == [
        "## Re-level or switch off a rule",
        "## Every command",
        "## lint",
        "## breaking",
        "## conform",
        "## check",
        "## validate",
    ]
    for rule in RULES:
        (row,) = [line for line in page.splitlines() if line.startswith(f'| <a id="{rule.id}"></a>')]
        assert f"| {md(rule.level)} | {md(rule.category)} |" in row and prose(rule.purpose) in row
        if rule.bump is not None:
            assert f"| {rule.bump} |" in row
        section = page[: page.index(row)].rsplit("\n## ", 1)[1].split("\n", 1)[0]
        assert section == ("Every command" if len(rule.commands) == 3 else rule.command)
    assert "[tool.mcp-contracts.rules]" in page and "\nrules:\n" in page
    mkdocs = (ROOT / "generated" / "mkdocs.yml").read_text(encoding="utf-8")
    assert "rules.md" in mkdocs and "lint-rules" not in mkdocs


@pytest.mark.parametrize("name", ["index", "rules", "lint-rules"])
def test_a_contract_cannot_take_the_name_of_a_docs_page(tmp_path: Path, name: str) -> None:
    result = run_cli("init", name, cwd=tmp_path)
    if result.returncode == 0:  # the scaffold took it: loading refuses it
        result = run_cli("check", cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr


def test_the_cli_offers_every_format_there_is_a_printer_for() -> None:
    from mcp_contracts_generator.cli import Format

    assert [f.value for f in Format] == list(FORMATS)
    for command in ("lint", "breaking", "conform"):
        help_text = run_cli(command, "--help").stdout
        assert "--report" in help_text and "sarif" in help_text, command


# Where `--report` never writes, each with a word of why it is refused (`findings/report_file.py`).
GUARDED_REPORTS = [
    ("pyproject.toml", "the project's settings file"),
    ("schemas/contracts/shop/errors.yaml", "in the sources folder schemas"),
    ("schemas/new-report.json", "in the sources folder schemas"),
    (".git/config", "in a .git folder"),
    (".git/hooks/new-report.json", "in a .git folder"),
    ("generated/README.md", "in the output folder generated"),
    ("generated/new-report.json", "in the output folder generated"),
    ("into-the-sources/new-report.json", "in the sources folder schemas"),  # a symlink to schemas/ on the way
]


@pytest.fixture
def guarded_project(tmp_path: Path) -> Path:
    """A project made by `init`, generated, in a git repository, with a symlink to its sources."""
    project = tmp_path / "project"
    project.mkdir()
    _project(project)
    _git(project, "init", "--quiet")
    assert run_cli("generate", cwd=project).returncode == 0
    (project / "into-the-sources").symlink_to("schemas")
    return project


def _bytes_or_none(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


@pytest.mark.parametrize(("target", "why"), GUARDED_REPORTS)
def test_a_report_onto_the_projects_own_files_is_refused_before_the_command_runs(
    guarded_project: Path, target: str, why: str
) -> None:
    """A report never replaces the settings, a source, an output file or git's files, as `--out`
    and `--site` never take those folders: exit 2 naming the path and why, nothing written."""
    where = guarded_project / target
    before = _bytes_or_none(where)
    for command in (("lint",), ("check",), ("breaking", "--against", "HEAD")):
        result = run_cli(*command, "--report", f"json:{target}", cwd=guarded_project)
        assert result.returncode == 2, result.stdout + result.stderr
        assert result.stdout == ""  # nothing ran
        assert result.stderr.startswith(f"error: {target}: cannot write the json report: {why}: "), result.stderr
        assert "Traceback" not in result.stderr
        assert _bytes_or_none(where) == before


def test_a_report_onto_the_settings_file_is_refused_when_the_settings_do_not_load(guarded_project: Path) -> None:
    pyproject = guarded_project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "\nno_such_key = 1\n", encoding="utf-8")
    before = pyproject.read_bytes()
    for target in ("pyproject.toml", "schemas/new-report.json", ".git/config"):
        result = run_cli("lint", "--report", f"json:{target}", cwd=guarded_project)
        assert result.returncode == 2, result.stdout + result.stderr
        assert result.stderr.startswith(f"error: {target}: cannot write the json report: "), result.stderr
    assert pyproject.read_bytes() == before and not (guarded_project / "schemas" / "new-report.json").exists()


def test_a_report_elsewhere_in_the_project_outside_it_or_on_standard_output_is_written(
    guarded_project: Path, tmp_path: Path
) -> None:
    (guarded_project / "reports").mkdir()
    (tmp_path / "elsewhere").mkdir()
    outside = tmp_path / "elsewhere" / "lint.json"
    for target in ("lint.json", "reports/lint.json", str(outside)):
        result = run_cli("lint", "--report", f"json:{target}", cwd=guarded_project)
        assert result.returncode == 1, result.stdout + result.stderr
        assert json.loads((guarded_project / target).read_text(encoding="utf-8"))["command"] == "lint"
    shown = run_cli("lint", "--format", "github", "--report", "json:-", cwd=guarded_project)
    assert shown.returncode == 1 and '"command": "lint"' in shown.stdout


def test_validate_never_writes_a_report_onto_a_document_it_judges(guarded_project: Path) -> None:
    document = guarded_project / "answer.json"
    document.write_text('{"success": true, "data": {}}', encoding="utf-8")
    for target in ("json:answer.json", "json:./answer.json", f"sarif:{document}"):
        result = run_cli("validate", "--contract", "jsonrpc", "--report", target, "answer.json", cwd=guarded_project)
        assert result.returncode == 2 and "a report never replaces a document it judges" in result.stderr, result
        assert document.read_text(encoding="utf-8") == '{"success": true, "data": {}}'
