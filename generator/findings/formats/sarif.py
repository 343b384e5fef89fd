"""`--format sarif`: SARIF 2.1.0, as GitHub code scanning uploads it.

One run; the driver lists the rules that ran (and `source-invalid` when the sources did not
load), each result points at its rule by ID and index, at its file (relative to
`%SRCROOT%`, the checkout) and line, and names its JSON pointer as a logical location;
where a `breaking` finding was before is a related location. Nothing depends on the clock
or the machine: the same outcome gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from ... import __version__
from ...model import Place
from ..finding import Finding, Outcome
from .common import rules_reported

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/mcp-contracts/"
SRCROOT = "%SRCROOT%"


def artifact(file: str) -> dict[str, Any]:
    """A file as SARIF names it: a relative URI against `%SRCROOT%`, an absolute one as a file URI."""
    path = PurePosixPath(file)
    if path.is_absolute():
        return {"uri": "file://" + quote(str(path))}
    return {"uri": quote(str(path)), "uriBaseId": SRCROOT}


def location(place: Place) -> dict[str, Any]:
    """The physical place (line 1 when only the file is known: code scanning needs a line)
    and the JSON pointer as a logical location."""
    region: dict[str, Any] = {"startLine": place.line or 1}
    if place.column is not None:
        region["startColumn"] = place.column
    found: dict[str, Any] = {"physicalLocation": {"artifactLocation": artifact(place.file), "region": region}}
    if place.pointer is not None:
        found["logicalLocations"] = [{"fullyQualifiedName": place.pointer or "/", "kind": "element"}]
    return found


def fingerprint(finding: Finding) -> str:
    """What makes a finding the same one across edits that move its line."""
    parts = (finding.rule, finding.contract or "", finding.file, finding.pointer or "", finding.subject or "")
    key = "\0".join((*parts, ",".join(finding.revisions)))  # the revisions a conform finding holds at
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]  # a name need not be UTF-8


def result(finding: Finding, index: dict[str, int]) -> dict[str, Any]:
    found: dict[str, Any] = {
        "ruleId": finding.rule,
        "ruleIndex": index[finding.rule],
        "level": finding.level,
        "message": {"text": finding.described()},
        "locations": [location(finding.place)],
        "partialFingerprints": {"mcpContracts/v1": fingerprint(finding)},
    }
    if finding.before is not None:
        before = location(finding.before)
        found["relatedLocations"] = [{"id": 1, **before, "message": {"text": "where it was before"}}]
    properties = {
        key: value
        for key, value in (
            ("contract", finding.contract),
            ("revisions", list(finding.revisions) or None),
            ("subject", finding.subject),
            ("accepted", finding.accepted),
        )
        if value is not None
    }
    if properties:
        found["properties"] = properties
    if finding.accepted is not None:
        found["suppressions"] = [{"kind": "external", "justification": finding.accepted}]
    return found


def log(outcome: Outcome) -> dict[str, Any]:
    rules = rules_reported(outcome)
    index = {r.id: i for i, r in enumerate(rules)}
    descriptors = []
    for r in rules:
        properties: dict[str, Any] = {"category": r.category, "tags": [outcome.command, r.category]}
        if r.bump is not None:
            properties["bump"] = r.bump
        if r.profile is not None:
            properties["profile"] = r.profile
        descriptors.append(
            {
                "id": r.id,
                "shortDescription": {"text": r.purpose},
                "defaultConfiguration": {"level": r.level},
                "properties": properties,
            }
        )
    invocation: dict[str, Any] = {"executionSuccessful": outcome.loaded and outcome.problem is None}
    if outcome.problem is not None:
        invocation["toolExecutionNotifications"] = [{"level": "error", "message": {"text": outcome.problem}}]
    run = {
        "tool": {
            "driver": {
                "name": "mcp-contracts",
                "version": __version__,
                "informationUri": INFORMATION_URI,
                "rules": descriptors,
            }
        },
        "automationDetails": {"id": f"mcp-contracts/{outcome.command}/"},
        "columnKind": "unicodeCodePoints",
        "invocations": [invocation],
        "results": [result(finding, index) for finding in outcome.findings],
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def printed(outcome: Outcome) -> str:
    return json.dumps(log(outcome), indent=2, ensure_ascii=False) + "\n"
