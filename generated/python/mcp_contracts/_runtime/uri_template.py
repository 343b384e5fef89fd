# Copied by mcp-contracts from its generator/runtime/uri_template.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""RFC 6570 URI templates, Levels 1 to 3: parse, expand, and match a URI back to its values.

A contract's resource templates (`resources/templates/list`, e.g. `test://template/{id}/data`)
are parsed here once; the generated code expands them (`expand`) and matches a URI back to
the values that expand to it (`match`), and the mock routes `resources/read` by the same match.

What is taken. Levels 1 to 3: the operators "", `+`, `#`, `.`, `/`, `;`, `?` and `&`, several
variables an expression (`{x,y}`, `{?a,b}`), string values. What is refused, by `TemplateError`
with its 1-based `column`: a brace left open or closing nothing, an empty expression, a
variable name outside RFC 6570 §2.3, an operator RFC 6570 keeps for the future (`=`, `,`, `!`,
`@`, `|`), the Level 4 modifiers (prefix `:N`, explode `*`), which a contract's templates do
not take, a literal character a URI may not hold (§2.1), and two templates `match` could not
undo: a variable named twice (its two values would have to be equal) and two variables with
no literal between them (`{a}{b}`: where one ends is anyone's guess; `{a}{.b}` is fine, the
operator writes the `.`), as the MCP Python SDK refuses them.

Expansion is RFC 6570 §3.2 word for word, with one reading: a variable missing from the
values, or None there (§2.3's null), is undefined and left out, an empty string is defined.
Literal characters outside ASCII (§2.1 `ucschar`, `iprivate`) are written percent-encoded (§3.1).

Matching. RFC 6570 leaves it out (§1.4); here it is the inverse of `expand`: `match(uri)`
returns values that expand to exactly `uri`, or None. So `t.expand(t.match(uri)) == uri` for every
URI that matches (its query's members perhaps reordered).
- A value is read where its operator writes it, as the operator writes it. `{x}` (and `.`, `/`,
  `;`, `?`, `&`) writes unreserved characters as they are and any other one as upper-case
  percent-encoded UTF-8, decoded back; a URI holding what expansion never writes there (a raw
  `:` or `/`, `%2f` in lower case, `%7E` for `~`, no UTF-8) is no match: normalise it first
  (RFC 3986 §6.2.2). `{+x}` and `{#x}` write unreserved and reserved characters as they are and
  pass a percent-encoding the value holds: an encoding of a character they would encode is
  decoded (`%20` is a space), any other is part of the value (`a%2Fb` reads `a%2Fb`, as it
  expands to `a%2Fb` and `a/b` to `a/b`).
- A variable outside the final query part is required (a `{?...}` elsewhere too, its
  members in order): `{x}` undefined and `{x}` empty both
  write nothing, and `match` reads "". The final query part, a run of `{?...}` then `{&...}`
  expressions ending the template, is read as the query `expand` writes, its members in any
  order and each optional (expansion leaves undefined ones out); a member it does not name,
  or named twice, is no match.
- Where several values expand to the URI (`{a}-{b}` and `x-y-z`), each variable in turn
  takes the longest value that lets the rest match, as a regular expression's greedy groups
  do, and the query part takes as many members as it can (`{+path}{?q}` reads `x?q=1` as
  `q=1`). So `t.match(t.expand(v)) == v` whenever no other values expand to the same URI:
  not when a value a URI cannot carry apart from its neighbours (`{.a,b}` with `a` holding
  `.`, `{+path}` holding the literal after it, or `?q=` before a query), nor an undefined variable
  outside the query, nor a `{+x}` value holding a percent-encoding of a character it would
  encode (`%20` reads back as a space).

Bound. No regular expression is run on the URI. `match` reads at most `MAX_URI_LENGTH`
characters (None beyond) and takes a fixed number of passes over them, each a plain loop:
the variables' feasibility is computed right to left once a pass (one table a piece of the
template, as for an automaton, never backtracking), then read left to right. A query part
of t variables gives at most t + 1 places where it may begin, tried from the most members
down: in all O((t + 1) x (pieces + 1) x length) steps, linear in the URI for one template.

This module is copied into every generated package as `_runtime/uri_template.py`: the
standard library only.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from urllib.parse import quote, unquote

__all__ = ["MAX_URI_LENGTH", "TemplateError", "UriTemplate"]

# The longest URI `match` reads: a longer one is no match, read no further.
MAX_URI_LENGTH = 65_536

_ALPHANUMERIC = frozenset(string.ascii_letters + string.digits)
_UNRESERVED = _ALPHANUMERIC | frozenset("-._~")
_RESERVED_TEXT = ":/?#[]@!$&'()*+,;="
_RESERVED = frozenset(_RESERVED_TEXT)
_WRITTEN_RESERVED = _UNRESERVED | _RESERVED
_HEX = frozenset(string.hexdigits)
_VARCHAR = _ALPHANUMERIC | {"_"}
# RFC 6570 §2.1 literals in ASCII: the visible characters but these (`%` starts a percent-encoding).
_LITERAL_ASCII = frozenset(map(chr, range(0x21, 0x7F))) - frozenset("\"%'<>\\^`{|}")
_FUTURE_OPERATORS = frozenset("=,!@|")


@dataclass(frozen=True)
class _Operator:
    """How an operator expands (RFC 6570 Appendix A): lead, separator, named, ifemp, allow."""

    first: str
    separator: str
    named: bool
    if_empty: str
    reserved: bool


_OPERATORS = {
    "": _Operator("", ",", False, "", False),
    "+": _Operator("", ",", False, "", True),
    "#": _Operator("#", ",", False, "", True),
    ".": _Operator(".", ".", False, "", False),
    "/": _Operator("/", "/", False, "", False),
    ";": _Operator(";", ";", True, "", False),
    "?": _Operator("?", "&", True, "=", False),
    "&": _Operator("&", "&", True, "=", False),
}


class TemplateError(ValueError):
    """A URI template that does not parse, or that `match` could not undo.

    `column` is the 1-based index into the template of the character at fault.
    """

    def __init__(self, reason: str, template: str, index: int) -> None:
        super().__init__(
            f"{reason}, at column {index + 1} of the URI template {template!r}"
        )
        self.reason = reason
        self.template = template
        self.column = index + 1


@dataclass(frozen=True)
class _Expression:
    """One `{...}`: its operator's character, its variables' names and where each starts."""

    operator: str
    names: tuple[str, ...]
    indexes: tuple[int, ...]
    brace: int


@dataclass(frozen=True)
class _Capture:
    """A variable's value in the match: `reserved` for `+` and `#`; `if_empty` for `;`, whose
    empty value writes no `=`."""

    name: str
    reserved: bool
    if_empty: bool


# A template as parsed: literal text (as expansion writes it, percent-encoded) and expressions.
_Part = str | _Expression
# A template as matched: literal text and single values.
_Piece = str | _Capture


@dataclass(frozen=True)
class _Query:
    """The final query part: its variables, and those of its first expression when that is `{?...}`
    (a URI's query starts with `?` exactly when one of those is there)."""

    names: frozenset[str]
    question_names: frozenset[str]


class _Tally:
    """The steps one match took: each character a pass visits counts one."""

    def __init__(self) -> None:
        self.steps = 0


class UriTemplate:
    """A parsed URI template (RFC 6570 Levels 1 to 3); see the module for what it takes."""

    __slots__ = ("_parts", "_pieces", "_query", "text", "variables")

    def __init__(self, text: str, parts: tuple[_Part, ...]) -> None:
        self.text = text
        self._parts = parts
        self.variables = tuple(
            name for part in _expressions(parts) for name in part.names
        )
        head, query = _split_query(parts)
        self._pieces = _pieces(head)
        self._query = query

    @classmethod
    def parse(cls, text: str) -> UriTemplate:
        """The template of `text`; `TemplateError` when it does not parse or cannot be matched back."""
        parts = _parse(text)
        _refuse_repeated(text, parts)
        _refuse_adjacent(text, parts)
        return cls(text, parts)

    def __repr__(self) -> str:
        return f"UriTemplate.parse({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UriTemplate) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def expand(self, values: Mapping[str, str | None]) -> str:
        """The URI of `values` (RFC 6570 §3.2); a variable they leave out, or give None, is
        undefined, so skipped."""
        return _expand(self._parts, values)

    def match(self, uri: str) -> dict[str, str] | None:
        """The values that expand to `uri`, in template order, or None (see the module)."""
        return self._match(uri, _Tally())

    def _match(self, uri: str, tally: _Tally) -> dict[str, str] | None:
        if len(uri) > MAX_URI_LENGTH:
            return None
        for end, members in _query_starts(uri, self._query, tally):
            values = _match_pieces(self._pieces, uri[:end], tally)
            if values is not None:
                values.update(members)
                return {name: values[name] for name in self.variables if name in values}
        return None


# Parsing


def _parse(text: str) -> tuple[_Part, ...]:
    """The literal runs and expressions of `text`, each checked."""
    parts: list[_Part] = []
    literal: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "{":
            close = _closing_brace(text, index)
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(_expression(text, index, close))
            index = close + 1
            continue
        literal.append(_literal_char(text, index))
        # A percent-encoding is three characters of the template; any other character one, however written.
        index += 3 if char == "%" else 1
    if literal:
        parts.append("".join(literal))
    return tuple(parts)


def _closing_brace(text: str, brace: int) -> int:
    close = text.find("}", brace + 1)
    if close == -1 or text.find("{", brace + 1, close) != -1:
        raise TemplateError("'{' opens an expression no '}' closes", text, brace)
    return close


def _literal_char(text: str, index: int) -> str:
    """The character at `index` as expansion writes it: itself, a percent-encoding, or refused."""
    char = text[index]
    if char == "}":
        raise TemplateError("'}' closes no expression", text, index)
    if char == "%":
        if _hex_byte(text, index) is None:
            raise TemplateError("'%' is not followed by two hex digits", text, index)
        return text[index : index + 3]
    if char in _LITERAL_ASCII:
        return char
    if _is_ucschar_or_iprivate(ord(char)):
        return quote(char, safe="")
    raise TemplateError(
        f"{char!r} cannot be in a URI template's literal text (RFC 6570 §2.1)",
        text,
        index,
    )


def _is_ucschar_or_iprivate(code: int) -> bool:
    """RFC 6570 §2.1's non-ASCII literals: RFC 3987's ucschar and iprivate."""
    if code < 0x10000:
        return (
            0xA0 <= code <= 0xD7FF
            or 0xE000 <= code <= 0xFDCF
            or 0xFDF0 <= code <= 0xFFEF
        )
    if 0xE0000 <= code <= 0xE0FFF:
        return False
    return code & 0xFFFF <= 0xFFFD


def _expression(text: str, brace: int, close: int) -> _Expression:
    """The expression `text[brace : close + 1]`, its braces included."""
    start = brace + 1
    if start == close:
        raise TemplateError("empty expression '{}'", text, brace)
    operator = text[start] if text[start] in _OPERATORS else ""
    if text[start] in _FUTURE_OPERATORS:
        raise TemplateError(
            f"operator {text[start]!r} is reserved by RFC 6570 for future use",
            text,
            start,
        )
    index = start + len(operator)
    names: list[str] = []
    indexes: list[int] = []
    while True:
        end = _name_end(text, index, close)
        names.append(text[index:end])
        indexes.append(index)
        if end == close:
            return _Expression(operator, tuple(names), tuple(indexes), brace)
        index = end + 1


def _name_end(text: str, index: int, close: int) -> int:
    """Where the variable name starting at `index` ends (at a `,` or the `}`), checked (§2.3)."""
    position = index
    while position < close and text[position] != ",":
        position = _name_char_end(text, index, position)
    if position == index:
        raise TemplateError("a variable name is missing", text, position)
    if text[position - 1] == ".":
        raise TemplateError("a variable name cannot end with '.'", text, position - 1)
    return position


def _name_char_end(text: str, start: int, position: int) -> int:
    char = text[position]
    if char in _VARCHAR:
        return position + 1
    if char == "%":
        if _hex_byte(text, position) is None:
            raise TemplateError("'%' is not followed by two hex digits", text, position)
        return position + 3
    if char == "." and position > start and text[position - 1] != ".":
        return position + 1
    if char in ":*" and position > start:
        modifier = "prefix modifier ':N'" if char == ":" else "explode modifier '*'"
        raise TemplateError(
            f"the {modifier} (RFC 6570 Level 4) is not taken by a contract",
            text,
            position,
        )
    if char == ".":
        raise TemplateError(
            "'.' may only stand between two characters of a variable name",
            text,
            position,
        )
    raise TemplateError(
        f"{char!r} cannot be in a variable name (RFC 6570 §2.3)", text, position
    )


def _refuse_repeated(text: str, parts: tuple[_Part, ...]) -> None:
    seen: set[str] = set()
    for expression in _expressions(parts):
        for name, index in zip(expression.names, expression.indexes, strict=True):
            if name in seen:
                raise TemplateError(
                    f"variable {name!r} is named twice; a match could not tell its values",
                    text,
                    index,
                )
            seen.add(name)


def _refuse_adjacent(text: str, parts: tuple[_Part, ...]) -> None:
    """Two values with no literal between them cannot be matched back: where does one end?"""
    for previous, part in pairwise(parts):
        # Every expression ends with a value; one starts with literal text when its operator writes a lead.
        if (
            isinstance(previous, _Expression)
            and isinstance(part, _Expression)
            and not _OPERATORS[part.operator].first
        ):
            raise TemplateError(
                "two variables with no literal between them cannot be matched back",
                text,
                part.brace,
            )


def _expressions(parts: tuple[_Part, ...]) -> Iterator[_Expression]:
    return (part for part in parts if isinstance(part, _Expression))


def _hex_byte(text: str, index: int) -> int | None:
    """The byte of the percent-encoding at `index`, or None when there is none."""
    if text.startswith("%", index) and _hex_pair(text, index + 1):
        return int(text[index + 1 : index + 3], 16)
    return None


# Expansion


def _expand(parts: tuple[_Part, ...], values: Mapping[str, str | None]) -> str:
    return "".join(
        part if isinstance(part, str) else _expand_expression(part, values)
        for part in parts
    )


def _expand_expression(
    expression: _Expression, values: Mapping[str, str | None]
) -> str:
    operator = _OPERATORS[expression.operator]
    written = [
        _expand_value(operator, name, value)
        for name in expression.names
        if (value := values.get(name)) is not None  # left out, or None: undefined
    ]
    return operator.first + operator.separator.join(written) if written else ""


def _expand_value(operator: _Operator, name: str, value: str) -> str:
    if not isinstance(value, str):
        raise TypeError(
            f"the value of {name!r} must be a str, not {type(value).__name__}"
        )
    encoded = _encode(value, reserved=operator.reserved)
    if not operator.named:
        return encoded
    return f"{name}={encoded}" if value else name + operator.if_empty


def _encode(value: str, *, reserved: bool) -> str:
    """Percent-encode all but the unreserved characters, or (`+`, `#`) all but those, the reserved
    ones and the percent-encodings the value already holds (§3.2.1)."""
    if not reserved:
        return quote(value, safe="")
    out: list[str] = []
    start = 0
    for index in _percent_encodings(value):
        out.append(quote(value[start:index], safe=_RESERVED_TEXT))
        out.append(value[index : index + 3])
        start = index + 3
    out.append(quote(value[start:], safe=_RESERVED_TEXT))
    return "".join(out)


def _percent_encodings(value: str) -> Iterator[int]:
    index = value.find("%")
    while index != -1:
        if _hex_byte(value, index) is not None:
            yield index
            index = value.find("%", index + 3)
        else:
            index = value.find("%", index + 1)


# Matching


def _split_query(parts: tuple[_Part, ...]) -> tuple[tuple[_Part, ...], _Query | None]:
    """The parts before the final query part (`{&...}` expressions ending the template, after at
    most one `{?...}`), and that part."""
    start = len(parts)
    while start and _operator_of(parts[start - 1]) == "&":
        start -= 1
    if start and _operator_of(parts[start - 1]) == "?":
        start -= 1
    if start == len(parts):
        return parts, None
    query = list(_expressions(parts[start:]))
    names = frozenset(name for expression in query for name in expression.names)
    question = frozenset(query[0].names) if query[0].operator == "?" else frozenset()
    return parts[:start], _Query(names, question)


def _operator_of(part: _Part) -> str:
    return part.operator if isinstance(part, _Expression) else "literal"


def _pieces(parts: tuple[_Part, ...]) -> tuple[_Piece, ...]:
    """The parts as literal text (operators' leads, separators and names included) and single
    values, neighbouring literals joined."""
    pieces: list[_Piece] = []
    for piece in _expression_pieces(parts):
        if isinstance(piece, str) and pieces and isinstance(pieces[-1], str):
            pieces[-1] += piece
        elif piece:
            pieces.append(piece)
    return tuple(pieces)


def _expression_pieces(parts: tuple[_Part, ...]) -> Iterator[_Piece]:
    for part in parts:
        if isinstance(part, str):
            yield part
            continue
        operator = _OPERATORS[part.operator]
        for position, name in enumerate(part.names):
            lead = operator.separator if position else operator.first
            if part.operator == ";":
                yield lead + name
            elif operator.named:
                yield f"{lead}{name}="
            else:
                yield lead
            yield _Capture(name, operator.reserved, part.operator == ";")


def _query_starts(
    uri: str, query: _Query | None, tally: _Tally
) -> list[tuple[int, dict[str, str]]]:
    """Where the query part may begin in `uri` and its members there, from the most members to
    none: each a `name=value` after a `&`, the first after a `?` exactly when it is one of the
    `{?...}` expression's."""
    if query is None:
        return [(len(uri), {})]
    starts: list[tuple[int, dict[str, str]]] = [(len(uri), {})]
    members: dict[str, str] = {}
    end = len(uri)
    for _ in range(len(query.names)):
        ampersand = uri.rfind("&", 0, end)
        question = uri.rfind("?", ampersand + 1, end)
        start = question if question != -1 else ampersand
        tally.steps += 2 * (end - ampersand)
        member = _member(uri[start + 1 : end], query, members) if start != -1 else None
        if member is None:
            break
        members[member[0]] = member[1]
        if (uri[start] == "?") == bool(query.question_names & members.keys()):
            starts.append((start, dict(members)))
        if uri[start] == "?":
            break
        end = start
    return starts[::-1]


def _member(
    text: str, query: _Query, members: Mapping[str, str]
) -> tuple[str, str] | None:
    name, equals, value = text.partition("=")
    if not equals or name not in query.names or name in members:
        return None
    decoded = _decode_whole(value)
    return None if decoded is None else (name, decoded)


def _decode_whole(text: str) -> str | None:
    """`text` decoded when it is all unreserved characters and percent-encoded UTF-8, else None."""
    steps = _steps(text, reserved=False)
    index = 0
    while index < len(text) and steps[index]:
        index += steps[index]
    return _decode(text, reserved=False) if index == len(text) else None


def _steps(text: str, *, reserved: bool) -> bytearray:
    """The length of the value character starting at each index of `text`, as the operator
    writes one (see the module: any percent-encoding, for `+` and `#`), 0 where none does.
    """
    steps = bytearray(len(text) + 1)
    for index, char in enumerate(text):
        if char in (_WRITTEN_RESERVED if reserved else _UNRESERVED):
            steps[index] = 1
        elif char == "%":
            steps[index] = (
                (3 if _hex_byte(text, index) is not None else 0)
                if reserved
                else _encoded_length(text, index)
            )
    return steps


def _encoded_length(
    text: str, index: int, written: frozenset[str] = _UNRESERVED
) -> int:
    """The length of the percent-encoding at `index` exactly as expansion writes a character it does
    not write as it is (not in `written`): UTF-8, in upper case. 0 when there is none.
    """
    first = _hex_byte(text, index)
    if first is None:
        return 0
    size = (
        1
        if first < 0x80
        else 2 if 0xC2 <= first <= 0xDF else 3 if 0xE0 <= first <= 0xEF else 0
    )
    size = 4 if 0xF0 <= first <= 0xF4 else size
    encoded = text[index : index + 3 * size]
    if not size or encoded != encoded.upper() or not _percent_encoded(encoded):
        return 0
    try:
        char = unquote(encoded, errors="strict")
    except UnicodeDecodeError:
        return 0
    return 0 if char in written else 3 * size


def _percent_encoded(text: str) -> bool:
    return len(text) % 3 == 0 and all(
        _hex_byte(text, index) is not None for index in range(0, len(text), 3)
    )


def _decode(text: str, *, reserved: bool) -> str:
    """The value of a run of value characters (each checked by `_steps`): for `{+x}` and `{#x}`,
    the one that expands to exactly the run (see the module), `%25` before two hex digits kept.
    """
    if not reserved:
        return unquote(text, errors="strict")
    out: list[str] = []
    index = 0
    while index < len(text):
        size = (
            _encoded_length(text, index, _WRITTEN_RESERVED) if text[index] == "%" else 0
        )
        if size and not (
            text.startswith("25", index + 1) and _hex_pair(text, index + 3)
        ):
            out.append(unquote(text[index : index + size], errors="strict"))
            index += size
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


def _hex_pair(text: str, index: int) -> bool:
    return text[index : index + 1] in _HEX and text[index + 1 : index + 2] in _HEX


def _match_pieces(
    pieces: tuple[_Piece, ...], text: str, tally: _Tally
) -> dict[str, str] | None:
    """The values of `pieces` matching all of `text`, or None."""
    classes = {piece.reserved for piece in pieces if isinstance(piece, _Capture)}
    steps = {reserved: _steps(text, reserved=reserved) for reserved in classes}
    tally.steps += len(classes) * len(text)
    tables = _feasible(pieces, text, steps, tally)
    if not tables[0][0]:
        return None
    return _read(pieces, text, steps, tables, tally)


def _feasible(
    pieces: tuple[_Piece, ...],
    text: str,
    steps: Mapping[bool, bytearray],
    tally: _Tally,
) -> list[bytearray]:
    """Table k holds, at each index of `text`, whether pieces k and after match the text from there
    to its end: computed from the last piece back, each table in one pass."""
    after = bytearray(len(text) + 1)
    after[len(text)] = 1
    tables = [after]
    for piece in reversed(pieces):
        if isinstance(piece, str):
            after = _literal_table(piece, text, after, tally)
        else:
            after = _capture_table(piece, text, steps[piece.reserved], after, tally)
        tables.append(after)
    tables.reverse()
    return tables


def _literal_table(
    literal: str, text: str, after: bytearray, tally: _Tally
) -> bytearray:
    table = bytearray(len(text) + 1)
    tally.steps += len(text)
    start = text.find(literal)
    while start != -1:
        tally.steps += 1
        table[start] = after[start + len(literal)]
        start = text.find(literal, start + 1)
    return table


def _capture_table(
    capture: _Capture, text: str, steps: bytearray, after: bytearray, tally: _Tally
) -> bytearray:
    """A value may be empty (the rest matches here) or one character then a value again."""
    tally.steps += len(text)
    if capture.if_empty:
        return _if_empty_table(text, steps, after, tally)
    table = bytearray(after)
    for index in range(len(text) - 1, -1, -1):
        step = steps[index]
        if step and table[index + step]:
            table[index] = 1
    return table


def _if_empty_table(
    text: str, steps: bytearray, after: bytearray, tally: _Tally
) -> bytearray:
    """`{;x}`: nothing when the value is empty, else `=` and the value, not empty."""
    tally.steps += len(text)
    filled = bytearray(len(text) + 1)
    for index in range(len(text) - 1, -1, -1):
        step = steps[index]
        if step and (after[index + step] or filled[index + step]):
            filled[index] = 1
    table = bytearray(after)
    equals = text.find("=")
    while equals != -1:
        table[equals] |= filled[equals + 1]
        equals = text.find("=", equals + 1)
    return table


def _read(
    pieces: tuple[_Piece, ...],
    text: str,
    steps: Mapping[bool, bytearray],
    tables: list[bytearray],
    tally: _Tally,
) -> dict[str, str]:
    """The values, read left to right: each takes the longest that lets the rest match."""
    values: dict[str, str] = {}
    index = 0
    for position, piece in enumerate(pieces):
        if isinstance(piece, str):
            index += len(piece)
            continue
        start, end = _span(
            piece, text, steps[piece.reserved], tables[position + 1], index, tally
        )
        values[piece.name] = _decode(text[start:end], reserved=piece.reserved)
        index = end
    return values


def _span(
    capture: _Capture,
    text: str,
    steps: bytearray,
    after: bytearray,
    index: int,
    tally: _Tally,
) -> tuple[int, int]:
    """Where the value starting at `index` lies: the longest that lets the rest match. `{;x}` writes
    nothing for an empty value, else `=` and the value."""
    if not capture.if_empty:
        end = _longest(steps, after, index, tally)
        assert end is not None, "the tables let the rest match from here"
        return index, end
    end = (
        _longest(steps, after, index + 1, tally)
        if text.startswith("=", index)
        else None
    )
    return (index + 1, end) if end is not None and end > index + 1 else (index, index)


def _longest(
    steps: bytearray, after: bytearray, start: int, tally: _Tally
) -> int | None:
    """The furthest end of a value from `start` where the rest matches, or None."""
    best = start if after[start] else None
    index = start
    while steps[index]:
        tally.steps += 1
        index += steps[index]
        if after[index]:
            best = index
    return best
