"""The mock's request handlers beside tools, for the kinds its contract declares: the SDK
declares the `resources` and `prompts` capabilities from the handlers a server has, so a
contract of tools only keeps answering `resources/*` and `prompts/*` with "Method not found".

Resources never change in a mock: a subscription to one of the contract's URIs is accepted
and never notified; one to a URI the contract lacks is refused as a read of it is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import mcp.types as types
from mcp.server import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS

from ..model import Contract
from ..protocol import served_as
from ..render.mcp_surface import prompts_listing, resources_listing, templates_listing
from .resource_prompt_answers import Refusal, get_prompt, knows_resource, read_resource

Handler = Callable[..., Awaitable[Any]]


def surface_handlers(contract: Contract) -> dict[str, Any]:
    """The `Server` keyword arguments of the handlers `contract` needs (none without a surface)."""
    surface = contract.surface
    handlers: dict[str, Handler] = {}  # typed loosely for `Server(**...)`: each is the SDK's signature
    if surface.resources or surface.templates:
        resources = types.ListResourcesResult.model_validate({"resources": resources_listing(contract)})
        templates = types.ListResourceTemplatesResult.model_validate({"resourceTemplates": templates_listing(contract)})

        async def list_resources(ctx: ServerRequestContext[Any], params: Any) -> types.ListResourcesResult:
            return resources

        async def list_templates(ctx: ServerRequestContext[Any], params: Any) -> types.ListResourceTemplatesResult:
            return templates

        async def read(ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams) -> Any:
            try:
                return types.ReadResourceResult.model_validate(read_resource(surface, str(params.uri)))
            except Refusal as refusal:
                raise _error(refusal, ctx.protocol_version) from None

        async def subscribe(ctx: ServerRequestContext[Any], params: Any) -> types.EmptyResult:
            if not knows_resource(surface, str(params.uri)):
                raise _error(
                    Refusal(f"no resource of the contract has the URI {str(params.uri)!r}", True), ctx.protocol_version
                )
            return types.EmptyResult()

        handlers.update(
            on_list_resources=list_resources,
            on_list_resource_templates=list_templates,
            on_read_resource=read,
            on_subscribe_resource=subscribe,
            on_unsubscribe_resource=subscribe,
        )
    if surface.prompts:
        prompts = types.ListPromptsResult.model_validate({"prompts": prompts_listing(contract)})

        async def list_prompts(ctx: ServerRequestContext[Any], params: Any) -> types.ListPromptsResult:
            return prompts

        async def get(ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> Any:
            try:
                return types.GetPromptResult.model_validate(get_prompt(surface, params.name, params.arguments))
            except Refusal as refusal:
                raise _error(refusal, ctx.protocol_version) from None

        handlers.update(on_list_prompts=list_prompts, on_get_prompt=get)
    return handlers


def _error(refusal: Refusal, version: str | None) -> MCPError:
    """The JSON-RPC error of a refusal: a resource the contract lacks is -32002 where the
    revision defines it (`protocol.Revision.resource_not_found`), anything else -32602."""
    code = served_as(version or "").resource_not_found if refusal.missing else INVALID_PARAMS
    return MCPError(code, refusal.message)
