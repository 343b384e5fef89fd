"""A catalogue entry the generated error builders cannot build is refused at its line.

`error_response(code)` with no other argument builds an entry's envelope from the catalogue
alone: its code, its message (the catalogue's, where the caller gives none) and each column a
`derived:` pointer names (null where the entry has none). An envelope the schema refuses is a
ValidationError at run time, on the error path; `generate` and `lint` say it at the entry's
line instead (exit 2, nothing written). What a builder can build still generates and works.

Also here, the other half of "caught at the source": `lint`'s `property-described` asks for the
descriptions of declared properties, not of the conditions an `if` or a `not` holds.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import generated_package, run_cli, tree_bytes

SHOP = Path("schemas") / "contracts" / "shop"


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One `init shop` project, generated once, copied by each test."""
    root = tmp_path_factory.mktemp("scaffold")
    assert run_cli("init", "shop", cwd=root).returncode == 0
    generated = run_cli("generate", cwd=root)
    assert generated.returncode == 0, generated.stderr
    return root


@pytest.fixture
def project(scaffold: Path, tmp_path: Path) -> Path:
    shutil.copytree(scaffold, tmp_path / "project")
    return tmp_path / "project"


def _edit(path: Path, old: str, new: str) -> None:
    """`old` replaced by `new` in the file, once; an empty `old` appends `new`."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")


def _envelope(project: Path, change: Any) -> None:
    """The envelope schema changed by `change(schema)`, in place."""
    path = project / SHOP / "envelope.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    change(schema)
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")


def _tool_error(schema: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = schema["$defs"]["ToolError"]
    return found


def _add_error(project: Path, entry: str, code: str) -> None:
    """An entry appended to errors.yaml, its code added to the envelope's (bound) enum."""
    _edit(project / SHOP / "errors.yaml", "", entry)
    _envelope(project, lambda schema: _tool_error(schema)["properties"]["code"]["enum"].append(code))


def _derive_status(project: Path, status: dict[str, Any], required: bool = False) -> None:
    """`/error/status` of the envelope (`status`), filled by the builders from `http_status`."""

    def change(schema: dict[str, Any]) -> None:
        _tool_error(schema)["properties"]["status"] = {**status, "description": "The HTTP status."}
        if required:
            _tool_error(schema)["required"].append("status")

    _envelope(project, change)
    _edit(project / SHOP / "contract.yaml", "", "  derived:\n    /error/status: http_status\n")


def _line_of(project: Path, file: str, needle: str) -> int:
    lines = (project / SHOP / file).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, start=1) if needle in line)


def _refused(project: Path, file: str, needle: str, said: str) -> None:
    """`generate` and `check` exit 2 naming `file` at the line of `needle` with `said`, and
    write nothing; `lint` has the same as a `source-invalid` error there."""
    line = _line_of(project, file, needle)
    before = tree_bytes(project / "generated")
    result = run_cli("generate", cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert re.search(rf"schemas/contracts/shop/{file}:{line}: .*{said}", result.stderr), result.stderr
    assert tree_bytes(project / "generated") == before, "generated/ must stay exactly as it was"
    assert run_cli("check", cwd=project).returncode == 2
    linted = run_cli("lint", "--format", "json", cwd=project)
    assert linted.returncode == 2, linted.stdout
    invalid = [f for f in json.loads(linted.stdout)["findings"] if f["rule"] == "source-invalid"]
    assert [(f["file"], f["line"]) for f in invalid] == [(f"schemas/contracts/shop/{file}", line)], invalid
    assert re.search(said, invalid[0]["message"]), invalid[0]["message"]


def _generates(project: Path) -> None:
    result = run_cli("generate", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr


NO_MESSAGE = "  - code: no_message\n    retryable: true\n    http_status: 503\n    description: No message.\n"


@pytest.mark.fires("source-invalid")
def test_an_entry_without_the_message_the_envelope_requires_is_refused_at_its_line(project: Path) -> None:
    _add_error(project, NO_MESSAGE, "no_message")
    _refused(project, "errors.yaml", "code: no_message", r"'no_message' has no message, which the envelope requires")


@pytest.mark.fires("source-invalid")
def test_an_entry_without_a_derived_column_is_refused_where_the_schema_refuses_null(project: Path) -> None:
    """The builder puts null where the entry has no value: refused by `"type": "integer"`,
    whether or not the schema requires the member."""
    _derive_status(project, {"type": "integer"})
    entry = "  - code: no_status\n    retryable: true\n    message: M\n    description: No status.\n"
    _add_error(project, entry, "no_status")
    _refused(project, "errors.yaml", "code: no_status", r"'no_status' has no http_status, .* at /error/status")


@pytest.mark.parametrize(
    ("entry", "change", "needle", "said"),
    [
        (
            "  - code: long\n    http_status: 400\n    message: Far too long a message\n    description: D.\n",
            lambda schema: _tool_error(schema)["properties"]["message"].update(maxLength=15),
            "message: Far too long",
            r"the envelope refuses the message of 'long' at /error/message: .*longer than 15",
        ),
        (
            "  - code: long\n    http_status: 700\n    message: M\n    description: D.\n",
            lambda schema: _tool_error(schema)["properties"]["status"].update(maximum=599),
            "http_status: 700",
            r"the envelope refuses the http_status of 'long' at /error/status: 700 is greater than",
        ),
    ],
    ids=["message", "derived"],
)
@pytest.mark.fires("source-invalid")
def test_a_value_the_envelope_refuses_where_the_builder_puts_it_is_refused_at_its_line(
    project: Path, entry: str, change: Any, needle: str, said: str
) -> None:
    _derive_status(project, {"type": "integer"})
    _envelope(project, change)
    _add_error(project, entry, "long")
    _refused(project, "errors.yaml", needle, said)


@pytest.mark.fires("source-invalid")
def test_a_code_the_envelope_refuses_where_the_builder_puts_it_is_refused_at_its_line(project: Path) -> None:
    """No binding lists the codes here: the schema's own pattern refuses one."""
    _edit(project / SHOP / "contract.yaml", "catalogue_bindings:\n  - pointer: /$defs/ToolError/properties/code\n", "")
    code = {"pattern": "^[a-z_]+$", "description": "A code."}
    _envelope(project, lambda schema: _tool_error(schema)["properties"].update(code=code))
    entry = "  - code: Shouting\n    http_status: 400\n    message: M\n    description: D.\n"
    _edit(project / SHOP / "errors.yaml", "", entry)
    _refused(project, "errors.yaml", "code: Shouting", r"the envelope refuses the code 'Shouting' at /error/code")


def test_an_entry_given_its_derived_value_by_its_error_type_builds(project: Path) -> None:
    """An entry's missing column is its error type's, where both tables declare it: the
    builder puts the error type's value, and the entry is not refused."""
    _derive_status(project, {"type": "integer"}, required=True)
    _edit(
        project / SHOP / "contract.yaml",
        "  tools:\n",
        "  error_types:\n    http_status: {type: integer, description: The status of the type's codes.}\n  tools:\n",
    )
    entry = "  - code: busy\n    error_type: overload\n    retryable: true\n    message: Busy\n    description: D.\n"
    _add_error(project, entry, "busy")
    _edit(project / SHOP / "errors.yaml", "", "error_types:\n  - name: overload\n    http_status: 503\n")
    _generates(project)
    with generated_package(project / "generated", "shop", "shop_contracts") as shop:
        built = shop.builders.error_response("busy").model_dump(mode="json")
        assert built["error"] == {"code": "busy", "message": "Busy", "status": 503}
        assert shop.builders.error_document("example_error")["error"]["status"] == 400


@pytest.mark.fires("source-invalid")
def test_an_entry_whose_error_type_lacks_the_derived_column_too_is_refused(project: Path) -> None:
    _derive_status(project, {"type": "integer"})
    _edit(
        project / SHOP / "contract.yaml",
        "  tools:\n",
        "  error_types:\n    http_status: {type: integer, description: The status of the type's codes.}\n  tools:\n",
    )
    entry = "  - code: busy\n    error_type: overload\n    message: Busy\n    description: D.\n"
    _add_error(project, entry, "busy")
    _edit(project / SHOP / "errors.yaml", "", "error_types:\n  - name: overload\n    description: No status.\n")
    _refused(project, "errors.yaml", "code: busy", r"'busy' has no http_status \(nor has its error type 'overload'\)")


def _require_meta(schema: dict[str, Any]) -> None:
    """A member every failure has that the caller gives: no default, no null."""
    failure = schema["$defs"]["FailureEnvelope"]
    failure["properties"]["meta"] = {"type": "object", "required": ["took"], "description": "Call facts."}
    failure["required"].append("meta")


@pytest.mark.fires("source-invalid")
def test_a_member_the_caller_gives_neither_hides_nor_makes_a_fault_of_an_entry(project: Path) -> None:
    """The envelope refuses every document without `meta`, which the caller gives: that is
    not the entry's fault; a missing message still is (a failure example's `meta` or none)."""
    _envelope(project, _require_meta)
    failure = {"success": False, "error": {"code": "example_error", "message": "M"}, "meta": {"took": 1}}
    (project / SHOP / "examples" / "failure.json").write_text(json.dumps(failure), encoding="utf-8")
    _generates(project)
    with generated_package(project / "generated", "shop", "shop_contracts") as shop:
        built = shop.builders.error_document("example_error", meta={"took": 2})
        assert built["meta"] == {"took": 2}
    _add_error(project, NO_MESSAGE, "no_message")
    _refused(project, "errors.yaml", "code: no_message", r"'no_message' has no message")
    (project / SHOP / "examples" / "failure.json").unlink()
    _refused(project, "errors.yaml", "code: no_message", r"'no_message' has no message")


def test_what_the_builders_can_build_generates_and_builds(project: Path) -> None:
    """A missing value where the schema accepts null, and a missing message where the schema
    does not require one, build: the rule refuses only what `error_response` would."""
    _derive_status(project, {"type": ["integer", "null"]})
    _envelope(project, lambda schema: _tool_error(schema)["required"].remove("message"))
    _add_error(project, "  - code: bare\n    description: Only a description.\n", "bare")
    _generates(project)
    with generated_package(project / "generated", "shop", "shop_contracts") as shop:
        assert shop.builders.error_document("bare")["error"] == {"code": "bare", "status": None}


def test_a_message_no_entry_gives_is_the_callers_to_give(project: Path) -> None:
    """Where no entry has a message, the builders take it as a required parameter: no entry
    lacks what the builder fills."""
    _edit(project / SHOP / "errors.yaml", "    message: Example error\n", "")
    _generates(project)
    with generated_package(project / "generated", "shop", "shop_contracts") as shop:
        with pytest.raises(TypeError, match="message"):
            shop.builders.error_response("example_error")
        built = shop.builders.error_response("example_error", "given").model_dump(mode="json")
        assert built["error"] == {"code": "example_error", "message": "given"}


def _described_findings(project: Path) -> list[str]:
    result = run_cli("lint", "--format", "json", cwd=project)
    findings = json.loads(result.stdout)["findings"]
    return sorted(f["pointer"] for f in findings if f["rule"] == "property-described")


@pytest.mark.fires("property-described")
def test_property_described_leaves_the_conditions_of_if_and_not_alone(project: Path) -> None:
    """`properties` inside `if` or `not` is a condition on a document, not a declaration of
    its members; `then` and `else` still declare theirs."""

    def change(schema: dict[str, Any]) -> None:
        failure = schema["$defs"]["FailureEnvelope"]
        failure["if"] = {"properties": {"data": {"type": "null"}, "error": {"properties": {"code": {"const": "x"}}}}}
        failure["then"] = {"properties": {"error": {"required": ["message"]}}}
        failure["else"] = {"properties": {"data": {"type": "object"}}}
        failure["not"] = {"properties": {"success": {"const": True}}}
        _tool_error(schema)["not"] = {"anyOf": [{"properties": {"message": {"const": ""}}, "required": ["message"]}]}

    _envelope(project, change)
    assert _described_findings(project) == [
        "/$defs/FailureEnvelope/else/properties/data",
        "/$defs/FailureEnvelope/then/properties/error",
    ]
