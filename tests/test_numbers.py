"""Numbers no double holds as written: which ones the readers refuse, which they keep, and the
renderers' last guard. The refusals in every source are rows of the hostile corpus
(tests/hostile/cases.py). A server's numbers are read as it wrote them, before the MCP SDK
makes doubles of them: here the reader of its messages, in tests/test_import.py `import` of a
listing or an answer that holds 1e400 or 1e-400 over stdio and HTTP."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx2
import pytest
from conftest import SCHEMAS
from hypothesis import given
from hypothesis import strategies as st
from mcp_contracts_generator import api
from mcp_contracts_generator.client.bounded import Cap, UnheldNumber
from mcp_contracts_generator.client.http_transport import _Counted
from mcp_contracts_generator.config import Limits
from mcp_contracts_generator.diagnostics import Diagnostic
from mcp_contracts_generator.load.documents import Document, read_json, read_yaml
from mcp_contracts_generator.load.reading import Reading
from mcp_contracts_generator.render.plan import RenderProblem, build_plan
from mcp_contracts_generator.schema.values import first_unheld, unheld


def _read(tmp_path: Path, name: str, text: str) -> Document | Diagnostic:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    reading = Reading.within(tmp_path, Limits())
    return read_json(path, reading) if name.endswith(".json") else read_yaml(path, reading)


KEPT = ["0.1", "5e-324", "1.7976931348623157e308", "-0.0", "0e-999", "0.000e400", "1" + "0" * 400, "1.5e300"]


@pytest.mark.parametrize("text", KEPT)
@pytest.mark.parametrize("name", ["a.json", "a.yaml"])
def test_every_number_a_double_holds_is_kept_and_integers_at_any_size(tmp_path: Path, name: str, text: str) -> None:
    read = _read(tmp_path, name, f'{{"a": [{text}]}}' if name.endswith(".json") else f"a: [{text}]\n")
    assert isinstance(read, Document), read
    assert read.data == {"a": [int(text) if text.isdigit() else float(text)]}


REFUSED = [
    ("1e400", "1e400 is not a finite double: JSON parsers disagree on it"),
    ("-1E+400", "-1E+400 is not a finite double"),
    ("1e-400", "1e-400 is too small for a double: it reads as 0"),
    ("-0.0001e-330", "-0.0001e-330 is too small for a double"),
]


@pytest.mark.parametrize(("text", "message"), REFUSED)
@pytest.mark.parametrize("name", ["a.json", "a.yaml"])
def test_a_number_no_double_holds_is_refused_at_its_place(tmp_path: Path, name: str, text: str, message: str) -> None:
    json = name.endswith(".json")
    read = _read(tmp_path, name, f'{{"a": {{"b": [1, {text}]}}}}' if json else f"a:\n  b: [1, {text}]\n")
    assert isinstance(read, Diagnostic)
    assert read.message.startswith(message), read.message
    assert (read.pointer, read.line) == (("/a/b/1", None) if json else (None, 2))


def test_a_yaml_key_that_would_overflow_is_its_text(tmp_path: Path) -> None:
    """A YAML key read as a float is a string: `1e400` as written, not `inf`."""
    read = _read(tmp_path, "a.yaml", "a: {1e400: x}\n")
    assert isinstance(read, Document), read
    assert read.data == {"a": {"1e400": "x"}}


def test_a_value_no_json_holds_that_reaches_a_renderer_is_the_contracts_problem(tmp_path: Path) -> None:
    """The last guard: were a loaded contract to hold infinity, no output writes `Infinity`:
    the contract is not rendered, and says why (exit 2 in the commands)."""
    schemas = tmp_path / "schemas"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", schemas / "contracts" / "jsonrpc")
    loaded = api.load(schemas)
    assert loaded.project is not None, loaded.diagnostics
    bundle = loaded.project.contracts[0].bundle
    bundle.resources[bundle.root]["properties"]["jsonrpc"]["const"] = float("inf")
    plan = build_plan(loaded.project, "contracts", None, ("python", "typescript"))
    assert isinstance(plan, list) and len(plan) == 1
    assert isinstance(plan[0], RenderProblem)
    assert "Out of range float values are not JSON compliant" in plan[0].message


_DIGITS = st.text("0123456789", min_size=1, max_size=30)


@given(
    whole=_DIGITS,
    zeros=st.integers(0, 400),
    fraction=st.none() | _DIGITS,
    exponent=st.none() | st.integers(-999, 999),
    sign=st.sampled_from(["", "-"]),
)
def test_a_message_is_read_for_every_number_a_double_does_not_hold(
    whole: str, zeros: int, fraction: str | None, exponent: int | None, sign: str
) -> None:
    """The reader of a server's messages skips texts it has no reason to parse (no long
    exponent, no long run of digits): it must find each number the sources' readers refuse,
    and no other. `zeros` leads the fraction, or follows the whole part."""
    whole = whole.lstrip("0") or "0"
    if fraction is None and not exponent:
        return  # an integer, exact at any size
    whole, fraction = (whole, "0" * zeros + fraction) if fraction is not None else (whole + "0" * zeros, None)
    text = sign + whole + (f".{fraction}" if fraction is not None else "") + (f"e{exponent}" if exponent else "")
    found = first_unheld(f'{{"result": {{"a": [true, {text}]}}}}'.encode())
    why = unheld(text, float(text))
    assert (found is None) == (why is None), (text, found, why)
    if found is not None and len(text) <= 40:
        assert found == (("result", "a", 1), why)


@pytest.mark.parametrize(
    "text",
    ["0." + "0" * 330 + "1", "1" + "0" * 330 + ".0", "1" + "0" * 320 + "e10", "0." + "0" * 250 + "1e-99", "-1E+400"],
)
def test_a_number_written_long_is_read_too(text: str) -> None:
    """No exponent of three digits: the digits alone take the number out of a double's range."""
    assert unheld(text, float(text)) is not None
    assert first_unheld(f'{{"result": {text}}}'.encode()) is not None


def test_a_long_number_is_named_by_its_ends_and_its_length() -> None:
    found = first_unheld(b"[0." + b"0" * 400 + b"1]")
    shown = "0.0000000000000000000000…000000000001 (403 characters)"
    assert found == ((0,), f"{shown} is too small for a double: it reads as 0, and JSON parsers disagree on it")


class _Chunks(httpx2.AsyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            yield chunk


def _read_through(body: bytes, events: bool, size: int) -> Cap:
    """What the cap noted of `body` arriving in pieces of `size` bytes."""
    cap = Cap()
    pieces = [body[i : i + size] for i in range(0, len(body), size)]

    async def drain() -> bytes:
        return b"".join([chunk async for chunk in _Counted(_Chunks(pieces), cap, events)])

    assert anyio.run(drain) == body
    return cap


@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
def test_each_event_of_a_stream_is_read_whatever_its_pieces(size: int) -> None:
    """Events end at a blank line written `\\n\\n`, `\\r\\n\\r\\n` or `\\r\\r`, which may be cut
    anywhere; each event's message is its `data:` lines, and each is read once."""
    body = (
        b": a comment\r\n\r\n"
        b'event: message\r\ndata: {"id": 1, "result": {"a": 1e-400}}\r\n\r\n'
        b'data: {"id": 2,\ndata: "result": {"b": [0, 1e400]}}\n\n'
        b'data:{"id": 3, "result": {"c": 1.5}}\r\r'
        b'data: {"id": 4, "result": {"d": -1E+999}}\n\n'
    )
    cap = _read_through(body, events=True, size=size)
    assert cap.unheld == [
        UnheldNumber("/result/a", "1e-400 is too small for a double: it reads as 0, and JSON parsers disagree on it"),
        UnheldNumber("/result/b/1", "1e400 is not a finite double: JSON parsers disagree on it"),
        UnheldNumber("/result/d", "-1E+999 is not a finite double: JSON parsers disagree on it"),
    ]


@pytest.mark.parametrize("size", [1, 5, 1000])
def test_a_json_body_is_read_once_it_has_all_come(size: int) -> None:
    cap = _read_through(b'{"id": 1, "result": {"tools": [{"x": 1e-400}]}}', events=False, size=size)
    assert [number.pointer for number in cap.unheld] == ["/result/tools/0/x"]
