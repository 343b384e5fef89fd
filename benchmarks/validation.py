"""Row 4: judging and reading envelopes from their JSON bytes, per example, in process.

For each of the built-in examples (schemas/contracts/*/examples/*.json), against
`orjson.loads` of the same bytes in the same run:
- `parse_json(raw)` + `JUDGE.is_valid(...)`, what `validate` runs;
- `Envelope.model_validate_json(raw)` of the valid example;
- `Envelope.model_validate_json(bad)` raising, for three invalid variants made here from the
  example: a member dropped, a member of the wrong type, a member added (see `variants`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import orjson
from harness import CONTRACTS, SCHEMAS, Goal, Row, Settings, fastest, median, module_of

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


@dataclass(frozen=True)
class Measured:
    case: Case
    loads: float
    judge: float
    models: float
    invalid: list[tuple[str, float, float]]  # variant, orjson.loads, model_validate_json raising


def measure_case(case: Case, settings: Settings) -> Measured:
    package = importlib.import_module(module_of(case.contract))
    runtime = importlib.import_module("mcp_contracts._runtime")
    parse_json, judge, envelope = runtime.parse_json, package.JUDGE, package.Envelope
    judge.is_valid(parse_json(case.raw))  # compiled (or warmed) before timing
    envelope.model_validate_json(case.raw)
    loads = fastest(partial(orjson.loads, case.raw), settings)
    judged = fastest(lambda: judge.is_valid(parse_json(case.raw)), settings)
    models = fastest(partial(envelope.model_validate_json, case.raw), settings)
    invalid = []
    for label, bad in variants(orjson.loads(case.raw), lambda d: bool(judge.is_valid(d))):
        raising = _raises(partial(envelope.model_validate_json, bad))
        raising()  # raises as it should before it is timed
        invalid.append((label, fastest(partial(orjson.loads, bad), settings), fastest(raising, settings)))
    return Measured(case, loads, judged, models, invalid)


def measure(settings: Settings) -> tuple[list[Row], list[str]]:
    measured = [measure_case(case, settings) for case in examples()]
    judge = [m.judge / m.loads for m in measured]
    models = [m.models / m.loads for m in measured]
    bad = [raising / loads for m in measured for _, loads, raising in m.invalid]
    anchor = f"`orjson.loads` of the same bytes, median of {len(measured)} examples"
    rows = [
        _row("4.1", "`parse_json(raw)` + `JUDGE.is_valid(...)`", measured, "judge", judge, anchor, 3.0),
        _row("4.2", "`Envelope.model_validate_json(raw)`, valid", measured, "models", models, anchor, 3.0),
        Row(
            "4.3",
            f"`Envelope.model_validate_json(raw)` raising on invalid bytes, median of {len(bad)} variants",
            median([raising for m in measured for _, _, raising in m.invalid]) * 1e6,
            "µs",
            Goal("<=", 10.0),
            f"`orjson.loads` of the same invalid bytes, median of {len(bad)}",
            median([loads for m in measured for _, loads, _ in m.invalid]) * 1e6,
            note=f"ratios: median {median(bad):.1f} x, max {max(bad):.1f} x",
            given_ratio=median(bad),
        ),
    ]
    return rows, detail(measured)


def _row(key: str, figure: str, measured: list[Measured], attribute: str, ratios: list[float], anchor: str,
         goal: float) -> Row:  # fmt: skip
    """A row whose value is the median over examples; the max ratio goes into its note.

    The goal is judged on the median of the per-example ratios, which the note states beside the max."""
    ours = median([getattr(m, attribute) for m in measured]) * 1e6
    loads = median([m.loads for m in measured]) * 1e6
    note = f"ratios: median {median(ratios):.1f} x, max {max(ratios):.1f} x"
    figure = f"{figure}, median of {len(measured)} examples"
    return Row(key, figure, ours, "µs", Goal("<=", goal), anchor, loads, note, given_ratio=median(ratios))


def detail(measured: list[Measured]) -> list[str]:
    lines = [
        "| contract | example | bytes | `orjson.loads` µs | judge µs | judge / loads"
        " | `model_validate_json` µs | models / loads |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for m in measured:
        lines.append(
            f"| {m.case.contract} | {m.case.example} | {len(m.case.raw)} | {m.loads * 1e6:.2f} | {m.judge * 1e6:.2f}"
            f" | {m.judge / m.loads:.1f} x | {m.models * 1e6:.2f} | {m.models / m.loads:.1f} x |"
        )
    lines += [
        "",
        "Invalid variants, each made from the example and rejected by the judge before it is timed:",
        "",
        "| contract | example | variant | `orjson.loads` µs | `model_validate_json` raising µs | ratio |",
        "| --- | --- | --- | ---: | ---: | ---: |",
    ]
    for m in measured:
        for label, loads, raising in m.invalid:
            variant = label.replace("|", "\\|")
            lines.append(
                f"| {m.case.contract} | {m.case.example} | {variant} | {loads * 1e6:.2f}"
                f" | {raising * 1e6:.2f} | {raising / loads:.1f} x |"
            )
    return lines
