"""Names in generated code, derived in one place."""

from __future__ import annotations

import re


def member_name(code: str) -> str:
    """The Python enum member of a code: `x_rate_limited` -> `X_RATE_LIMITED`."""
    return re.sub(r"[^0-9A-Za-z]+", "_", code).strip("_").upper()


def slug(text: str) -> str:
    """The part of an HTML anchor a code or tool name becomes: `[a-z0-9._-]` only."""
    return re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-")
