"""`python -I -S forkserver_client.py SOCKET ARGS...`: run `python ARGS...` as a child of the
fork server at SOCKET (tests/forkserver.py) on this process's standard input, output and
error; pass signals on to it and end as it ends. Without a fork server there, exec the real
`python ARGS...`. The standard library only: this starts in 30 ms."""

import json
import os
import signal
import socket
import struct
import sys


def _exact(connection: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the fork server went away")
        data += chunk
    return data


def main() -> None:
    path, args = sys.argv[1], sys.argv[2:]
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        connection.connect(path)
    except OSError:
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
