"""A server of the conformance fixtures' template and prompt, on the SDK's low-level server, with
two faults `conform --fuzz` finds: a read of a template URI whose value needed percent-encoding
fails with an internal error (-32603), and `test_prompt_with_arguments` answers without the
arguments it requires. It lists no tool and no resource: a test reads the fuzz findings only.

    python faulty_surface.py              # both faults
    python faulty_surface.py --unhandled  # both, the read's a plain exception (the SDK answers code 0)
    python faulty_surface.py --clean      # neither: a read of any value answers, a missing argument is refused
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS

TEMPLATE = "test://template/{id}/data"
PROMPT = "test_prompt_with_arguments"


def build() -> Server[Any]:
    clean = "--clean" in sys.argv[1:]
    template = types.ResourceTemplate(uri_template=TEMPLATE, name="template-data", mime_type="application/json")
    argument = [types.PromptArgument(name=name, required=True) for name in ("arg1", "arg2")]
    prompt = types.Prompt(name=PROMPT, description="Two arguments.", arguments=argument)

    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[])

    async def list_resources(ctx: ServerRequestContext[Any], params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[])

    async def list_templates(ctx: ServerRequestContext[Any], params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[template])

    async def read(ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if "%" in uri and not clean:  # the planted fault
            if "--unhandled" in sys.argv[1:]:
                raise ValueError("cannot read an encoded id")  # a bug, as a handler has one
            raise MCPError(INTERNAL_ERROR, "cannot read an encoded id")
        value = uri.removeprefix("test://template/").removesuffix("/data")
        text = json.dumps({"id": value, "templateTest": True, "data": f"Data for ID: {value}"})
        contents = types.TextResourceContents(uri=uri, mime_type="application/json", text=text)
        return types.ReadResourceResult(contents=[contents])

    async def list_prompts(ctx: ServerRequestContext[Any], params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[prompt])

    async def get(ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> types.GetPromptResult:
        given = params.arguments or {}
        if clean and not {"arg1", "arg2"} <= set(given):
            raise MCPError(INVALID_PARAMS, "arg1 and arg2 are required")
        text = f"Prompt with arguments: arg1='{given.get('arg1')}', arg2='{given.get('arg2')}'"
        message = types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
        return types.GetPromptResult(messages=[message])

    return Server(
        "faulty surface",
        on_list_tools=list_tools,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read,
        on_list_prompts=list_prompts,
        on_get_prompt=get,
    )


async def _serve(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(_serve, build())
