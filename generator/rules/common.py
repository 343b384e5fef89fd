"""Rules every command reports (sources that do not load), and the one rule of `check` (an
output folder that is not what the sources produce) and of `validate` (a document that
breaks its contract's schema)."""

from __future__ import annotations

from . import Level, Rule, declared

ALL = ("lint", "breaking", "conform")

SOURCE_INVALID = Rule(
    "source-invalid",
    ALL,
    Level.ERROR,
    "sources",
    "The sources load: every file reads, meets its meta-schema and compiles. Nothing else is judged"
    " until they do, and the command exits 2.",
)
OUTPUT_DRIFT = Rule(
    "output-drift",
    ("check",),
    Level.ERROR,
    "output",
    "The output folder holds exactly what the sources produce: no file changed, missing or extra."
    " `mcp-contracts generate` writes it, and the change is committed with the sources.",
)
DOCUMENT_INVALID = Rule(
    "document-invalid",
    ("validate",),
    Level.ERROR,
    "documents",
    "A document meets its contract's schema (or the definition named): one finding per violation,"
    " at its JSON pointer.",
)

COMMON_RULES = declared(globals())
# Rules no setting re-levels or switches off: sources that do not load, a folder that drifted,
# a document that breaks its schema (what `validate` is asked).
FIXED = tuple(rule.id for rule in (SOURCE_INVALID, OUTPUT_DRIFT, DOCUMENT_INVALID))
