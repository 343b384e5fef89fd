"""What `import` learnt from a live server: plain values, no SDK type, so that writing the
contract (`importing.files`) needs no connection and is tested on its own."""

from __future__ import annotations

from dataclasses import dataclass, field
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
class ServerFacts:
    """A server as one listing shows it: its `serverInfo`, the revisions it answered as asked
    (oldest first; the listing and the calls are those of the newest), and each tool as the
    JSON of `tools/list` (camelCase keys, nothing left out but what it leaves out)."""

    name: str
    title: str | None
    version: str | None
    summary: str | None
    revisions: tuple[str, ...]
    tools: tuple[dict[str, Any], ...]
    calls: dict[str, RecordedCall] = field(default_factory=dict)

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


def read_only(tool: dict[str, Any]) -> bool:
    """Whether the server annotates `tool` read-only (MCP's default: it is not)."""
    return (tool.get("annotations") or {}).get("readOnlyHint") is True
