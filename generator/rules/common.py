"""Rules every command reports (sources that do not load), and the one rule of `check` (an
output folder that is not what the sources produce) and of `validate` (a document that
breaks its contract's schema)."""

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
    Rule(
        "output-drift",
        ("check",),
        "error",
        "output",
        "The output folder holds exactly what the sources produce: no file changed, missing or extra."
        " `mcp-contracts generate` writes it, and the change is committed with the sources.",
    ),
    Rule(
        "document-invalid",
        ("validate",),
        "error",
        "documents",
        "A document meets its contract's schema (or the definition named): one finding per violation,"
        " at its JSON pointer.",
    ),
)
# Rules no setting re-levels or switches off: sources that do not load, a folder that drifted,
# a document that breaks its schema (what `validate` is asked).
FIXED = ("source-invalid", "output-drift", "document-invalid")
