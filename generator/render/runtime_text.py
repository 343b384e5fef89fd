"""`_runtime.py` of every generated package: the generator's runtime.py, formatted by the pinned black.

Black spends a few tenths of a second on those 24 KB in every `generate`, for the same
bytes each time. They are kept beside this module (`runtime_formatted.txt`): its first line
holds the SHA-256 of the text black formats and black's version, and the file is used only
when both match, else black runs (so a stale file costs time, never a wrong output).
`python -m mcp_contracts_generator.render.runtime_text` writes it again;
tests/test_runtime_text.py fails while it is stale.
"""

from __future__ import annotations

import hashlib
from importlib.metadata import version
from pathlib import Path

from ..resources import RUNTIME_SOURCE
from .python_format import format_python

RUNTIME_HEADER = (
    "# Copied by mcp-contracts from its generator/runtime.py. Do not edit.\n"
    "# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.\n"
)
FORMATTED = Path(__file__).resolve().parent / "runtime_formatted.txt"


def _key(text: str) -> str:
    return f"sha256:{hashlib.sha256(text.encode('utf-8')).hexdigest()} black:{version('black')}\n"


def _unformatted() -> str:
    return RUNTIME_HEADER + RUNTIME_SOURCE.read_text(encoding="utf-8")


def runtime_module() -> str:
    """The text of `_runtime.py`: the kept one when it is of this runtime and this black."""
    text = _unformatted()
    try:
        key, kept = FORMATTED.read_text(encoding="utf-8").split("\n", 1)
    except (OSError, ValueError):
        return format_python(text)
    return kept if key + "\n" == _key(text) else format_python(text)


def write_formatted() -> None:
    """Format the runtime with black and keep it (see the module)."""
    text = _unformatted()
    FORMATTED.write_text(_key(text) + format_python(text), encoding="utf-8")


if __name__ == "__main__":
    write_formatted()
