"""Row 12: the peak memory of `mcp-contracts import --read-resources --write` of a server that
lists many large resources (issue 51): 600 of 1.9 MB, each under `limits.source_bytes`, so
that every one is read and written (1.1 GB in all), with `limits.server_bytes` raised so that
all are read (12.1), and at its default, which stops the reads (12.2).

The import runs in a new project in a temporary folder (its files are removed at the end).
The server is benchmarks/resources_server.py. Peak RSS is the child's `ru_maxrss` from
`os.wait4` (the import process or its server, whichever is larger: the server's is a few
megabytes). Run alone as

    .venv/bin/python benchmarks/import_memory.py [--count 600] [--size 1900000] [--server-bytes N]

which prints the figures of one run; `benchmarks/run.py` writes rows 12.1 and 12.2.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from harness import COMMAND, PYTHON, Goal, Row, Settings, run_child

SERVER = Path(__file__).with_name("resources_server.py")
RAISED = 4 * 1024**3  # every resource read
DEFAULT = 256 * 1024**2  # limits.server_bytes by default


@dataclass(frozen=True)
class Imported:
    returncode: int
    wall: float
    peak_rss: int
    files: int
    written: int


def imported(count: int, size: int, server_bytes: int) -> Imported:
    """One import of `count` resources of `size` bytes, read within `server_bytes`."""
    with tempfile.TemporaryDirectory(prefix="import-memory-") as place:
        project = Path(place)
        limits = f"[tool.mcp-contracts.limits]\nserver_bytes = {server_bytes}\n"
        (project / "pyproject.toml").write_text(f"[tool.mcp-contracts]\n\n{limits}", encoding="utf-8")
        server = [PYTHON, str(SERVER), str(count), str(size)]
        argv = [COMMAND, "import", "bench", "--read-resources", "--write", "--timeout", "60", "--", *server]
        child = run_child(argv, cwd=project)
        folder = project / "schemas" / "contracts" / "bench" / "examples" / "resources"
        files = sorted(folder.iterdir()) if folder.is_dir() else []
        written = sum(path.stat().st_size for path in files)
    return Imported(child.returncode, child.wall, child.peak_rss, len(files), written)


def measure(settings: Settings) -> list[Row]:
    count, size = (3, 1_000) if settings.smoke else (600, 1_900_000)
    rows = []
    for key, server_bytes, said, goal in (
        ("12.1", RAISED, "`limits.server_bytes` 4 GiB: every one read", None),
        (
            "12.2",
            DEFAULT,
            "`limits.server_bytes` at its default (256 MiB): the reads stop there",
            Goal("<=", 512, "MiB"),
        ),
    ):
        run = imported(count, size, server_bytes)
        if run.returncode != 0:
            raise RuntimeError(f"the import of row {key} exited {run.returncode}")
        rows.append(
            Row(
                key,
                f"`import --read-resources --write`, {count} resources of {size:,} bytes, {said}: peak RSS",
                run.peak_rss / 2**20,
                "MiB",
                goal,
                note=f"wall {run.wall:.1f} s; {run.files} contents files written, {run.written / 1e6:,.0f} MB",
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--size", type=int, default=1_900_000)
    parser.add_argument("--server-bytes", type=int, default=RAISED)
    args = parser.parse_args(argv)
    run = imported(args.count, args.size, args.server_bytes)
    print(f"{args.count} resources of {args.size:,} bytes (server_bytes {args.server_bytes:,}):")
    print(f"  exit {run.returncode}, wall {run.wall:.1f} s")
    print(f"  peak RSS {run.peak_rss / 2**20:,.0f} MiB; {run.files} contents files, {run.written / 1e6:,.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
