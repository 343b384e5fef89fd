"""`python -I -S forkserver_client.py SOCKET ARGS...`: run `python ARGS...` as a child of the
fork server at SOCKET (tests/forkserver.py) on this process's standard input, output and
error; pass signals on to it and end as it ends. While the fork server starts, wait for it;
without one there (it could not start, or is gone), exec the real `python ARGS...`. The
standard library only: this starts in 30 ms."""

import json
import os
import signal
import socket
import struct
import sys
import time

STARTING = 120  # seconds a fork server may take to import what it warms


def _exact(connection: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the fork server went away")
        data += chunk
    return data


def _connected(path: str) -> socket.socket | None:
    """A connection to the fork server at `path`: waited for while it starts (its imports take
    seconds), None when it could not start or is gone."""
    deadline = time.monotonic() + STARTING
    while True:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            connection.connect(path)
            return connection
        except OSError:
            connection.close()
        starting = not os.path.exists(path) and not os.path.exists(path + ".failed")
        if not starting or time.monotonic() > deadline or not os.path.isdir(os.path.dirname(path)):
            return None
        time.sleep(0.02)


def main() -> None:
    path, args = sys.argv[1], sys.argv[2:]
    connection = _connected(path)
    if connection is None:
        os.execv(sys.executable, [sys.executable, *args])
    request = json.dumps({"args": args, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    child: list[int] = []
    pending: list[int] = []

    def forward(number: int, _frame: object) -> None:
        if child:
            os.kill(child[0], number)
        else:
            pending.append(number)

    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(number, forward)
    socket.send_fds(connection, [request], [0, 1, 2])
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)  # the child's pipes are the child's: their ends are its ends
    os.dup2(quiet, 1)
    (pid,) = struct.unpack("!i", _exact(connection, 4))
    child.append(pid)
    for number in pending:
        os.kill(pid, number)
    try:
        (code,) = struct.unpack("!i", _exact(connection, 4))
    except ConnectionError:
        code = 1
    if code < 0:  # died of a signal: so does this process
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


main()
