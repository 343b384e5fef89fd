"""What `import` learnt from a live server: plain values, no SDK type, so that writing the
contract (`importing.files`) needs no connection and is tested on its own."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..load.meta import semver

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


@dataclass(frozen=True)
class RecordedCall:
    """One successful call made with `--call`: the arguments, the `structuredContent` of the
    answer (when it had one) and the types of the content blocks of every answer the tool gave
    on the way to it (errors too), in order of first use."""

    arguments: dict[str, Any]
    structured: bool
    document: Any
    content: tuple[str, ...]


@dataclass(frozen=True)
class ReadContents:
    """What `resources/read` answered for one resource: the bytes of its contents entry (its
    `text` as UTF-8, or its base64 `blob` decoded), `size` of them, in a file of the run's
    staging folder (`path`: never held in memory, however many are read); `text`: whether
    the server answered text; `problem`: why they cannot be recorded at all (a blob that is
    not base64; then no file), or None."""

    path: Path | None
    size: int
    text: bool
    problem: str | None = None

    def data(self) -> bytes:
        """The bytes, read from the staging folder (only where one is judged)."""
        return self.path.read_bytes() if self.path is not None else b""


@dataclass(frozen=True)
class ServerFacts:
    """A server as one listing shows it: its `serverInfo`, the revisions it answered as asked
    (oldest first; the listing and the calls are those of the newest), and each tool as the
    JSON of `tools/list` (camelCase keys, nothing left out but what it leaves out); each
    resource, resource template and prompt as the JSON of its listing, as the server wrote it;
    and, with `--read-resources`, what `resources/read` answered for a resource (by its URI),
    staged on disk (`ReadContents`). `unlisted`: the listings of resources, templates or
    prompts that failed (method -> why), whose file the contract keeps as it is."""

    name: str
    title: str | None
    version: str | None
    summary: str | None
    revisions: tuple[str, ...]
    tools: tuple[dict[str, Any], ...]
    calls: dict[str, RecordedCall] = field(default_factory=dict)
    resources: tuple[dict[str, Any], ...] = ()
    templates: tuple[dict[str, Any], ...] = ()
    prompts: tuple[dict[str, Any], ...] = ()
    contents: dict[str, ReadContents] = field(default_factory=dict)
    unlisted: dict[str, str] = field(default_factory=dict)

    @property
    def negotiated(self) -> str:
        return self.revisions[-1]


FIRST_VERSION = "0.1.0"


def contract_version(server_version: str | None) -> str:
    """The `version:` of a contract imported anew: the server's own as a semantic version
    (`semantic_version`), else 0.1.0 (`latest`, `2024-05`, `1.0`, or none)."""
    return semantic_version(server_version) or FIRST_VERSION


def semantic_version(server_version: str | None) -> str | None:
    """The server's own version (`serverInfo.version`, kept as it is under `metadata:`) when it
    is a semantic version, or is one without a leading `v` (`v2.1.0`); None for any other."""
    for text in (server_version or "", (server_version or "").removeprefix("v").removeprefix("V")):
        if semver().fullmatch(text):
            return text
    return None


# The members of `execution` and `_meta` are the server's to say: kept as written, as is
# every field of a listed tool the SDK does not know (its `Tool` leaves them out).
_AS_WRITTEN = ("execution", "_meta")


def as_listed(tool: Any, written: dict[str, Any]) -> dict[str, Any]:
    """A tool of `tools/list` as facts hold it: the SDK's reading of it (`tool`, a `Tool`),
    with `execution`, `_meta` and every field the SDK does not know as the server wrote them
    (`written`)."""
    listed: dict[str, Any] = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    known = {field.alias or name for name, field in type(tool).model_fields.items()}
    for key, value in written.items():
        if value is not None and (key in _AS_WRITTEN or key not in known):
            listed[key] = value
    return listed


def not_safe_to_call(tool: dict[str, Any]) -> str | None:
    """Why `--call` leaves `tool` alone unless `--call-tool` names it, or None: it is safe to
    call when the server annotates it read-only and closed-world (`openWorldHint` false: MCP
    takes a hint not given for true, a tool that may reach other hosts) and not destructive."""
    hints = tool.get("annotations") or {}
    if hints.get("readOnlyHint") is not True:
        return "the server does not annotate it read-only"
    if hints.get("openWorldHint") is not False:
        return "the server does not annotate it closed-world (openWorldHint false): it may reach other hosts"
    if hints.get("destructiveHint") is True:
        return "the server annotates it destructive"
    return None
