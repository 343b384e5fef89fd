"""A `write.FileSystem` whose calls fail in turn, for tests of faults while `generate` writes
(tests/test_faults.py, tests/test_build_state.py)."""

from __future__ import annotations

import errno
from typing import Any

from mcp_contracts_generator.write import FileSystem

CALLS = ("mkdir", "mkdtemp", "write", "lock", "unlock", "exchange", "rename", "remove_tree", "listdir")


class Faulty(FileSystem):
    """Fails the `fail_at`-th call with EIO; `no_exchange` makes the exchange unavailable."""

    def __init__(self, fail_at: int, *, no_exchange: bool = False) -> None:
        self.fail_at = fail_at
        self.no_exchange = no_exchange
        self.calls = 0

    def _tick(self, name: str) -> None:
        self.calls += 1
        if self.calls == self.fail_at:
            raise OSError(errno.EIO, f"injected fault in {name}")


def _faulty(name: str) -> Any:
    real = getattr(FileSystem, name)

    def call(self: Faulty, *args: Any) -> Any:
        if name == "unlock":  # release first: a held lock would stall the next run
            real(self, *args)
            self._tick(name)
            return None
        self._tick(name)
        if name == "exchange" and self.no_exchange:
            raise OSError(errno.ENOSYS, "no exchange here")
        return real(self, *args)

    return call


for _name in CALLS:
    setattr(Faulty, _name, _faulty(_name))
