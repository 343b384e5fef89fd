"""What the commands say, in the words a new user reads them (issue 49): each summary counts
what it names, each error says what was done and what to do next, and each help text names
only what exists, in readable metavars."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import typer
from conftest import ROOT, run_cli
from mcp_contracts_generator.cli import app

GROUP: Any = typer.main.get_command(app)
DEMO = Path("schemas") / "contracts" / "demo"
# How typer shows a parameter that has no metavar of its own: its Python type, or its name in braces.
TYPE_LABEL = re.compile(r"<(?:str|path|int|float(?: range)?|bool|list\[[^\]]*\])>|\{\w+\}")
INIT_HINT = "mcp-contracts init <name>"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A project as `init demo` makes it, in a folder of its own."""
    project = tmp_path / "demo-project"
    project.mkdir()
    created = run_cli("init", "demo", cwd=project)
    assert created.returncode == 0, created.stdout + created.stderr
    return project


def _break_contract_yaml(project: Path, contract: str) -> None:
    contract_yaml = project / "schemas" / "contracts" / contract / "contract.yaml"
    contract_yaml.write_text(contract_yaml.read_text(encoding="utf-8") + "broken: [\n", encoding="utf-8")


# a. `breaking` counts breaking changes apart from a version that is too low.


def test_breaking_counts_a_compatible_edit_apart_from_breaking_changes(demo: Path) -> None:
    shutil.copytree(demo / "schemas", demo / "old")
    tools = demo / DEMO / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8").replace("title: Example tool", "title: An example tool"))
    result = run_cli("breaking", "--against", "old", cwd=demo)
    assert result.returncode == 1, result.stdout + result.stderr  # the version was not raised
    assert "version-not-bumped [error]" in result.stdout and "tool-title-changed [note]" in result.stdout
    assert result.stdout.splitlines()[-1] == "0 breaking change(s), 1 version too low, 1 other finding(s)."


def test_breaking_counts_a_break_as_one(demo: Path) -> None:
    shutil.copytree(demo / "schemas", demo / "old")
    contract = demo / DEMO / "contract.yaml"
    contract.write_text(contract.read_text(encoding="utf-8").replace('version: "0.1.0"', 'version: "1.0.0"'))
    envelope = demo / DEMO / "envelope.schema.json"
    envelope.write_text(envelope.read_text(encoding="utf-8").replace('"minLength": 1, ', ""))
    result = run_cli("breaking", "--against", "old", cwd=demo)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "response-bound-loosened [error]" in result.stdout
    assert result.stdout.splitlines()[-1] == "1 breaking change(s), 0 other finding(s).", result.stdout


# b. `check` never writes: when the sources do not load, it says it compared nothing.


def test_check_of_sources_that_do_not_load_says_it_compared_nothing(jsonrpc_project: Path) -> None:
    _break_contract_yaml(jsonrpc_project, "jsonrpc")
    result = run_cli("check", cwd=jsonrpc_project)
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == "1 problem(s); nothing was compared."
    assert "written" not in result.stderr
    generated = run_cli("generate", cwd=jsonrpc_project)  # the one that writes says so
    assert generated.stderr.splitlines()[-1] == "1 problem(s); nothing was written."


# c. `lint` of sources that do not load: the error, then no lint summary.


def test_lint_of_sources_that_do_not_load_prints_no_summary_before_the_error(jsonrpc_project: Path) -> None:
    _break_contract_yaml(jsonrpc_project, "jsonrpc")
    result = subprocess.run(
        [sys.executable, "-m", "mcp_contracts_generator", "lint"],
        cwd=jsonrpc_project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # as a terminal shows both
        text=True,
        check=False,
    )
    assert result.returncode == 2
    lines = result.stdout.splitlines()
    assert lines[0].startswith("error: schemas/contracts/jsonrpc/contract.yaml:"), lines
    assert lines[-1] == "1 problem(s) in the sources.", lines
    assert not [line for line in lines if "error(s)," in line], lines


# d. Outside a project, every command that needs one says how to start one.


@pytest.mark.parametrize(
    "command",
    [
        ["generate"],
        ["check"],
        ["lint"],
        ["breaking"],
        ["docs"],
        ["validate", "document.json", "--contract", "demo"],
        ["mock", "--contract", "demo"],
    ],
    ids=lambda command: command[0],
)
def test_outside_a_project_the_error_suggests_init(command: list[str], tmp_path: Path) -> None:
    result = run_cli(*command, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert INIT_HINT in result.stderr, result.stderr
    assert not any(tmp_path.iterdir())  # nothing was made there


def test_inside_a_project_a_load_error_suggests_no_init(demo: Path) -> None:
    _break_contract_yaml(demo, "demo")
    result = run_cli("generate", cwd=demo)
    assert result.returncode == 2 and "contract.yaml" in result.stderr
    assert "init" not in result.stderr


# e. `docs` without mkdocs names a requirement that installs.


def test_docs_without_mkdocs_names_the_docs_extra_requirement(
    jsonrpc_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    [requirement] = extras["docs"]
    monkeypatch.setitem(sys.modules, "mkdocs", None)  # this environment without mkdocs: not found
    result = run_cli("docs", cwd=jsonrpc_project)
    assert result.returncode == 2
    for way in (f"uv tool install --with '{requirement}'", f"pipx inject mcp-contracts '{requirement}'"):
        assert way in result.stderr, result.stderr  # where the tool is: its own environment
    assert f"pip install '{requirement}'" in result.stderr, result.stderr
    assert "mcp-contracts[docs]" not in result.stderr
    assert not (jsonrpc_project / "site").exists()
    assert f"pip install '{requirement}'" in (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")


# f. docs/reports.md names as lacking `--format` exactly the commands that lack it.


def test_reports_doc_names_the_commands_without_format_as_they_are() -> None:
    text = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    opening = text.split("\n\n")[1]  # the paragraph after the title: which commands report how
    assert "Every command but" in opening, opening
    named = set(re.findall(r"`([a-z]+)`", opening.split("Every command but", 1)[1].split("reports in one way", 1)[0]))
    without = {name for name, command in GROUP.commands.items() if "--format" not in _options(command)}
    assert named == without, (named, without)
    assert "in text)" not in text


def _options(command: Any) -> set[str]:
    return {name for param in command.params for name in param.opts}


# g. `breaking --help` names only what exists.


def test_breaking_help_names_ref_as_the_metavar_of_against() -> None:
    shown = " ".join(run_cli("breaking", "--help").stdout.split())
    assert "--against REF" in shown
    capitals = set(re.findall(r"\b[A-Z]{2,}\b", GROUP.commands["breaking"].help))
    metavars = {param.metavar for param in GROUP.commands["breaking"].params if param.metavar}
    assert capitals <= metavars, capitals - metavars


# h. A misspelt definition is answered with the near one.


def test_a_misspelt_definition_suggests_the_near_one(demo: Path) -> None:
    (demo / "document.json").write_text('{"success": true, "data": 1}', encoding="utf-8")
    result = run_cli("validate", "document.json", "--contract", "demo", "--definition", "ToolEror", cwd=demo)
    assert result.returncode == 2
    assert "did you mean 'ToolError'?" in result.stderr, result.stderr
    assert "SuccessEnvelope" in result.stderr  # the names are still listed


# i. Metavars read as words.


@pytest.mark.parametrize("name", sorted(GROUP.commands))
def test_help_shows_no_python_type_as_a_metavar(name: str) -> None:
    result = run_cli(name, "--help")
    assert result.returncode == 0, result.stderr
    assert TYPE_LABEL.findall(result.stdout) == [], result.stdout


def test_arguments_read_as_click_shows_them() -> None:
    usages = {name: run_cli(name, "--help").stdout.splitlines()[0] for name in ("init", "validate", "import")}
    assert usages == {
        "init": "Usage: mcp-contracts init [OPTIONS] NAME",
        "validate": "Usage: mcp-contracts validate [OPTIONS] FILE...",
        "import": "Usage: mcp-contracts import [OPTIONS] NAME [COMMAND]...",
    }
    assert TYPE_LABEL.findall((ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")) == []


# j. The wheel's packages are listed, every one: setuptools warns of none.


def _package_folders() -> set[str]:
    """Every folder the wheel takes files from, as the package name it is installed as."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    found = set()
    for package, folder in setuptools["package-dir"].items():
        base = ROOT / folder
        for sub in [base, *sorted(p for p in base.rglob("*") if p.is_dir())]:
            relative = sub.relative_to(base).parts
            if "__pycache__" in relative or not any(p.is_file() for p in sub.iterdir()):
                continue
            found.add(".".join((package, *relative)))
    return found


def test_every_folder_of_the_package_is_in_the_packages_configuration() -> None:
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    missing = _package_folders() - set(listed)
    assert not missing, sorted(missing)


@pytest.mark.slow  # setuptools from the package index, in pip's isolated build environment
def test_a_build_warns_of_no_package_absent_from_the_configuration(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: the build writes beside its sources
    for part in ("pyproject.toml", "README.md", "LICENSE", "generator", "templates", "schemas/meta"):
        copy = shutil.copytree if (ROOT / part).is_dir() else shutil.copy
        (source / part).parent.mkdir(parents=True, exist_ok=True)
        copy(ROOT / part, source / part)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert "absent from the `packages` configuration" not in built.stdout + built.stderr
    assert list((tmp_path / "dist").glob("mcp_contracts-*.whl"))
