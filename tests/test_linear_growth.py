"""`generate` grows linearly with its inputs: no step of load or render asks a whole catalogue
table again for each row, and no contract's bundle is compounded, translated to 2020-12 or
compiled again for each model class.

Counted, never timed (benchmarks/scale.py measures the time): each test renders a project at
two sizes, as `generate` does (both languages, the docs, the manifests, tools.json), and
compares what a whole-input pass costs at each. A pass made once per row or per class shows
as a count that grows with the input; a linear render keeps them fixed.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml
from conftest import SCHEMAS
from mcp_contracts_generator.config import Limits
from mcp_contracts_generator.load import envelope as load_envelope
from mcp_contracts_generator.load import load_project
from mcp_contracts_generator.load.reading import Reading
from mcp_contracts_generator.model import Entry, Table
from mcp_contracts_generator.model import schemas as model_schemas
from mcp_contracts_generator.render import json_text, mcp, typescript
from mcp_contracts_generator.render.plan import build_plan
from mcp_contracts_generator.schema import resolver, translate

LANGUAGES = ("python", "typescript")
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def _render(schemas: Path) -> dict[str, bytes]:
    loaded = load_project(schemas, Reading.within(schemas, Limits()))
    assert loaded.project is not None, loaded.diagnostics
    plan = build_plan(loaded.project, "pkg", None, LANGUAGES, rules_page=True)
    assert isinstance(plan, dict), plan
    return plan


# --- a catalogue of many codes and tools: tuitbot's, grown ---------------------------------


def _tuitbot(folder: Path, codes: int, tools: int) -> Path:
    """tuitbot with `codes` more error codes, each in the envelope's enum it is bound to, and
    `tools` more tools with every column set: the schemas folder."""
    contract = folder / "schemas" / "contracts" / "tuitbot"
    shutil.copytree(SCHEMAS / "contracts" / "tuitbot", contract)
    errors = yaml.safe_load((contract / "errors.yaml").read_text(encoding="utf-8"))
    listed = yaml.safe_load((contract / "tools.yaml").read_text(encoding="utf-8"))
    envelope = json.loads((contract / "envelope.schema.json").read_text(encoding="utf-8"))
    for i in range(codes):
        retryable = i % 2 == 0
        errors["errors"].append({"code": f"c{i}", "category": "Grown", "retryable": retryable, "description": "d"})
        bound = "RetryableToolError" if retryable else "PermanentToolError"
        envelope["$defs"][bound]["properties"]["code"]["enum"].append(f"c{i}")
    for i in range(tools):
        listed["tools"].append(
            {
                "name": f"t{i}",
                "category": "grown",
                "mutation": i % 2 == 0,
                "requires_x_client": False,
                "requires_llm": True,
                "requires_db": i % 3 == 0,
                "profiles": ["workflow"],
                "possible_error_codes": ["db_error", "not_found"],
            }
        )
    (contract / "errors.yaml").write_text(yaml.safe_dump(errors, sort_keys=False), encoding="utf-8")
    (contract / "tools.yaml").write_text(yaml.safe_dump(listed, sort_keys=False), encoding="utf-8")
    (contract / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    return contract.parent.parent


@contextmanager
def _table_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts each read of a table's rows (`Table.entries`: every pass over a table starts
    there) and each question asked of one row (`Entry.get`)."""
    counts: Counter[str] = Counter()
    slot = Table.__dict__["entries"]  # the slot's own descriptor

    def entries(table: Table) -> Any:
        counts["Table.entries"] += 1
        return slot.__get__(table, Table)

    asked = Entry.get

    def get(entry: Entry, column: str) -> Any:
        counts["Entry.get"] += 1
        return asked(entry, column)

    monkeypatch.setattr(Table, "entries", property(entries, slot.__set__))
    monkeypatch.setattr(Entry, "get", get)
    yield counts
    monkeypatch.undo()


def _grown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, codes: int, tools: int) -> Counter[str]:
    schemas = _tuitbot(tmp_path / f"{codes}-{tools}", codes, tools)
    with _table_reads(monkeypatch) as counts:
        _render(schemas)
    return counts


@pytest.mark.parametrize("axis", ["codes", pytest.param("tools", marks=pytest.mark.slow)])
def test_a_catalogue_is_read_whole_a_fixed_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, axis: str
) -> None:
    """Twice the rows: every table read as often (no pass over a table per row), and each row
    asked about no more than twice as often (4 x for a per-row question of the whole table).
    Rendering tuitbot with 1,000 more codes asked `Entry.get` 4.3 million times before."""
    small, large = ((60, 0), (120, 0)) if axis == "codes" else ((0, 60), (0, 120))
    before = _grown(tmp_path, monkeypatch, *small)
    after = _grown(tmp_path, monkeypatch, *large)
    assert after["Table.entries"] == before["Table.entries"]
    assert after["Entry.get"] <= 2 * before["Entry.get"]


@pytest.mark.parametrize("render", ["tools_list", "tool_literals"])
def test_the_envelope_every_tool_shares_is_written_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, render: str
) -> None:
    """tools.json (`tools_list`) and tools.ts (`tool_literals`) write the envelope's JSON once,
    not once per tool: it is the largest schema of a contract (its enums hold every code)."""
    schemas = _tuitbot(tmp_path, 0, 60)
    loaded = load_project(schemas, Reading.within(schemas, Limits()))
    assert loaded.project is not None, loaded.diagnostics
    (contract,) = loaded.project.contracts
    module = mcp if render == "tools_list" else typescript
    written: Counter[str] = Counter()
    original = json_text.json_line

    def json_line(value: Any, **options: Any) -> str:
        text = original(value, **options)
        written["envelope"] += '"$defs"' in text  # the envelope's, of all a tool lists
        return text

    for writer in (json_text, module):  # wherever the render writes JSON text
        if hasattr(writer, "json_line"):
            monkeypatch.setattr(writer, "json_line", json_line)
    getattr(module, render)(contract)
    assert len(contract.manifest.tools.entries) == 125
    assert written["envelope"] == 1


# --- a bundle of many classes: definitions across files, in draft-07 ------------------------


def _bundle(folder: Path, classes: int) -> Path:
    """A contract of `classes` object definitions, half of them in a file the envelope refers to
    (by its `$id`), each referring to the next, all in draft-07 (translated where published):
    the schemas folder."""
    contract = folder / "schemas" / "contracts" / "bundle"
    contract.mkdir(parents=True)
    part_id = "https://mcp-contracts.invalid/bundle/part.schema.json"
    half = classes // 2

    def definition(index: int) -> dict[str, Any]:
        following = index + 1
        where = "" if (following < half) == (index < half) else (part_id if index < half else "envelope.schema.json")
        target = {"$ref": f"{where}#/definitions/D{following}"} if following < classes else {"type": "string"}
        return {"type": "object", "properties": {"name": {"type": "string"}, "next": target}}

    envelope = {
        "$schema": DRAFT_07,
        "title": "Bundle",
        "type": "object",
        "properties": {f"d{i}": {"$ref": f"{'' if i < half else part_id}#/definitions/D{i}"} for i in range(classes)},
        "definitions": {f"D{i}": definition(i) for i in range(half)},
    }
    part = {"$schema": DRAFT_07, "$id": part_id, "definitions": {f"D{i}": definition(i) for i in range(half, classes)}}
    (contract / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    (contract / "part.schema.json").write_text(json.dumps(part, indent=2), encoding="utf-8")
    (contract / "contract.yaml").write_text(
        "name: bundle\ntitle: Bundle\nversion: 0.1.0\nsummary: Many classes.\nmodule: bundle\n", encoding="utf-8"
    )
    (contract / "errors.yaml").write_text("errors:\n  - {code: failed, message: Failed, description: It failed.}\n")
    (contract / "tools.yaml").write_text("tools:\n  - {name: tool, description: Returns the bundle.}\n")
    return contract.parent.parent


def _counting(
    monkeypatch: pytest.MonkeyPatch, counts: Counter[str], owner: Any, name: str, label: str
) -> Callable[..., Any]:
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[label] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return original


def _whole_bundle_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, classes: int) -> Counter[str]:
    """What reads a whole bundle, counted over one render: compounding it, the context of its
    translation to 2020-12 (what every draft-07 pointer reaches), a resolver over it, its
    patterns written for the judge's engine, a registry of its resources."""
    schemas = _bundle(tmp_path / str(classes), classes)
    counts: Counter[str] = Counter()
    _counting(monkeypatch, counts, model_schemas, "compound", "compound")
    context = translate._Context.of.__func__

    def counted_context(cls: Any, found: Any) -> Any:
        counts.update(["translation"])
        return context(cls, found)

    monkeypatch.setattr(translate._Context, "of", classmethod(counted_context))
    _counting(monkeypatch, counts, resolver.Resolver, "__init__", "Resolver")
    _counting(monkeypatch, counts, load_envelope, "judged", "judged")
    _counting(monkeypatch, counts, jsonschema_rs, "Registry", "Registry")
    _render(schemas)
    monkeypatch.undo()
    return counts


def test_a_bundle_is_read_whole_a_fixed_number_of_times_whatever_its_classes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twice the classes: the bundle compounded, translated, resolved and registered as often.
    `published.json` compounded (and translated) the whole bundle once per class before, and
    loading wrote every resource's patterns anew for each class's compile."""
    before = _whole_bundle_passes(tmp_path, monkeypatch, 12)
    after = _whole_bundle_passes(tmp_path, monkeypatch, 24)
    assert before["compound"] > 0 and before["translation"] > 0 and before["judged"] > 0
    assert after == before
