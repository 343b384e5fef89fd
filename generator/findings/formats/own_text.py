"""The text of commands whose users know their own words: `check` (the paths that drifted,
then their unified diffs), `generate` (`created  `, `updated  `, `removed  `), `init` (the
files made), `validate` (each document's verdict, then its violations). Each is said from
the outcome's facts, so the text, JSON, GitHub, SARIF, JUnit and Markdown formats all
report one outcome."""

from __future__ import annotations

from collections.abc import Callable

from ...diagnostics import printable
from ..finding import Outcome


def _check(outcome: Outcome) -> str:
    facts = outcome.facts
    lines = [
        f"{label}{printable(path)}"
        for label, kind in (("changed  ", "changed"), ("missing  ", "missing"), ("extra    ", "extra"))
        for path in facts.get(kind, ())
    ]
    diffs: dict[str, str] = facts.get("diffs", {})
    return "".join(line + "\n" for line in lines) + "".join(diffs.values())


def _generate(outcome: Outcome) -> str:
    facts = outcome.facts
    shown = facts["output"]
    lines = [
        f"{label}{shown}/{printable(path)}"
        for label, kind in (("created  ", "created"), ("updated  ", "updated"), ("removed  ", "removed"))
        for path in facts.get(kind, ())
    ]
    return "".join(line + "\n" for line in lines)


def _init(outcome: Outcome) -> str:
    created = "".join(f"created  {path}\n" for path in outcome.facts.get("created", ()))
    appended = outcome.facts.get("appended")
    return created + (f"appended [tool.mcp-contracts] to {appended}\n" if appended is not None else "")


def _validate(outcome: Outcome) -> str:
    lines = []
    for document in outcome.facts.get("documents", ()):
        path = printable(document["path"])
        if document["problem"] is not None:
            lines.append(f"{path}: error: {document['problem']}")
            continue
        lines.append(f"{path}: {'valid' if document['valid'] else 'invalid'}")
        lines += [f"  {error['pointer'] or '(root)'}: {error['message']}" for error in document["errors"]]
    return "".join(line + "\n" for line in lines)


# The body of a command's text, before its summary; a command not here prints its findings.
BODIES: dict[str, Callable[[Outcome], str]] = {
    "check": _check,
    "generate": _generate,
    "init": _init,
    "validate": _validate,
}
