"""The catalogue's errors as the generated error builders build them: each entry's envelope
made as `error_response(code)` makes it with no other argument, and judged by the envelope.

The builder puts, beside the schema's constants and null defaults, the code, each column a
`derived:` pointer names (null where the entry has no value, its error type's where it
inherits one) and the catalogue's message (none where the entry has none, unless no entry
has one: the message is then the caller's, a required parameter). A document the schema
refuses where one of these goes is a ValidationError on a server's error path, where servers
are least tested: here it is an error at the entry's line. What the schema refuses elsewhere
(a member the caller must give) is the caller's, not the entry's.

The document is made by the runtime's own `Filling`, as the generated module compiles it,
so the verdict is the builder's.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic
from ..model import Builders, Catalogue, Entry, Example
from ..runtime import ABSENT, Filling, Judge
from ..schema.pointer import PointerError, decode, encode
from .documents import Document

Tokens = tuple[str, ...]
# Where the message is the caller's: a message, so that a sound entry's document is valid at
# once (`is_valid`), without the cost of asking why not (`violations`) of each entry.
CALLERS_MESSAGE = "A message the caller gives."


def unbuildable(
    errors: Document, catalogue: Catalogue, builders: Builders, judge: Judge, examples: tuple[Example, ...] = ()
) -> list[Diagnostic]:
    """An error at each catalogue entry whose envelope `error_response(code)` cannot build,
    one for each place the catalogue fills that the schema refuses."""
    catalogues_message = builders.message is not None and not builders.callers_message(catalogue)
    try:
        builds = _Builds(builders, judge, catalogues_message, examples)
    except (ValueError, PointerError):  # the builders cannot place their values at all: not an entry's fault
        return []
    inheritable = {c.name for c in catalogue.error_types.columns}  # what an error type may give its errors
    raw_entries = errors.data.get("errors", [])
    problems = []
    for index, entry in enumerate(catalogue.errors.entries):
        try:
            refused = builds.refused(_slot_values(entry, builders, catalogues_message))
        except ValueError:  # a value the builder cannot place: the runtime says so itself
            continue
        raw = raw_entries[index] if index < len(raw_entries) else {}
        for place, reason in refused:
            column = builds.places[place]
            where = ["errors", index, column] if column in raw else ["errors", index]
            wording = _wording(entry, raw, column, column in inheritable, (encode(place), reason))
            problems.append(errors.diagnostic(where, wording))
    return problems


class _Builds:
    """The error builder's documents, and where the schema refuses what the catalogue puts.

    Asking the judge why a document is refused costs much more than asking whether, and
    grows with the schema's enums, which list the codes: so it is asked as little as may be.
    A member the caller must give takes the values of a failure example, so that a sound
    entry's document is accepted at once. A refused entry is held to the first accepted
    one (the witness): a place whose value, made the witness's, makes the document accepted
    is refused, and the reason for a missing value there is asked once. Only a refusal the
    witness does not explain (the code, several places at once) asks why of the entry."""

    def __init__(self, builders: Builders, judge: Judge, catalogues_message: bool, examples: tuple[Example, ...]):
        self.places = _filled_places(builders, catalogues_message)
        self._slots = _slot_places(builders)
        self._judged = {i for i, place in enumerate(self._slots) if i and place in self.places}  # not the code
        self._filling = _filling(builders)
        self._judge = judge
        self._members = _default_members(builders)
        self._given = {**self._members, **_callers_members(builders, examples)}
        self._witness: tuple[Any, ...] | None = None
        self._missing: dict[int, str] = {}  # the reason for a missing value at a slot, asked once

    def _document(self, values: tuple[Any, ...]) -> dict[str, Any]:
        return self._filling.fill(self._members, *values)

    def _accepted(self, values: tuple[Any, ...]) -> bool:
        """Whether the builder builds `values` with its defaults, or with a caller's members."""
        if self._judge.is_valid(self._document(values)):
            return True
        given = self._given != self._members
        return given and self._judge.is_valid(self._filling.fill(self._given, *values))

    def refused(self, values: tuple[Any, ...]) -> list[tuple[Tokens, str]]:
        """(place, the schema's reason) of each place the schema refuses the entry's value at."""
        if self._accepted(values):
            self._witness = self._witness or values
            return []
        blamed = self._held_to_witness(values)
        if blamed is None:
            return self._asked(values)
        found, asked = [], None
        for slot in blamed:
            missing = values[slot] is None or values[slot] is ABSENT
            reason = self._missing.get(slot) if missing else None
            if reason is None:
                asked = dict(self._asked(values)) if asked is None else asked
                reason = asked.get(self._slots[slot], "the envelope refuses it there")
                if missing:
                    self._missing[slot] = reason
            found.append((self._slots[slot], reason))
        return found

    def _held_to_witness(self, values: tuple[Any, ...]) -> list[int] | None:
        """The slots whose value, made the witness's, makes the document accepted, when
        together they do; None when the witness explains nothing."""
        witness = self._witness
        if witness is None:
            return None
        differing = [i for i in sorted(self._judged) if not _same(values[i], witness[i])]
        blamed = [i for i in differing if self._accepted(_with(values, witness, [i]))]
        if not blamed or not self._accepted(_with(values, witness, blamed)):
            return None
        return blamed

    def _asked(self, values: tuple[Any, ...]) -> list[tuple[Tokens, str]]:
        """The judge asked why: each filled place a violation is at, with its first reason."""
        found: dict[Tokens, str] = {}
        for violation in self._judge.violations(self._document(values)):
            place = _place_of(tuple(map(str, violation.path)), self.places)
            if place is not None:
                found.setdefault(place, violation.message)
        return list(found.items())


def _same(one: Any, other: Any) -> bool:
    return type(one) is type(other) and one == other


def _with(values: tuple[Any, ...], witness: tuple[Any, ...], slots: list[int]) -> tuple[Any, ...]:
    """`values` with the witness's at `slots`."""
    return tuple(witness[i] if i in slots else value for i, value in enumerate(values))


def _slot_places(builders: Builders) -> tuple[Tokens, ...]:
    """The path of each slot of `_filling`: the code, each derived column, the message."""
    slots = (decode(builders.code), *(decode(p) for p, _ in builders.derived))
    return (*slots, decode(builders.message)) if builders.message is not None else slots


def _filled_places(builders: Builders, catalogues_message: bool) -> dict[Tokens, str]:
    """Where the builder puts what the catalogue says of a code: the document's path -> the
    column (`code`, a derived column, `message`)."""
    places = {decode(builders.code): "code"}
    for pointer, column in builders.derived:
        places.setdefault(decode(pointer), column)
    if builders.message is not None and catalogues_message:
        places.setdefault(decode(builders.message), "message")
    return places


def _filling(builders: Builders) -> Filling:
    """The error builder's `Filling`, as the generated builders module compiles it."""
    return Filling(
        tuple((decode(p), v) for p, v in builders.error_constants),
        _slot_places(builders),
        tuple((decode(p), v) for p, v in builders.error_defaults),
    )


def _callers_members(builders: Builders, examples: tuple[Example, ...]) -> dict[str, Any]:
    """The values a failure example gives the members the caller of the error builder must
    give (none where there are none, or no example gives them all)."""
    fields = builders.error.fields or ()
    names = [f.name for f in fields if f.required and not f.nullable and not f.filled]
    for example in examples if names else ():
        document = example.value
        if builders.code_in(document) is not None and all(name in document for name in names):
            return {name: document[name] for name in names}
    return {}


def _default_members(builders: Builders) -> dict[str, None]:
    """The keyword parameters of the error builder whose default puts a member: null for a
    member the schema requires and accepts null for (see `builder_signatures.parameters`).
    The others default to being left out; a required one the caller must give is theirs."""
    fields = builders.error.fields or ()
    return {f.name: None for f in fields if f.required and f.nullable and not f.filled}


def _slot_values(entry: Entry, builders: Builders, catalogues_message: bool) -> tuple[Any, ...]:
    """The values of the slots of `_filling` for `entry` with no argument but its code: a
    message the caller must give is `CALLERS_MESSAGE` here, and its place is not judged."""
    values = [entry.code, *(_as_json(entry.get(column)) for _, column in builders.derived)]
    if builders.message is not None:
        message = entry.get("message") if catalogues_message else CALLERS_MESSAGE
        values.append(ABSENT if message is None else message)
    return tuple(values)


def _as_json(value: Any) -> Any:
    """A catalogue value as the document holds it (an array column's value is a tuple)."""
    return list(value) if isinstance(value, tuple) else value


def _place_of(path: Tokens, places: dict[Tokens, str]) -> Tokens | None:
    """The filled place a violation at `path` is about: the deepest one at or above it."""
    for length in range(len(path), 0, -1):
        if path[:length] in places:
            return path[:length]
    return None


def _wording(entry: Entry, raw: Any, column: str, inheritable: bool, refused: tuple[str, str]) -> str:
    """What is wrong with `entry` where the builder puts its `column`: `refused` is that
    place's pointer and the schema's reason; `inheritable` whether an error type may give it."""
    pointer, reason = refused
    code = entry.code
    cannot = f"`error_response({code!r})` cannot build it"
    value = entry.get(column) if column != "code" else code
    if value is None and column == "message":
        return f"{code!r} has no message, which the envelope requires at {pointer}: {cannot}"
    if value is None:
        inherited = raw.get("error_type") if isinstance(raw, dict) and inheritable else None
        nor = f" (nor has its error type {inherited!r})" if isinstance(inherited, str) else ""
        what = f"{code!r} has no {column}{nor}, and the envelope refuses the null the builder puts at {pointer}"
    elif column == "code":
        what = f"the envelope refuses the code {code!r} at {pointer}"
    else:
        given = "" if column in raw else " (from its error type)"
        what = f"the envelope refuses the {column} of {code!r}{given} at {pointer}"
    return f"{what}: {reason} ({cannot})"
