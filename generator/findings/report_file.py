"""Writing a report file (`--report FORMAT:PATH`) whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_report(path: Path, text: str) -> str | None:
    """Write `text` to `path` atomically: into a temporary file beside it, then renamed over
    it, so a reader (a CI step, code scanning) never sees half a report. None when written,
    else why not."""
    folder = path.parent
    try:
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        return exc.strerror or str(exc)
    return None
