"""Row 4: judging and reading envelopes from their JSON bytes, per example, in process.

For each of the built-in examples (schemas/contracts/*/examples/*.json), against
`orjson.loads` of the same bytes in the same run (context):
- `parse_json(raw)` + `JUDGE.is_valid(...)`, what `validate` runs;
- `Envelope.model_validate_json(raw)` of the valid example;
- `Envelope.model_validate_json(bad)` raising, for three invalid variants made here from the
  example: a member dropped, a member of the wrong type, a member added (see `variants`).

And against what a user would otherwise run: the pydantic models datamodel-code-generator
writes from the same envelope.schema.json (`dmcg_models`, generated here into a temporary
folder), their own `model_validate_json` of the same bytes, valid and invalid. They judge
only what pydantic types say: where they accept an invalid variant, what they do with it is
timed all the same, but only the variants both refuse are judged.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import orjson
from harness import CONTRACTS, SCHEMAS, Goal, Row, Settings, fastest, median, module_of
from pydantic import BaseModel

ADDED = "zz_benchmark_added"


@dataclass(frozen=True)
class Case:
    contract: str
    example: str
    raw: bytes


def examples() -> list[Case]:
    return [
        Case(contract, path.name, path.read_bytes())
        for contract in CONTRACTS
        for path in sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json"))
    ]


def _other_type(value: Any) -> Any:
    """A JSON value of another type than `value`."""
    return "not-a-number" if isinstance(value, bool | int | float) or value is None else 12345


def _objects(value: Any, at: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """Every object inside `value` with where it is, the root first, then depth-first in key order."""
    if isinstance(value, dict):
        yield at, value
        for key in sorted(value):
            yield from _objects(value[key], (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _objects(item, (*at, index))


def _pointer(at: tuple[str | int, ...]) -> str:
    return "".join(f"/{str(p).replace('~', '~0').replace('/', '~1')}" for p in at) or "(root)"


def _copy_with(document: Any, at: tuple[str | int, ...], change: Callable[[dict[str, Any]], None]) -> Any:
    copy = orjson.loads(orjson.dumps(document))
    target = copy
    for part in at:
        target = target[part]
    change(target)
    return copy


def _setting(key: str, value: Any, *, drop: bool = False) -> Callable[[dict[str, Any]], None]:
    """A change of one object: its member `key` set to `value`, or removed."""

    def change(members: dict[str, Any]) -> None:
        if drop:
            members.pop(key)
        else:
            members[key] = value

    return change


def variants(document: Any, is_valid: Callable[[Any], bool]) -> list[tuple[str, bytes]]:
    """Three invalid variants of a valid document, each the first the judge rejects, trying the
    root's members first, then inner objects', in key order:
    - dropped: a member removed (a required one, as the judge says);
    - wrong type: a member's value replaced by one of another type (a string by 12345, else a string);
    - added: a member `zz_benchmark_added` put into an object that is closed.
    A kind with no candidate the judge rejects is left out (and said so by its absence)."""
    found: list[tuple[str, bytes]] = []
    objects = list(_objects(document))

    def first(kind: str, tries: Iterator[tuple[str, Any]]) -> None:
        for where, candidate in tries:
            if not is_valid(candidate):
                found.append((f"{kind} {where}", orjson.dumps(candidate)))
                return

    def dropped() -> Iterator[tuple[str, Any]]:
        for at, members in objects:
            for key in sorted(members):
                yield _pointer((*at, key)), _copy_with(document, at, _setting(key, None, drop=True))

    def retyped() -> Iterator[tuple[str, Any]]:
        for at, members in objects:
            for key in sorted(members):
                wrong = _other_type(members[key])
                yield _pointer((*at, key)), _copy_with(document, at, _setting(key, wrong))

    def added() -> Iterator[tuple[str, Any]]:
        for at, _ in objects:
            yield _pointer((*at, ADDED)), _copy_with(document, at, _setting(ADDED, True))

    first("dropped", dropped())
    first("wrong type at", retyped())
    first("added", added())
    return found


def _raises(call: Callable[[], object]) -> Callable[[], None]:
    def timed() -> None:
        try:
            call()
        except Exception:  # whatever the models raise (pydantic's ValidationError today)
            return
        raise AssertionError("accepted an invalid document")

    return timed


def _either(call: Callable[[], object]) -> Callable[[], None]:
    """`call`, timed whether it returns or raises (the anchor's models may accept a variant)."""

    def timed() -> None:
        with contextlib.suppress(Exception):
            call()

    return timed


def _refuses(call: Callable[[], object]) -> bool:
    try:
        call()
    except Exception:
        return True
    return False


DMCG_ROOT = "Envelope"  # `class_name`: the root class's name, whatever the schema's title


def dmcg_models(directory: Path) -> dict[str, type[BaseModel]]:
    """Each built-in contract's root model as the pinned datamodel-code-generator writes it from
    the contract's envelope.schema.json, with the plain options a user gives: pydantic v2
    `BaseModel`, the generated package's target Python (3.11), no timestamp. Written into
    `directory` and imported from there, once per run."""
    from datamodel_code_generator import DataModelType, Formatter, InputFileType, PythonVersion, generate

    found: dict[str, type[BaseModel]] = {}
    for contract in CONTRACTS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # notices about future defaults
            code = generate(
                SCHEMAS / "contracts" / contract / "envelope.schema.json",
                input_file_type=InputFileType.JsonSchema,
                output_model_type=DataModelType.PydanticV2BaseModel,
                target_python_version=PythonVersion.PY_311,
                disable_timestamp=True,
                formatters=[Formatter.BUILTIN],
                class_name=DMCG_ROOT,
            )
        name = f"dmcg_{contract.replace('-', '_')}"
        path = directory / f"{name}.py"
        path.write_text(str(code), encoding="utf-8")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # pydantic resolves the module's forward references through it
        spec.loader.exec_module(module)
        found[contract] = getattr(module, DMCG_ROOT)
    return found


@dataclass(frozen=True)
class Invalid:
    """One invalid variant: orjson.loads, ours raising, and datamodel-code-generator's models
    (raising, or not where `dmcg_refuses` is False), each seconds per call."""

    label: str
    loads: float
    ours: float
    dmcg: float
    dmcg_refuses: bool

    @property
    def ratio(self) -> float:
        return self.ours / self.dmcg


@dataclass(frozen=True)
class Measured:
    case: Case
    loads: float
    judge: float
    models: float
    dmcg: float  # datamodel-code-generator's models' model_validate_json of the valid example
    dmcg_accepts: bool
    invalid: list[Invalid]


def measure_case(case: Case, dmcg: type[BaseModel], settings: Settings) -> Measured:
    package = importlib.import_module(module_of(case.contract))
    runtime = importlib.import_module("mcp_contracts._runtime")
    parse_json, judge, envelope = runtime.parse_json, package.JUDGE, package.Envelope
    judge.is_valid(parse_json(case.raw))  # compiled (or warmed) before timing
    envelope.model_validate_json(case.raw)
    dmcg_accepts = not _refuses(partial(dmcg.model_validate_json, case.raw))
    loads = fastest(partial(orjson.loads, case.raw), settings)
    judged = fastest(lambda: judge.is_valid(parse_json(case.raw)), settings)
    models = fastest(partial(envelope.model_validate_json, case.raw), settings)
    theirs = fastest(_either(partial(dmcg.model_validate_json, case.raw)), settings)
    invalid = []
    for label, bad in variants(orjson.loads(case.raw), lambda d: bool(judge.is_valid(d))):
        raising = _raises(partial(envelope.model_validate_json, bad))
        raising()  # raises as it should before it is timed
        refuses = _refuses(partial(dmcg.model_validate_json, bad))
        invalid.append(
            Invalid(
                label,
                fastest(partial(orjson.loads, bad), settings),
                fastest(raising, settings),
                fastest(_either(partial(dmcg.model_validate_json, bad)), settings),
                refuses,
            )
        )
    return Measured(case, loads, judged, models, theirs, dmcg_accepts, invalid)


def measure(settings: Settings) -> tuple[list[Row], list[str]]:
    with tempfile.TemporaryDirectory(prefix="mcp-contracts-dmcg-") as folder:
        anchors = dmcg_models(Path(folder))
        measured = [measure_case(case, anchors[case.contract], settings) for case in examples()]
    judge = [m.judge / m.loads for m in measured]
    models = [m.models / m.loads for m in measured]
    variants_all = [v for m in measured for v in m.invalid]
    bad = [v.ours / v.loads for v in variants_all]
    anchor = f"`orjson.loads` of the same bytes, median of {len(measured)} examples"
    rows = [
        _row("4.1", "`parse_json(raw)` + `JUDGE.is_valid(...)`", measured, "judge", judge, anchor, 3.0),
        _row("4.2", "`Envelope.model_validate_json(raw)`, valid", measured, "models", models, anchor, None),
        Row(
            "4.3",
            f"`Envelope.model_validate_json(raw)` raising on invalid bytes, median of {len(bad)} variants",
            median([v.ours for v in variants_all]) * 1e6,
            "µs",
            None,
            f"`orjson.loads` of the same invalid bytes, median of {len(bad)}",
            median([v.loads for v in variants_all]) * 1e6,
            note=f"context (the goal is 4.6's); ratios: median {median(bad):.1f} x, max {max(bad):.1f} x",
            given_ratio=median(bad),
        ),
        *dmcg_rows(measured),
    ]
    return rows, detail(measured)


def _row(key: str, figure: str, measured: list[Measured], attribute: str, ratios: list[float], anchor: str,
         goal: float | None) -> Row:  # fmt: skip
    """A row whose value is the median over examples; the max ratio goes into its note.

    The goal is judged on the median of the per-example ratios, which the note states beside the max."""
    ours = median([getattr(m, attribute) for m in measured]) * 1e6
    loads = median([m.loads for m in measured]) * 1e6
    note = f"ratios: median {median(ratios):.1f} x, max {max(ratios):.1f} x"
    if goal is None:
        note = f"context (the goal is 4.4's); {note}"
    figure = f"{figure}, median of {len(measured)} examples"
    return Row(key, figure, ours, "µs", None if goal is None else Goal("<=", goal), anchor, loads, note,
               given_ratio=median(ratios))  # fmt: skip


_DMCG = "datamodel-code-generator's models of the same schema: their `model_validate_json`"


def dmcg_rows(measured: list[Measured]) -> list[Row]:
    """Rows 4.4 to 4.7: ours against datamodel-code-generator's models, valid and invalid, the
    median of the per-document ratios and the largest; invalid ones only where both refuse."""
    valid = [(m.models / m.dmcg, m.models, m.dmcg, f"{m.case.contract} {m.case.example}") for m in measured]
    refused = [v for m in measured for v in m.invalid]
    both = [(v.ratio, v.ours, v.dmcg, f"{m.case.contract} {m.case.example}, {v.label}")
            for m in measured for v in m.invalid if v.dmcg_refuses]  # fmt: skip
    accepted = [f"{m.case.contract} {m.case.example}, {v.label}" for m in measured for v in m.invalid
                if not v.dmcg_refuses]  # fmt: skip
    wrong = [f"{m.case.contract} {m.case.example}" for m in measured if not m.dmcg_accepts]
    valid_note = f"theirs refuse {len(wrong)} valid examples (timed raising): {', '.join(wrong)}; " if wrong else ""
    counts = f"of {len(refused)} invalid variants ours refuses {len(refused)}, theirs {len(both)}" + (
        f"; theirs accept (timed accepting, not judged): {'; '.join(accepted)}" if accepted else ""
    )
    return [
        _median_row("4.4", "`Envelope.model_validate_json(raw)`, valid", valid, valid_note),
        _max_row("4.5", "`Envelope.model_validate_json(raw)`, valid", valid, valid_note),
        _median_row("4.6", "`Envelope.model_validate_json(raw)` raising on invalid bytes", both, counts + "; "),
        _max_row("4.7", "`Envelope.model_validate_json(raw)` raising on invalid bytes", both, ""),
    ]


def _median_row(key: str, figure: str, found: list[tuple[float, float, float, str]], note: str) -> Row:
    ratios = [ratio for ratio, *_ in found]
    return Row(
        key,
        f"{figure}, median of {len(found)}",
        median([ours for _, ours, _, _ in found]) * 1e6,
        "µs",
        Goal("<=", 1.0),
        f"{_DMCG}, median of {len(found)}",
        median([theirs for _, _, theirs, _ in found]) * 1e6,
        note=f"{note}ratios: median {median(ratios):.2f} x, max {max(ratios):.2f} x",
        given_ratio=median(ratios),
    )


def _max_row(key: str, figure: str, found: list[tuple[float, float, float, str]], note: str) -> Row:
    _, ours, theirs, where = max(found)
    return Row(
        key,
        f"{figure}, the largest ratio of {len(found)}: {where}",
        ours * 1e6,
        "µs",
        Goal("<=", 1.0),
        _DMCG,
        theirs * 1e6,
        note=note.rstrip("; "),
    )


def detail(measured: list[Measured]) -> list[str]:
    lines = [
        "| contract | example | bytes | `orjson.loads` µs | judge µs | judge / loads"
        " | `model_validate_json` µs | models / loads | datamodel-code-generator's µs | ours / theirs |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for m in measured:
        theirs = f"{m.dmcg * 1e6:.2f}" + ("" if m.dmcg_accepts else " (refuses)")
        lines.append(
            f"| {m.case.contract} | {m.case.example} | {len(m.case.raw)} | {m.loads * 1e6:.2f} | {m.judge * 1e6:.2f}"
            f" | {m.judge / m.loads:.1f} x | {m.models * 1e6:.2f} | {m.models / m.loads:.1f} x"
            f" | {theirs} | {m.models / m.dmcg:.2f} x |"
        )
    lines += [
        "",
        "Invalid variants, each made from the example and rejected by the judge before it is timed;"
        " datamodel-code-generator's models timed refusing, or accepting where they do (not judged):",
        "",
        "| contract | example | variant | `orjson.loads` µs | `model_validate_json` raising µs | ratio"
        " | datamodel-code-generator's µs | ours / theirs |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for m in measured:
        for v in m.invalid:
            variant = v.label.replace("|", "\\|")
            theirs = f"{v.dmcg * 1e6:.2f}" + ("" if v.dmcg_refuses else " (accepts)")
            judged = f"{v.ratio:.2f} x" if v.dmcg_refuses else "-"
            lines.append(
                f"| {m.case.contract} | {m.case.example} | {variant} | {v.loads * 1e6:.2f}"
                f" | {v.ours * 1e6:.2f} | {v.ours / v.loads:.1f} x | {theirs} | {judged} |"
            )
    return lines
