"""How `conform --fuzz` draws arguments: those a tool's input schema accepts, and those that
break it by one keyword, as hypothesis strategies; and the settings each run has.

Valid arguments come from hypothesis-jsonschema; where it cannot read the schema (a keyword
it does not know, a recursive `$ref`) or fails (a hypothesis release it does not work with),
from the synthesiser's candidates (`synthesize.candidates`), and the drawing says why it is
degraded: never a silent fallback. Only what the judge (`accepts`) accepts counts. Invalid arguments
are valid ones with one change (`mutate.mutants`) that the judge refuses by exactly one
keyword: the keyword, the pointer and the keyword's place in the schema are the judge's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from itertools import islice
from typing import Any, NamedTuple

import hypothesis.strategies as st
from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis.errors import NoSuchExample, Unsatisfiable
from hypothesis_jsonschema import from_schema

from ... import debug
from ...schema.pointer import encode
from ...schema.synthesize import candidates
from ...schema.vocabulary import ANNOTATIONS, OPENINGS, STRUCTURAL
from .mutate import edges, mutants


@dataclass(frozen=True)
class Breach:
    """Arguments the judge refuses by one keyword: which, at which pointer into the arguments,
    and where it is in the input schema."""

    arguments: dict[str, Any]
    keyword: str
    pointer: str
    schema_at: tuple[Any, ...]


def run_settings(examples: int) -> settings:
    """One run of hypothesis: reproducible from `@seed` alone, shrinking what it finds, quiet."""
    return settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=True,
        print_blob=False,
    )


# A probe: a run's settings, but the same examples each time, none shrunk.
_PROBE = settings(run_settings(20), derandomize=True, phases=(Phase.generate,))


def leaves(exc: BaseException) -> list[BaseException]:
    """`exc`, or the exceptions a group of them holds, each group opened."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in leaves(inner)]
    return [exc]


class Drawing(NamedTuple):
    """Valid arguments as a strategy (None: none could be drawn), what draws them
    (hypothesis-jsonschema, synthesiser, nothing), and why hypothesis-jsonschema does not
    (None when it does, or when it drew nothing only because the judge accepts nothing)."""

    strategy: st.SearchStrategy[Any] | None
    drawn_by: str
    degraded: str | None = None


def valid_strategy(schema: Any, accepts: Callable[[Any], bool]) -> Drawing:
    """Arguments `schema` accepts (by `accepts`, the judge), and what draws them: hypothesis-
    jsonschema, with its simplest arguments at each edge of a property's schema beside it (a
    maximum is drawn at once, not by chance); the synthesiser's candidates where it cannot."""
    try:
        drawn = from_schema(schema).filter(accepts)
        simplest = find(drawn, lambda _: True, settings=_PROBE)  # it raises for what it cannot read
    except Exception as exc:  # whatever hypothesis-jsonschema cannot draw from
        debug.handled(exc)
        return _synthesised(schema, accepts, None if isinstance(exc, NoSuchExample | Unsatisfiable) else _why(exc))
    # The simplest arguments first, that a failure of every call shrinks to.
    at_edges = [simplest, *(e for e in edges(schema, simplest) if accepts(e))] if isinstance(simplest, dict) else []
    return Drawing(st.one_of(drawn, st.sampled_from(at_edges)) if at_edges else drawn, "hypothesis-jsonschema")


def _synthesised(schema: Any, accepts: Callable[[Any], bool], why: str | None) -> Drawing:
    """The synthesiser's candidates (and their edges) that the judge accepts, sampled."""
    made: dict[str, Any] = {}
    for value in islice(candidates(schema), 64):
        if accepts(value):
            made.setdefault(json.dumps(value, sort_keys=True), value)
    for edge in edges(schema, next(iter(made.values()))) if made else ():
        if accepts(edge):
            made.setdefault(json.dumps(edge, sort_keys=True), edge)
    if not made:
        return Drawing(None, "nothing", why)
    return Drawing(st.sampled_from(list(made.values())), "synthesiser", why or _NOTHING_ACCEPTED)


_NOTHING_ACCEPTED = "nothing hypothesis-jsonschema drew from the input schema was accepted by the judge"


def _why(exc: Exception) -> str:
    """Why hypothesis-jsonschema draws nothing: its error, and the releases installed (a
    hypothesis release it does not work with fails on every schema)."""
    first = shown_line(str(exc))
    return f"hypothesis-jsonschema cannot draw from the input schema: {type(exc).__name__}: {first} ({_releases()})"


def shown_line(text: str, limit: int = 160) -> str:
    """The first line of `text`, cut at `limit` characters (an error may quote a whole schema)."""
    first = text.splitlines()[0] if text else ""
    return first if len(first) <= limit else first[: limit - 1] + "…"


def _releases() -> str:
    """The hypothesis and hypothesis-jsonschema releases this environment has."""
    found = []
    for name in ("hypothesis", "hypothesis-jsonschema"):
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} (version unknown)")
    return ", ".join(found)


def breaches(validator: Any, schema: Any, arguments: dict[str, Any]) -> list[Breach]:
    """The mutants of `arguments` that the judge refuses by exactly one keyword."""
    found = []
    for mutant in mutants(schema, arguments):
        errors = list(islice(validator.iter_errors(mutant), 2))
        if len(errors) != 1:
            continue
        path = tuple(errors[0].schema_path)
        keyword = next((str(t) for t in reversed(path) if isinstance(t, str)), "")
        found.append(Breach(mutant, keyword, encode(errors[0].instance_path), path))
    return found


def invalid_strategy(
    valid: st.SearchStrategy[Any], validator: Any, schema: Any, accepts: Callable[[Any], bool]
) -> st.SearchStrategy[Breach] | None:
    """Breaches of valid arguments as they are drawn; of the simplest valid arguments that
    have any where a drawn value has none: the synthesiser's, else the first that hypothesis
    draws. None when no valid arguments drawn have any (no keyword to break by one change:
    `{"type": "object"}`)."""
    simplest = next((c for c in islice(candidates(schema), 64) if accepts(c)), None)
    fallback = breaches(validator, schema, simplest) if simplest is not None else []
    if not fallback:
        try:
            fallback = find(valid.map(lambda v: breaches(validator, schema, v)), bool, settings=_PROBE)
        except Exception as exc:  # NoSuchExample, or what hypothesis-jsonschema cannot draw
            debug.handled(exc)
            return None
    return valid.map(lambda v: breaches(validator, schema, v) or fallback).flatmap(st.sampled_from)


# Keywords the judge asserts nothing by.
_SAYS_NOTHING = ANNOTATIONS | STRUCTURAL | {"format", "contentMediaType", "contentEncoding"}


def breakable(schema: Any, root: bool = True) -> bool:
    """Whether some arguments (an object) break `schema`: any keyword but annotations, a root
    `type: object`, and properties or additional properties that allow anything."""
    if not isinstance(schema, dict):
        return schema is False
    for key, value in schema.items():
        if key in _SAYS_NOTHING or (root and key == "type" and value in ("object", ["object"])):
            continue
        if key == "properties" and isinstance(value, dict):
            if any(breakable(sub, False) for sub in value.values()):
                return True
        elif not (key in OPENINGS and value in (True, {})):
            return True
    return False
