"""What a contract's generated `tools.py` and the runtime's server and client share: the
binding of a contract (`ContractBinding`), the base of its `Handlers`, what a handler raises
(`Unimplemented`, `ToolFailure`), and the JSON-RPC codes and the log of the server's answers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from .judge import Judge
from .serving_json import ServingData, serving_data

LOG = logging.getLogger("mcp_contracts.server")
INVALID_PARAMS = -32602
METHOD_NOT_FOUND = -32601
INTERNAL_ERROR = -32603


def internal_error(what: str) -> Exception:
    """The JSON-RPC -32603 error a client is answered where the server failed: its log says why."""
    from mcp.shared.exceptions import MCPError

    return MCPError(INTERNAL_ERROR, f"{what}: the server failed to answer; its log says why")


class Unimplemented(Exception):
    """What a handler's method raises while no subclass overrides it: the tool is answered as
    not implemented (-32601), a resource or a prompt from the contract's own contents."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{what} is not implemented")
        self.what = what


class ToolFailure(Exception):
    """An error answer a handler raises: the server sends `document` (judged) with `isError`."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        super().__init__(document)
        self.document = document


@dataclass(frozen=True)
class ContractBinding:
    """What a contract's `tools.py` tells the runtime's server and client of the contract."""

    package: str
    """The contract package's import name: its `serving.json` is read from there."""
    judge: Judge
    envelope: type[BaseModel]
    arguments: Mapping[str, type[BaseModel]]
    methods: Mapping[str, str]
    """Each tool's method of the handlers."""
    error_document: Callable[..., dict[str, Any]] | None
    resources: Mapping[str, str]
    """Each resource URI's method of the handlers."""
    templates: Mapping[str, tuple[str, tuple[tuple[str, str], ...]]]
    """Each template URI's method, and each of its variables with the method's parameter."""
    prompts: Mapping[str, tuple[str, type[BaseModel] | None]]
    """Each prompt's method, and the model of its arguments (None: it takes none)."""

    def data(self) -> Any:
        """The contract package's `serving.json`, parsed once."""
        return serving_data(self.package).raw

    def serving(self) -> ServingData:
        """The contract package's `serving.json`, read (`serving_json`)."""
        return serving_data(self.package)


class ContractHandlers:
    """The base of every generated `Handlers`: a method per tool, resource and prompt, each
    overridden by the server's own class or left raising `Unimplemented`."""
