"""`conform --format json` (the findings report, version 2) as the conform tests read it:
validated against schemas/meta/findings-report.schema.json, with conform's facts at the top
beside `problem` and the findings."""

from __future__ import annotations

import json
from typing import Any

from conftest import assert_report


def conform_report(stdout: str) -> dict[str, Any]:
    report = json.loads(stdout)
    assert_report(report, "findings-report")
    assert report["command"] == "conform"
    return {**report["facts"], "problem": report["problem"], "findings": report["findings"]}
