"""The one rule registry (`generator/rules`): sound on its own, the only source of the rule IDs
the code reports and the settings accept, and each rule tested both ways: a test marked
`fires` makes it report, one marked `quiet` shows it silent where it should be."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

from conftest import ROOT, SCHEMAS
from mcp_contracts_generator.lint import CHECKS
from mcp_contracts_generator.rules import BUMPS, BY_ID, LEVELS, RULES, SETTINGS

COMMANDS = ("lint", "breaking", "conform", "check", "validate")
# Rules no setting changes: sources that do not load, a drifted output folder, an invalid document.
FIXED = {"source-invalid", "output-drift", "document-invalid"}
# What loading refuses too: setting their level in `lint.rules` would change nothing.
LOADING_TOO = {"code-unique", "code-identifier", "tool-codes-known"}


def test_every_rule_has_a_unique_id_commands_a_level_a_category_and_a_purpose() -> None:
    assert len(BY_ID) == len(RULES)
    for rule in RULES:
        assert rule.id and rule.id == rule.id.lower() and " " not in rule.id, rule
        assert rule.commands and set(rule.commands) <= set(COMMANDS), rule
        assert len(set(rule.commands)) == len(rule.commands), rule
        assert rule.level in LEVELS, rule
        assert rule.category and rule.category == rule.category.lower(), rule
        assert rule.purpose.strip() and rule.purpose.rstrip(")").endswith("."), rule
        assert rule.profile is None or rule.commands == ("lint",), rule


def test_breaking_rules_name_the_bump_their_change_needs_and_the_others_none() -> None:
    for rule in RULES:
        of_breaking = "breaking" in rule.commands and set(rule.commands) != set(COMMANDS[:3])
        # the rules about the bump itself and about how the comparison went have none
        if of_breaking and rule.category not in ("version", "comparison"):
            assert rule.bump in BUMPS, rule
        else:
            assert rule.bump is None, rule


def test_the_meta_schema_accepts_exactly_the_registry_s_ids_and_settings() -> None:
    schema = json.loads((SCHEMAS / "meta" / "contract.schema.json").read_text(encoding="utf-8"))
    rules = schema["properties"]["rules"]
    lint_rules = schema["properties"]["lint"]["properties"]["rules"]
    settable = {rule.id for rule in RULES} - FIXED  # always errors
    assert set(rules["propertyNames"]["enum"]) == settable
    lint_ids = {rule.id for rule in RULES if "lint" in rule.commands} - FIXED
    assert set(lint_rules["propertyNames"]["enum"]) == lint_ids - LOADING_TOO
    for table in (rules, lint_rules):
        assert table["additionalProperties"]["enum"] == list(SETTINGS)


def test_lint_has_a_check_for_each_of_its_rules_and_no_other() -> None:
    assert set(CHECKS) == {rule for rule in RULES if rule.commands == ("lint",)}


# Calls whose first argument is a rule: `Finding(...)`, `Finding.of(...)`, conform's
# `report.add(...)` and `call.add(...)`, and the registry's own `rule(...)`.
_REPORTERS = {"Finding", "Finding.of", "report.add", "call.add", "self.report.add", "rule", "rules.rule"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    return ""


def _rule_arguments(path: Path) -> Iterator[tuple[int, ast.expr]]:
    """(line, first argument) of each call in `path` that reports or looks up a rule by ID."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and _name(node.func) in _REPORTERS and node.args:
            yield node.lineno, node.args[0]


def test_the_code_reports_a_rule_by_its_constant() -> None:
    """A rule is reported by its constant (`rules.conform.MISSING_TOOL`), which the type
    checker holds to the registry: never by an ID typed as a literal, nor built at run time
    (an f-string), which nothing checks and a reader cannot find where it is reported."""
    calls, typed = 0, []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        for line, argument in _rule_arguments(path):
            calls += 1
            if isinstance(argument, ast.Constant | ast.JoinedStr):
                typed.append(f"{path.relative_to(ROOT)}:{line}: {ast.unparse(argument)}")
    assert calls >= 40  # the conform findings alone
    assert typed == []


def _typed_ids(root: Path) -> list[str]:
    """`file:line: ID` of each string of `root`'s generator/ that is a rule's ID, outside
    generator/rules/."""
    typed = []
    for path in sorted((root / "generator").rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where.startswith("generator/rules/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in BY_ID:
                typed.append(f"{where}:{node.lineno}: {node.value}")
    return typed


def test_a_rule_id_is_typed_once_where_the_rule_is_declared() -> None:
    """Checks report a rule by its constant (`rules.lint.CODE_STYLE`), never by its ID again."""
    assert _typed_ids(ROOT) == []


def _module_literals(tree: ast.Module) -> dict[str, object]:
    """Module-level names bound to a literal (a tuple of rule IDs a mark unpacks)."""
    found: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                found[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return found


def _marked(kind: str) -> dict[str, list[str]]:
    """Rule ID -> the test files with a `pytest.mark.<kind>(...)` naming it (as a literal, or
    unpacking a module-level literal tuple)."""
    marked: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        literals = _module_literals(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _name(node.func).endswith(f"mark.{kind}")):
                continue
            for argument in node.args:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    ids: list[object] = [argument.value]
                elif isinstance(argument, ast.Starred) and isinstance(argument.value, ast.Name):
                    value = literals.get(argument.value.id, ())
                    ids = list(value) if isinstance(value, tuple | list) else []
                else:
                    ids = []
                for rule_id in ids:
                    marked.setdefault(str(rule_id), []).append(path.name)
    return marked


def test_the_marks_name_only_registry_rules() -> None:
    named = set(_marked("fires")) | set(_marked("quiet"))
    assert sorted(named - set(BY_ID)) == []


def test_every_rule_has_a_test_that_makes_it_fire_and_one_that_keeps_it_quiet() -> None:
    fires, quiet = _marked("fires"), _marked("quiet")
    without = {
        "fires": [rule.id for rule in RULES if rule.id not in fires],
        "quiet": [rule.id for rule in RULES if rule.id not in quiet],
    }
    print(f"rules without a test that fires them: {', '.join(without['fires']) or 'none'}")
    print(f"rules without a test that keeps them quiet: {', '.join(without['quiet']) or 'none'}")
    assert without == {"fires": [], "quiet": []}
