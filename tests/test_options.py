"""Each command's options: one frozen dataclass per command, fields by name, and `api.run` the
one entry that runs any of them as the command line does."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import get_args

import pytest
from mcp_contracts_generator import api, api_sources, options
from mcp_contracts_generator.cli import app

COMMANDS = sorted(command.name or command.callback.__name__ for command in app.registered_commands if command.callback)


def test_every_command_has_one_frozen_options_class_that_run_takes() -> None:
    classes = get_args(options.Options)
    assert sorted(cls.command for cls in classes) == COMMANDS
    for cls in classes:
        params = dataclasses.fields(cls)
        assert cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]
        assert all(field.kw_only for field in params), cls
        assert api.run.__name__ == "run" and cls in api._RUNS


def test_run_is_the_one_public_entry_per_command() -> None:
    """No second family beside `run`: what `api` offers besides it is not a command (settings,
    rendering and loading in memory, the plan cache, the contract a command judges with)."""
    import inspect

    defined = {
        name for name, value in vars(api).items() if inspect.isfunction(value) and value.__module__ == api.__name__
    }
    assert {name for name in defined if not name.startswith("_")} <= set(api.__all__)
    assert sorted(api.__all__) == [
        "PlanCache",
        "RenderResult",
        "load",
        "plans_cached",
        "reading",
        "render",
        "run",
        "served_contract",
        "settings",
        "settings_of",
        "source_contract",
    ]
    assert list(inspect.signature(api.run).parameters) == ["chosen", "resolved"]


def test_options_are_named_never_positional() -> None:
    with pytest.raises(TypeError):
        options.Breaking("origin/main")  # type: ignore[misc]
    chosen = options.Check(full=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        chosen.full = False  # type: ignore[misc]


def test_run_is_the_command_on_the_settings_it_reads_or_is_given(
    rpc_schemas: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line resolves the settings once (`settings_of`) and hands them to `run`."""
    monkeypatch.chdir(rpc_schemas.parent)
    chosen = options.Lint(schemas=rpc_schemas)
    linted = api.run(chosen)
    assert linted == api.run(chosen, api.settings_of(chosen)) and linted.command == "lint" and linted.loaded
    generated = api.run(options.Generate(schemas=rpc_schemas, out=rpc_schemas.parent / "out", package="rpc"))
    assert generated.command == "generate" and generated.exit_code == 0, generated
    checked = api.run(options.Check(schemas=rpc_schemas, out=rpc_schemas.parent / "out", package="rpc"))
    assert (checked.command, checked.exit_code) == ("check", 0)


def test_mock_is_run_through_the_api_and_says_why_it_cannot_serve(rpc_schemas: Path) -> None:
    pytest.importorskip("mcp")
    outcome = api.run(options.Mock(contract="jsonrcp", schemas=rpc_schemas))
    assert outcome.command == "mock" and outcome.exit_code == 2
    assert outcome.problem is not None and "unknown contract 'jsonrcp'" in outcome.problem
    assert "did you mean 'jsonrpc'?" in outcome.problem


def test_plans_are_kept_only_where_the_caller_asks_and_by_their_inputs(
    rpc_schemas: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The suite keeps plans (conftest's `plans_kept`); a caller without a cache renders anew
    each time, one with its own cache renders equal inputs once and an edited source again."""
    monkeypatch.chdir(rpc_schemas.parent)
    calls: list[object] = []
    real = api_sources._render_sources
    monkeypatch.setattr(api_sources, "_render_sources", lambda chosen: calls.append(chosen) or real(chosen))
    with api.plans_cached(api.PlanCache()) as cache:
        first = api.render(rpc_schemas, package="rpc")
        assert api.render(rpc_schemas, package="rpc").plan == first.plan and len(calls) == 1
        source = next((rpc_schemas / "contracts" / "jsonrpc").glob("*.yaml"))
        source.write_text(source.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        api.render(rpc_schemas, package="rpc")
        assert len(calls) == 2 and len(cache.plans) == 2
        with api.plans_cached(None):
            api.render(rpc_schemas, package="rpc")
            api.render(rpc_schemas, package="rpc")
    assert len(calls) == 4
