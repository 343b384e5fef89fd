"""Row 7: `mcp-contracts mock --contract tuitbot` over stdio, against a bare SDK server
(benchmarks/bare_server.py) measured the same way, with the official SDK's `Client`.

- start: from spawning the server to the answer of the first `tools/list` (wall, best of N);
- throughput: N sequential `tools/call`s of `x_post_tweet` with the arguments of tuitbot's
  `api-success.json` example call, over one session (calls per second, best of N sessions).
"""

from __future__ import annotations

import time
from pathlib import Path

import anyio
from harness import COMMAND, PYTHON, ROOT, Goal, Row, Settings
from mcp import Client, StdioServerParameters

TOOL, ARGUMENTS = "x_post_tweet", {"text": "Shipping the new release today."}
OURS = StdioServerParameters(command=COMMAND, args=["mock", "--contract", "tuitbot"], cwd=str(ROOT))
BARE = StdioServerParameters(command=PYTHON, args=[str(Path(__file__).with_name("bare_server.py"))], cwd=str(ROOT))


async def _session(server: StdioServerParameters, calls: int) -> tuple[float, float]:
    """Seconds from spawn to the first tools/list answer; calls per second over `calls` calls."""
    start = time.perf_counter()
    async with Client(server) as client:
        listed = await client.list_tools()
        started = time.perf_counter() - start
        if TOOL not in {tool.name for tool in listed.tools}:
            raise RuntimeError(f"{TOOL} is not listed")
        await client.call_tool(TOOL, ARGUMENTS)  # the first call is not counted: it may build caches
        begin = time.perf_counter()
        for _ in range(calls):
            result = await client.call_tool(TOOL, ARGUMENTS)
            if result.is_error:
                raise RuntimeError(f"{TOOL} answered an error")
        return started, calls / (time.perf_counter() - begin)


def measure(settings: Settings) -> list[Row]:
    repeat, calls = settings.repeats(4), settings.number(300)
    starts: dict[str, list[float]] = {"ours": [], "bare": []}
    rates: dict[str, list[float]] = {"ours": [], "bare": []}
    for _ in range(repeat):  # in turn, so the machine's load falls on both alike
        for name, server in (("ours", OURS), ("bare", BARE)):
            started, rate = anyio.run(_session, server, calls)
            starts[name].append(started)
            rates[name].append(rate)
    ours_rate, bare_rate = max(rates["ours"]), max(rates["bare"])
    anchor = "a bare SDK `MCPServer` with one tool (benchmarks/bare_server.py)"
    return [
        Row(
            "7.1",
            f"`mock --contract tuitbot` (stdio): spawn to the first `tools/list` answer (best of {repeat})",
            min(starts["ours"]),
            "s",
            Goal("<=", 1.2),
            anchor,
            min(starts["bare"]),
        ),
        Row(
            "7.2",
            f"`mock`: `tools/call` throughput, {calls} sequential calls in one session (best of {repeat})",
            ours_rate,
            "calls/s",
            Goal(">=", 1.0),
            anchor,
            bare_rate,
            "ratio: ours / anchor calls per second (more is better)",
        ),
    ]
