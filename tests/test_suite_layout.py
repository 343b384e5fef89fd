"""The suite's own shape: what tests share lives in conftest.py or a helper module, never in
another test module (importing one runs its module-level work and fixtures a second time)."""

from __future__ import annotations

import ast

from conftest import ROOT


def test_no_test_module_imports_another() -> None:
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {n}" for n in names if n.startswith("test_")]
    assert found == []
