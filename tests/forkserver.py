"""Test servers started in a tenth of a second: forked from a process that has imported the
MCP SDK and this package once, instead of each paying its 2 s of imports again.

`python(*args)` is the command line a test gives `import`, `conform` or a transport in place
of `(sys.executable, *args)`. It runs `forkserver_client.py` (the standard library only, with
`-I -S`: 30 ms), which hands its standard input, output and error to the fork server of this
pytest process (waiting while it starts) (over a Unix socket of packets: each message arrives whole); the server forks,
and the child runs the script (or `-m` module) as `python` would, as `__main__`, with the
client's arguments, working folder and environment. The client passes signals on to the
child and ends with its exit status, so the product under test sees one process that speaks
MCP on its pipes, ends when its input ends and dies by the signal it is sent. The child ends
too when its client is killed (SIGKILL cannot be passed on).

What is real is kept real: the server is the SDK's, in a process of its own, over real pipes.
Tests whose point is a process itself (signals, start-up, hash seeds, memory) start one with
`sys.executable` as before. `MCP_CONTRACTS_TEST_FORK=0` turns this off (every start an exec),
and a client that finds no fork server execs the real thing.

The fork server is started on first use by each pytest process (each xdist worker) and ends
when that process does (its standard input, a pipe from the worker, reaches its end).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CLIENT = Path(__file__).with_name("forkserver_client.py")
# What a test server imports: loaded once in the fork server, shared by every child.
WARM = (
    "anyio",
    "anyio._backends._asyncio",
    "pydantic",
    "rich.console",
    "rich.logging",
    "ruamel.yaml",
    "yaml",
    "mcp",
    "mcp.server.mcpserver",
    "mcp.server.stdio",
    "mcp_contracts_generator.api",
    "mcp_contracts_generator.cli",
    "mcp_contracts_generator.cli_server",
    "mcp_contracts_generator.load.project",
    "mcp_contracts_generator.serving.mock",
)

_sockets: dict[tuple[str, tuple[str, ...]], str] = {}


def python(*args: str) -> tuple[str, ...]:
    """The command line that runs `python *args` (a script or `-m module`, and its arguments)
    as a child of the fork server; `(sys.executable, *args)` when forking is off."""
    return forked(sys.executable, WARM, *args)


def forked(interpreter: str, warm: tuple[str, ...], *args: str) -> tuple[str, ...]:
    """`python` for another environment's `interpreter` (the reference servers' own): its
    fork server has imported the modules `warm` names. The client runs on `interpreter`
    too, so that without a fork server it execs that one."""
    if os.environ.get("MCP_CONTRACTS_TEST_FORK", "1") == "0" or not args or args[0] == "-c":
        return (interpreter, *args)
    return (interpreter, "-I", "-S", str(CLIENT), _started(interpreter, warm), *args)


def _started(interpreter: str, warm: tuple[str, ...]) -> str:
    """The socket of this process's fork server on `interpreter`, started on first use. One
    that cannot import what it is told to ends: its clients then exec the real thing."""
    key = (interpreter, warm)
    if key not in _sockets:
        folder = tempfile.mkdtemp(prefix="mcfs-")  # short: a socket path holds 107 bytes
        _sockets[key] = os.path.join(folder, "s")
        server = subprocess.Popen(
            [interpreter, __file__, _sockets[key], *warm],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        atexit.register(_stop, server, folder)
    return _sockets[key]


def _stop(server: subprocess.Popen[bytes], folder: str) -> None:
    assert server.stdin is not None
    server.stdin.close()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    for name in os.listdir(folder):
        os.unlink(os.path.join(folder, name))
    os.rmdir(folder)


# The fork server: run as `python forkserver.py SOCKET MODULE...` by `_started`.


def _serve(path: str, warm: list[str]) -> None:
    import importlib
    import json
    import selectors
    import socket
    import struct

    try:
        for name in warm:
            importlib.import_module(name)
    except BaseException:
        open(path + ".failed", "w").close()  # its clients exec the real thing, not wait
        raise
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path + ".new")
    listener.listen(64)
    os.rename(path + ".new", path)  # a client sees the socket only once it is served
    waiting: dict[int, socket.socket] = {}
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(0, selectors.EVENT_READ)  # the pytest process: its end is ours
    while True:
        for key, _ in selector.select(timeout=0.01):
            if key.fd == 0:
                if not os.read(0, 4096):
                    os.unlink(path)
                    return
                continue
            connection, _ = listener.accept()
            request, fds, _, _ = socket.recv_fds(connection, 1 << 20, 3)
            pid = os.fork()
            if pid == 0:
                selector.close()
                listener.close()
                for other in waiting.values():
                    other.close()
                _child(connection, fds, json.loads(request))
            for fd in fds:
                os.close(fd)
            connection.sendall(struct.pack("!i", pid))
            waiting[pid] = connection
        while waiting:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            connection = waiting.pop(pid)
            with contextlib.suppress(OSError):  # the client is gone
                connection.sendall(struct.pack("!i", os.waitstatus_to_exitcode(status)))
            connection.close()


def _child(connection: object, fds: list[int], request: dict[str, object]) -> None:
    """In the forked child: take the client's pipes, folder, environment and arguments, and run
    the script or module as `__main__`; end as `python` would (atexit handlers, flushed output)."""
    import runpy
    import signal
    import threading

    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(str(request["cwd"]))
    os.environ.clear()
    os.environ.update(request["env"])  # type: ignore[arg-type]
    signal.signal(signal.SIGINT, signal.default_int_handler)
    extra = [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[0:0] = [p for p in extra if p not in sys.path]  # as `python` reads it at start
    args = list(request["args"])  # type: ignore[call-overload]

    def watch() -> None:  # the client killed (SIGKILL, not passed on): the child goes too
        while connection.recv(64):  # type: ignore[attr-defined]
            pass
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True).start()
    code = 0
    try:
        if args[0] == "-m":
            sys.argv = [args[1], *args[2:]]
            sys.path.insert(0, os.getcwd())
            runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = args
            sys.path.insert(0, os.path.dirname(os.path.abspath(args[0])))
            runpy.run_path(args[0], run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    except KeyboardInterrupt:
        code = 130
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    import atexit as exits

    exits._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    _serve(sys.argv[1], sys.argv[2:])
