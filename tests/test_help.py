"""`--help` shows every help text as written: the docstring of each command and the help of
each of its parameters, square brackets and backticks included (no markup is read in them)."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from conftest import run_cli
from mcp_contracts_generator.cli import app

GROUP: Any = typer.main.get_command(app)  # typer's own click: a group with its commands
COMMANDS = sorted(GROUP.commands)


def _bare(text: str) -> str:
    """`text` without its whitespace: the help wraps lines where the terminal ends."""
    return "".join(text.split())


def _written(command: Any) -> list[str]:
    """The help texts `command` was written with: its docstring and each shown parameter's help."""
    texts = [command.help or ""] + [param.help or "" for param in command.params if not param.hidden]
    return [text for text in texts if text]


@pytest.mark.parametrize("name", ["", *COMMANDS])
def test_help_shows_every_text_as_written(name: str) -> None:
    command = GROUP.commands[name] if name else GROUP
    result = run_cli(*([name] if name else []), "--help")
    assert result.returncode == 0, result.stderr
    shown = _bare(result.stdout)
    lost = [text for text in _written(command) if _bare(text) not in shown]
    assert lost == [], result.stdout


def test_the_texts_that_markup_would_eat_are_shown() -> None:
    """The words in square brackets that rich markup took for tags."""
    assert "[tool.mcp-contracts]" in _bare(run_cli("init", "--help").stdout)
    assert "[tool.mcp-contracts.breaking]against" in _bare(run_cli("breaking", "--help").stdout)
    lint = _bare(run_cli("lint", "--help").stdout)
    assert "RULE[level]message" in lint and "[config:schemas;default:schemas]" in lint
