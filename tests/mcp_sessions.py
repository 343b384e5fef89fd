"""Real MCP sessions for the tests of the generated client and server (issue 48): the SDK's
`ClientSession` over stdio, initialized at a chosen revision, its requests counted (`Counted`):
what proves that a refused call sent nothing."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


class Counted:
    """The session's write stream, with every request it sends noted (`requests`): what
    proves that a refused call sent nothing. The session and the transport are the SDK's."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.requests: list[tuple[str, Any]] = []

    async def send(self, item: Any) -> None:
        method = getattr(item.message, "method", None)
        if method is not None and getattr(item.message, "id", None) is not None:
            self.requests.append((method, getattr(item.message, "params", None)))
        await self.stream.send(item)

    def calls(self, method: str) -> list[Any]:
        return [params for sent, params in self.requests if sent == method]

    async def aclose(self) -> None:
        await self.stream.aclose()

    async def __aenter__(self) -> Counted:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stream.aclose()


async def offer(session: ClientSession, version: str) -> None:
    """`initialize` offering `version`: the SDK's `ClientSession.initialize` always offers its
    newest handshake revision, so the older ones are asked for by hand."""
    params = types.InitializeRequestParams(
        protocol_version=version,
        capabilities=types.ClientCapabilities(),
        client_info=types.Implementation(name="test", version="0"),
    )
    result = await session.send_request(types.InitializeRequest(params=params), types.InitializeResult)
    assert result.protocol_version == version
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())


@asynccontextmanager
async def session_at(
    command: list[str], python_path: Path, revision: str
) -> AsyncIterator[tuple[ClientSession, Counted]]:
    """A session at `revision` with the server `command` over stdio: the SDK's `ClientSession`,
    initialized with our offer (the SDK's own offers its newest revision only)."""
    paths = [str(python_path), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    target = StdioServerParameters(command=command[0], args=command[1:], env=env)
    async with stdio_client(target) as (read, write):
        counted = Counted(write)
        async with ClientSession(read, counted) as session:
            await offer(session, revision)
            yield session, counted
