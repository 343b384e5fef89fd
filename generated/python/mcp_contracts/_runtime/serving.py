# Copied by mcp-contracts from its generator/runtime/serving.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""A contract served on the official MCP SDK's low-level `Server` (`ContractServer`): its tools
listed as the contract publishes them, at the revision each client negotiated, each call's
arguments judged before a handler runs and each answer judged before it is sent.

A generated `tools.py` tells the runtime what it needs (`ContractBinding`); the package's
`serving.json` holds the rest as data. The runtime compares no revision strings itself beyond
picking the data's entry for a negotiated version.

What a handler may do, and what the client gets:

- return the envelope (its model, or its document as a mapping): judged, then sent, with
  `isError` when the document is an error by the contract's own marks (`errors`); a content
  tool's handler may return text or content blocks instead (`serving_content`);
- raise `ToolFailure` (the generated `ToolError`): its document, judged, with `isError`;
- raise `Unimplemented` (every generated method's default body): JSON-RPC -32601;
- raise `mcp.shared.exceptions.MCPError`: sent as the handler chose it;
- raise anything else, or return what the contract refuses: logged (`mcp_contracts.server`,
  the traceback or the violations to standard error) and answered JSON-RPC -32603, so that
  a handler's bug never reaches a client as an off-contract document.

The SDK is imported inside functions only: a contract's `tools.py` imports without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ValidationError

from .json_text import dump_json, json_pointer
from .judge import schema_violations
from .serving_binding import (
    INVALID_PARAMS,
    LOG,
    METHOD_NOT_FOUND,
    ContractBinding,
    ContractHandlers,
    ToolFailure,
    Unimplemented,
    internal_error,
)
from .serving_content import content_blocks, content_violations, is_content
from .serving_stdio import LongIntegers

if TYPE_CHECKING:
    import mcp.types as types
    from mcp.server import Server, ServerRequestContext
    from starlette.applications import Starlette

__all__ = [
    "ContractBinding",
    "ContractHandlers",
    "ContractServer",
    "ToolFailure",
    "Unimplemented",
]


class ContractServer:
    """`handlers` serving the contract of `binding` on the SDK's low-level `Server` (`lowlevel`)."""

    def __init__(
        self,
        binding: ContractBinding,
        handlers: ContractHandlers,
        *,
        name: str,
        version: str | None = None,
    ) -> None:
        self.binding = binding
        self.handlers = handlers
        self.serving = binding.serving()
        self.data: Any = self.serving.raw
        self._tools = self.serving.tools
        self._listings: dict[str, dict[str, Any]] = {}
        self._validators: dict[tuple[str, str], Any] = {}
        self._integers = LongIntegers()
        self.lowlevel: Server[Any] = self._build(
            name, version if version is not None else self.data["version"]
        )

    # ------------------------------------------------------------------ revisions

    def served_as(self, version: str | None) -> str:
        """The data's revision for a negotiated `version` (`ServingData.served_as`)."""
        return self.serving.served_as(version)

    def at(self, version: str | None) -> Mapping[str, Any]:
        """What the data says of the revision a client of `version` is served at."""
        return self.serving.at(version)

    def listing_at(self, version: str | None) -> dict[str, Any]:
        """The `tools/list` result, as JSON, of a client of `version`: each tool as published,
        less the fields the revision hides."""
        served = self.served_as(version)
        if served not in self._listings:
            import mcp.types as types

            hidden = self.data["at"][served]["hidden"]
            tools = [
                {
                    key: value
                    for key, value in tool.items()
                    if key not in hidden.get(tool["name"], ())
                }
                for tool in self.data["tools"]
            ]
            # The fields the SDK's model fills in (`resultType`, the cache hints of 2026-07-28).
            empty = types.ListToolsResult(tools=[]).model_dump(
                by_alias=True, mode="json", exclude_none=True
            )
            self._listings[served] = {**empty, "tools": tools}
        return self._listings[served]

    # ------------------------------------------------------------------ tools/call

    async def call(
        self, name: str, arguments: Mapping[str, Any] | None, version: str | None
    ) -> types.CallToolResult:
        """The answer to `tools/call` of a client of `version`; MCPError for a JSON-RPC error."""
        from mcp.shared.exceptions import MCPError

        at = self.at(version)
        model = self.binding.arguments.get(name)
        if model is None or name not in self._tools:
            known = ", ".join(self._tools) or "none"
            raise MCPError(
                INVALID_PARAMS, f"unknown tool {name!r} (the contract lists: {known})"
            )
        try:
            parsed = model.model_validate(dict(arguments or {}))
        except ValidationError as refused:
            return self._refused(name, refused, at, arguments or {})
        failed = False
        try:
            answer = await self._handler(name, parsed)
        except Unimplemented:
            raise MCPError(
                METHOD_NOT_FOUND, f"the tool {name!r} is not implemented by this server"
            ) from None
        except ToolFailure as failure:
            answer, failed = failure.document, True
        except MCPError:
            raise
        except Exception:
            LOG.exception("%s: the handler raised; the client is answered -32603", name)
            raise internal_error(name) from None
        facts = self.data["results"][name]
        if not failed and is_content(facts, answer):
            return self._content(name, answer)
        document = _document(answer)
        broken = self._violations(name, document, failed)
        if broken:
            LOG.error(
                "%s: the handler's answer breaks the contract, so it is not sent (the client is answered -32603): %s",
                name,
                "; ".join(broken),
            )
            raise internal_error(name)
        return self._result(name, document, failed or self.is_error(document), at)

    def _content(self, name: str, answer: Any) -> types.CallToolResult:
        """A content tool's blocks, judged (`serving_content`), as a success."""
        import mcp.types as types

        facts = self.data["results"][name]
        try:
            blocks = content_blocks(answer)
        except ValueError as exc:
            broken = [f"no content blocks: {exc}"]
        else:
            schema = facts["text_schema"]
            broken = content_violations(
                facts,
                blocks,
                lambda d: self._schema_violations(("text", name), schema, d),
            )
        if broken:
            LOG.error(
                "%s: the handler's content breaks the contract, so it is not sent: %s",
                name,
                "; ".join(broken),
            )
            raise internal_error(name)
        return types.CallToolResult(content=blocks, is_error=False)

    async def _handler(self, name: str, arguments: BaseModel) -> Any:
        method = getattr(self.handlers, self.binding.methods.get(name, ""), None)
        if method is None:
            raise Unimplemented(name)
        return await method(arguments)

    def _refused(
        self,
        name: str,
        refused: ValidationError,
        at: Mapping[str, Any],
        arguments: Mapping[str, Any],
    ) -> types.CallToolResult:
        """Arguments the inputSchema refuses: JSON-RPC -32602 where the revision says so, else
        an `isError` result, the envelope of the tool's argument error where there is one.
        """
        from mcp.shared.exceptions import MCPError

        first = refused.errors()[0]
        pointer = json_pointer(first["loc"])
        said = f"{pointer}: {first['msg']}" if pointer else first["msg"]
        if _tells_secret(
            said, first["loc"], self.data["results"][name]["secrets"], arguments
        ):
            said = (
                f"{pointer or '/'} (its value is secret: tools.yaml `secret_arguments`)"
            )
        message = f"{name}: the inputSchema refuses the arguments: {said}"
        if at["refusal"] == "rpc":
            raise MCPError(INVALID_PARAMS, message)
        code = self.data["results"][name]["argument_error"]
        build = self.binding.error_document
        if code is not None and build is not None:
            for attempt in ((code, message), (code,)):  # ours, else the catalogue's
                try:
                    return self._result(name, build(*attempt), True, at)
                except (ValueError, TypeError):  # a ValidationError; no message taken
                    continue
        import mcp.types as types

        return types.CallToolResult(
            content=[types.TextContent(type="text", text=message)], is_error=True
        )

    def _violations(self, name: str, document: Any, failed: bool) -> list[str]:
        """Every way `document` breaks what the contract says of `name`'s results: its schema,
        the codes the tool declares, and an error raised (`failed`) that is no error envelope
        (a client would read `isError` and the document differently, as `conform` would).
        """
        facts = self.data["results"][name]
        found = self._schema_verdict(name, document)
        code = self.error_code(document)
        if (
            code is not None
            and facts["codes"] is not None
            and code not in facts["codes"]
        ):
            declared = ", ".join(facts["codes"]) or "none"
            found.append(
                f"the error code {code!r} is not among the codes the tool declares ({declared})"
            )
        found += [
            f"{pointer}: {message}"
            for pointer, message in self.serving.contradictions(document)
        ]
        if failed and self.serving.tells_errors() and not self.is_error(document):
            found.append(
                "it was raised as a ToolFailure, but the document is no error envelope"
            )
        return found

    def _schema_verdict(self, name: str, document: Any) -> list[str]:
        facts = self.data["results"][name]
        found: list[str] = []
        if facts["own_output"]:
            found += self._schema_violations(
                ("output", name), self._tools[name].get("outputSchema"), document
            )
        else:
            judge = self.binding.judge
            try:
                valid = judge.is_valid(document)
            except ValueError:  # not JSON: `violations` says so
                valid = False
            if not valid:
                found += [
                    f"{v.pointer or '/'}: {v.message}"
                    for v in judge.violations(document)
                ]
        if facts["text_schema"] is not None:
            found += self._schema_violations(
                ("text", name), facts["text_schema"], document
            )
        return found

    def _schema_violations(
        self, key: tuple[str, str], schema: Any, document: Any
    ) -> list[str]:
        if schema is None:
            return []
        found = schema_violations(self._validators, key, schema, document)
        return [f"{v.pointer or '/'}: {v.message}" for v in found]

    def error_code(self, document: Any) -> str | None:
        """The error code `document` carries where the builders put one, or None."""
        return self.serving.error_code(document)

    def is_error(self, document: Any) -> bool:
        """Whether `document` is an error by the contract's marks (`ServingData.is_error`)."""
        return self.serving.is_error(document)

    def _result(
        self, name: str, document: Any, is_error: bool, at: Mapping[str, Any]
    ) -> types.CallToolResult:
        """One TextContent with the JSON, and the document as `structuredContent` where the
        revision carries it for the tool (an object, and an error only if errors are structured).
        """
        import mcp.types as types

        structured = name in at["structured"] and isinstance(document, dict)
        if is_error and not self.data["errors"]["structured"]:
            structured = False
        text = dump_json(document).decode("utf-8")
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=document if structured else None,
            is_error=is_error,
        )

    # ------------------------------------------------------------------ the SDK's server

    def _build(self, name: str, version: str) -> Server[Any]:
        from mcp.server import Server

        from .serving_surface import AsWritten, Served, surface_handlers

        async def list_tools(
            ctx: ServerRequestContext[Any], params: Any
        ) -> types.ListToolsResult:
            # The JSON itself: the SDK checks a result against the revision's model anyway.
            return self.listing_at(ctx.protocol_version)  # type: ignore[return-value]

        async def call_tool(
            ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
        ) -> Any:
            arguments = self._integers.restore(params.arguments)  # see serving_stdio
            return await self.call(params.name, arguments, ctx.protocol_version)

        def input_schema(tool: str) -> Mapping[str, Any] | None:
            found = self._tools.get(tool)
            return None if found is None else found.get("inputSchema")

        server: Server[Any] = Server(
            name,
            version=version,
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            get_tool_input_schema=input_schema,
            **surface_handlers(Served(self.binding, self.serving, self.handlers)),
        )
        server.middleware.append(AsWritten(self.listing_at))
        return server

    def run(
        self,
        transport: Literal["stdio", "streamable-http"] = "stdio",
        *,
        host: str = "127.0.0.1",
        port: int = 8000,
    ) -> None:
        """Serve until stopped: standard input and output, or streamable HTTP at `host:port`/mcp."""
        if transport == "stdio":
            import anyio

            anyio.run(self.run_stdio)
        elif transport == "streamable-http":
            import uvicorn

            uvicorn.run(
                self.streamable_http_app(host=host),
                host=host,
                port=port,
                log_level="warning",
            )
        else:
            raise ValueError(f"transport {transport!r}: 'stdio' or 'streamable-http'")

    async def run_stdio(self) -> None:
        """Serve standard input and output (the SDK's stdio transport; `serving_stdio` says
        how an integer the SDK cannot read still reaches the handler)."""
        from mcp.server.stdio import stdio_server

        from .serving_stdio import standard_input

        async with stdio_server(stdin=standard_input(self._integers)) as (
            read_stream,
            write_stream,
        ):
            await self.lowlevel.run(
                read_stream, write_stream, self.lowlevel.create_initialization_options()
            )

    def streamable_http_app(self, **options: Any) -> Starlette:
        """The SDK's streamable HTTP app of the server (`options`: the SDK's own, `host` among them)."""
        return self.lowlevel.streamable_http_app(**options)


def _tells_secret(
    said: str, where: Any, secrets: list[str], arguments: Mapping[str, Any]
) -> bool:
    """Whether a refusal's words are about a secret argument, or quote one's value (the judge
    quotes the value it refuses, and an object that holds it)."""
    if where and where[0] in secrets:
        return True
    values = [arguments[secret] for secret in secrets if secret in arguments]
    return any(dump_json(value).decode("utf-8").strip('"') in said for value in values)


def _document(answer: Any) -> Any:
    """The document of a handler's answer: a model dumped by its schema's names (a member left
    `ABSENT` is left out), a mapping as a dict, anything else as it is."""
    if isinstance(answer, BaseModel):
        return answer.model_dump(mode="json", by_alias=True)
    if isinstance(answer, Mapping) and not isinstance(answer, dict):
        return dict(answer)
    return answer
