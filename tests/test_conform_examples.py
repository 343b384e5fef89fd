"""What an example says, `conform` decides: the `result` file of an example call is a success
or an error of one code, and the answer must be the same branch with the same code (and, with
`match:`, the same values). Each departure is one finding at the example's line, and the
findings of judging the result that it explains are left out.

The server is tests/servers/raw_server.py (no SDK: any answer at all), listing the tool
exactly as the contract publishes it, so that every finding comes from the answer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import run_cli
from mcp_servers import RAW

SPOKEN = ("--protocol", "2025-06-18")  # the one revision the bare server speaks
SUCCESS = {"success": True, "data": {"id": 1, "title": "Dune"}}
FAILURE = {"success": False, "error": {"code": "not_found", "message": "No such book."}}
ERRORS = """\
errors:
  - {code: not_found, retryable: false, http_status: 404, message: No such book., description: Nothing has that id.}
  - {code: rate_limited, retryable: true, http_status: 429, message: Slow down., description: Too many calls.}
  - {code: unlisted, retryable: false, http_status: 400, message: Unlisted., description: No tool declares it.}
"""
TOOLS = """\
tools:
  - name: get_book
    description: A book.
    mutation: false
    annotations: {destructiveHint: false, idempotentHint: true, openWorldHint: false}
    possible_error_codes: [not_found, rate_limited]
    inputSchema:
      type: object
      properties:
        id: {type: integer}
    examples:
      - arguments: {id: 1}
        result: {result}
"""


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `init` scaffold made a catalogue of three codes and one tool, `get_book`, with the
    two examples `success.json` and `failure.json`."""
    root = tmp_path_factory.mktemp("books")
    assert run_cli("init", "shop", cwd=root).returncode == 0
    folder = root / "schemas" / "contracts" / "shop"
    (folder / "errors.yaml").write_text(ERRORS, encoding="utf-8")
    envelope = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    envelope["$defs"]["ToolError"]["properties"]["code"]["enum"] = ["not_found", "rate_limited", "unlisted"]
    (folder / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    (folder / "examples" / "success.json").write_text(json.dumps(SUCCESS), encoding="utf-8")
    (folder / "examples" / "failure.json").write_text(json.dumps(FAILURE), encoding="utf-8")
    (folder / "tools.yaml").write_text(TOOLS.replace("{result}", "failure.json"), encoding="utf-8")
    assert run_cli("generate", cwd=root).returncode == 0
    return root


@pytest.fixture
def project(books: Path, tmp_path: Path) -> Path:
    shutil.copytree(books, tmp_path / "books")
    return tmp_path / "books"


def _tools(project: Path, example: str = "        result: failure.json\n") -> Path:
    tools = project / "schemas" / "contracts" / "shop" / "tools.yaml"
    tools.write_text(TOOLS.replace("        result: {result}\n", example), encoding="utf-8")
    return tools


def _listing(project: Path) -> str:
    """The tool as the contract publishes it (the raw server lists it so)."""
    listed = (project / "generated" / "mcp" / "shop.tools.json").read_text(encoding="utf-8")
    [tool] = json.loads(listed)["tools"]
    return json.dumps({"outputSchema": None, **tool})  # null: the raw server lists none


def _answer(document: Any, is_error: bool, text: str | None = None) -> str:
    content = [{"type": "text", "text": text if text is not None else json.dumps(document)}]
    result: dict[str, Any] = {"content": content, "isError": is_error}
    if document is not None:
        result["structuredContent"] = document
    return json.dumps(result)


def _conform(project: Path, answer: str) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    command = ("conform", "--contract", "shop", "--format", "json", "--timeout", "5", *SPOKEN)
    result = run_cli(*command, "--", *RAW, answer, "--tool", _listing(project), cwd=project)
    assert "Traceback" not in result.stderr, result.stderr
    report = conform_report(result.stdout)
    assert report["problem"] is None, report
    return result.returncode, report["findings"], json.loads(result.stdout)


def _one(findings: list[dict[str, Any]]) -> dict[str, Any]:
    assert len(findings) == 1, [(f["rule"], f["message"]) for f in findings]
    [finding] = findings
    line = TOOLS.splitlines().index("      - arguments: {id: 1}") + 1
    assert (finding["file"], finding["line"], finding["pointer"]) == (
        "schemas/contracts/shop/tools.yaml",
        line,
        "/tools/0/examples/0",
    )
    return finding


@pytest.mark.quiet(
    "example-not-error",
    "example-code-differs",
    "example-error-unstructured",
    "example-is-error",
    "is-error-mismatch",
)
def test_an_error_example_answered_with_its_error_conforms(books: Path) -> None:
    code, findings, report = _conform(books, _answer(FAILURE, True))
    assert (code, findings) == (0, [])
    assert report["facts"]["calls_failed"] == 0


@pytest.mark.fires("example-not-error")
def test_an_error_example_answered_with_a_success_is_one_error(project: Path) -> None:
    """Before: exit 0, no finding (the document is valid, isError agrees with it)."""
    code, findings, report = _conform(project, _answer(SUCCESS, False))
    finding = _one(findings)
    assert (code, finding["rule"], finding["level"]) == (1, "example-not-error", "error")
    assert finding["message"] == "a success, though the example expects the error 'not_found' (examples/failure.json)"
    assert report["facts"]["calls_failed"] == 1


@pytest.mark.fires("example-code-differs")
@pytest.mark.parametrize(
    ("answered", "said"),
    [
        ("rate_limited", "the error 'rate_limited'"),
        ("unlisted", "the error 'unlisted', which the tool does not declare"),
    ],
)
def test_an_error_example_answered_with_another_code_is_one_error_naming_both(
    project: Path, answered: str, said: str
) -> None:
    """Before: a declared code gave exit 0 and no finding; an undeclared one only `undeclared-error-code`."""
    other = {"success": False, "error": {"code": answered, "message": "Slow down."}}
    code, findings, _ = _conform(project, _answer(other, True))
    finding = _one(findings)
    assert (code, finding["rule"]) == (1, "example-code-differs")
    assert finding["message"] == f"{said}, though the example expects 'not_found' (examples/failure.json)"


@pytest.mark.fires("example-error-unstructured")
def test_an_error_example_answered_by_a_crash_is_an_error_not_a_warning(project: Path) -> None:
    """The Python SDK's answer to a handler that raised (a `KeyError`): `isError` and text.
    Before: only `error-not-structured [warning]`, exit 0."""
    crash = _answer(None, True, "Error executing tool get_book: 4")
    code, findings, _ = _conform(project, crash)
    finding = _one(findings)
    assert (code, finding["rule"], finding["level"]) == (1, "example-error-unstructured", "error")
    assert finding["message"] == (
        "an error without the envelope of 'not_found' that the example names (examples/failure.json):"
        ' "Error executing tool get_book: 4"'
    )


def test_an_error_envelope_without_its_code_is_one_finding_that_says_where(project: Path) -> None:
    """Before: three errors, one of which called `"success": false` a success."""
    coded = {"success": False, "error": {"message": "No such book."}}
    code, findings, _ = _conform(project, _answer(coded, True))
    finding = _one(findings)
    assert (code, finding["rule"]) == (1, "invalid-result")
    assert (
        finding["message"]
        == 'isError result: the contract refuses the result: /error/code: "code" is a required property'
    )
    assert "success" not in finding["message"].replace('"success"', "")


def test_a_success_example_answered_with_an_error_envelope_is_example_is_error(project: Path) -> None:
    _tools(project, "        result: success.json\n")
    code, findings, _ = _conform(project, _answer(FAILURE, True))
    finding = _one(findings)
    assert (code, finding["rule"]) == (1, "example-is-error")
    assert (
        finding["message"] == "the error 'not_found', though the example call expects a success (examples/success.json)"
    )


@pytest.mark.fires("example-document-differs")
@pytest.mark.parametrize(
    ("match", "said"),
    [
        ("exact", '"Dune 2" at /data/title, where examples/success.json has "Dune"'),
        ("[/data/title]", '"Dune 2" at /data/title, where examples/success.json has "Dune"'),
    ],
)
def test_match_asks_for_the_example_s_values(project: Path, match: str, said: str) -> None:
    _tools(project, f"        result: success.json\n        match: {match}\n")
    other = {"success": True, "data": {"id": 1, "title": "Dune 2"}}
    code, findings, _ = _conform(project, _answer(other, False))
    finding = _one(findings)
    assert (code, finding["rule"]) == (1, "example-document-differs")
    assert finding["message"] == said


@pytest.mark.quiet("example-document-differs")
def test_match_of_pointers_leaves_every_other_value_free(project: Path) -> None:
    _tools(project, "        result: success.json\n        match: [/data/id, /success]\n")
    other = {"success": True, "data": {"id": 1, "title": "Dune 2"}}
    assert _conform(project, _answer(other, False))[:2] == (0, [])


@pytest.mark.fires("example-match-unresolved")
def test_lint_says_a_match_pointer_that_names_nothing(project: Path) -> None:
    tools = _tools(project, "        result: success.json\n        match: [/data/id, /data/author]\n")
    result = run_cli("lint", "--format", "json", cwd=project)
    found = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "example-match-unresolved"]
    assert result.returncode == 1, result.stdout
    line = tools.read_text(encoding="utf-8").splitlines().index("        match: [/data/id, /data/author]") + 1
    assert [(f["level"], f["line"], f["pointer"], f["message"]) for f in found] == [
        (
            "error",
            line,
            "/tools/0/examples/0/match/1",
            "'get_book': '/data/author' names nothing in examples/success.json",
        )
    ]


@pytest.mark.quiet("example-match-unresolved")
def test_lint_accepts_match_pointers_that_name_values(project: Path) -> None:
    _tools(project, "        result: success.json\n        match: [/data/title, /success]\n")
    result = run_cli("lint", "--format", "json", cwd=project)
    assert not [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "example-match-unresolved"]


def test_match_without_a_result_is_refused_at_its_line(project: Path) -> None:
    tools = _tools(project, "        match: exact\n")
    result = run_cli("generate", cwd=project)
    assert result.returncode == 2
    assert f"{tools.relative_to(project)}:" in result.stderr + result.stdout
    assert "result" in result.stderr + result.stdout


@pytest.mark.fires("unknown-error-code")
def test_a_code_the_catalogue_lacks_is_said_where_the_schema_does_not_say_it(project: Path) -> None:
    """Where the envelope takes any string for a code (no `catalogue_bindings`), the judge
    says the code is unknown; where its enum binds the codes, `invalid-result` said it."""
    folder = project / "schemas" / "contracts" / "shop"
    contract = folder / "contract.yaml"
    text = contract.read_text(encoding="utf-8")
    contract.write_text(text.replace("  - pointer: /$defs/ToolError/properties/code\n", ""), encoding="utf-8")
    contract.write_text(contract.read_text(encoding="utf-8").replace("catalogue_bindings:\n", ""), encoding="utf-8")
    envelope = json.loads((folder / "envelope.schema.json").read_text(encoding="utf-8"))
    envelope["$defs"]["ToolError"]["properties"]["code"] = {"type": "string", "description": "A code."}
    (folder / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    bogus = {"success": False, "error": {"code": "bogus", "message": "No such book."}}
    code, findings, _ = _conform(project, _answer(bogus, True))
    assert code == 1
    assert [(f["rule"], f["message"]) for f in findings] == [
        (
            "example-code-differs",
            "the error 'bogus', not a code of the catalogue, though the example expects 'not_found'"
            " (examples/failure.json)",
        )
    ]
    _tools(project, "        result: success.json\n")
    code, findings, _ = _conform(project, _answer(bogus, True))
    assert sorted((f["rule"], f["message"]) for f in findings) == [
        ("example-is-error", "the error 'bogus', though the example call expects a success (examples/success.json)"),
        ("unknown-error-code", "isError result: 'bogus' is not a code of the catalogue"),
    ]


@pytest.mark.fires("undeclared-error-code")
def test_a_code_the_tool_does_not_declare_is_said_beside_a_success_example_s_verdict(project: Path) -> None:
    """An error where the example expects a success: the verdict says it is an error, the judge
    that its code is not one the tool declares (no example names that code)."""
    _tools(project, "        result: success.json\n")
    unlisted = {"success": False, "error": {"code": "unlisted", "message": "Unlisted."}}
    code, findings, _ = _conform(project, _answer(unlisted, True))
    assert code == 1
    assert sorted((f["rule"], f["message"]) for f in findings) == [
        ("example-is-error", "the error 'unlisted', though the example call expects a success (examples/success.json)"),
        (
            "undeclared-error-code",
            "isError result: 'unlisted' is not among the codes the tool declares (not_found, rate_limited)",
        ),
    ]


def test_the_envelope_in_text_only_where_errors_are_structured_is_one_error(project: Path) -> None:
    """The error example's envelope, in text content without `structuredContent`: clients of a
    tool with an output schema look for it there. Before: `error-not-structured [warning]`, exit 0."""
    code, findings, _ = _conform(project, _answer(None, True, json.dumps(FAILURE)))
    finding = _one(findings)
    assert (code, finding["rule"]) == (1, "example-error-unstructured")
    assert finding["message"] == (
        "the envelope of 'not_found' in text content only, though the contract's errors are structured"
        " (no structuredContent) (examples/failure.json)"
    )


def test_a_crash_on_an_error_example_of_a_content_tool_is_an_error(project: Path) -> None:
    """A tool whose results are content (`result.structured: false`) fails with its envelope
    in text: a crash's message holds none. Before: no finding, exit 0."""
    tools = _tools(project)
    text = tools.read_text(encoding="utf-8").replace(
        "    mutation: false\n", "    mutation: false\n    result: {structured: false}\n"
    )
    tools.write_text(text, encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    code, findings, _ = _conform(project, _answer(None, True, "Error executing tool get_book: 404"))
    assert code == 1
    assert [(f["rule"], f["message"]) for f in findings] == [
        (
            "example-error-unstructured",
            "an error without the envelope of 'not_found' that the example names (examples/failure.json):"
            ' "Error executing tool get_book: 404"',
        )
    ]


def test_without_builders_an_example_s_branch_is_not_judged(project: Path) -> None:
    """Without `builders:` nothing says where a document's code is: an error example answered
    with its error is no `example-is-error` (it was, whatever the example's `result` said)."""
    contract = project / "schemas" / "contracts" / "shop" / "contract.yaml"
    text = contract.read_text(encoding="utf-8")
    start = text.index("# The builders generated")
    end = text.index("  message: /error/message\n") + len("  message: /error/message\n")
    contract.write_text(text[:start] + text[end:], encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    assert _conform(project, _answer(FAILURE, True))[:2] == (0, [])


def test_an_error_envelope_without_isError_at_a_success_example_says_what_it_is(project: Path) -> None:
    """`success: false` without its code, `isError` false: no message says `isError: true`."""
    _tools(project, "        result: success.json\n")
    coded = {"success": False, "error": {"message": "No such book."}}
    code, findings, _ = _conform(project, _answer(coded, False))
    assert code == 1
    said = {f["rule"]: f["message"] for f in findings}
    assert (
        said["example-is-error"]
        == "an error envelope, though the example call expects a success (examples/success.json)"
    )
    assert "isError: true" not in " ".join(said.values())
