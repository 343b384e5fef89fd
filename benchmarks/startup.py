"""Rows 1 and 6: what a new process costs before it does anything, in CPU seconds.

Row 1: `mcp-contracts --version` against `python -c pass` (the same interpreter).
Row 6: `python -c "import mcp_contracts.<contract>"` against `import pydantic` and one model
class. CPU (user + system) of the child, best of N, the commands run in turn so the
machine's load falls on each alike. Our package (the tool's for row 1, the generated one for
row 6) is imported as installed, with its bytecode (`harness.installed`); both commands of a
row run in that one environment.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from harness import COMMAND, CONTRACTS, GENERATED, PYTHON, ROOT, Goal, Row, Settings, installed, interleaved, module_of

PYDANTIC_AND_ONE_MODEL = "import pydantic\nclass M(pydantic.BaseModel):\n    x: int\n"


def version(settings: Settings) -> list[Row]:
    repeat = settings.repeats(10)
    with tempfile.TemporaryDirectory(prefix="mcb-") as folder:
        env = installed(Path(folder), {"mcp_contracts_generator": ROOT / "generator"})
        ours, anchor = interleaved([[COMMAND, "--version"], [PYTHON, "-c", "pass"]], repeat, env=env)
    note = "" if ours.returncode == 0 else f"**FAILED**: exit status {ours.returncode}"
    return [
        Row(
            "1",
            f"`mcp-contracts --version`, CPU of the process (best of {repeat})",
            ours.cpu * 1000,
            "ms",
            Goal("<=", 3.0),
            "`python -c pass`",
            anchor.cpu * 1000,
            note,
        )
    ]


def imports(settings: Settings) -> list[Row]:
    repeat = settings.repeats(7)
    commands = [[PYTHON, "-c", PYDANTIC_AND_ONE_MODEL]] + [[PYTHON, "-c", f"import {module_of(c)}"] for c in CONTRACTS]
    with tempfile.TemporaryDirectory(prefix="mcb-") as folder:
        env = installed(Path(folder), {"mcp_contracts": GENERATED / "python" / "mcp_contracts"})
        anchor, *ours = interleaved(commands, repeat, env=env)
    return [
        Row(
            f"6.{index}",
            f"`import {module_of(contract)}`, CPU of the process (best of {repeat})",
            child.cpu * 1000,
            "ms",
            Goal("<=", 1.0),
            "`import pydantic` + one model class",
            anchor.cpu * 1000,
            "" if child.returncode == 0 and anchor.returncode == 0 else "an import **FAILED** (exit status not 0)",
        )
        for index, (contract, child) in enumerate(zip(CONTRACTS, ours, strict=True), start=1)
    ]
