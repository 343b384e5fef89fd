"""Rules every command reports: sources that do not load, and settings that name no rule."""

from __future__ import annotations

from . import Rule

ALL = ("lint", "breaking", "conform")

COMMON_RULES = (
    Rule(
        "source-invalid",
        ALL,
        "error",
        "sources",
        "The sources load: every file reads, meets its meta-schema and compiles. Nothing else is judged"
        " until they do, and the command exits 2.",
    ),
)
