"""The peak memory of `mcp-contracts import --read-resources --write` of a server listing many
large resources (issue 51): 600 of 1.9 MB by default, each under `limits.source_bytes`, so
that every one is read and written (1.1 GB in all).

    .venv/bin/python benchmarks/import_memory.py [--count 600] [--size 1900000] [--server-bytes N]

The import runs in a new project in a temporary folder (its files are removed at the end),
with `[tool.mcp-contracts.limits] server_bytes` raised to `--server-bytes` (4 GiB by default,
so that the whole listing is read; a smaller one shows the run that stops at the bound). The
server is benchmarks/resources_server.py. Peak RSS is the child's `ru_maxrss` from
`os.wait4` (the import process or its server, whichever is larger: the server's is a few
megabytes); nothing is asserted, the figures are printed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from harness import COMMAND, PYTHON, run_child

SERVER = Path(__file__).with_name("resources_server.py")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--size", type=int, default=1_900_000)
    parser.add_argument("--server-bytes", type=int, default=4 * 1024**3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="import-memory-") as place:
        project = Path(place)
        limits = f"[tool.mcp-contracts.limits]\nserver_bytes = {args.server_bytes}\n"
        (project / "pyproject.toml").write_text(f"[tool.mcp-contracts]\n\n{limits}", encoding="utf-8")
        server = [PYTHON, str(SERVER), str(args.count), str(args.size)]
        argv_ = [COMMAND, "import", "bench", "--read-resources", "--write", "--timeout", "60", "--", *server]
        child = run_child(argv_, cwd=project)
        folder = project / "schemas" / "contracts" / "bench" / "examples" / "resources"
        files = list(folder.iterdir()) if folder.is_dir() else []
        written = sum(path.stat().st_size for path in files)
    print(f"{args.count} resources of {args.size:,} bytes (server_bytes {args.server_bytes:,}):")
    print(f"  exit {child.returncode}, wall {child.wall:.1f} s, CPU {child.cpu:.1f} s")
    print(f"  peak RSS {child.peak_rss / 2**20:,.0f} MiB; {len(files)} contents files, {written / 1e6:,.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
