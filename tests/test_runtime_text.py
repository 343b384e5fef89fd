"""`_runtime.py` comes from the kept, black-formatted runtime only while that is of the
current runtime.py and black; otherwise black formats it, to the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_contracts_generator.render import runtime_text
from mcp_contracts_generator.render.python_format import format_python
from mcp_contracts_generator.resources import RUNTIME_SOURCE

EXPECTED = format_python(runtime_text.RUNTIME_HEADER + RUNTIME_SOURCE.read_text(encoding="utf-8"))


def test_the_kept_runtime_is_current() -> None:
    key = runtime_text.FORMATTED.read_text(encoding="utf-8").split("\n", 1)[0] + "\n"
    update = "run `.venv/bin/python -m mcp_contracts_generator.render.runtime_text` to update it"
    assert key == runtime_text._key(runtime_text._unformatted()), update
    assert runtime_text.runtime_module() == EXPECTED


@pytest.mark.parametrize("kept", ["sha256:0 black:0\nstale text", "", "no key line"])
def test_a_stale_or_missing_kept_runtime_is_formatted_by_black(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: str
) -> None:
    path = tmp_path / "runtime_formatted.txt"
    if kept:
        path.write_text(kept, encoding="utf-8")
    monkeypatch.setattr(runtime_text, "FORMATTED", path)
    assert runtime_text.runtime_module() == EXPECTED
