"""Every command reports through the findings printers (`generator/findings/formats/`).

`check` in each format, on a real drifted output folder: its drift is a finding of
`output-drift`, so a GitHub annotation escapes a file name with the one function `lint`'s
annotations use, SARIF meets the published schema, JUnit parses as XML; its text keeps the
words users know. `generate` and `init` print their outcomes the same way.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import JSONRPC, assert_report, run_cli
from mcp_contracts_generator.findings.formats import FORMATS
from mcp_contracts_generator.findings.formats.github import message_value, property_value
from report_checks import GITHUB_LINE, assert_sarif

CONTRACT = JSONRPC
FORGED = "a,line=999,title=X::forged%0A"


@pytest.fixture
def project(jsonrpc_project: Path) -> Path:
    return jsonrpc_project


def _drift(project: Path) -> None:
    """One file changed, one missing, one extra."""
    docs = project / "generated" / "docs"
    (docs / "jsonrpc.md").write_text("# edited by hand\n", encoding="utf-8")
    (docs / "index.md").unlink()
    (docs / "stray.md").write_text("stray\n", encoding="utf-8")


@pytest.mark.fires("output-drift")
def test_a_forged_file_name_is_escaped_by_check_as_lint_escapes_it(project: Path) -> None:
    """`a,line=999,title=X::...` in `file=` would end the property and forge the line and title."""
    (project / "generated" / FORGED).write_text("x\n", encoding="utf-8")
    result = run_cli("check", "--format", "github", cwd=project)
    assert result.returncode == 1, result.stdout + result.stderr
    (annotation,) = result.stdout.splitlines()
    message = "extra: the sources do not produce this file; run `mcp-contracts generate` and commit"
    assert annotation == (
        f"::error file={property_value('generated/' + FORGED)},line=1,title=output-drift::{message_value(message)}"
    )
    assert ",line=999" not in annotation and ",title=X" not in annotation and GITHUB_LINE.match(annotation)
    # lint names a source file the same way, through the same function
    (project / CONTRACT / "examples" / f"{FORGED}.json").write_text("{", encoding="utf-8")
    linted = run_cli("lint", "--format", "github", cwd=project)
    source = f"{CONTRACT.as_posix()}/examples/{FORGED}.json"
    assert f"::error file={property_value(source)},line=1,title=source-invalid::" in linted.stdout


@pytest.mark.fires("output-drift")
def test_check_reports_drift_in_every_format_and_writes_the_same_as_reports(project: Path) -> None:
    _drift(project)
    reports = [f"--report={name}:out/{name}.report" for name in FORMATS]
    (project / "out").mkdir()
    outputs = {}
    for output_format in FORMATS:
        result = run_cli("check", "--format", output_format, *reports, cwd=project)
        assert result.returncode == 1, result.stdout + result.stderr
        assert result.stdout == (project / "out" / f"{output_format}.report").read_text(encoding="utf-8")
        outputs[output_format] = result.stdout
    drifted = ["generated/docs/index.md", "generated/docs/jsonrpc.md", "generated/docs/stray.md"]
    text = outputs["text"].splitlines()
    assert text[:3] == ["changed  docs/jsonrpc.md", "missing  docs/index.md", "extra    docs/stray.md"]
    assert "-# edited by hand" in text and "--- a/generated/docs/stray.md" in text
    assert text[-1] == "generated has drifted from the sources: run `mcp-contracts generate`."
    report = json.loads(outputs["json"])
    assert_report(report, "findings-report")
    assert (report["command"], report["exit_code"], report["counts"]["error"]) == ("check", 1, 3)
    assert [f["file"] for f in report["findings"]] == drifted
    assert {f["rule"] for f in report["findings"]} == {"output-drift"}
    facts = report["facts"]
    paths = ["docs/jsonrpc.md"], ["docs/index.md"], ["docs/stray.md"]
    assert (facts["changed"], facts["missing"], facts["extra"]) == paths
    assert facts["clean"] is False and facts["answered"] == "comparison"
    assert sorted(facts["diffs"]) == ["docs/index.md", "docs/jsonrpc.md", "docs/stray.md"]
    github = outputs["github"].splitlines()
    assert len(github) == 3 and all(GITHUB_LINE.match(line) for line in github), github
    (run,) = assert_sarif(outputs["sarif"])["runs"]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]] == drifted
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["output-drift"]
    assert run["automationDetails"]["id"] == "mcp-contracts/check/"
    suite = ET.fromstring(outputs["junit"]).find("testsuite")
    assert suite is not None and suite.get("failures") == "1"
    failure = suite.find("testcase[@name='output-drift']/failure")
    assert failure is not None and failure.get("message") == "3 error(s)"
    assert outputs["markdown"].startswith("### mcp-contracts check: failed\n")
    assert "generated/docs/stray.md" in outputs["markdown"]


@pytest.mark.quiet("output-drift")
def test_an_output_that_matches_is_quiet_in_every_format(project: Path) -> None:
    for output_format in FORMATS:
        result = run_cli("check", "--format", output_format, cwd=project)
        assert result.returncode == 0, result.stdout + result.stderr
        if output_format == "text":
            assert result.stdout == "generated is up to date.\n"
        elif output_format == "json":
            report = json.loads(result.stdout)
            assert_report(report, "findings-report")
            assert report["findings"] == [] and report["facts"]["clean"] is True
        elif output_format == "sarif":
            assert assert_sarif(result.stdout)["runs"][0]["results"] == []
        elif output_format == "junit":
            assert ET.fromstring(result.stdout).get("failures") == "0"
        elif output_format == "github":
            assert result.stdout == ""


@pytest.mark.fires("source-invalid")
def test_check_of_sources_that_do_not_load_in_every_format(project: Path) -> None:
    tools = project / CONTRACT / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8") + "broken: [\n", encoding="utf-8")
    for output_format in FORMATS:
        result = run_cli("check", "--format", output_format, cwd=project)
        assert result.returncode == 2, result.stdout + result.stderr
        assert "Traceback" not in result.stdout + result.stderr
        if output_format == "text":
            assert result.stderr.startswith(f"error: {CONTRACT.as_posix()}/tools.yaml:")
            assert result.stderr.endswith("1 problem(s); nothing was compared.\n")
        elif output_format == "github":
            assert result.stdout.startswith(f"::error file={CONTRACT.as_posix()}/tools.yaml,line=")
            assert ",title=source-invalid::" in result.stdout
        elif output_format == "sarif":
            (found,) = assert_sarif(result.stdout)["runs"][0]["results"]
            assert found["ruleId"] == "source-invalid"


def test_a_report_to_standard_output_follows_the_format(project: Path) -> None:
    result = run_cli("check", "--report", "json:-", cwd=project)
    assert result.returncode == 0, result.stderr
    text, report = result.stdout.split("\n", 1)
    assert text == "generated is up to date."
    assert json.loads(report)["facts"]["clean"] is True
    assert not (project / "-").exists()


def test_generate_and_init_say_what_they_wrote_in_their_own_words(project: Path) -> None:
    _drift(project)
    generated = run_cli("generate", cwd=project)
    assert generated.returncode == 0, generated.stderr
    assert generated.stdout.splitlines() == [
        "created  generated/docs/index.md",
        "updated  generated/docs/jsonrpc.md",
        "removed  generated/docs/stray.md",
        "3 file(s) changed in generated.",
    ]
    created = run_cli("init", "shop", cwd=project)
    assert created.returncode == 0, created.stderr
    lines = created.stdout.splitlines()
    assert lines[0].startswith("created  schemas/contracts/shop/")
    assert lines[-1] == "Edit them, then run `mcp-contracts generate`."
    again = run_cli("init", "shop", cwd=project)
    assert again.returncode == 2 and "already exists" in again.stderr
    assert again.stderr.endswith("1 problem(s); nothing was written.\n") and again.stdout == ""


@pytest.mark.fires("source-invalid")
@pytest.mark.parametrize(
    ("command", "refused", "annotation"),
    [
        (("generate",), ("generate",), f"::error file={CONTRACT.as_posix()}/tools.yaml,line="),
        (("init", "shop"), ("init", "shop"), "::error file=schemas/contracts/shop,line=1,title=source-invalid::"),
        (("docs", "--site", "site"), ("docs", "--site", "schemas"), "::error title=mcp-contracts docs::schemas"),
    ],
)
def test_generate_init_and_docs_speak_every_format(
    project: Path, command: tuple[str, ...], refused: tuple[str, ...], annotation: str
) -> None:
    """Their JSON is the findings report with their facts; what they refuse is a GitHub
    annotation as `check`'s and `lint`'s are (a source that does not load, a contract that
    exists, a site folder that would empty the sources)."""
    done = run_cli(*command, "--format", "json", "--report", "github:out.github", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert_report(report, "findings-report")
    assert report["command"] == command[0] and report["exit_code"] == 0 and report["findings"] == []
    assert report["facts"] and (project / "out.github").read_text(encoding="utf-8") == ""
    tools = project / CONTRACT / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8") + "broken: [\n", encoding="utf-8")
    said = run_cli(*refused, "--format", "github", cwd=project)
    assert said.returncode == 2, said.stdout + said.stderr
    (line,) = said.stdout.splitlines()
    assert line.startswith(annotation) and (GITHUB_LINE.match(line) or "file=" not in line), line


def test_one_outcome_class_and_one_format_enum() -> None:
    """Every command's result is one `Outcome` (findings/finding.py), printed in a format of the
    one `--format` enum: no other class of the generator takes either name."""
    import ast

    from conftest import ROOT

    named: dict[str, list[str]] = {"Outcome": [], "Format": []}
    for path in sorted((ROOT / "generator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name in named:
                named[node.name].append(path.relative_to(ROOT).as_posix())
    assert named == {"Outcome": ["generator/findings/finding.py"], "Format": ["generator/cli_params.py"]}


@pytest.mark.parametrize(
    ("raw", "shown"), [("\x1b[31m", "\\u001b[31m"), ("\x00", "\\u0000"), ("\x7f\x85", "\\u007f\\u0085")]
)
def test_a_github_annotation_holds_no_raw_control_character(raw: str, shown: str) -> None:
    """A CI log shows an annotation's text raw: an ESC from a source would start a terminal
    sequence there. Each control but tab, CR and LF (which GitHub's encoding carries) is its escape."""
    assert message_value(f"a{raw}b") == f"a{shown}b"
    assert property_value(f"a{raw}b") == f"a{shown}b"
    assert message_value("a\tb\r\n") == "a\tb%0D%0A"
