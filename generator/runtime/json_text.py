"""JSON text as the runtime reads it: one document, every integer exact, and what is wrong
with a text that is not one, located by line and column; a document written as JSON text
(`dump_json`); a JSON pointer written from a path; the files beside a package (its bundled
schema, its published schemas)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

_BOM = b"\xef\xbb\xbf"
NOT_A_JSON_VALUE = "not a JSON value: "
_MAX_MESSAGE = 200


class NotJson(ValueError):
    """Bytes that are not one JSON document; the message says why."""


def _first_decode(data: bytes | bytearray | memoryview | str) -> Any:
    """msgspec's decoder, imported on the first document read (an import costs time)."""
    global decode
    import msgspec

    decode = msgspec.json.Decoder().decode
    return decode(data)


# msgspec's decoder once it is imported: the models' hot path calls it as `json_text.decode`.
decode: Callable[[bytes | bytearray | memoryview | str], Any] = _first_decode


def _first_encode(value: Any) -> bytes:
    """msgspec's encoder, made on the first document written."""
    global _encode
    import msgspec

    _encode = msgspec.json.Encoder(enc_hook=_model_json).encode
    return _encode(value)


def _model_json(value: Any) -> Any:
    """A model inside a document, by its schema's names, as the builders take one."""
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    raise TypeError(f"{NOT_A_JSON_VALUE}{type(value).__name__}")


_encode: Callable[[Any], bytes] = _first_encode


def dump_json(document: Any) -> bytes:
    """A document as compact JSON text, UTF-8, in its own order of members: what a server
    sends of a document the builders judged (`*_document`). msgspec writes it, about as
    fast as orjson; a model inside is written by its schema's names."""
    return _encode(document)


def parse_json(data: bytes | bytearray | memoryview | str) -> Any:
    """One JSON document (RFC 8259), every integer exact: no BOM, no NaN or Infinity.

    msgspec reads as fast as orjson and, unlike it, keeps integers beyond 64 bits exact.
    """
    try:
        return decode(data)
    except (ValueError, RecursionError) as exc:  # ValueError: DecodeError, UnicodeError
        raise NotJson(_json_problem(data, exc)) from None


def _json_problem(data: bytes | bytearray | memoryview | str, error: Exception) -> str:
    """What is wrong with a text that is not JSON, located by line and column where it can be."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if isinstance(error, RecursionError):
        return "nested too deeply: more arrays and objects inside each other than the parser can follow"
    if isinstance(error, (UnicodeDecodeError, UnicodeEncodeError)):
        return f"not valid UTF-8: {error.reason}"
    if raw.startswith(_BOM):
        return "starts with a UTF-8 byte order mark, which JSON text must not have"
    if not raw.strip(b" \t\r\n"):
        return "empty: a JSON document holds one value"
    message = str(error)
    truncated = message == "Input data was truncated"
    lone = lone_surrogate(raw) if truncated or "surrogate" in message else None
    if lone is not None:  # msgspec says "truncated" for a high half nothing follows
        line, column = _line_and_column(raw, lone)
        escape = raw[lone : lone + 6].decode("ascii")
        return (
            f"a lone surrogate escape {escape} at line {line}, column {column}: half of a UTF-16 pair, not a character"
        )
    if message.startswith("Integer value out of range"):
        return "an integer too long to read (Python reads integers of at most 4,300 digits)"
    if truncated:
        line, column = _line_and_column(raw, len(raw))
        return f"unexpected end of data at line {line}, column {column}: a string, array or object is not closed"
    offset = re.search(r"\(byte (\d+)\)$", message)
    if offset is None:
        return message
    at = int(offset.group(1)) - message.startswith("JSON is malformed: trailing")  # msgspec counts past it
    line, column = _line_and_column(raw, at)
    what = message[: offset.start()].removeprefix("JSON is malformed: ").rstrip()
    if raw.startswith((b"NaN", b"Infinity", b"-Infinity"), at):
        what = "NaN and Infinity are not JSON numbers"
    return f"{what} at line {line}, column {column}"


_ESCAPE = rb"\\(?:u([0-9a-fA-F]{4})|.)"  # compiled when a text is not JSON (re caches)


def lone_surrogate(raw: bytes) -> int | None:
    """The byte offset of the first `\\uD800`..`\\uDFFF` escape of a JSON text that is not
    one half of a pair (a high half followed at once by a low half), or None."""
    waiting, end = None, -1  # a high half's offset; where the escape before ended
    for escape in re.finditer(_ESCAPE, raw, re.DOTALL):
        digits = escape.group(1)
        code = int(digits, 16) if digits is not None else None
        if waiting is not None:
            if escape.start() != end or code is None or not 0xDC00 <= code <= 0xDFFF:
                return waiting
            waiting, code = None, None  # a pair: the low half is taken
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return escape.start()
        if code is not None and 0xD800 <= code <= 0xDBFF:
            waiting = escape.start()
        end = escape.end()
    return waiting


def _line_and_column(raw: bytes, at: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte offset `at`."""
    line_start = raw.rfind(b"\n", 0, at) + 1
    return raw.count(b"\n", 0, at) + 1, len(raw[line_start:at].decode("utf-8", "replace")) + 1


def short(message: str) -> str:
    """A message cut to a readable length: some quote whole instances."""
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."


def json_pointer(parts: Sequence[object]) -> str:
    """RFC 6901 pointer for a sequence of keys and indexes ("" is the whole document)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def json_path(pointer: str) -> tuple[str, ...]:
    """The tokens of an RFC 6901 pointer, unescaped: `json_pointer` undone."""
    return tuple(token.replace("~1", "/").replace("~0", "~") for token in pointer.split("/")[1:])


def package_json(package: str, name: str) -> Any:
    """The JSON file beside a package's modules (importlib.resources when the package is not
    a folder of files, such as one inside a zip archive), read by the standard library's
    reader, imported on first use."""
    import json

    return json.loads(_package_file(package, name))


def _package_file(package: str, name: str) -> bytes:
    module = sys.modules.get(package)
    where = getattr(module, "__file__", None)
    if where:
        try:
            with open(os.path.join(os.path.dirname(where), name), "rb") as file:
                return file.read()
        except OSError:
            pass
    from importlib import resources

    return resources.files(package).joinpath(name).read_bytes()
