"""The layout ARCHITECTURE.md draws, held against the code: every import runs down a row, no
two packages import each other, and the page names every module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT

GENERATOR = ROOT / "generator"

# The rows of ARCHITECTURE.md's drawing, top to bottom: a part imports only parts of a lower row.
ROWS: tuple[frozenset[str], ...] = tuple(
    frozenset(row.split())
    for row in (
        "__main__",
        "cli",
        "cli_server cli_params",
        "api",
        "conformance importing",
        "lint breaking client",
        "findings lint_surface",
        "validate fingerprint scaffold serving",
        "load write site",
        "render config",
        "model diagnostics",
        "schema rules protocol naming files resources interrupt runtime __init__",
    )
)


def _part(path: Path) -> str:
    """The top-level part of the generator a module belongs to (its package, or itself)."""
    return path.relative_to(GENERATOR).with_suffix("").parts[0]


def _imported(path: Path) -> set[tuple[str, int]]:
    """(the part, the line) of each module of the generator that `path` imports."""
    relative = path.relative_to(GENERATOR).with_suffix("").parts
    package = relative[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = package[: len(package) - (node.level - 1)]
        target = (*base, *(node.module.split(".") if node.module else ()))
        names = [target] if target else [(alias.name,) for alias in node.names]
        found |= {(name[0], node.lineno) for name in names if name[0] != "__version__"}
    return found


def _row(part: str) -> int:
    rows = [index for index, row in enumerate(ROWS) if part in row]
    assert rows, f"generator/{part} stands on no row of ARCHITECTURE.md's drawing"
    return rows[0]


def test_every_part_of_the_generator_stands_on_a_row() -> None:
    parts = {_part(p) for p in GENERATOR.rglob("*.py")}
    assert sorted(p for p in parts if not any(p in row for row in ROWS)) == []


def test_every_import_runs_down_a_row() -> None:
    """No arrow back up, and so no package cycle: a part imports only parts drawn below it."""
    up = []
    for path in sorted(GENERATOR.rglob("*.py")):
        part = _part(path)
        for target, line in sorted(_imported(path)):
            if target != part and _row(target) <= _row(part):
                up.append(f"generator/{path.relative_to(GENERATOR).as_posix()}:{line} imports {target}")
    assert up == []


def test_the_architecture_page_names_every_module() -> None:
    """Each module by its path (a schema core module by its name, in the core's table); a
    package's face that only hands names on need not be named."""
    page = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/]+\.py)`", page))
    missing = []
    for path in sorted(GENERATOR.rglob("*.py")):
        relative = path.relative_to(GENERATOR).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        face = path.name == "__init__.py" and not any(
            isinstance(n, ast.FunctionDef | ast.ClassDef | ast.Assign | ast.AnnAssign) for n in tree.body
        )
        core = relative.startswith("schema/") and path.name in named
        if relative not in named and not face and not core:
            missing.append(relative)
    assert missing == []
