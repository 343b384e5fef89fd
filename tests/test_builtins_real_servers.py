"""The built-in contracts against the real servers of their seeds (issue 30, point 11).

code-scalpel (seed 000) is served by `codescalpel mcp` and foundry (seed 001) by `foundry-mcp`,
both from the package index, pinned, each in a virtual environment of its own
(tests/reference_servers.py's machinery). The built-ins carry the tools, input schemas and
lists of those servers (brought in by `import`), and each seed's envelope and catalogue: so
`conform` reports only what the servers really break, which these tests pin (rule, pointer,
subject and revision count; not whole messages). Slow (about a minute to install, 40 s a
conform run): `pytest -m slow`, as CI runs it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conform_json import conform_report
from conftest import SCHEMAS, run_folder, run_process
from reference_servers import ReferenceServers, reference_environment

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("builtin-servers")]

# Measured together: each installs beside mcp 1.30.0 (both need mcp<2), pdf extra for foundry's import of pypdf.
CODE_SCALPEL_PINS = ("codescalpel==2.1.4", "mcp==1.30.0")
FOUNDRY_PINS = ("foundry-mcp[pdf]==0.16.0", "mcp==1.30.0", "fastmcp==3.4.11", "pypdf==7.1.1")
EVERY_REVISION = 3  # 2025-03-26, -06-18 and -11-25, where each example is called
LISTED_WITH_OUTPUT = 2  # 2025-06-18 and -11-25, where a listing carries outputSchema
CODE_SCALPEL_STRUCTURED = [
    "analyze_code", "unified_sink_detect", "type_evaporation_scan", "scan_dependencies", "security_scan",
    "symbolic_execute", "generate_unit_tests", "simulate_refactor", "extract_code", "update_symbol",
    "crawl_project", "get_file_context", "get_symbol_references",
]  # fmt: skip
CODE_SCALPEL_LATER = ["validate_paths", "verify_policy_integrity", "rename_symbol", "code_policy_check"]


def _environment(tmp_path_factory: pytest.TempPathFactory, worker_id: str, name: str, pins: tuple[str, ...]) -> Path:
    return reference_environment(run_folder(tmp_path_factory, worker_id), name, pins).venv


def _conform(contract: str, command: list[str], cwd: Path) -> tuple[dict[str, object], Counter[tuple[str, str, str]]]:
    """conform of the built-in `contract` against `command`, started in `cwd` (code-scalpel writes
    its `.code-scalpel/` there): the report and its errors by (rule, pointer, subject), each the
    number of revisions its one finding lists.
    A request may take a minute: codescalpel takes 10 s and more to start on a busy machine."""
    done = run_process(
        "conform", "--schemas", str(SCHEMAS), "--contract", contract, "--format", "json", "--timeout", "60",
        "--", *command, cwd=cwd,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-2000:]
    report = conform_report(done.stdout)
    errors: Counter[tuple[str, str, str]] = Counter()
    for finding in report["findings"]:
        subject = finding["subject"].split("(")[0].split(".")[0].removeprefix("tools/list ")
        key = (finding["rule"], finding["pointer"], subject)
        if finding["level"] == "error":
            assert key not in errors, f"one fault, one finding: {key} twice"
            errors[key] = len(finding["revisions"])
    return report, errors


def test_code_scalpel_breaks_only_what_it_breaks(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> None:
    venv = _environment(tmp_path_factory, worker_id, "code-scalpel-server", CODE_SCALPEL_PINS)
    folder = tmp_path_factory.mktemp("code-scalpel")
    report, errors = _conform("code-scalpel", [ReferenceServers(venv)._bin("codescalpel"), "mcp"], folder)
    tools = [*CODE_SCALPEL_STRUCTURED, "get_call_graph", "get_graph_neighborhood", "get_project_map"]
    tools += ["get_cross_file_dependencies", "cross_file_security_scan", *CODE_SCALPEL_LATER, "get_capabilities"]
    structured = [*CODE_SCALPEL_STRUCTURED, *CODE_SCALPEL_LATER, "get_capabilities"]
    # The server lists its own envelope (every field nullable, no tiers), not seed 000's.
    expected = Counter(
        {("output-schema-differs", f"/tools/{tools.index(t)}", t): LISTED_WITH_OUTPUT for t in structured}
    )
    expected[("revision-unsupported", "", "server/discover")] = 1  # it speaks up to 2025-11-25
    # It answers with request_id, capabilities, duration_ms... null, which seed 000 types.
    expected[("invalid-result", "/tools/4/examples/0", "security_scan")] = EVERY_REVISION
    # A missing file: an error envelope with isError false and a code not in seed 000's catalogue.
    # One finding says the code differs from the example's, and that the catalogue lacks it.
    for rule in ("invalid-result", "is-error-mismatch", "example-code-differs"):
        expected[(rule, "/tools/8/examples/0", "extract_code")] = EVERY_REVISION
    assert errors == expected
    findings = report["findings"]
    nulls = [f["message"] for f in findings if f["rule"] == "invalid-result" and "security_scan" in f["subject"]]
    for field, kind in (("capabilities", "array"), ("duration_ms", "number"), ("request_id", "string")):
        assert all(f'/{field}: null is not of type "{kind}"' in message for message in nulls), nulls
    extract = [f["message"] for f in report["findings"] if f["rule"] == "example-code-differs"]
    assert all("'correction_needed'" in message for message in extract), extract


def test_foundry_breaks_only_what_it_breaks(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> None:
    venv = _environment(tmp_path_factory, worker_id, "foundry-server", FOUNDRY_PINS)
    folder = tmp_path_factory.mktemp("foundry")
    report, errors = _conform("foundry", [ReferenceServers(venv)._bin("foundry-mcp")], folder)
    # spec's error answers (seed 001's envelope, success false) come with isError false.
    # The first expects VALIDATION_ERROR and gets MISSING_REQUIRED; the second expects a success.
    expected = Counter({("is-error-mismatch", "/tools/10/examples/0", "spec"): EVERY_REVISION})
    expected[("example-code-differs", "/tools/10/examples/0", "spec")] = EVERY_REVISION
    expected[("example-is-error", "/tools/10/examples/1", "spec")] = EVERY_REVISION
    expected[("revision-unsupported", "", "server/discover")] = 1
    assert errors == expected
    mismatches = sorted(f["message"] for f in report["findings"] if f["rule"] != "revision-unsupported")
    assert any("'MISSING_REQUIRED'" in message for message in mismatches), mismatches
    assert any("'NOT_FOUND'" in message for message in mismatches), mismatches
