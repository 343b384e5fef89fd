"""The tool's private paths behind their bar (docs/development.md, "Private APIs of other
packages"): each runs here on the release it is tested on, and its public path is forced as
another release (or a Python that moved the name) forces it; both give the same result, or,
where the public path cannot do as much, what it does is said. CI runs these (`-m private_api`)
on the lowest and the highest releases the tool supports."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import AsyncIterator, Callable
from importlib.metadata import version
from pathlib import Path

import anyio
import httpx2
import pytest
import regress
from hostile_catalogue import hostile_contract
from mcp_contracts_generator import api
from mcp_contracts_generator.client.bounded import Cap, MessageTooLarge
from mcp_contracts_generator.client.http_transport import _Counted, _decoder
from mcp_contracts_generator.render import tables
from mcp_contracts_generator.schema import synthesize

pytestmark = pytest.mark.private_api


def test_the_catalogue_rows_black_writes_are_the_rows_written_in_its_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """render/tables.py writes each enum member and table entry in black's form itself (the
    private path: black's behaviour, and `black.strings.str_width`), on the release that form
    is tested on; on any other, black writes each row (`format_str`): the same text."""
    assert tables.EMULATED and version("black") == tables.FORM_TESTED_ON  # the pinned black
    project = api.load(hostile_contract(tmp_path, 60)).project
    assert project is not None
    catalogue = next(c for c in project.contracts if c.name == "jsonrpc").catalogue
    written = tables.enum_tables(catalogue)
    assert sum(len(t.rows) for t in written) > 60 and any("(\n" in row.entry for row in written[0].rows)
    monkeypatch.setattr(tables, "EMULATED", False)
    assert tables.enum_tables(catalogue) == written


def _matches(pattern: str) -> Callable[[object], bool]:
    return lambda value: isinstance(value, str) and regress.Regex(pattern).find(value) is not None


def test_a_patterned_string_is_made_by_re_parser_and_without_it_is_the_placeholder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """schema/synthesize.py reads a `pattern` with `re._parser` (private to the standard
    library) to make a string it matches; where that parser is missing, the string is the
    placeholder: a pattern it matches still gets a document, another none (the judge says)."""
    digits = "^[0-9]{3}-[a-z]+$"
    assert synthesize.synthesize({"type": "string", "pattern": digits}, _matches(digits)) == (True, "000-a")
    monkeypatch.setattr(synthesize, "re_parser", None)
    assert synthesize.synthesize({"type": "string", "pattern": digits}, _matches(digits)) == (False, None)
    assert synthesize.synthesize({"type": "string", "pattern": "^x"}, _matches("^x")) == (True, "x")


class _Body(httpx2.AsyncByteStream):
    def __init__(self, pieces: list[bytes]) -> None:
        self._pieces = pieces

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self._pieces:
            yield piece


def _read(body: bytes, coding: str, cap: Cap) -> bytes:
    """`body`, sent with `Content-Encoding: coding` in pieces of 1,000 bytes, as the cap reads it."""
    response = httpx2.Response(200, headers={"content-encoding": coding}, content=b"")
    decoder = _decoder(response)
    assert "content-encoding" not in response.headers  # httpx2 does not decode it again
    pieces = [body[i : i + 1000] for i in range(0, len(body), 1000)]

    async def drain() -> bytes:
        return b"".join([chunk async for chunk in _Counted(_Body(pieces), cap, False, decoder)])

    return anyio.run(drain)


def test_a_compressed_answer_is_decoded_and_counted_decoded_with_the_standard_library() -> None:
    """client/bounded.py decodes an answer compressed though it was not asked to be (gzip,
    deflate, both), with zlib (no longer httpx2's private decoders), and counts what it
    decodes: a small gzip of many megabytes ends at the cap, having inflated little more."""
    message = b'{"jsonrpc": "2.0", "id": 1, "result": {"text": "' + "é".encode() * 5000 + b'"}}'
    assert _read(gzip.compress(message), "gzip", Cap()) == message
    assert _read(zlib.compress(message), "deflate", Cap()) == message
    assert _read(gzip.compress(zlib.compress(message)), "deflate, gzip", Cap()) == message
    assert _read(message, "br", Cap()) == message  # no decoder in the standard library: as it came
    bomb = gzip.compress(b" " * 200_000_000)  # 200 MB in about 200 KB
    cap = Cap(limit=1_000_000)
    with pytest.raises(MessageTooLarge):
        _read(bomb, "gzip", cap)
    assert cap.hit
    with pytest.raises(httpx2.DecodingError):
        _read(b"not gzip at all", "gzip", Cap())


def test_arguments_are_shown_by_their_metavar_on_the_typer_tested_and_by_typer_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`cli_params.Argument` overrides typer's private display hooks on the releases in
    `TYPER_TESTED` only; on another, typer shows the arguments its own way and the help works."""
    from mcp_contracts_generator import cli_params
    from mcp_contracts_generator.cli import app
    from typer.testing import CliRunner

    installed = version("typer")
    assert cli_params.shows_arguments(installed), f"typer {installed} is outside TYPER_TESTED"
    assert not cli_params.shows_arguments("0.30.0") and not cli_params.shows_arguments("0.29.3rc1")

    def usage() -> str:
        result = CliRunner().invoke(app, ["init", "--help"], terminal_width=100)
        assert result.exit_code == 0, result.output
        return next(line for line in result.output.splitlines() if "Usage" in line)

    assert usage().rstrip().endswith("[OPTIONS] NAME")
    monkeypatch.setattr(cli_params, "ARGUMENTS_SHOWN", False)
    assert not usage().rstrip().endswith("[OPTIONS] NAME")
