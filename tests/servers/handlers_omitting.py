"""handlers_builtin.py's server (a contract's generated `Handlers` answering its examples), with
the handlers of some tools left out, so that a call of one is answered as a method left out is
(-32601); and started by a client that passes no environment (the TypeScript SDK's stdio client
gives a server only PATH, HOME and the like), so the folder of the generated package is given.

    python handlers_omitting.py PYTHON_FOLDER PACKAGE CONTRACT_FOLDER [--omit TOOL]...

PYTHON_FOLDER: where the generated package is (`generated/python`); PACKAGE and CONTRACT_FOLDER
as handlers_builtin.py takes them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("python_folder")
parser.add_argument("package")
parser.add_argument("contract_folder")
parser.add_argument("--omit", action="append", default=[], metavar="TOOL")
options = parser.parse_args()

sys.path.insert(0, options.python_folder)
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.argv = [sys.argv[0], options.package, options.contract_folder]  # what handlers_builtin reads
import handlers_builtin  # noqa: E402  (it reads sys.argv as it is imported)

for tool in options.omit:
    delattr(handlers_builtin.Examples, handlers_builtin.tools.BINDING.methods[tool])

if __name__ == "__main__":
    handlers_builtin.tools.server(handlers_builtin.Examples(), name=handlers_builtin.contract.__name__).run()
