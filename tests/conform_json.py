"""`conform --format json` (findings-report, version 2) seen with the fields the conform tests
were written against: the facts at the top, `problem`, and each finding's `tool` and `where`.

The bridge until conform makes `Finding`s of its own (then the tests read `subject` and the
place): the adapter in `api.conform_outcome` keeps the old `where` as `subject`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from conftest import assert_report

_CALL = re.compile(r"^([\w.-]+)\(")
_QUOTED = re.compile(r"'([^']+)'")


def _tool(finding: dict[str, Any]) -> str | None:
    where = finding["subject"] or ""
    if finding["rule"] == "revision-unsupported":
        return None
    if where.startswith("tools/list "):
        return str(where.removeprefix("tools/list ").split(".", 1)[0])
    if where == "tools/list":
        named = _QUOTED.search(finding["message"])
        return named.group(1) if named and finding["rule"] != "invalid-response" else None
    call = _CALL.match(where)
    if call:
        return call.group(1)
    return where if re.fullmatch(r"[\w.-]+", where) else None


def conform_report(stdout: str) -> dict[str, Any]:
    report = json.loads(stdout)
    assert_report(report, "findings-report")
    assert report["command"] == "conform"
    findings = [{**f, "tool": _tool(f), "where": f["subject"]} for f in report["findings"]]
    return {**report["facts"], "problem": report["problem"], "findings": findings}
