"""`conform` beside tools: a server's resources, resource templates and prompts held to the
contract's resources.yaml and prompts.yaml, for a contract that declares some.

Each kind is listed page by page. A resource, template or prompt of the contract the server
does not list is a finding (one it lists beyond the contract is not: servers list resources
of their own data, which no contract names). A listed one is compared: a resource's and a
template's media type; a template's URI template (by its name); a prompt's arguments (one the
contract has that the server lacks, or whose being required differs). Then each resource of
the contract that declares its contents is read: a read that fails, or returns contents of
another media type, is a finding, and so is JSON that the resource's `schema:` refuses. A
prompt whose arguments may all be left out is got, and must answer. Every finding is placed
at the entry of resources.yaml or prompts.yaml it is about.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import mcp.types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from ..client.connect import MAX_PAGES, first_error
from ..client.report import Report
from ..load.surface import PROMPTS_FILE, RESOURCES_FILE, essence
from ..model import Prompt, Resource, Surface
from ..runtime import NotJson, parse_json

Lister = Callable[[str | None], Awaitable[tuple[list[Any], str | None]]]


async def conform_surface(session: ClientSession, surface: Surface, report: Report) -> None:
    """Every check of the module, for the kinds `surface` declares."""
    if surface.resources:
        listed = await _listing(
            report,
            "resources/list",
            _lister(session, types.ListResourcesRequest, types.ListResourcesResult, "resources"),
        )
        if listed is not None:
            await _resources(session, surface.resources, {r.uri: r for r in listed}, report)
    if surface.templates:
        listed = await _listing(
            report,
            "resources/templates/list",
            _lister(
                session, types.ListResourceTemplatesRequest, types.ListResourceTemplatesResult, "resource_templates"
            ),
        )
        if listed is not None:
            _templates(surface.templates, {t.name: t for t in listed}, report)
    if surface.prompts:
        listed = await _listing(
            report, "prompts/list", _lister(session, types.ListPromptsRequest, types.ListPromptsResult, "prompts")
        )
        if listed is not None:
            await _prompts(session, surface.prompts, {p.name: p for p in listed}, report)


def _lister(session: ClientSession, request: type[Any], result: type[Any], entries: str) -> Lister:
    """A page of one listing: `request` (`types.ListResourcesRequest`...) answered as `result`,
    its entries under the attribute `entries`."""

    async def page(cursor: str | None) -> tuple[list[Any], str | None]:
        found = await session.send_request(request(params=types.PaginatedRequestParams(cursor=cursor)), result)
        return list(getattr(found, entries)), found.next_cursor

    return page


async def _listing(report: Report, method: str, lister: Lister) -> list[Any] | None:
    """Every entry of a listing, page by page; None when the server does not answer it (said)."""
    entries: list[Any] = []
    cursor: str | None = None
    source = PROMPTS_FILE if method.startswith("prompts") else RESOURCES_FILE
    for _ in range(MAX_PAGES):
        try:
            page, cursor = await lister(cursor)
        except MCPError as exc:
            text = f"the contract declares what it lists, and the server answers: {exc.error.message}"
            report.add("surface-unlisted", method, text, source=source)
            return None
        except ValidationError as exc:
            report.add("invalid-response", method, f"not a {method} result: {first_error(exc)}", source=source)
            return None
        entries += page
        if cursor is None:
            return entries
    report.add("endless-tool-list", method, f"still a nextCursor after {MAX_PAGES} pages", source=source)
    return entries


async def _resources(
    session: ClientSession, resources: tuple[Resource, ...], listed: dict[str, Any], report: Report
) -> None:
    for index, resource in enumerate(resources):
        where: list[object] = ["resources", index]
        theirs = listed.get(resource.uri)
        if theirs is None:
            text = f"the server does not list {resource.uri!r}"
            report.add("missing-resource", "resources/list", text, at=[*where, "uri"], source=RESOURCES_FILE)
            continue
        listed_alike = _media_type(report, "resources/list", resource, theirs.mime_type, where)
        if resource.contents is not None:
            await _read(session, resource, report, where, listed_alike)


def _media_type(report: Report, subject: str, resource: Resource, theirs: str | None, where: list[object]) -> bool:
    """Whether the server's media type is the contract's (or the contract names none); a finding if not."""
    ours = resource.listing.get("mimeType")
    if ours is None or (theirs is not None and essence(theirs) == essence(ours)):
        return True
    text = f"{resource.name!r}: the contract says {ours}, the server {theirs or 'no media type'}"
    report.add("resource-differs", subject, text, at=[*where, "mimeType"], source=RESOURCES_FILE)
    return False


async def _read(
    session: ClientSession, resource: Resource, report: Report, where: list[object], listed_alike: bool
) -> None:
    """The resource read; its media type compared unless its listing already differed (one finding of it)."""
    subject = f"resources/read {resource.uri}"
    try:
        result = await session.read_resource(resource.uri)
    except MCPError as exc:
        report.add(
            "read-failed", subject, f"answered with an error: {exc.error.message}", at=where, source=RESOURCES_FILE
        )
        return
    except ValidationError as exc:
        report.add(
            "invalid-response", subject, f"not a resources/read result: {first_error(exc)}", source=RESOURCES_FILE
        )
        return
    if not result.contents:
        report.add("read-failed", subject, "answered with no contents", at=where, source=RESOURCES_FILE)
        return
    first = result.contents[0]
    if listed_alike:
        _media_type(report, subject, resource, first.mime_type, where)
    if resource.bundle is not None:  # a JSON resource with a schema (loading refuses one of another type)
        _judge_contents(report, subject, resource, first, where)


def _judge_contents(report: Report, subject: str, resource: Resource, contents: Any, where: list[object]) -> None:
    text = getattr(contents, "text", None)
    at = [*where, "schema"]
    if not isinstance(text, str):
        report.add(
            "resource-contents-invalid",
            subject,
            "a JSON resource answered with a blob, not text",
            at=at,
            source=RESOURCES_FILE,
        )
        return
    try:
        document = parse_json(text)
    except NotJson as exc:
        report.add("resource-contents-invalid", subject, f"not JSON: {exc}", at=at, source=RESOURCES_FILE)
        return
    judge = resource.judge
    for violation in judge.violations(document)[:5] if judge is not None else ():
        text = f"its schema refuses the contents at {violation.pointer or '/'}: {violation.message}"
        report.add("resource-contents-invalid", subject, text, at=at, source=RESOURCES_FILE)


def _templates(templates: tuple[Resource, ...], listed: dict[str, Any], report: Report) -> None:
    for index, template in enumerate(templates):
        where: list[object] = ["templates", index]
        theirs = listed.get(template.name)
        if theirs is None:
            text = f"the server does not list the template {template.name!r}"
            report.add("missing-resource", "resources/templates/list", text, at=[*where, "name"], source=RESOURCES_FILE)
            continue
        if theirs.uri_template != template.uri:
            text = f"{template.name!r}: the contract's template is {template.uri}, the server's {theirs.uri_template}"
            report.add(
                "resource-differs", "resources/templates/list", text, at=[*where, "uriTemplate"], source=RESOURCES_FILE
            )
        _media_type(report, "resources/templates/list", template, theirs.mime_type, where)


async def _prompts(session: ClientSession, prompts: tuple[Prompt, ...], listed: dict[str, Any], report: Report) -> None:
    for index, prompt in enumerate(prompts):
        where: list[object] = ["prompts", index]
        theirs = listed.get(prompt.name)
        if theirs is None:
            text = f"the server does not list {prompt.name!r}"
            report.add("missing-prompt", "prompts/list", text, at=[*where, "name"], source=PROMPTS_FILE)
            continue
        _arguments(prompt, theirs, report, where)
        if all(not a.required for a in prompt.arguments):
            await _get(session, prompt, report, where)


def _arguments(prompt: Prompt, theirs: Any, report: Report, where: list[object]) -> None:
    listed = {a.name: a for a in theirs.arguments or ()}
    for position, argument in enumerate(prompt.arguments):
        at = [*where, "arguments", position]
        other = listed.get(argument.name)
        if other is None:
            text = f"{prompt.name!r}: the server's prompt takes no argument {argument.name!r}"
        elif bool(other.required) != argument.required:
            said = "requires" if other.required else "does not require"
            ours = "does" if argument.required else "does not"
            text = f"{prompt.name!r}: the server {said} the argument {argument.name!r}, the contract {ours}"
        else:
            continue
        report.add("prompt-differs", "prompts/list", text, at=at, source=PROMPTS_FILE)
    extra = [
        name for name, other in listed.items() if other.required and name not in {a.name for a in prompt.arguments}
    ]
    if extra:
        text = f"{prompt.name!r}: the server requires {', '.join(map(repr, extra))}, which the contract lacks"
        report.add("prompt-differs", "prompts/list", text, at=[*where, "name"], source=PROMPTS_FILE)


async def _get(session: ClientSession, prompt: Prompt, report: Report, where: list[object]) -> None:
    subject = f"prompts/get {prompt.name}"
    try:
        await session.get_prompt(prompt.name, {})
    except MCPError as exc:
        report.add(
            "prompt-get-failed", subject, f"answered with an error: {exc.error.message}", at=where, source=PROMPTS_FILE
        )
    except ValidationError as exc:
        report.add("invalid-response", subject, f"not a prompts/get result: {first_error(exc)}", source=PROMPTS_FILE)
