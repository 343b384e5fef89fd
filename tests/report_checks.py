"""What reads the printers' output, as the format tests check it: the published SARIF 2.1.0
schema (tests/data/sarif, pinned by its digest) and GitHub's workflow command syntax."""

from __future__ import annotations

import json
import re
from typing import Any

from conftest import ROOT, load_json
from jsonschema import Draft4Validator

SARIF_DATA = ROOT / "tests" / "data" / "sarif"
SARIF_SCHEMA = load_json(SARIF_DATA / "sarif-schema-2.1.0.json")
SARIF_DIGEST = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
GITHUB_LINE = re.compile(r"^::(error|warning|notice) file=[^,:]+,line=[1-9][0-9]*(,col=[1-9][0-9]*)?,title=[^:,]+::.*$")


def assert_sarif(text: str) -> dict[str, Any]:
    """`text` is a SARIF 2.1.0 log the published schema accepts, formats (`uri`) included."""
    log = json.loads(text)
    validator = Draft4Validator(SARIF_SCHEMA, format_checker=Draft4Validator.FORMAT_CHECKER)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(log)]
    assert errors == [], errors
    return log  # type: ignore[no-any-return]
