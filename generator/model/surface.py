"""What a server offers beside the envelope: each tool's arguments, the resources and the
prompts (tools.yaml's `inputSchema` and `outputSchema`, resources.yaml, prompts.yaml).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..runtime import Judge
from ..schema.reach import pruned
from .schemas import Bundle, View, object_rooted


@dataclass(frozen=True, slots=True)
class Contents:
    """What `resources/read` answers for a resource: its file under `examples/resources/`
    (`file`, as the contract names it) as `text`, or, for a type that is not textual, as
    base64 (`blob`). A template's holds `{name}` where each variable's value goes."""

    file: str
    text: str | None = None
    blob: str | None = None


@dataclass(frozen=True, slots=True)
class Resource:
    """A resource (`uri`) or a resource template (`template`: an RFC 6570 URI template) of the
    contract: `listing` is its MCP entry as `resources/list` or `resources/templates/list`
    lists it; `schema`, for a JSON resource, the JSON Schema its contents meet (`bundle`, as
    its judge compiles it: loading, `generate`, `mock` and `conform` judge by the same)."""

    name: str
    uri: str
    template: bool
    listing: Mapping[str, Any]
    schema: Any = None
    contents: Contents | None = None
    # `schema` and every file it refers to, as the envelope's bundle is, and the classes of
    # its model (`resource_models/<name>.py`): both None without a `schema:`.
    bundle: Bundle | None = None
    view: View | None = None
    # The judge of its contents, compiled once while loading from `bundle` (`mock`, `conform`
    # and `--fuzz` judge with it), left out of equality as `Contract.judge` is.
    judge: Judge | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ToolArguments:
    """A tool's arguments as its generated model (`tools.<Name>Arguments`) takes them: its
    `inputSchema` (`{"type": "object"}` where tools.yaml gives none, as `mcp/<name>.tools.json`
    publishes it), bundled and viewed as a JSON resource's `schema:` is; the judge of the bundle
    decides what the model's types cannot say. `output` views the tool's own `outputSchema`
    (`output_schema`, as tools.yaml writes it; None without one: the envelope's view is its
    output's), what its zod `outputSchema` says. (No slots, for `cached_property`.)"""

    tool: str
    bundle: Bundle
    view: View
    output: View | None = None
    output_schema: Any = None

    @cached_property
    def listed_output(self) -> Any:
        """`output_schema` as `tools/list` publishes it (as `Bundle.listed`), when first asked."""
        return object_rooted(pruned(self.output_schema))


@dataclass(frozen=True, slots=True)
class PromptArgument:
    name: str
    required: bool
    description: str | None = None
    title: str | None = None


@dataclass(frozen=True, slots=True)
class Prompt:
    """A prompt of the contract: `listing` is its `prompts/list` entry; `messages` what
    `prompts/get` returns, each string holding `{name}` where an argument's value goes."""

    name: str
    listing: Mapping[str, Any]
    arguments: tuple[PromptArgument, ...]
    messages: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Surface:
    """What a server offers beside its tools (resources.yaml, prompts.yaml): each in the
    order its file lists it."""

    resources: tuple[Resource, ...] = ()
    templates: tuple[Resource, ...] = ()
    prompts: tuple[Prompt, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.resources or self.templates or self.prompts)
