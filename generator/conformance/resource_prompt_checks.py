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
at the entry of resources.yaml or prompts.yaml it is about, an answer past a bound of the client
too (`bound-exceeded`: the next request is asked on a new session).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mcp.types as types

from ..client.connect import read_pages
from ..client.report import Report
from ..load.resource_prompt_files import PROMPTS_FILE, RESOURCES_FILE
from ..media import essence
from ..model.surface import Prompt, Resource, Surface
from ..rules import Rule
from ..rules import conform as rules
from ..runtime import NotJson, parse_json
from .link import Link, unanswered


@dataclass(frozen=True)
class _Asking:
    """What the checks share: the server, the report, each request's timeout."""

    link: Link
    report: Report
    timeout: float

    async def ask(
        self, request: Any, result: type[Any], subject: str, source: str, where: list[object], refused: Rule
    ) -> Any:
        """The result of a read or a get, else None: an error answer is `refused`, an answer
        that is no result `invalid-response`, and no answer what `unanswered` says."""
        answer = await self.link.ask(request, result)
        if answer.kind == "rpc-error":
            self.report.add(refused, subject, f"answered with an error: {answer.text}", at=where, source=source)
        elif answer.kind == "not-a-result":
            self.report.add(rules.INVALID_RESPONSE, subject, answer.text, source=source)
        elif answer.result is None:
            unanswered(self.report, answer, subject, self.timeout, at=where, source=source)
        return answer.result


async def conform_surface(link: Link, surface: Surface, report: Report, timeout: float) -> None:
    """Every check of the module, for the kinds `surface` declares."""
    asking = _Asking(link, report, timeout)
    if surface.resources:
        listed = await _listing(asking, "resources/list", types.ListResourcesRequest, types.ListResourcesResult)
        if listed is not None:
            await _resources(asking, surface.resources, {r.uri: r for r in listed})
    if surface.templates:
        listed = await _listing(
            asking, "resources/templates/list", types.ListResourceTemplatesRequest, types.ListResourceTemplatesResult
        )
        if listed is not None:
            _templates(surface.templates, {t.name: t for t in listed}, report)
    if surface.prompts:
        listed = await _listing(asking, "prompts/list", types.ListPromptsRequest, types.ListPromptsResult)
        if listed is not None:
            await _prompts(asking, surface.prompts, {p.name: p for p in listed})


# The attribute of each listing's result that holds its entries.
_ENTRIES = {"resources/list": "resources", "resources/templates/list": "resource_templates", "prompts/list": "prompts"}


class _Unlisted(Exception):
    """A listing's page that got no result (said): the kind is not compared."""


async def _listing(asking: _Asking, method: str, request: type[Any], result: type[Any]) -> list[Any] | None:
    """Every entry of a listing, page by page (`request` answered as `result`); None when the
    server does not answer it (said)."""
    entries: list[Any] = []
    source = PROMPTS_FILE if method.startswith("prompts") else RESOURCES_FILE
    report = asking.report

    async def page(cursor: str | None) -> str | None:
        answer = await asking.link.ask(request(params=types.PaginatedRequestParams(cursor=cursor)), result)
        if answer.kind == "rpc-error":
            text = f"the contract declares what it lists, and the server answers: {answer.text}"
            report.add(rules.SURFACE_UNLISTED, method, text, source=source)
        elif answer.kind == "not-a-result":
            report.add(rules.INVALID_RESPONSE, method, answer.text, source=source)
        elif answer.result is None:
            unanswered(report, answer, method, asking.timeout, source=source)
        else:
            entries.extend(getattr(answer.result, _ENTRIES[method]))
            return answer.result.next_cursor  # type: ignore[no-any-return]
        raise _Unlisted

    try:
        endless = await read_pages(page)
    except _Unlisted:
        return None
    if endless is not None:
        report.add(rules.ENDLESS_TOOL_LIST, method, endless, source=source)
    return entries


async def _resources(asking: _Asking, resources: tuple[Resource, ...], listed: dict[str, Any]) -> None:
    report = asking.report
    for index, resource in enumerate(resources):
        where: list[object] = ["resources", index]
        theirs = listed.get(resource.uri)
        if theirs is None:
            text = f"the server does not list {resource.uri!r}"
            report.add(rules.MISSING_RESOURCE, "resources/list", text, at=[*where, "uri"], source=RESOURCES_FILE)
            continue
        listed_alike = _media_type(report, "resources/list", resource, theirs.mime_type, where)
        if resource.contents is not None:
            await _read(asking, resource, where, listed_alike)


def _media_type(report: Report, subject: str, resource: Resource, theirs: str | None, where: list[object]) -> bool:
    """Whether the server's media type is the contract's (or the contract names none); a finding if not."""
    ours = resource.listing.get("mimeType")
    if ours is None or (theirs is not None and essence(theirs) == essence(ours)):
        return True
    text = f"{resource.name!r}: the contract says {ours}, the server {theirs or 'no media type'}"
    report.add(rules.RESOURCE_DIFFERS, subject, text, at=[*where, "mimeType"], source=RESOURCES_FILE)
    return False


async def _read(asking: _Asking, resource: Resource, where: list[object], listed_alike: bool) -> None:
    """The resource read; its media type compared unless its listing already differed (one finding of it)."""
    subject, report = f"resources/read {resource.uri}", asking.report
    request = types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri=resource.uri))
    result = await asking.ask(request, types.ReadResourceResult, subject, RESOURCES_FILE, where, rules.READ_FAILED)
    if result is None:
        return
    if not result.contents:
        report.add(rules.READ_FAILED, subject, "answered with no contents", at=where, source=RESOURCES_FILE)
        return
    first = result.contents[0]
    if listed_alike:
        _media_type(report, subject, resource, first.mime_type, where)
    if resource.bundle is not None:  # a JSON resource with a schema (loading refuses one of another type)
        _judge_contents(report, subject, resource, first, where)


def _judge_contents(report: Report, subject: str, resource: Resource, contents: Any, where: list[object]) -> None:
    def invalid(said: str) -> None:
        report.add(rules.RESOURCE_CONTENTS_INVALID, subject, said, at=[*where, "schema"], source=RESOURCES_FILE)

    text = getattr(contents, "text", None)
    if not isinstance(text, str):
        invalid("a JSON resource answered with a blob, not text")
        return
    try:
        document = parse_json(text)
    except NotJson as exc:
        invalid(f"not JSON: {exc}")
        return
    judge = resource.judge
    for violation in judge.violations(document)[:5] if judge is not None else ():
        invalid(f"its schema refuses the contents at {violation.pointer or '/'}: {violation.message}")


def _templates(templates: tuple[Resource, ...], listed: dict[str, Any], report: Report) -> None:
    subject = "resources/templates/list"
    for index, template in enumerate(templates):
        where: list[object] = ["templates", index]
        theirs = listed.get(template.name)
        if theirs is None:
            text = f"the server does not list the template {template.name!r}"
            report.add(rules.MISSING_RESOURCE, subject, text, at=[*where, "name"], source=RESOURCES_FILE)
            continue
        if theirs.uri_template != template.uri:
            text = f"{template.name!r}: the contract's template is {template.uri}, the server's {theirs.uri_template}"
            report.add(rules.RESOURCE_DIFFERS, subject, text, at=[*where, "uriTemplate"], source=RESOURCES_FILE)
        _media_type(report, subject, template, theirs.mime_type, where)


async def _prompts(asking: _Asking, prompts: tuple[Prompt, ...], listed: dict[str, Any]) -> None:
    report = asking.report
    for index, prompt in enumerate(prompts):
        where: list[object] = ["prompts", index]
        theirs = listed.get(prompt.name)
        if theirs is None:
            text = f"the server does not list {prompt.name!r}"
            report.add(rules.MISSING_PROMPT, "prompts/list", text, at=[*where, "name"], source=PROMPTS_FILE)
            continue
        _arguments(prompt, theirs, report, where)
        if all(not a.required for a in prompt.arguments):
            await _get(asking, prompt, where)


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
        report.add(rules.PROMPT_DIFFERS, "prompts/list", text, at=at, source=PROMPTS_FILE)
    extra = [
        name for name, other in listed.items() if other.required and name not in {a.name for a in prompt.arguments}
    ]
    if extra:
        text = f"{prompt.name!r}: the server requires {', '.join(map(repr, extra))}, which the contract lacks"
        report.add(rules.PROMPT_DIFFERS, "prompts/list", text, at=[*where, "name"], source=PROMPTS_FILE)


async def _get(asking: _Asking, prompt: Prompt, where: list[object]) -> None:
    subject = f"prompts/get {prompt.name}"
    request = types.GetPromptRequest(params=types.GetPromptRequestParams(name=prompt.name, arguments={}))
    await asking.ask(request, types.GetPromptResult, subject, PROMPTS_FILE, where, rules.PROMPT_GET_FAILED)
