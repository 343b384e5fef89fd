"""`_runtime/` of every generated package: the generator's runtime package, each module formatted
by the pinned black.

Black spends a few tenths of a second on those 50 KB in every `generate`, for the same
bytes each time. They are kept beside this module (`runtime_formatted/<module>.txt`): the
first line of each holds the SHA-256 of the text black formats and black's version, and the
file is used only when both match, else black runs (so a stale file costs time, never a
wrong output). `python -m mcp_contracts_generator.render.runtime_text` writes them again;
tests/test_runtime_text.py fails while one is stale.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib.metadata import version
from pathlib import Path

from ..resources import RUNTIME_PACKAGE
from .python_format import format_python

RUNTIME_NEEDS = "# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.\n"
FORMATTED = Path(__file__).resolve().parent / "runtime_formatted"


def runtime_names() -> list[str]:
    """The file names of the runtime's modules, in order."""
    return sorted(path.name for path in RUNTIME_PACKAGE.glob("*.py"))


@cache
def _black() -> str:
    """The installed black's version: read from its metadata once a process (a scan of
    site-packages each time, for each module of each package)."""
    return version("black")


def _key(text: str) -> str:
    return f"sha256:{hashlib.sha256(text.encode('utf-8')).hexdigest()} black:{_black()}\n"


def _unformatted(name: str) -> str:
    header = f"# Copied by mcp-contracts from its generator/runtime/{name}. Do not edit.\n"
    return header + RUNTIME_NEEDS + (RUNTIME_PACKAGE / name).read_text(encoding="utf-8")


def runtime_module(name: str) -> str:
    """The text of `_runtime/<name>`: the kept one when it is of this module and this black."""
    text = _unformatted(name)
    try:
        key, kept = (FORMATTED / f"{name}.txt").read_text(encoding="utf-8").split("\n", 1)
    except (OSError, ValueError):
        return format_python(text)
    return kept if key + "\n" == _key(text) else format_python(text)


def runtime_modules() -> dict[str, str]:
    """Each module of `_runtime/` by its file name."""
    return {name: runtime_module(name) for name in runtime_names()}


def write_formatted() -> None:
    """Format the runtime's modules with black and keep them (see the module); only theirs."""
    FORMATTED.mkdir(exist_ok=True)
    names = runtime_names()
    for stale in FORMATTED.glob("*.txt"):
        if stale.name.removesuffix(".txt") not in names:
            stale.unlink()
    for name in names:
        text = _unformatted(name)
        (FORMATTED / f"{name}.txt").write_text(_key(text) + format_python(text), encoding="utf-8")


if __name__ == "__main__":
    write_formatted()
