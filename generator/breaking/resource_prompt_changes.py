"""Resources, resource templates and prompts of two versions of a contract (resources.yaml,
prompts.yaml), as the clients that read and get them see the change.

A resource is known by its URI, a template and a prompt by its name. One removed breaks the
clients that read or get it; one added is a note. A template whose URI template changed breaks
the clients that expand it: a variable gone (`template-variable-removed`), or any other change
(`template-changed`). A media type changed breaks readers (`resource-media-type-changed`). A
JSON resource's `schema:` is compared as a response, by the schema differ. A prompt argument
removed, or made required (a new one that is required too), breaks the clients that get it;
a new optional one is a note.
"""

from __future__ import annotations

from typing import Any

from ..load.resource_prompt_files import PROMPTS_FILE, RESOURCES_FILE
from ..model.schemas import Bundle
from ..model.surface import Prompt, Resource
from ..rules import Rule, rule
from ..rules import breaking as rules
from ..runtime.uri_template import TemplateError, UriTemplate
from .differ import RESPONSE, Differ, path_text
from .report import Report, shown
from .shape import Side


def surface(report: Report) -> None:
    """Every change of the three kinds."""
    old, new = report.old.surface, report.new.surface
    _kind(report, "resources", "resource", old.resources, new.resources, (rules.RESOURCE_REMOVED, rules.RESOURCE_ADDED))
    _kind(report, "templates", "template", old.templates, new.templates, (rules.TEMPLATE_REMOVED, rules.TEMPLATE_ADDED))
    before = {p.name: (i, p) for i, p in enumerate(old.prompts)}
    after = {p.name: (i, p) for i, p in enumerate(new.prompts)}
    for name, (index, _) in before.items():
        if name not in after:
            gone = (PROMPTS_FILE, ("prompts", index))
            report.add(
                rules.PROMPT_REMOVED, f"prompt {name}", (PROMPTS_FILE, ("prompts",)), gone, f"the prompt {name} is gone"
            )
    for name, (index, _) in after.items():
        if name not in before:
            report.add(
                rules.PROMPT_ADDED,
                f"prompt {name}",
                (PROMPTS_FILE, ("prompts", index)),
                (PROMPTS_FILE, ("prompts",)),
                f"a new prompt {name}",
            )
    for name in (n for n in after if n in before):
        _prompt(report, before[name], after[name])


def _kind(
    report: Report,
    section: str,
    kind: str,
    old: tuple[Resource, ...],
    new: tuple[Resource, ...],
    pair: tuple[Rule, Rule],
) -> None:
    """Resources (known by URI) or templates (by name): removed, added, changed. `pair`: the
    rules of one removed and one added."""
    before = {_key(r): (i, r) for i, r in enumerate(old)}
    after = {_key(r): (i, r) for i, r in enumerate(new)}
    for name, (index, _) in before.items():
        if name not in after:
            gone = (RESOURCES_FILE, (section, index))
            report.add(pair[0], f"{kind} {name}", (RESOURCES_FILE, (section,)), gone, f"the {kind} {name} is gone")
    for name, (index, _) in after.items():
        if name not in before:
            report.add(
                pair[1],
                f"{kind} {name}",
                (RESOURCES_FILE, (section, index)),
                (RESOURCES_FILE, (section,)),
                f"a new {kind} {name}",
            )
    for name in (n for n in after if n in before):
        (i, was), (j, now) = before[name], after[name]
        here, there = (section, j), (section, i)
        if was.template and was.uri != now.uri:
            _template(
                report,
                name,
                was.uri,
                now.uri,
                (RESOURCES_FILE, (*here, "uriTemplate")),
                (RESOURCES_FILE, (*there, "uriTemplate")),
            )
        media = (was.listing.get("mimeType"), now.listing.get("mimeType"))
        if media[0] != media[1]:
            text = f"{kind} {name}: its media type {shown(media[0])} became {shown(media[1])}"
            report.add(
                rules.RESOURCE_MEDIA_TYPE_CHANGED,
                f"{kind} {name} mimeType",
                (RESOURCES_FILE, (*here, "mimeType")),
                (RESOURCES_FILE, (*there, "mimeType")),
                text,
            )
        if was.bundle is not None and now.bundle is not None:
            _schema(report, f"{kind} {name}", was.bundle, now.bundle, here, there)


def _key(resource: Resource) -> str:
    """What a resource is known by (its URI), or a template (its name)."""
    return resource.name if resource.template else resource.uri


def _template(report: Report, name: str, was: str, now: str, new: Any, old: Any) -> None:
    try:
        gone = [v for v in UriTemplate.parse(was).variables if v not in UriTemplate.parse(now).variables]
    except TemplateError:  # an old revision's template this version no longer takes: changed, whatever it was
        gone = []
    if gone:
        text = f"template {name}: {was} became {now}, without {', '.join(map(repr, gone))}"
        report.add(rules.TEMPLATE_VARIABLE_REMOVED, f"template {name} uriTemplate", new, old, text)
    else:
        report.add(
            rules.TEMPLATE_CHANGED, f"template {name} uriTemplate", new, old, f"template {name}: {was} became {now}"
        )


def _schema(
    report: Report, subject: str, was: Bundle, now: Bundle, here: tuple[Any, ...], there: tuple[Any, ...]
) -> None:
    """A JSON resource's schema and the files it refers to, compared as a response (its
    readers' side). A change in the schema is placed in resources.yaml; one in a file it
    refers to, in that file."""
    differ = Differ(Side.of(was.resources), Side.of(now.resources), RESPONSE)
    for change in differ.run(
        was.resources[was.root],
        now.resources[now.root],
        (was.root, ()),
        (now.root, ()),
    ):
        new = (RESOURCES_FILE, (*here, "schema", *change.new[1])) if change.new[0] == now.root else change.new
        old = (RESOURCES_FILE, (*there, "schema", *change.old[1])) if change.old[0] == was.root else change.old
        report.add(
            rule(change.rule), f"{subject} schema {path_text(change.path)}", new, old, f"{subject}: {change.message}"
        )


def _prompt(report: Report, before: tuple[int, Prompt], after: tuple[int, Prompt]) -> None:
    (i, was), (j, now) = before, after
    old_arguments = {a.name: (k, a) for k, a in enumerate(was.arguments)}
    new_arguments = {a.name: (k, a) for k, a in enumerate(now.arguments)}
    for name, (k, _) in old_arguments.items():
        if name not in new_arguments:
            gone = (PROMPTS_FILE, ("prompts", i, "arguments", k))
            text = f"prompt {now.name}: the argument {name} is gone"
            report.add(
                rules.PROMPT_ARGUMENT_REMOVED,
                f"prompt {now.name} argument {name}",
                (PROMPTS_FILE, ("prompts", j)),
                gone,
                text,
            )
    for name, (k, argument) in new_arguments.items():
        here = (PROMPTS_FILE, ("prompts", j, "arguments", k))
        found = old_arguments.get(name)
        subject = f"prompt {now.name} argument {name}"
        if found is None:
            rule_id = rules.PROMPT_ARGUMENT_REQUIRED if argument.required else rules.PROMPT_ARGUMENT_ADDED
            text = f"prompt {now.name}: a new {'required ' if argument.required else ''}argument {name}"
            report.add(rule_id, subject, here, (PROMPTS_FILE, ("prompts", i)), text)
        elif argument.required and not found[1].required:
            there = (PROMPTS_FILE, ("prompts", i, "arguments", found[0]))
            report.add(
                rules.PROMPT_ARGUMENT_REQUIRED,
                subject,
                here,
                there,
                f"prompt {now.name}: the argument {name} is now required",
            )
