"""What `import` reads of a server beside its tools: its resources, resource templates and
prompts, and, when asked (`--read-resources`), each resource's contents.

Each kind is listed page by page (`MAX_PAGES` at most, as `tools/list`), only from a server
that declares its capability (`resources`, `prompts`); one that answers "Method not found"
has none. Any other error, or a page that is not what MCP defines, is a note and that kind
is left empty. Entries are kept as the server wrote them (plain JSON, no SDK type), but for
one holding a number no double holds as written (`1e400`: the SDK would hand on infinity),
which is left out with a note. A resource is read once, in the session of the listing, only
when asked: its message is bounded as every message is (`--message-bytes` of the project's
`limits`); a read that fails is a note, and one whose answer is over that bound ends the
session: the importer reads the rest in a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, METHOD_NOT_FOUND
from pydantic import BaseModel, ModelWrapValidatorHandler, PrivateAttr, ValidationError, model_validator

from ..client.bounded import UnheldNumber
from ..client.connect import MAX_PAGES, first_error, leaf


class _Wire(BaseModel):
    """A listing page that also keeps its entries as the server wrote them (`wire`): the SDK's
    types keep only the fields they know."""

    _wire: list[Any] = PrivateAttr(default_factory=list)
    key: ClassVar[str] = ""

    @model_validator(mode="wrap")
    @classmethod
    def _keep_wire(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        page = handler(data)
        entries = data.get(cls.key) if isinstance(data, dict) else None
        page._wire = list(entries) if isinstance(entries, list) else []
        return page


class _Resources(_Wire, types.ListResourcesResult):
    key = "resources"


class _Templates(_Wire, types.ListResourceTemplatesResult):
    key = "resourceTemplates"


class _Prompts(_Wire, types.ListPromptsResult):
    key = "prompts"


@dataclass(frozen=True)
class _Kind:
    method: str
    key: str
    request: type[Any]
    page: type[_Wire]
    capability: str


_KINDS = (
    _Kind("resources/list", "resources", types.ListResourcesRequest, _Resources, "resources"),
    _Kind("resources/templates/list", "resourceTemplates", types.ListResourceTemplatesRequest, _Templates, "resources"),
    _Kind("prompts/list", "prompts", types.ListPromptsRequest, _Prompts, "prompts"),
)


@dataclass(frozen=True)
class Listed:
    """The resources, templates and prompts a server lists, each as it wrote it."""

    resources: tuple[dict[str, Any], ...] = ()
    templates: tuple[dict[str, Any], ...] = ()
    prompts: tuple[dict[str, Any], ...] = ()


async def list_surface(session: ClientSession, notes: list[str], heard: list[UnheldNumber]) -> Listed:
    """Every resource, template and prompt the server lists (`notes` gains what went wrong)."""
    capabilities = session.server_capabilities
    found: list[tuple[dict[str, Any], ...]] = []
    for kind in _KINDS:
        declared = capabilities is not None and getattr(capabilities, kind.capability, None) is not None
        found.append(await _listing(session, kind, notes, heard) if declared else ())
    return Listed(*found)


async def _listing(
    session: ClientSession, kind: _Kind, notes: list[str], heard: list[UnheldNumber]
) -> tuple[dict[str, Any], ...]:
    entries: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        before = len(heard)
        try:
            request = kind.request(params=types.PaginatedRequestParams(cursor=cursor))
            page: Any = await session.send_request(request, kind.page)
        except MCPError as exc:
            if exc.code != METHOD_NOT_FOUND:
                notes.append(f"{kind.method}: nothing recorded: the server answers with an error: {leaf(exc)}")
            return ()
        except ValidationError as exc:
            notes.append(f"{kind.method}: nothing recorded: not a {kind.method} result: {first_error(exc)}")
            return ()
        except (TimeoutError, RuntimeError) as exc:
            notes.append(f"{kind.method}: nothing recorded: {leaf(exc)}")
            return ()
        unheld = _unheld_entries(heard[before:], kind.key)
        for index, written in enumerate(page._wire):
            if not isinstance(written, dict):
                continue
            if index in unheld:
                said = written.get("uri") or written.get("name")
                why = f"it holds a number no contract can hold: {unheld[index]}"
                notes.append(f"{kind.method}: {said!r} left out: {why}")
                continue
            entries.append(written)
        cursor = page.next_cursor
        if cursor is None:
            return tuple(entries)
    notes.append(f"{kind.method}: still a nextCursor after {MAX_PAGES} pages: the listing was not read to its end")
    return tuple(entries)


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
    resources: tuple[dict[str, Any], ...],
    timeout: float,
    contents: dict[str, dict[str, Any]],
    notes: list[str],
) -> tuple[dict[str, Any], ...]:
    """Each listed resource read once, into `contents` as each is read: its contents entry as
    the server wrote it, by URI (the one of that URI, else the first); a read that fails is a
    note. A read that ends the connection stops the reading: the resources not read, that one
    first, are returned (unsaid: the caller knows why the session ended)."""
    for index, resource in enumerate(resources):
        uri = resource.get("uri")
        if not isinstance(uri, str) or uri in contents:
            continue
        try:
            with anyio.fail_after(timeout * 1.5):
                result = await session.read_resource(uri)
        except MCPError as exc:
            if exc.error.code == CONNECTION_CLOSED:
                return resources[index:]
            notes.append(f"resources/read {uri}: not recorded: {leaf(exc) or 'no answer'}")
            continue
        except (ValidationError, TimeoutError, RuntimeError) as exc:
            notes.append(f"resources/read {uri}: not recorded: {leaf(exc) or 'no answer'}")
            continue
        entries = [entry.model_dump(mode="json", by_alias=True, exclude_none=True) for entry in result.contents]
        if not entries:
            notes.append(f"resources/read {uri}: not recorded: it answered with no contents")
            continue
        chosen = next((entry for entry in entries if entry.get("uri") == uri), entries[0])
        if len(entries) > 1:
            notes.append(f"resources/read {uri}: {len(entries)} contents answered: the one of its URI is recorded")
        contents[uri] = chosen
    return ()
