"""`--format junit`: JUnit XML, for the test tabs of CI.

One test suite for the command, one test case per rule that ran: a rule fails with its
error findings, and its warnings and notes are its `system-out`. Sources that do not load
fail the case `source-invalid`; a server not reached is an error of the suite's own case.
Characters XML 1.0 cannot hold (a server may send them) are written as `\\uXXXX`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ...rules import Level
from ..finding import Finding, Outcome
from .common import rules_reported

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _line(finding: Finding) -> str:
    where = finding.file + (f":{finding.line}" if finding.line is not None else "")
    where += f":{finding.column}" if finding.line is not None and finding.column is not None else ""
    return xml_text(f"{where}: [{finding.level}] {finding.described()}")


def _case(suite: ET.Element, classname: str, name: str, findings: list[Finding]) -> bool:
    """The test case of one rule; whether it failed."""
    case = ET.SubElement(suite, "testcase", {"classname": classname, "name": name})
    errors = [f for f in findings if f.level == Level.ERROR]
    others = [f for f in findings if f.level != Level.ERROR]
    if errors:
        failure = ET.SubElement(case, "failure", {"type": name, "message": f"{len(errors)} error(s)"})
        failure.text = "\n".join(map(_line, errors))
    if others:
        ET.SubElement(case, "system-out").text = "\n".join(map(_line, others))
    return bool(errors)


def printed(outcome: Outcome) -> str:
    classname = f"mcp-contracts.{outcome.command}"
    root = ET.Element("testsuites", {"name": "mcp-contracts"})
    suite = ET.SubElement(root, "testsuite", {"name": f"mcp-contracts {outcome.command}"})
    failures = 0
    rules = rules_reported(outcome)
    for rule in rules:
        failures += _case(suite, classname, rule.id, [f for f in outcome.findings if f.rule == rule.id])
    errors = 0
    if outcome.problem is not None:
        case = ET.SubElement(suite, "testcase", {"classname": classname, "name": outcome.command})
        ET.SubElement(case, "error", {"message": xml_text(outcome.problem)})
        errors = 1
    tests = len(rules) + errors
    for element in (root, suite):
        element.set("tests", str(tests))
        element.set("failures", str(failures))
        element.set("errors", str(errors))
    suite.set("skipped", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
