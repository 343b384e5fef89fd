"""`_runtime/` comes from the kept, black-formatted modules only while each is of the current
runtime module and black; otherwise black formats it, to the same bytes."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from mcp_contracts_generator.render import runtime_text
from mcp_contracts_generator.render.python_format import format_python


@cache
def expected() -> dict[str, str]:
    """Each runtime module as black writes it: made when a test asks, not when pytest collects
    (every worker collects every module, and black takes seconds on the runtime)."""
    return {name: format_python(runtime_text._unformatted(name)) for name in runtime_text.runtime_names()}


def test_the_kept_runtime_is_current() -> None:
    update = "run `.venv/bin/python -m mcp_contracts_generator.render.runtime_text` to update it"
    kept = sorted(path.name.removesuffix(".txt") for path in runtime_text.FORMATTED.glob("*.txt"))
    assert kept == sorted(expected()), update
    for name in expected():
        key = (runtime_text.FORMATTED / f"{name}.txt").read_text(encoding="utf-8").split("\n", 1)[0] + "\n"
        assert key == runtime_text._key(runtime_text._unformatted(name)), update
    assert runtime_text.runtime_modules() == expected()


@pytest.mark.parametrize("kept", ["sha256:0 black:0\nstale text", "", "no key line"])
def test_a_stale_or_missing_kept_runtime_is_formatted_by_black(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: str
) -> None:
    if kept:
        for name in expected():
            (tmp_path / f"{name}.txt").write_text(kept, encoding="utf-8")
    monkeypatch.setattr(runtime_text, "FORMATTED", tmp_path)
    assert runtime_text.runtime_modules() == expected()
