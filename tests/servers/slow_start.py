"""A server that is slow to start now and then, as one under load is: it counts its starts
in COUNT_FILE, and its Nth start waits SECONDS before it runs SCRIPT (as `python SCRIPT ARGS`
would, in this process), so that only that session's first request goes unanswered a while.

    python slow_start.py COUNT_FILE N SECONDS SCRIPT [ARGS...]
"""

from __future__ import annotations

import runpy
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    counter, slow, seconds, script, *arguments = sys.argv[1:]
    path = Path(counter)
    started = int(path.read_text(encoding="utf-8") or 0) + 1 if path.is_file() else 1
    path.write_text(str(started), encoding="utf-8")
    if started == int(slow):
        time.sleep(float(seconds))
    sys.argv = [script, *arguments]
    runpy.run_path(script, run_name="__main__")
