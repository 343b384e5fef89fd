"""docs/development.md's recipes name every file a change of their kind touches.

Each recipe follows one example the repository already holds (a rule, an output file, a
protocol revision, a CLI option): the files where that example is spelt in code (not in a
comment, a docstring or a description) are found here, and each must be in the recipe's
list; each file the list names must exist. A recipe goes stale, and this fails, when code
moves to a file it does not name, or a file it names is gone.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

PAGE = ROOT / "docs" / "development.md"
CODE = ("generator", "templates", "schemas/meta")
PROSE_KEYS = frozenset({"description", "$comment", "title", "markdownDescription"})


def _recipes() -> dict[str, list[str]]:
    """Each recipe's title (a `###` heading under "## Recipes") and the paths it names."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("\n## Recipes\n", 1)[1].split("\n## ", 1)[0]
    recipes = {}
    for part in section.split("\n### ")[1:]:
        title, _, body = part.partition("\n")
        recipes[title.strip()] = re.findall(r"^\d+\. `([^`]+)`", body, flags=re.MULTILINE)
    return recipes


def _python_strings(tree: ast.AST) -> Iterator[str]:
    """The string constants of a module, its docstrings left out."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.value


def _json_values(document: Any) -> Iterator[str]:
    if isinstance(document, dict):
        for key, value in document.items():
            yield key
            if key not in PROSE_KEYS:
                yield from _json_values(value)
    elif isinstance(document, list):
        for value in document:
            yield from _json_values(value)
    elif isinstance(document, str):
        yield document


def _spelt(path: Path, literal: str) -> bool:
    """Whether `literal` is in `path`'s code: a string of Python or a JSON value (not prose),
    a name of Python, or a line of another file that is not a comment."""
    text = path.read_text(encoding="utf-8")
    if literal not in text:
        return False
    if path.suffix == ".py":
        tree = ast.parse(text)
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        names |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        return literal in names or any(literal in s for s in _python_strings(tree))
    if path.suffix == ".json":
        return any(literal in s for s in _json_values(json.loads(text)))
    comment = ("//", "*", "/*", "#", "{#")
    return any(literal in line and not line.lstrip().startswith(comment) for line in text.splitlines())


def _files(literal: str, *, also: tuple[str, ...] = ()) -> set[str]:
    """The files of the code (and of `also`) where `literal` is spelt."""
    found = set()
    for top in (*CODE, *also):
        base = ROOT / top
        paths = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for path in paths:
            if "__pycache__" in path.parts or path.suffix in (".pyc", ".txt"):
                continue
            if _spelt(path, literal):
                found.add(path.relative_to(ROOT).as_posix())
    return found


def _newest_revision() -> str:
    from mcp_contracts_generator.protocol import REVISIONS

    return max(r.version for r in REVISIONS)


# Each recipe's example: the literals that spell it, looked for in the code and in the files
# named beside them.
EXAMPLES = {
    "A new rule": (("DESCRIPTION_LENGTH", "description-length"), ("docs/reference/rules.md",)),
    "A new output file": (("manifest.json.jinja", "manifest_text"), ()),
    "A new protocol revision": ((_newest_revision(),), ()),
    "A new CLI option": (("TimeoutOption",), ()),
}


def test_there_are_the_four_recipes() -> None:
    assert sorted(_recipes()) == sorted(EXAMPLES)


@pytest.mark.parametrize("title", sorted(EXAMPLES))
def test_a_recipe_names_every_file_its_example_is_spelt_in_and_no_file_that_is_gone(title: str) -> None:
    named = _recipes()[title]
    assert named, f"{title}: no file named"
    assert [path for path in named if not (ROOT / path).is_file()] == []
    literals, also = EXAMPLES[title]
    spelt = set().union(*(_files(literal, also=also) for literal in literals))
    assert spelt, f"{title}: the example is spelt nowhere: the test's anchor is stale"
    assert sorted(spelt - set(named)) == []
