# Copied by mcp-contracts from its generator/runtime/serving_surface.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""What a served contract's SDK `Server` needs beside `tools/call`: the middleware that puts back
in `tools/list` what the SDK's models sieve out (`AsWritten`), and `resources/*` and `prompts/*`,
registered only for the kinds the contract declares (the SDK declares the `resources` and
`prompts` capabilities from the handlers a server has).

A read or a get calls the handler's method (`read_<name>`, `prompt_<name>`): a resource's
returns `str` (text) or `bytes` (a blob), a prompt's `str` (one user text message) or a
sequence of message dicts. While it raises `Unimplemented`, the contract's own contents and
messages answer, each `{name}` of a template's variable or a prompt's argument replaced by
its value, as `mock` fills them (in the strings of a JSON document, in the text of any other).
A URI no resource or template has is the revision's `resource_not_found`; prompt arguments
its model refuses, -32602. A handler that raises, or answers what is no contents or messages,
is logged and answered -32603, as a tool's is.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel, ValidationError

from .json_text import NotJson, json_pointer, parse_json
from .serving_binding import (
    INVALID_PARAMS,
    LOG,
    METHOD_NOT_FOUND,
    ContractBinding,
    ContractHandlers,
    Unimplemented,
    internal_error,
)
from .serving_json import ServingData
from .uri_template import UriTemplate

if TYPE_CHECKING:
    from mcp.server import ServerRequestContext
    from mcp.server.context import CallNext, HandlerResult


Handler = Callable[..., Awaitable[Any]]


class Served(NamedTuple):
    """What the surface's handlers read of a server: the binding, its `serving.json`, and the
    handlers of its class (the generated server's, `serving.ContractServer`)."""

    binding: ContractBinding
    serving: ServingData
    handlers: ContractHandlers


# A resource or template found for a URI: its data, its handler's method, the values of its
# variables and the method's keyword arguments of them.
_Found = tuple[dict[str, Any], str | None, dict[str, str], dict[str, str]]
# The fields of a listed tool the SDK's own listing carries as the contract publishes them.
_UNIMPLEMENTED: Any = object()  # what a method that is not implemented answers
_SHAPED_BY_SDK = frozenset(
    {"name", "title", "description", "inputSchema", "outputSchema", "annotations"}
)


class AsWritten:
    """Puts back in each listed tool what the SDK's sieve of a `tools/list` result leaves out
    (`execution`, `_meta`, fields its `Tool` does not know), as the contract writes them:
    `listing_at(version)` is the `tools/list` result as JSON a client of `version` is sent
    (the generated server's, and `mock`'s)."""

    def __init__(self, listing_at: Callable[[str | None], Mapping[str, Any]]) -> None:
        self.listing_at = listing_at

    async def __call__(
        self, ctx: ServerRequestContext[Any], call_next: CallNext
    ) -> HandlerResult:
        result = await call_next(ctx)
        if (
            ctx.method != "tools/list"
            or not isinstance(result, dict)
            or not isinstance(result.get("tools"), list)
        ):
            return result
        written = {
            entry["name"]: entry
            for entry in self.listing_at(ctx.protocol_version)["tools"]
        }
        tools = []
        for tool in result["tools"]:
            ours = written.get(tool.get("name")) if isinstance(tool, dict) else None
            if ours is not None:
                tool = {
                    **tool,
                    **{k: v for k, v in ours.items() if k not in _SHAPED_BY_SDK},
                }
            tools.append(tool)
        return {**result, "tools": tools}


def surface_handlers(served: Served) -> dict[str, Any]:
    """The `Server` keyword arguments of the handlers the contract needs (none without a surface)."""
    data = served.serving.raw
    handlers: dict[str, Handler] = {}
    if data["resources"] or data["templates"]:
        handlers.update(_resource_handlers(served))
    if data["prompts"]:
        handlers.update(_prompt_handlers(served))
    return handlers


def _resource_handlers(served: Served) -> dict[str, Handler]:
    import mcp.types as types
    from mcp.shared.exceptions import MCPError

    data = served.serving.raw
    resources = types.ListResourcesResult.model_validate(
        {"resources": [r["listing"] for r in data["resources"]]}
    )
    templates = types.ListResourceTemplatesResult.model_validate(
        {"resourceTemplates": [t["listing"] for t in data["templates"]]}
    )
    parsed = [
        (UriTemplate.parse(t["listing"]["uriTemplate"]), t) for t in data["templates"]
    ]

    def find(uri: str) -> _Found | None:
        """The resource or template of `uri`, its handler's method, its variables' values and
        the method's keyword arguments of them."""
        for resource in data["resources"]:
            if resource["listing"]["uri"] == uri:
                return resource, served.binding.resources.get(uri), {}, {}
        for template, entry in parsed:
            values = template.match(uri)
            if values is not None:
                method, variables = served.binding.templates.get(
                    template.text, (None, ())
                )
                keywords = {
                    parameter: values.get(variable, "")
                    for variable, parameter in variables
                }
                return entry, method, values, keywords
        return None

    def missing(uri: str, version: str | None) -> MCPError:
        code = served.serving.at(version)["resource_not_found"]
        return MCPError(
            code, f"no resource or template of the contract has the URI {uri!r}"
        )

    async def list_resources(
        ctx: ServerRequestContext[Any], params: Any
    ) -> types.ListResourcesResult:
        return resources

    async def list_templates(
        ctx: ServerRequestContext[Any], params: Any
    ) -> types.ListResourceTemplatesResult:
        return templates

    async def read(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> Any:
        uri = str(params.uri)
        found = find(uri)
        if found is None:
            raise missing(uri, ctx.protocol_version)
        entry, method, values, keywords = found
        contents = await _answered(served, method, uri, **keywords)
        if contents is _UNIMPLEMENTED:
            contents = _contract_contents(entry, values)
        elif not isinstance(contents, (str, bytes)):
            LOG.error(
                "%s: the handler answered %s, not str (text) or bytes (a blob)",
                uri,
                type(contents).__name__,
            )
            raise internal_error(uri)
        item: dict[str, Any] = {"uri": uri}
        media_type = entry["listing"].get("mimeType")
        if media_type is not None:
            item["mimeType"] = media_type
        if isinstance(contents, bytes):
            item["blob"] = base64.b64encode(contents).decode("ascii")
        elif isinstance(contents, dict):
            item.update(contents)
        else:
            item["text"] = contents
        return types.ReadResourceResult.model_validate({"contents": [item]})

    async def subscribe(
        ctx: ServerRequestContext[Any], params: Any
    ) -> types.EmptyResult:
        if find(str(params.uri)) is None:
            raise missing(str(params.uri), ctx.protocol_version)
        return types.EmptyResult()

    return {
        "on_list_resources": list_resources,
        "on_list_resource_templates": list_templates,
        "on_read_resource": read,
        "on_subscribe_resource": subscribe,
        "on_unsubscribe_resource": subscribe,
    }


async def _answered(
    served: Served, method: str | None, what: str, /, *arguments: Any, **keywords: Any
) -> Any:
    """What the handler's method of a resource or prompt (`what`) answers; `_UNIMPLEMENTED` while
    it is not implemented. Anything else it raises is logged and answered -32603."""
    from mcp.shared.exceptions import MCPError

    function = getattr(served.handlers, method, None) if method else None
    if function is None:
        return _UNIMPLEMENTED
    try:
        return await function(*arguments, **keywords)
    except Unimplemented:
        return _UNIMPLEMENTED
    except MCPError:
        raise
    except Exception:
        LOG.exception("%s: the handler raised; the client is answered -32603", what)
        raise internal_error(what) from None


def _contract_contents(
    entry: Mapping[str, Any], values: Mapping[str, str]
) -> dict[str, str]:
    """The contract's own contents of a resource or template, its variables' values filled in."""
    from mcp.shared.exceptions import MCPError

    contents = entry["contents"]
    if contents is None:
        name = entry["listing"].get("name")
        # as a tool whose handler is left out: the server does not implement it
        raise MCPError(
            METHOD_NOT_FOUND,
            f"the resource {name!r} is not implemented by this server (no contents)",
        )
    if "blob" in contents:
        return {"blob": contents["blob"]}
    text: str = contents.get("text") or ""
    if values and entry["json"]:
        try:
            text = json.dumps(
                filled(parse_json(text), values),
                ensure_ascii=False,
                separators=(",", ":"),
            )
        except NotJson:  # JSON text that is no JSON document: filled as text
            text = fill(text, values)
    elif values:
        text = fill(text, values)
    return {"text": text}


def _prompt_handlers(served: Served) -> dict[str, Handler]:
    import mcp.types as types
    from mcp.shared.exceptions import MCPError

    entries = {p["listing"]["name"]: p for p in served.serving.raw["prompts"]}
    listing = types.ListPromptsResult.model_validate(
        {"prompts": [p["listing"] for p in served.serving.raw["prompts"]]}
    )

    async def list_prompts(
        ctx: ServerRequestContext[Any], params: Any
    ) -> types.ListPromptsResult:
        return listing

    async def get(
        ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> Any:
        name = params.name
        entry = entries.get(name)
        if entry is None:
            known = ", ".join(entries) or "none"
            raise MCPError(
                INVALID_PARAMS, f"unknown prompt {name!r} (the contract lists: {known})"
            )
        given = dict(params.arguments or {})
        method, model = served.binding.prompts.get(name, (None, None))
        arguments = _prompt_arguments(name, model, given)
        messages = _messages(name, await _answered(served, method, name, *arguments))
        if messages is _UNIMPLEMENTED:
            values = {
                a["name"]: given.get(a["name"], "")
                for a in entry["listing"].get("arguments") or ()
            }
            messages = [filled(message, values) for message in entry["messages"]]
        result: dict[str, Any] = {"messages": messages}
        if entry["listing"].get("description") is not None:
            result["description"] = entry["listing"]["description"]
        try:
            return types.GetPromptResult.model_validate(result)
        except ValidationError as refused:
            LOG.error(
                "%s: the handler's messages are no prompt messages: %s", name, refused
            )
            raise internal_error(name) from None

    return {"on_list_prompts": list_prompts, "on_get_prompt": get}


def _prompt_arguments(
    name: str, model: type[BaseModel] | None, given: dict[str, Any]
) -> tuple[BaseModel, ...]:
    """The prompt's arguments as its model (none where it takes none); MCPError(-32602) for
    what the model refuses."""
    from mcp.shared.exceptions import MCPError

    if model is None:
        if given:
            raise MCPError(
                INVALID_PARAMS,
                f"{name} takes no argument {', '.join(map(repr, sorted(given)))}",
            )
        return ()
    try:
        return (model.model_validate(given),)
    except ValidationError as refused:
        first = refused.errors()[0]
        where = json_pointer(first["loc"])
        raise MCPError(
            INVALID_PARAMS,
            f"{name}: the arguments are refused: {where}: {first['msg']}",
        ) from None


def _messages(name: str, answer: Any) -> Any:
    """The messages of what a prompt's handler answered (`_UNIMPLEMENTED` kept)."""
    if answer is _UNIMPLEMENTED:
        return answer
    if isinstance(answer, str):
        return [{"role": "user", "content": {"type": "text", "text": answer}}]
    if isinstance(answer, (list, tuple)):
        return [dict(m) if isinstance(m, Mapping) else m for m in answer]
    LOG.error(
        "%s: the handler answered %s, not str or a sequence of messages",
        name,
        type(answer).__name__,
    )
    raise internal_error(name)


_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def fill(text: str, values: Mapping[str, str]) -> str:
    """`text` with each `{name}` of a name in `values` replaced by its value, in one pass (a
    value holding `{other}` stays as it is); any other brace is left as written."""
    return _PLACEHOLDER.sub(
        lambda m: values[m.group(1)] if m.group(1) in values else m.group(0), text
    )


def filled(value: Any, values: Mapping[str, str]) -> Any:
    """`fill` applied to every string of a JSON value, keys too."""
    if isinstance(value, str):
        return fill(value, values)
    if isinstance(value, list):
        return [filled(item, values) for item in value]
    if isinstance(value, dict):
        return {fill(key, values): filled(item, values) for key, item in value.items()}
    return value
