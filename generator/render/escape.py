"""The escaping filters: the only way a string from a source reaches an output.

`py` turns a value into a Python literal that cannot end its string early or run code;
`docstring` turns text into a triple-quoted docstring literal of the same promise;
`md` turns text into Markdown that renders as that text, inside a table cell or not,
and never as HTML; `prose` does the same for a description, but lets its code spans
through as code (the one Markdown a description may use); both show a control character
as its escape, `\\u001b`, in a code span or not. `yaml` turns text into a YAML
scalar (for `mkdocs.yml`); `toml` into a TOML basic string (for the Python package's
`pyproject.toml`); `ts` turns a JSON value into a TypeScript expression, and `tsdoc` text
into a TypeScript doc comment.

No filter writes a control character raw but a newline or a tab where its output keeps
lines: a terminal or an editor acts on ESC, NUL, DEL and the C1 controls (U+0080-U+009F).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

_PY_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Markdown punctuation that could start emphasis, code, links or tables, or end a cell.
_MD_PUNCTUATION = set("\\`*_[]|<>#!~$")
_WHITESPACE = re.compile(r"\s+")
# Control characters other than the whitespace ones (tab, line feed, vertical tab, form feed,
# carriage return), which Markdown text collapses to a space: C0, DEL, C1 (NEL too).
_CONTROL_CHARACTER = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")
# DEL and C1, which JSON (as written with `ensure_ascii=False`) keeps raw in a string.
_JSON_RAW_CONTROL = re.compile("[\x7f-\x9f]")
# A leading "-", "+", "=" or "1." (after escaping) would start a list or underline a heading.
_BLOCK_START = re.compile(r"^( *\d*)([.)]|[-+=])(?= |$)")
# Written as entities: what HTML reads as markup, the cell's end, and what Python-Markdown
# (mkdocs) would show a backslash before, for it escapes fewer characters than CommonMark
# (strikethrough's "~", math's "$"; a heading's "=" at the start).
_MD_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;", "~": "&#126;", "$": "&#36;"}
# Each character `md` changes, to what: an entity first, else a backslash before it.
_MD_TABLE = str.maketrans({**{c: "\\" + c for c in _MD_PUNCTUATION}, **_MD_ENTITIES})
_PRINTABLE_ESCAPES = str.maketrans({c: _PY_ESCAPES[c] for c in '\\"'})
_SINGLE_QUOTED = {'"': '"', "'": "\\'"}


@dataclass(frozen=True, slots=True)
class EnumRef:
    """A member of a generated enum, written as `Class.MEMBER` rather than as a literal."""

    enum: str
    member: str


def _py_char(char: str) -> str:
    if char in _PY_ESCAPES:
        return _PY_ESCAPES[char]
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def py(value: object) -> str:
    """A Python literal for a JSON value (str, int, float, bool, None, list, dict with str
    keys), a tuple of those, or an EnumRef; written as black writes it (its quotes, its
    exponents), so that code placing it needs no formatter (tests/test_black_stable.py)."""
    if isinstance(value, EnumRef):
        return f"{value.enum}.{value.member}"
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise TypeError("no Python literal for a float that is not finite")
        return repr(value).replace("e+", "e")  # black writes `1e20`, not `1e+20`
    if isinstance(value, list):
        return "[" + ", ".join(py(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py(str(k))}: {py(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        if value.count('"') > value.count("'"):  # black's choice: the quote that needs fewer escapes
            return "'" + "".join(_SINGLE_QUOTED.get(c) or _py_char(c) for c in value) + "'"
        if value.isprintable():  # no control character: only a backslash and a quote to escape
            return '"' + value.translate(_PRINTABLE_ESCAPES) + '"'
        return '"' + "".join(_py_char(c) for c in value) + '"'
    if isinstance(value, tuple):
        return py_tuple([py(v) for v in value])
    raise TypeError(f"no Python literal for {type(value).__name__}")


def py_tuple(items: list[str]) -> str:
    """A Python tuple of expressions (each already Python), as black writes it: `(a,)` for one."""
    return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"


def docstring(text: str, indent: str = "") -> str:
    """A triple-quoted Python string literal of `text`, its lines kept, for a docstring; each
    of its lines indented by `indent` (a function's or class's body).

    A backslash, a quote beside another quote, and every character that is not printable
    (a newline aside) are escaped, so no text ends the literal early.
    """
    out = []
    for index, char in enumerate(text):
        if char == '"':
            beside = text[max(index - 1, 0) : index] + text[index + 1 : index + 2]
            out.append('\\"' if '"' in beside else char)
        else:
            out.append(char if char == "\n" else _py_char(char))
    literal = '"""\n' + "".join(out) + '\n"""'
    return "\n".join(indent + line if line else line for line in literal.split("\n"))


def _unicode_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _shown(text: str) -> str:
    """`text` with each control character (whitespace aside) as its escape, `\\u001b`: seen by
    a reader, never acted on by a terminal; then its whitespace runs as one space."""
    if not text.isprintable():  # the sub below costs a scan; most texts hold no control
        text = _CONTROL_CHARACTER.sub(_unicode_escape, text)
    return _WHITESPACE.sub(" ", text)


def json_controls(text: str) -> str:
    """JSON text (or a YAML double-quoted scalar written as JSON) with DEL and each C1 control
    as its `\\u` escape, as JSON writes the C0 ones: the same value, no raw control."""
    return _JSON_RAW_CONTROL.sub(_unicode_escape, text)


def md(value: object) -> str:
    """Text as Markdown inline content: one line, no HTML, no markup of its own, no control
    character (each shown as its escape, `\\u001b`)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        value = "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(md(v) for v in value)
    text = _shown(str(value)).translate(_MD_TABLE)
    return _BLOCK_START.sub(_escape_block_start, text, count=1)


# A code span `prose` lets through: one backtick each side, neither beside another backtick.
# Inside: no backtick; no pipe, on which GitHub's tables split a cell even in code; no space
# at either end, which CommonMark and Python-Markdown (mkdocs) trim differently. Inside a code
# span nothing is markup, so its text is written as it is, and shown as written.
_CODE_SPAN = re.compile(r"(?<!`)`([^`|\s](?:[^`|]*[^`|\s])?)`(?!`)")


def prose(value: object) -> str:
    """A description as Markdown inline content: what `md` writes, but each code span
    (`like_this`) kept as code. Whatever else the text holds is shown as that text: a
    backtick that starts no such span, HTML, a link or a pipe neither renders nor ends a cell."""
    if value is None:
        return ""
    text = _shown(str(value))  # a code span shows a control character's escape as written
    out: list[str] = []
    start = 0
    for span in _CODE_SPAN.finditer(text):
        out += (text[start : span.start()].translate(_MD_TABLE), span.group(0))
        start = span.end()
    out.append(text[start:].translate(_MD_TABLE))
    return _BLOCK_START.sub(_escape_block_start, "".join(out), count=1)


def _escape_block_start(match: re.Match[str]) -> str:
    digits, marker = match.group(1), match.group(2)
    if marker in ".)" and not digits.strip():
        return match.group(0)  # "." or ")" start nothing without a number before them
    return digits + ("&#61;" if marker == "=" else "\\" + marker)


def yaml(value: object) -> str:
    """A YAML double-quoted scalar: JSON's string syntax is a subset of YAML's. DEL and C1
    controls, which YAML does not allow raw, escaped as JSON escapes the C0 ones."""
    return json_controls(json.dumps(str(value), ensure_ascii=False, allow_nan=False))


def toml(value: object) -> str:
    """A TOML basic string: `"` and `\\` escaped, and every control character and DEL (which
    TOML refuses raw) and C1 control as `\\uXXXX`; a lone surrogate (no TOML string holds one)
    as U+FFFD."""
    out = []
    for char in str(value):
        code = ord(char)
        if char in _PY_ESCAPES:  # TOML's escapes of these are Python's
            out.append(_PY_ESCAPES[char])
        elif code < 0x20 or 0x7F <= code <= 0x9F:
            out.append(f"\\u{code:04x}")
        else:
            out.append("\ufffd" if 0xD800 <= code <= 0xDFFF else char)
    return '"' + "".join(out) + '"'


# A string in JSON's syntax, ASCII only: what `json.dumps` writes of a string, without the
# encoder it makes for each call (the TypeScript of a large catalogue writes a million).
_JSON_STRING: Callable[[str], str] = json.encoder.encode_basestring_ascii
_JSON_CONSTANTS = {None: "null", True: "true", False: "false"}


def ts(value: object) -> str:
    """A TypeScript expression of a JSON value (a tuple is an array): strings in JSON's
    syntax, ASCII only, so that no character ends a literal early or ends a line; the key
    `__proto__` computed (`["__proto__"]`), for in an object literal it would set the
    prototype instead of a property."""
    if isinstance(value, str):
        return _JSON_STRING(value)
    if value is None or isinstance(value, bool):
        return _JSON_CONSTANTS[value]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise TypeError("no TypeScript literal for a float that is not finite")
        return float.__repr__(value)  # as `json.dumps` writes a finite float
    if isinstance(value, list | tuple):
        return "[" + ", ".join(ts(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{ts_key(str(k))}: {ts(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TypeScript literal for {type(value).__name__}")


def ts_key(name: str) -> str:
    """A property name of a TypeScript object literal or interface (see `ts`)."""
    return "[" + _JSON_STRING(name) + "]" if name == "__proto__" else _JSON_STRING(name)


def tsdoc(text: object, indent: str = "") -> str:
    """A TypeScript doc comment (`/** ... */`) of `text`, its lines kept, each indented by
    `indent`; "" for no text. No text can end the comment early: `*/` is written `*\\/`."""
    if text is None or not str(text).strip():
        return ""
    lines = [_CONTROL.sub(" ", line.rstrip()) for line in str(text).replace("*/", "*\\/").splitlines()]
    if len(lines) == 1:
        return f"{indent}/** {lines[0]} */\n"
    body = "".join(f"{indent} *{' ' + line if line else ''}\n" for line in lines)
    return f"{indent}/**\n{body}{indent} */\n"


# Characters a comment may not hold: line terminators JavaScript knows beyond \n, and controls
# (C0, DEL and C1).
_CONTROL = re.compile("[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029]")
