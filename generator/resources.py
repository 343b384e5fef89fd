"""Where the generator's own files live: built-in templates and meta-schemas.

In a checkout (and an editable install) they are the repository's `templates/` and
`schemas/meta/`; a wheel carries copies under `generator/_data/`.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[0]


TEMPLATES_DIR = _first_existing(_CHECKOUT / "templates", _PACKAGE / "_data" / "templates")
META_SCHEMAS_DIR = _first_existing(_CHECKOUT / "schemas" / "meta", _PACKAGE / "_data" / "meta")
# The runtime every generated package carries a copy of, as `_runtime.py`.
RUNTIME_SOURCE = _PACKAGE / "runtime.py"
