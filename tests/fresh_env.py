"""Fresh virtual environments for the tests that install into one (all of them `slow`).

An environment is made without pip of its own: `python -m venv` spends about 8 s in
ensurepip, byte-compiling the pip it copies in. The pip of the environment running the tests
installs into it through `--python`; it byte-compiles what it installs, as a user's pip does
(where PYTHONDONTWRITEBYTECODE is set, as on this machine, nothing else would, and every
process would compile every module it imports).
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

BIN = "Scripts" if os.name == "nt" else "bin"


def fresh_environment(folder: Path) -> Path:
    """The Python of a new, empty virtual environment at `folder`."""
    venv.create(folder, with_pip=False, symlinks=os.name != "nt")
    return folder / BIN / "python"


def pip_run(
    python: Path, *arguments: str | Path, cwd: Path | None = None, timeout: float | None = None
) -> subprocess.CompletedProcess[str]:
    """pip `arguments` (`install ...`, `show ...`; `install` gets `--quiet`) run for the
    environment of `python`, its output captured."""
    command, *rest = (str(each) for each in arguments)
    options = ["--quiet"] if command == "install" else []
    runner = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [*runner, command, *options, *rest],
        cwd=cwd,
        env=clean,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )
