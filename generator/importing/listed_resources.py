"""What `import` reads of a server beside its tools: its resources, resource templates and
prompts, and, when asked (`--read-resources`), each resource's contents.

Each kind is listed page by page (`MAX_PAGES` at most, as `tools/list`), only from a server
that declares its capability (`resources`, `prompts`); one that answers "Method not found"
has none. Any other error, a page that is not what MCP defines, a `nextCursor` given before
or one still there after `MAX_PAGES` pages is a listing that failed (`Listed.failed` says
why): what the contract says of that kind stays as it is. A connection that ends while a
kind is listed ends the session (the kinds not listed yet fail with it). Entries are kept as
the server wrote them (plain JSON, no SDK type), but for one holding a number no double
holds as written (`1e400`: the SDK would hand on infinity), which is left out with a note.

A resource is read once, only when asked: its message is bounded as every message is
(`limits.message_bytes`), and its contents go to a file of the run's staging folder as they
come (`facts.ReadContents`), not into memory; a read that fails is a note. One that gets no
answer in time ends the session (`read_contents` returns False), as one whose connection ends
(the error is raised): the importer reads the rest in a new one.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, METHOD_NOT_FOUND, REQUEST_TIMEOUT
from pydantic import ValidationError

from ..client.bounded import UnheldNumber
from ..client.connect import Wire, first_error, leaf, read_pages
from .facts import ReadContents


class _Resources(Wire, types.ListResourcesResult):
    key = "resources"


class _Templates(Wire, types.ListResourceTemplatesResult):
    key = "resourceTemplates"


class _Prompts(Wire, types.ListPromptsResult):
    key = "prompts"


@dataclass(frozen=True)
class _Kind:
    method: str
    request: type[Any]
    page: type[Wire]
    capability: str
    attribute: str  # of `Listed`


_KINDS = (
    _Kind("resources/list", types.ListResourcesRequest, _Resources, "resources", "resources"),
    _Kind("resources/templates/list", types.ListResourceTemplatesRequest, _Templates, "resources", "templates"),
    _Kind("prompts/list", types.ListPromptsRequest, _Prompts, "prompts", "prompts"),
)


NOT_LISTED = "the session ended before it was listed"


@dataclass
class Listed:
    """The resources, templates and prompts a server lists, each as it wrote it, and the
    listings that failed (method -> why): each fails until it is read to its end."""

    resources: tuple[dict[str, Any], ...] = ()
    templates: tuple[dict[str, Any], ...] = ()
    prompts: tuple[dict[str, Any], ...] = ()
    failed: dict[str, str] = field(default_factory=lambda: {kind.method: NOT_LISTED for kind in _KINDS})


async def list_surface(session: ClientSession, notes: list[str], heard: list[UnheldNumber], listed: Listed) -> None:
    """Every resource, template and prompt the server lists, into `listed` as each kind is
    read (`notes` gains what went wrong with an entry). A connection that ends is raised."""
    capabilities = session.server_capabilities
    for kind in _KINDS:
        declared = capabilities is not None and getattr(capabilities, kind.capability, None) is not None
        entries = await _listing(session, kind, notes, heard) if declared else ()
        if isinstance(entries, str):
            listed.failed[kind.method] = entries
            continue
        setattr(listed, kind.attribute, entries)
        del listed.failed[kind.method]


async def _listing(
    session: ClientSession, kind: _Kind, notes: list[str], heard: list[UnheldNumber]
) -> tuple[dict[str, Any], ...] | str:
    """The entries of one kind, every page read (`read_pages`), or why the listing failed."""
    entries: list[dict[str, Any]] = []

    async def page(cursor: str | None) -> str | None:
        before = len(heard)
        request = kind.request(params=types.PaginatedRequestParams(cursor=cursor))
        listed: Any = await session.send_request(request, kind.page)
        unheld = _unheld_entries(heard[before:], kind.page.key)
        for index, written in enumerate(listed._wire):
            if not isinstance(written, dict):
                continue
            if index in unheld:
                said = written.get("uri") or written.get("name")
                why = f"it holds a number no contract can hold: {unheld[index]}"
                notes.append(f"{kind.method}: {said!r} left out: {why}")
                continue
            entries.append(written)
        return listed.next_cursor  # type: ignore[no-any-return]

    try:
        endless = await read_pages(page)
    except MCPError as exc:
        if exc.code == CONNECTION_CLOSED:
            raise
        return () if exc.code == METHOD_NOT_FOUND else f"the server answers with an error: {leaf(exc)}"
    except ValidationError as exc:
        return f"not a {kind.method} result: {first_error(exc)}"
    except (TimeoutError, RuntimeError) as exc:
        return leaf(exc) or "no answer"
    return tuple(entries) if endless is None else endless


def _unheld_entries(heard: list[UnheldNumber], key: str) -> dict[int, str]:
    """The entries of a page (by index) holding a number no double holds as written: why."""
    found: dict[int, str] = {}
    prefix = f"/result/{key}/"
    for number in heard:
        if number.pointer.startswith(prefix):
            index, _, rest = number.pointer.removeprefix(prefix).partition("/")
            if index.isdigit():
                found.setdefault(int(index), f"/{rest}: {number.why}")
    return found


async def read_contents(
    session: ClientSession,
    unread: list[dict[str, Any]],
    timeout: float,
    contents: dict[str, ReadContents],
    staging: Path,
    notes: list[str],
) -> bool:
    """Read the resources of `unread` in turn, each taken off it once it is done: its
    contents entry as the server wrote it (the one of its URI, else the first) into a file of
    `staging`, by URI in `contents`; a read that fails is a note. True when every one is
    done; False when a read got no answer in time (noted), which leaves the session to be
    ended. A connection that ends is raised, the resource it was reading still first."""
    while unread:
        uri = unread[0].get("uri")
        if not isinstance(uri, str) or uri in contents:
            del unread[0]
            continue
        try:
            with anyio.fail_after(timeout * 1.5):
                result = await session.read_resource(uri)
        except (MCPError, TimeoutError, ValidationError, RuntimeError) as exc:
            code = exc.error.code if isinstance(exc, MCPError) else None
            if code == CONNECTION_CLOSED:
                raise
            del unread[0]
            notes.append(f"resources/read {uri}: not recorded: {leaf(exc) or 'no answer'}")
            if code == REQUEST_TIMEOUT or isinstance(exc, TimeoutError):
                return False
            continue
        del unread[0]
        if not result.contents:
            notes.append(f"resources/read {uri}: not recorded: it answered with no contents")
            continue
        chosen = next((entry for entry in result.contents if str(entry.uri) == uri), result.contents[0])
        if len(result.contents) > 1:
            notes.append(
                f"resources/read {uri}: {len(result.contents)} contents answered: the one of its URI is recorded"
            )
        contents[uri] = _staged(chosen, staging / f"{len(contents)}.contents")
    return True


def _staged(entry: types.TextResourceContents | types.BlobResourceContents, path: Path) -> ReadContents:
    """The bytes of one contents entry written to `path` (a blob decoded from base64)."""
    if isinstance(entry, types.TextResourceContents):
        try:
            data = entry.text.encode("utf-8")
        except UnicodeEncodeError:
            return ReadContents(None, 0, text=True, problem="its text holds a lone surrogate, which UTF-8 cannot")
    else:
        try:
            data = base64.b64decode(entry.blob, validate=True)
        except (binascii.Error, ValueError):
            return ReadContents(None, 0, text=False, problem="its blob is not base64")
    path.write_bytes(data)
    return ReadContents(path, len(data), text=isinstance(entry, types.TextResourceContents))
