"""`--debug` and `MCP_CONTRACTS_DEBUG=1`: the traceback behind each broad `except`, shown on
standard error, and nothing else changed (generator/debug.py)."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest
from conftest import JSONRPC, JSONRPC_PYPROJECT, ROOT, SCHEMAS, run_process
from mcp_contracts_generator.debug import VARIABLE, handled

GENERATOR = ROOT / "generator"
# The runtime is copied into every generated package, which imports nothing of the tool.
RUNTIME = GENERATOR / "runtime"


def _broken_project(tmp_path: Path) -> Path:
    """The jsonrpc project with a tools.yaml that no YAML reader takes: libyaml's refusal is
    handled by a broad `except` (ruamel reads it again and says why)."""
    project = tmp_path / "project"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / JSONRPC)
    (project / "pyproject.toml").write_text(JSONRPC_PYPROJECT, encoding="utf-8")
    (project / JSONRPC / "tools.yaml").write_text("tools: [\n  a: {\n", encoding="utf-8")
    return project


def test_debug_shows_the_traceback_of_a_handled_failure_and_changes_nothing_else(tmp_path: Path) -> None:
    project = _broken_project(tmp_path)
    plain = run_process("lint", cwd=project, env={VARIABLE: "0"})
    assert plain.returncode == 2 and "invalid YAML" in plain.stderr and "Traceback" not in plain.stderr
    for debugged in (
        run_process("--debug", "lint", cwd=project, env={VARIABLE: "0"}),
        run_process("lint", cwd=project, env={VARIABLE: "1"}),
    ):
        assert (debugged.returncode, debugged.stdout) == (plain.returncode, plain.stdout)
        assert debugged.stderr.endswith(plain.stderr)
        tracebacks = debugged.stderr.removesuffix(plain.stderr)
        assert tracebacks.startswith("mcp-contracts debug: handled at mcp_contracts_generator.load.fast_yaml:")
        assert "Traceback (most recent call last)" in tracebacks and "yaml.parser.ParserError" in tracebacks


def test_an_exception_is_shown_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(VARIABLE, "1")
    try:
        raise KeyError("missing")
    except KeyError as exc:
        handled(exc)
        handled(exc)  # handled again further up: already shown
    error = capsys.readouterr().err
    assert error.count("Traceback") == 1 and error.count(f"handled at {__name__}:") == 1
    assert "KeyError: 'missing'" in error


def _broad(kind: ast.expr | None) -> bool:
    if isinstance(kind, ast.Tuple):
        return any(_broad(element) for element in kind.elts)
    return kind is None or (isinstance(kind, ast.Name) and kind.id in ("Exception", "BaseException"))


def _hides(handler: ast.ExceptHandler) -> bool:
    """Whether the handler can end without raising again (one ending in a bare `raise` hides nothing)."""
    last = handler.body[-1]
    return not (isinstance(last, ast.Raise) and last.exc is None)


def _shows(handler: ast.ExceptHandler, runtime: bool) -> bool:
    """Whether the handler calls `debug.handled` (the module imported as `debug`) or, in the
    runtime, logs with its traceback."""
    calls = [node for node in ast.walk(handler) if isinstance(node, ast.Call)]
    if runtime:
        return any(
            isinstance(c.func, ast.Attribute)
            and (c.func.attr == "exception" or any(k.arg == "exc_info" for k in c.keywords))
            for c in calls
        )
    return any(
        isinstance(c.func, ast.Attribute) and c.func.attr == "handled" and ast.unparse(c.func.value) == "debug"
        for c in calls
    )


def test_every_broad_except_shows_its_traceback_when_debugging() -> None:
    """`except Exception`, `except BaseException`, a bare `except` or a tuple with one of
    them, anywhere in the tool: each calls `debug.handled`, or raises again; in the generated
    runtime (which imports nothing of the tool) each logs its traceback (`exc_info`), or
    raises again, or logs it through `LOG.exception`."""
    handlers = [
        (path.relative_to(ROOT).as_posix(), RUNTIME in path.parents, node)
        for path in sorted(GENERATOR.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ExceptHandler) and _broad(node.type) and _hides(node)
    ]
    assert len(handlers) > 20 and any(runtime for _, runtime, _ in handlers)  # the walk found them
    silent = [f"{name}:{handler.lineno}" for name, runtime, handler in handlers if not _shows(handler, runtime)]
    assert silent == []


def test_debug_shows_why_the_runtime_left_a_fast_path(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The runtime's log is shown under the switch: a model whose core schema the fast view
    cannot read says so, with the traceback."""
    import logging

    from mcp_contracts_generator.debug import start
    from mcp_contracts_generator.runtime import view
    from pydantic import BaseModel

    class Odd(BaseModel):
        value: int

    monkeypatch.setattr(view, "_Compiler", None)  # any failure of the compiler
    logger = logging.getLogger("mcp_contracts")
    monkeypatch.setattr(logger, "handlers", [])
    monkeypatch.setattr(logger, "level", logging.NOTSET)
    start()
    assert view.view_builder(Odd) is None and "Traceback" not in capsys.readouterr().err
    monkeypatch.setenv(VARIABLE, "1")
    start()
    assert view.view_builder(Odd) is None
    error = capsys.readouterr().err
    assert "Odd: no fast view" in error and "Traceback (most recent call last)" in error
