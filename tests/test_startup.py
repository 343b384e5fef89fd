"""Commands import only what they use: `--version` imports not even typer, and every `--help`
no loader, renderer, formatter, validator or MCP SDK (typer's own imports are the floor)."""

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
    "mcp_contracts_generator.interrupt",
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
def test_version_and_help_import_no_pipeline(args: tuple[str, ...]) -> None:
    output, modules = _modules(*args)
    assert output.strip(), "it printed something"
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY) == []
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


def _samples(annotation: object) -> list[object]:
    from enum import Enum
    from pathlib import Path
    from typing import get_args, get_origin

    if get_origin(annotation) is list:
        return [[sample] for sample in _samples(get_args(annotation)[0])] + [("a", "b")]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return [*annotation, *(member.value for member in annotation), "NOT-A-CHOICE", "TEXT"]
    if annotation is Path:
        return ["schemas", "no/such/folder", Path("generated"), "-"]
    if annotation is bool:
        return [True, False, "yes"]
    if annotation is int:
        return [8000, 0, -1, 2**70, True, "5", "x", "0.05"]
    return ["text", "", "5", "0.05"]


def test_plain_values_convert_as_typer_converts_them() -> None:
    """Each parameter of each command, given values of its kind and values that are not: the
    plain converter gives typer's value, or typer's own error."""
    import typer
    from typer._coercion import build_runtime_param

    group = typer.main.get_command(app)
    context = typer.Context(group)
    compared = 0
    for command in [group, *group.commands.values()]:  # type: ignore[attr-defined]
        for param in command.params:
            for value in _samples(param.type_descriptor.annotation):
                outcomes = []
                for runtime in (param.get_runtime_param(), build_runtime_param(param.type_descriptor)):
                    try:
                        outcomes.append(("value", runtime.coerce(value, param=param, ctx=context)))
                    except typer.BadParameter as exc:
                        outcomes.append(("error", exc.format_message()))
                assert outcomes[0] == outcomes[1], (command.name, param.name, value)
                compared += 1
    assert compared > 100
