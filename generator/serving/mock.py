"""`mcp-contracts mock`: an MCP server, on the official SDK, that answers as the contract says.

It lists the contract's tools with their published schemas and answers each call through
`answers`: the example call's result, a default success, or, when the call's `_meta` asks
for one under `mcp-contracts/error`, the error envelope of that code. Arguments the tool's
`inputSchema` refuses, an unknown tool and an error the contract cannot express are answered
with a JSON-RPC error (-32602) that says why. HTTP binds to 127.0.0.1 unless told otherwise.

Each tool is listed with its `execution`, `_meta` and `other_fields` as the contract writes
them, which the SDK's own listing would sieve out (the runtime's `AsWritten`, the generated
server's too).

Each client is answered at the revision it negotiated (`revisions`). The SDK negotiates it:
it accepts every revision it speaks, those the contract's `protocol:` leaves out too (its
`initialize` has no hook to answer another, and a veto would leave such a client with no
answer where the specification wants a counter-offer); `conform --protocol` is what holds
a server to the contract's revisions.
"""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import AsyncIterator, Callable
from functools import cached_property
from typing import Any, TypeVar, cast

import anyio
import anyio.to_thread
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCRequest, JSONRPCResponse
from mcp_types.jsonrpc import INVALID_PARAMS

from .. import __version__
from ..diagnostics import Refused
from ..protocol import CONTENT_TYPES, served_as
from ..runtime.serving_surface import AsWritten
from ..schema.engine import first_refusal, standalone_validator
from .answers import Answer, error, for_call, success
from .revisions import listing_at, result_at
from .served import ServedContract, ServedTool
from .surface_server import surface_handlers

_T = TypeVar("_T")

# The `_meta` key of a `tools/call` that asks the mock for the error envelope of a code.
ERROR_REQUEST = "mcp-contracts/error"


class _Listing:
    """One revision's `tools/list`: each tool's entry, the JSON the server sends, and the
    tools parsed by the SDK's `Tool` model only when asked for (`Mock.listing_at`)."""

    def __init__(self, tools: list[dict[str, Any]]) -> None:
        self.entries = {tool["name"]: tool for tool in tools}
        # The fields the SDK's model fills in (`resultType`, the cache hints of 2026-07-28).
        empty = types.ListToolsResult(tools=[]).model_dump(by_alias=True, mode="json", exclude_none=True)
        self.wire: dict[str, Any] = {**empty, "tools": tools}

    @cached_property
    def tools(self) -> list[types.Tool]:
        return [types.Tool.model_validate(tool) for tool in self.wire["tools"]]


class Mock:
    """The answers of one contract's mock, independent of any transport."""

    def __init__(self, contract: ServedContract) -> None:
        self.contract = contract
        # Each revision's listing (made at its first client: see `revisions`), a tool's
        # inputSchema compiled, its default success, its error envelope per code (`_kept`).
        self._made: dict[tuple[str, ...], Any] = {}

    def answer(self, name: str, arguments: dict[str, Any] | None, meta: dict[str, Any] | None) -> types.CallToolResult:
        tool = self.contract.tool(name)
        if tool is None:
            known = ", ".join(t.name for t in self.contract.tools) or "none"
            raise MCPError(INVALID_PARAMS, f"unknown tool {name!r} (the contract lists: {known})")
        schema = tool.listing["inputSchema"]
        refusal = first_refusal(self._kept(("input", name), lambda: standalone_validator(schema)), arguments or {})
        if refusal is not None:
            told = _unsaid(refusal, tool.secrets, arguments or {})
            raise MCPError(INVALID_PARAMS, f"{name}: the inputSchema refuses the arguments: {told}")
        requested = (meta or {}).get(ERROR_REQUEST)
        answer = (
            self._error(tool, requested)
            if requested is not None
            else for_call(self.contract, tool, arguments or {}, default=lambda: self._success(tool))
        )
        if answer.problem is not None:
            raise MCPError(INVALID_PARAMS, answer.problem)
        text = answer.text if answer.text is not None else json.dumps(answer.document, ensure_ascii=False)
        # A content tool's results, and errors where the contract keeps them out of
        # structuredContent (`error_results.structured: false`), are text only.
        structured = tool.structured and answer.text is None
        if answer.is_error and not self.contract.error_results.structured:
            structured = False
        return types.CallToolResult(
            content=[_block(tool, text, answer.is_error)],
            structured_content=answer.document if structured else None,
            is_error=answer.is_error,
        )

    def listing_at(self, version: str) -> list[types.Tool]:
        """The tools as a client of `version` gets them (see `revisions.listing_at`)."""
        return self._at(version).tools

    def wire_listing_at(self, version: str) -> dict[str, Any]:
        """The `tools/list` result a client of `version` gets, in its JSON form: what the
        server sends (the SDK checks it against the revision's `ListToolsResult`)."""
        return self._at(version).wire

    def answer_at(
        self, version: str, name: str, arguments: dict[str, Any] | None, meta: dict[str, Any] | None
    ) -> types.CallToolResult:
        """`answer`, as a client of `version` gets it (see `revisions.result_at`)."""
        result = self.answer(name, arguments, meta)  # it raises for a tool the contract lacks
        return result_at(result, self._at(version).entries[name], served_as(version))

    def _at(self, version: str) -> _Listing:
        def made() -> _Listing:
            return _Listing(listing_at([tool.listing for tool in self.contract.tools], served_as(version)))

        return self._kept(("listing", version), made)

    def _success(self, tool: ServedTool) -> Answer:
        return self._kept(("success", tool.name), lambda: success(self.contract, tool))

    def _error(self, tool: ServedTool, requested: object) -> Answer:
        if not isinstance(requested, str):
            return Answer(problem=f"_meta {ERROR_REQUEST!r} must be an error code, not {requested!r}")
        return self._kept(("error", tool.name, requested), lambda: error(self.contract, tool, requested))

    def _kept(self, key: tuple[str, ...], make: Callable[[], _T]) -> _T:
        """What `make` gives, made at its first need and then kept: the start pays only for
        what the first answers use."""
        if key not in self._made:
            self._made[key] = make()
        return cast(_T, self._made[key])


def _unsaid(refusal: str, secrets: tuple[str, ...], arguments: dict[str, Any]) -> str:
    """A refusal's words without a secret argument's value (tools.yaml `secret_arguments`):
    where it is about one, or quotes one's value (the judge quotes what it refuses), only
    where, as the generated server says it."""
    where = refusal.split(": ", 1)[0] if refusal.startswith("at /") else ""
    about = any(where == f"at /{s}" or where.startswith(f"at /{s}/") for s in secrets)
    values = [json.dumps(arguments[s], ensure_ascii=False).strip('"') for s in secrets if s in arguments]
    if about or any(value in refusal for value in values):
        return f"{where or 'at /'} (its value is secret: tools.yaml `secret_arguments`)"
    return refusal


# The smallest valid payloads of the binary content types: a 1x1 PNG and an empty WAV.
_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
_WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="


def _block(tool: ServedTool, text: str, is_error: bool) -> types.ContentBlock:
    """The content block a result carries: text, unless the tool's results are content of
    other types only (`result.content`), when a success is a block of the first of them."""
    kinds = [kind for kind in CONTENT_TYPES if kind in (tool.content_types or ("text",))]
    kind = "text" if is_error or tool.structured or "text" in kinds or not kinds else kinds[0]
    uri = f"mock://{tool.name}"
    if kind == "image":
        return types.ImageContent(type="image", data=_PNG, mime_type="image/png")
    if kind == "audio":
        return types.AudioContent(type="audio", data=_WAV, mime_type="audio/wav")
    if kind == "resource_link":
        return types.ResourceLink(type="resource_link", uri=uri, name=tool.name)
    if kind == "resource":
        resource = types.TextResourceContents(uri=uri, mime_type="text/plain", text=text)
        return types.EmbeddedResource(type="resource", resource=resource)
    return types.TextContent(type="text", text=text)


def build_server(mock: Mock) -> Server[Any]:
    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        # The JSON itself: the SDK validates a result against the revision's model whatever
        # the handler returns, so parsing the listing into `Tool`s first would do it twice.
        return mock.wire_listing_at(ctx.protocol_version)  # type: ignore[return-value]

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        meta = dict(params.meta) if params.meta else None
        return mock.answer_at(ctx.protocol_version, params.name, params.arguments, meta)

    server: Server[Any] = Server(
        f"mcp-contracts mock of {mock.contract.name}",
        version=__version__,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        **surface_handlers(mock.contract.contract),
    )
    server.middleware.append(AsWritten(lambda version: mock.wire_listing_at(version or "")))
    return server


async def _lines() -> AsyncIterator[str]:
    """Standard input's lines as `stdio_server` reads them (UTF-8, a bad byte replaced), each
    read by a worker thread that a cancelled run abandons: the SDK's own reader waits for its
    thread, so a signal would not end a mock whose client is silent until a line came."""
    while line := await anyio.to_thread.run_sync(sys.stdin.buffer.readline, abandon_on_cancel=True):
        yield line.decode("utf-8", errors="replace")


class _Out:
    """Standard output as `stdio_server` writes to it: each answer written and flushed in one
    hand-off to a worker thread (the SDK's own file takes one to write, another to flush)."""

    @staticmethod
    def _put(text: str) -> None:
        sys.stdout.buffer.write(text.encode("utf-8"))
        sys.stdout.buffer.flush()

    async def write(self, text: str) -> None:
        await anyio.to_thread.run_sync(self._put, text, abandon_on_cancel=True)

    async def flush(self) -> None:
        pass  # written and flushed at once


# How long the end of standard input waits for the answers of the requests read before it.
_LAST_ANSWERS_SECONDS = 10.0


async def serve_stdio(server: Server[Any]) -> None:
    """Serve `server` over standard input and output, with the SDK's own transport.

    At the end of standard input the requests read and not answered yet are answered before
    the server stops: a client that writes its requests and closes its end (a shell pipe)
    gets every answer, where the SDK's server stops at once and drops what is on the way. A
    request never answered (one the client cancelled) is waited for a few seconds."""
    from mcp.server.stdio import stdio_server

    pending: set[int | str] = set()
    to_server, server_in = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    server_out, from_server = anyio.create_memory_object_stream[SessionMessage](0)

    async def inbound(wire: Any) -> None:
        async with to_server:
            async for message in wire:
                if isinstance(message, SessionMessage) and isinstance(message.message, JSONRPCRequest):
                    pending.add(message.message.id)
                await to_server.send(message)
            with anyio.move_on_after(_LAST_ANSWERS_SECONDS):
                while pending:
                    await anyio.sleep(0.01)

    async def outbound(wire: Any) -> None:
        async with wire, from_server:
            async for message in from_server:
                if isinstance(message.message, JSONRPCResponse | JSONRPCError):
                    pending.discard(message.message.id)
                await wire.send(message)

    async with stdio_server(_lines(), _Out()) as (wire_in, wire_out), anyio.create_task_group() as group:  # type: ignore[arg-type]
        group.start_soon(inbound, wire_in)
        group.start_soon(outbound, wire_out)
        async with server_out:
            await server.run(server_in, server_out, server.create_initialization_options())


def bind(host: str, port: int) -> socket.socket | Refused:
    """A listening socket, or why there is none (a host that does not resolve, a port taken)."""
    if not 0 <= port <= 65535:
        return Refused(f"--port {port} is not a port (0 to 65535; 0 picks a free one)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:  # a name the resolver, or IDNA, refuses
        return Refused(f"--host {host!r} does not resolve: {getattr(exc, 'strerror', None) or exc}")
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        return Refused(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    return sock


async def serve_http(server: Server[Any], sock: socket.socket, announce: Callable[[str], None]) -> None:
    """Serve streamable HTTP on `sock`; `announce` gets the URL once it accepts connections."""
    import uvicorn

    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    http = uvicorn.Server(config)
    stopped = anyio.Event()

    async def run() -> None:
        try:
            await http.serve([sock])
        finally:
            stopped.set()

    async with anyio.create_task_group() as group:
        group.start_soon(run)
        while not http.started and not stopped.is_set():
            await anyio.sleep(0.01)
        if http.started:
            announce(f"http://{shown}:{port}/mcp")


def announce_to_stderr(url: str) -> None:
    print(f"mcp-contracts mock: serving at {url}", file=sys.stderr, flush=True)
