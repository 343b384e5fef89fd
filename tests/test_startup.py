"""Commands import only what they use: `--version` imports not even typer, and every `--help`
no loader, renderer, formatter, validator or MCP SDK (typer's own imports are the floor: its
conversion of a flag's value imports pydantic, measured on an app of typer alone)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib.metadata import version

import pytest
from conftest import ROOT
from mcp_contracts_generator import __version__
from mcp_contracts_generator.cli import Format, app

# Top-level packages none of these invocations may import.
HEAVY = {
    "jinja2",
    "black",
    "pydantic",
    "pydantic_core",
    "datamodel_code_generator",
    "referencing",
    "jsonschema",
    "jsonschema_rs",
    "ruamel",
    "mcp",
    "msgspec",
}
# The generator's own modules they may import: the command line and the table it lists in a help text.
LIGHT = {
    "mcp_contracts_generator",
    "mcp_contracts_generator.__main__",
    "mcp_contracts_generator.cli",
    "mcp_contracts_generator.cli_params",
    "mcp_contracts_generator.debug",
    "mcp_contracts_generator.interrupt",
    "mcp_contracts_generator.options",
    "mcp_contracts_generator.protocol",
}
COMMANDS = sorted(command.name or command.callback.__name__ for command in app.registered_commands if command.callback)
# What the `mcp-contracts` script runs, as pyproject.toml declares it ("module:function").
ENTRY = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["mcp-contracts"]
SCRIPT = (
    "import json, sys\n"
    "from {module} import {function} as main\n"
    "sys.argv = ['mcp-contracts', *json.loads(sys.argv[1])]\n"
    "try:\n    main()\nexcept SystemExit as exit:\n    assert not exit.code, exit.code\n"
    "print('\\n' + json.dumps(sorted(sys.modules)))\n"
)


# An app of typer alone, with a flag on its group as ours has (`--version`): what typer
# imports to parse `COMMAND --help`, the floor of ours.
BARE_TYPER = (
    "import json, sys, typer\n"
    "app = typer.Typer()\n"
    "@app.callback()\n"
    "def main(flag: bool = typer.Option(False, '--flag')) -> None: ...\n"
    "@app.command()\n"
    "def one(name: str = 'a') -> None: ...\n"
    "@app.command()\n"
    "def two() -> None: ...\n"
    "try:\n    app(['one', '--help'])\nexcept SystemExit:\n    pass\n"
    "print('\\n' + json.dumps(sorted(sys.modules)))\n"
)


@pytest.fixture(scope="module")
def typer_floor() -> set[str]:
    """The top-level packages an app of typer alone imports for `COMMAND --help`."""
    result = subprocess.run([sys.executable, "-c", BARE_TYPER], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return {module.split(".")[0] for module in json.loads(result.stdout.rstrip("\n").rpartition("\n")[2])}


def _modules(*args: str, entry: str = ENTRY) -> tuple[str, list[str]]:
    """What the script's entry prints for `args`, and every module it imported."""
    module, _, function = entry.partition(":")
    script = SCRIPT.format(module=module, function=function)
    result = subprocess.run(
        [sys.executable, "-c", script, json.dumps(args)], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    output, _, last = result.stdout.rstrip("\n").rpartition("\n")
    return output, json.loads(last)


def test_every_command_is_listed() -> None:
    assert COMMANDS == [
        "breaking",
        "check",
        "conform",
        "docs",
        "generate",
        "import",
        "init",
        "lint",
        "mock",
        "validate",
    ]


@pytest.mark.parametrize("args", [("--version",), ("--help",), *((name, "--help") for name in COMMANDS)], ids=str)
def test_version_and_help_import_no_pipeline(args: tuple[str, ...], typer_floor: set[str]) -> None:
    output, modules = _modules(*args)
    assert output.strip(), "it printed something"
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY - typer_floor) == []
    assert sorted(m for m in modules if m.startswith("mcp_contracts_generator") and m not in LIGHT) == []


def test_version_prints_the_literal_the_package_metadata_holds() -> None:
    output, _ = _modules("--version")
    assert output == f"mcp-contracts {__version__}\n"
    assert version("mcp-contracts") == __version__ == "0.1.0"


def test_version_is_answered_before_the_command_line_is_imported() -> None:
    """The script answers `--version` alone from the literal: no typer, no `cli`."""
    assert ENTRY == "mcp_contracts_generator.__main__:main"
    _, modules = _modules("--version")
    assert sorted(m for m in modules if m.split(".")[0] in {"typer", "click"} or m.endswith(".cli")) == []


@pytest.mark.parametrize("args", [("--version",), ("--version", "check"), ("--help",), ("check", "--help")], ids=str)
def test_the_script_says_what_the_command_line_says(args: tuple[str, ...]) -> None:
    """Through the script's entry or straight through `cli.main`, the same words."""
    assert _modules(*args)[0] == _modules(*args, entry="mcp_contracts_generator.cli:main")[0]


def test_python_dash_m_runs_the_script() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mcp_contracts_generator", "--version"], capture_output=True, text=True, timeout=120
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, f"mcp-contracts {__version__}\n", "")


def test_the_report_formats_the_help_lists_are_the_printers() -> None:
    """cli.py names the formats without importing the printers (they import the findings model)."""
    from mcp_contracts_generator.findings.formats import FORMATS

    assert tuple(Format) == FORMATS


def test_the_command_line_runs_every_command_through_the_api() -> None:
    """cli.py imports the API, its flags, the server checks and the printer: no command's
    own module (`mock` is `api.run` of its options as every other command)."""
    import ast

    tree = ast.parse((ROOT / "generator" / "cli.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module] if node.module else [alias.name for alias in node.names]
            imported |= {name.split(".")[0] for name in names}
    allowed = {
        "__version__",
        "options",
        "cli_params",
        "cli_server",
        "api",
        "findings",
        "interrupt",
        "diagnostics",
        "debug",
    }
    assert sorted(imported - allowed - {"config"}) == []  # config: a type, for the report guard
