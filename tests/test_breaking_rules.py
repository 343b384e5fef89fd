"""Each rule of `breaking`, made to fire and kept quiet, on a repository made by `init`.

The base is the scaffold `init` writes (a root `oneOf` of a success and a failure tagged by
`success`), committed in a real git repository, with a few tools beside it: one with an
input schema, one with its own `outputSchema`, one whose results are text, one plain. Each
case edits the work tree and runs `breaking --against HEAD --format json`; the rules it
must report and those it must not are the test's own `fires` and `quiet` marks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from mcp_contracts_generator.breaking.differ import RESPONSE, Differ
from mcp_contracts_generator.breaking.shape import Side

CONTRACT = Path("schemas") / "contracts" / "demo"
ENVELOPE = "envelope.schema.json"
TOOLS = {
    "tools": [
        {
            "name": "example_tool",
            "title": "Example tool",
            "description": "A tool with arguments.",
            "mutation": False,
            "annotations": {"destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
            "possible_error_codes": ["example_error"],
            "inputSchema": {
                "type": "object",
                "required": ["text"],
                "properties": {
                    "text": {"type": "string", "maxLength": 100},
                    "mode": {"enum": ["a", "b"]},
                    "count": {"type": ["integer", "string"]},
                    "options": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {"verbose": {"type": "boolean"}},
                    },
                    "target": {
                        "oneOf": [
                            {"type": "object", "properties": {"kind": {"const": "id"}, "id": {"type": "integer"}}},
                            {"type": "object", "properties": {"kind": {"const": "name"}, "name": {"type": "string"}}},
                        ]
                    },
                },
            },
            "examples": [{"arguments": {"text": "hello"}, "result": "success.json"}],
        },
        {
            "name": "shaped_tool",
            "mutation": False,
            "outputSchema": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "name"],
                "properties": {
                    "id": {"type": "integer"},
                    "name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "kind": {"enum": ["a", "b"]},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
        {
            "name": "text_tool",
            "mutation": False,
            "result": {
                "structured": False,
                "content": ["text"],
                "text_schema": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}},
            },
        },
        {"name": "plain_tool", "mutation": False},
    ]
}


def _git(repo: Path, *args: str) -> None:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
    subprocess.run(command, cwd=repo, check=True, capture_output=True)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The base, committed: `init demo` and `init other`, and the tools above."""
    repo = tmp_path_factory.mktemp("base")
    _git(repo, "init", "--quiet")
    for name in ("demo", "other"):
        made = run_cli("init", name, cwd=repo)
        assert made.returncode == 0, made.stdout + made.stderr
    (repo / CONTRACT / "tools.yaml").write_text(json.dumps(TOOLS, indent=2), encoding="utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "--quiet", "-m", "base")
    return repo


@pytest.fixture
def repo(template: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    shutil.copytree(template, copy)
    return copy


def edit_json(repo: Path, name: str, change: Callable[[Any], None]) -> None:
    path = repo / CONTRACT / name
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def edit_text(repo: Path, name: str, old: str, new: str) -> None:
    path = repo / CONTRACT / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def envelope(change: Callable[[Any], None]) -> Callable[[Path], None]:
    return lambda repo: edit_json(repo, ENVELOPE, change)


def tool(index: int, change: Callable[[Any], None]) -> Callable[[Path], None]:
    return lambda repo: edit_json(repo, "tools.yaml", lambda t: change(t["tools"][index]))


def defs(data: Any, name: str) -> Any:
    return data["$defs"][name]


def judged(repo: Path) -> tuple[int, list[dict[str, Any]]]:
    result = run_cli("breaking", "--against", "HEAD", "--format", "json", cwd=repo)
    assert result.stdout.strip(), result.stderr
    return result.returncode, json.loads(result.stdout)["findings"]


def _chain(length: int, leaf: Any) -> dict[str, Any]:
    """`$defs` D0 .. D<length>, each an object whose `x` is the next (the last is `leaf`):
    an instance path `length` deep in a document that is not."""
    chain = {f"D{i}": {"type": "object", "properties": {"x": {"$ref": f"#/$defs/D{i + 1}"}}} for i in range(length)}
    return {**chain, f"D{length}": leaf}


def _pending_branch(data: Any) -> None:
    data["oneOf"].append({"$ref": "#/$defs/PendingEnvelope"})
    data["$defs"]["PendingEnvelope"] = {
        "type": "object",
        "additionalProperties": False,
        "required": ["success"],
        "properties": {"success": {"const": "pending"}},
    }


def _rename_code(repo: Path) -> None:
    for name in ("errors.yaml", "tools.yaml", ENVELOPE, "contract.yaml"):
        path = repo / CONTRACT / name
        path.write_text(path.read_text(encoding="utf-8").replace("example_error", "other_error"), encoding="utf-8")


def _new_code(repo: Path) -> None:
    edit_text(
        repo,
        "errors.yaml",
        "errors:\n",
        "errors:\n  - {code: new_error, retryable: true, http_status: 503, message: New}\n",
    )
    edit_json(repo, ENVELOPE, lambda d: defs(d, "ToolError")["properties"]["code"]["enum"].append("new_error"))


def _deep(repo: Path, leaf: Any) -> None:
    def change(output: Any) -> None:
        output["$defs"] = _chain(60, leaf)
        output["properties"]["deep"] = {"$ref": "#/$defs/D0"}

    edit_json(repo, "tools.yaml", lambda t: change(t["tools"][1]["outputSchema"]))


def _required_mode(repo: Path) -> None:
    """`mode` made required, and the example call given one (else it no longer loads)."""

    def change(tool: Any) -> None:
        tool["inputSchema"]["required"].append("mode")
        tool["examples"][0]["arguments"]["mode"] = "a"

    edit_json(repo, "tools.yaml", lambda t: change(t["tools"][0]))


def _rename_tool_error(repo: Path) -> None:
    def change(d: Any) -> None:
        d["$defs"]["Problem"] = d["$defs"].pop("ToolError")
        defs(d, "FailureEnvelope")["properties"]["error"]["$ref"] = "#/$defs/Problem"

    edit_json(repo, ENVELOPE, change)
    edit_text(repo, "contract.yaml", "/$defs/ToolError/", "/$defs/Problem/")


def _swap_inline(repo: Path) -> None:
    """The success branch written inline, and the message moved to `$defs`."""

    def change(d: Any) -> None:
        d["oneOf"][0] = d["$defs"].pop("SuccessEnvelope")
        d["$defs"]["Message"] = defs(d, "ToolError")["properties"]["message"]
        defs(d, "ToolError")["properties"]["message"] = {"$ref": "#/$defs/Message"}

    edit_json(repo, ENVELOPE, change)
    edit_text(repo, "contract.yaml", "success: /$defs/SuccessEnvelope", "success: /oneOf/0")


def _bump(version: str) -> Callable[[Path], None]:
    return lambda repo: edit_text(repo, "contract.yaml", 'version: "0.1.0"', f'version: "{version}"')


def _both(*edits: Callable[[Path], None]) -> Callable[[Path], None]:
    def run(repo: Path) -> None:
        for edit in edits:
            edit(repo)

    return run


def _deep_base(repo: Path) -> None:
    _deep(repo, {"type": "string"})
    _git(repo, "commit", "--quiet", "-am", "deep")


# (edit, the subject of the finding of the first `fires` rule)
CASES = [
    pytest.param(
        envelope(lambda d: defs(d, "SuccessEnvelope")["required"].remove("data")),
        "envelope [success=true]/data",
        marks=[
            pytest.mark.fires("property-optional", "version-not-bumped"),
            pytest.mark.quiet("property-removed", "response-type-widened"),
        ],
        id="success data made optional",
    ),
    pytest.param(
        envelope(lambda d: defs(d, "FailureEnvelope")["properties"].pop("data")),
        "envelope [success=false]/data",
        marks=[pytest.mark.fires("property-removed"), pytest.mark.quiet("property-optional", "property-added")],
        id="failure data removed",
    ),
    pytest.param(
        envelope(lambda d: defs(d, "FailureEnvelope").pop("required")),
        "envelope [success=false]/success",
        marks=[pytest.mark.fires("property-optional")],
        id="failure required dropped",
    ),
    pytest.param(
        envelope(lambda d: defs(d, "FailureEnvelope").update(additionalProperties=True)),
        "envelope [success=false]",
        marks=[pytest.mark.fires("object-opened"), pytest.mark.quiet("input-closed")],
        id="failure opened",
    ),
    pytest.param(
        envelope(lambda d: defs(d, "ToolError")["properties"]["message"].update(type=["string", "null"])),
        "envelope [success=false]/error/message",
        marks=[pytest.mark.fires("response-type-widened"), pytest.mark.quiet("input-type-narrowed")],
        id="message may be null",
    ),
    pytest.param(
        envelope(lambda d: defs(d, "ToolError")["properties"]["message"].pop("minLength")),
        "envelope [success=false]/error/message",
        marks=[pytest.mark.fires("response-bound-loosened"), pytest.mark.quiet("input-bound-tightened")],
        id="message minLength dropped",
    ),
    pytest.param(
        envelope(_pending_branch),
        'envelope [success="pending"]',
        marks=[
            pytest.mark.fires("response-branch-added"),
            pytest.mark.quiet("union-by-position", "input-branch-removed"),
        ],
        id="a third branch",
    ),
    pytest.param(
        envelope(lambda d: defs(d, "FailureEnvelope")["required"].append("data")),
        "envelope [success=false]/data",
        marks=[pytest.mark.fires("response-narrowed"), pytest.mark.quiet("property-optional", "input-required")],
        id="failure data made required",
    ),
    pytest.param(
        envelope(lambda d: defs(d, "SuccessEnvelope")["properties"].update(meta={"type": "object"})),
        "envelope [success=true]/meta",
        marks=[pytest.mark.fires("property-added"), pytest.mark.quiet("property-removed", "object-opened")],
        id="success gains meta",
    ),
    pytest.param(
        tool(1, lambda t: t["outputSchema"]["properties"]["kind"]["enum"].append("c")),
        "tool shaped_tool output /kind",
        marks=[
            pytest.mark.fires("response-enum-widened"),
            pytest.mark.quiet("input-enum-narrowed", "response-type-widened"),
        ],
        id="output enum widened",
    ),
    pytest.param(
        tool(1, lambda t: t["outputSchema"].update(additionalProperties=True)),
        "tool shaped_tool output /",
        marks=[pytest.mark.fires("object-opened")],
        id="output opened",
    ),
    pytest.param(
        tool(1, lambda t: t["outputSchema"]["required"].remove("name")),
        "tool shaped_tool output /name",
        marks=[pytest.mark.fires("property-optional")],
        id="output name made optional",
    ),
    pytest.param(
        tool(1, lambda t: t["outputSchema"]["properties"]["name"]["anyOf"].__setitem__(1, {"type": "integer"})),
        "tool shaped_tool output /name",
        marks=[pytest.mark.fires("union-by-position", "response-type-widened")],
        id="untagged union changed",
    ),
    pytest.param(
        tool(3, lambda t: t.update(result={"structured": False})),
        "tool plain_tool result",
        marks=[pytest.mark.fires("result-unstructured"), pytest.mark.quiet("result-content-added")],
        id="results become text",
    ),
    pytest.param(
        tool(2, lambda t: t["result"].update(content=["text", "image"])),
        "tool text_tool result",
        marks=[pytest.mark.fires("result-content-added"), pytest.mark.quiet("result-unstructured")],
        id="results may hold images",
    ),
    pytest.param(
        tool(2, lambda t: t["result"]["text_schema"].pop("required")),
        "tool text_tool result /n",
        marks=[pytest.mark.fires("property-optional")],
        id="text schema loosened",
    ),
    pytest.param(
        _required_mode,
        "tool example_tool input /mode",
        marks=[
            pytest.mark.fires("input-required"),
            pytest.mark.quiet("property-optional", "response-narrowed", "input-widened"),
        ],
        id="input made required",
    ),
    pytest.param(
        tool(0, lambda t: t["inputSchema"]["properties"]["mode"].update(enum=["a"])),
        "tool example_tool input /mode",
        marks=[pytest.mark.fires("input-enum-narrowed"), pytest.mark.quiet("response-enum-widened")],
        id="input enum narrowed",
    ),
    pytest.param(
        tool(0, lambda t: t["inputSchema"]["properties"]["count"].update(type="integer")),
        "tool example_tool input /count",
        marks=[pytest.mark.fires("input-type-narrowed"), pytest.mark.quiet("response-type-widened")],
        id="input type narrowed",
    ),
    pytest.param(
        tool(0, lambda t: t["inputSchema"].update(additionalProperties=False)),
        "tool example_tool input /",
        marks=[pytest.mark.fires("input-closed"), pytest.mark.quiet("object-opened")],
        id="input closed",
    ),
    pytest.param(
        tool(0, lambda t: t["inputSchema"]["properties"]["text"].update(maxLength=50, pattern="^[a-z]+$")),
        "tool example_tool input /text",
        marks=[pytest.mark.fires("input-bound-tightened"), pytest.mark.quiet("response-bound-loosened")],
        id="input bounds tightened",
    ),
    pytest.param(
        tool(0, lambda t: t["inputSchema"]["properties"]["options"]["properties"].pop("verbose")),
        "tool example_tool input /options/verbose",
        marks=[pytest.mark.fires("input-property-removed"), pytest.mark.quiet("property-removed")],
        id="closed input loses an argument",
    ),
    pytest.param(
        tool(0, lambda t: t["inputSchema"]["properties"].pop("count")),
        "tool example_tool input /count",
        marks=[pytest.mark.fires("input-widened"), pytest.mark.quiet("input-property-removed", "property-removed")],
        id="open input loses an argument",
    ),
    pytest.param(
        tool(0, lambda t: t["inputSchema"]["properties"]["target"]["oneOf"].pop()),
        'tool example_tool input /target[kind="name"]',
        marks=[pytest.mark.fires("input-branch-removed"), pytest.mark.quiet("union-by-position", "response-narrowed")],
        id="input branch removed",
    ),
    pytest.param(
        tool(0, lambda t: t["inputSchema"]["properties"]["mode"]["enum"].append("c")),
        "tool example_tool input /mode",
        marks=[pytest.mark.fires("input-widened"), pytest.mark.quiet("input-enum-narrowed", "response-enum-widened")],
        id="input enum widened",
    ),
    pytest.param(
        tool(0, lambda t: t["annotations"].update(idempotentHint=False)),
        "tool example_tool annotations.idempotentHint",
        marks=[pytest.mark.fires("tool-hint-weakened"), pytest.mark.quiet("tool-hint-strengthened")],
        id="no longer idempotent",
    ),
    pytest.param(
        tool(0, lambda t: t["annotations"].update(destructiveHint=True)),
        "tool example_tool annotations.destructiveHint",
        marks=[pytest.mark.fires("tool-hint-weakened")],
        id="now destructive",
    ),
    pytest.param(
        tool(3, lambda t: t.update(annotations={"idempotentHint": True})),
        "tool plain_tool annotations.idempotentHint",
        marks=[
            pytest.mark.fires("tool-hint-strengthened"),
            pytest.mark.quiet("tool-hint-weakened", "tool-title-changed"),
        ],
        id="now idempotent",
    ),
    pytest.param(
        tool(1, lambda t: t.update(mutation=True)),
        "tool shaped_tool column mutation",
        marks=[pytest.mark.fires("tool-value-changed", "tool-hint-weakened")],
        id="now a mutation",
    ),
    pytest.param(
        tool(0, lambda t: t.update(title="Another title")),
        "tool example_tool title",
        marks=[
            pytest.mark.fires("tool-title-changed"),
            pytest.mark.quiet("tool-value-changed", "tool-examples-changed"),
        ],
        id="title changed",
    ),
    pytest.param(
        tool(0, lambda t: t["examples"].append({"arguments": {"text": "again"}})),
        "tool example_tool examples",
        marks=[pytest.mark.fires("tool-examples-changed"), pytest.mark.quiet("tool-title-changed")],
        id="an example call added",
    ),
    pytest.param(
        lambda r: edit_json(r, "tools.yaml", lambda t: t["tools"].pop(3)),
        "tool plain_tool",
        marks=[pytest.mark.fires("tool-removed"), pytest.mark.quiet("tool-added")],
        id="tool removed",
    ),
    pytest.param(
        lambda r: edit_json(r, "tools.yaml", lambda t: t["tools"].append({"name": "new_tool", "mutation": False})),
        "tool new_tool",
        marks=[pytest.mark.fires("tool-added"), pytest.mark.quiet("tool-removed")],
        id="tool added",
    ),
    pytest.param(
        _rename_code,
        "code example_error",
        marks=[pytest.mark.fires("code-removed", "code-added")],
        id="code renamed",
    ),
    pytest.param(
        _new_code,
        "code new_error",
        marks=[
            pytest.mark.fires("code-added"),
            pytest.mark.quiet("code-removed", "tool-code-added", "code-value-changed"),
        ],
        id="code added",
    ),
    pytest.param(
        lambda r: edit_text(r, "errors.yaml", "http_status: 400", "http_status: 409"),
        "code example_error column http_status",
        marks=[pytest.mark.fires("code-value-changed"), pytest.mark.quiet("code-removed", "code-added")],
        id="http status changed",
    ),
    pytest.param(
        _both(_new_code, tool(0, lambda t: t["possible_error_codes"].append("new_error"))),
        "tool example_tool error-code new_error",
        marks=[pytest.mark.fires("tool-code-added")],
        id="tool gains a code",
    ),
    pytest.param(
        lambda r: shutil.rmtree(r / "schemas" / "contracts" / "other"),
        "contract other",
        marks=[pytest.mark.fires("contract-removed"), pytest.mark.quiet("contract-added")],
        id="contract removed",
    ),
    pytest.param(
        lambda r: run_cli("init", "third", cwd=r),
        "contract third",
        marks=[pytest.mark.fires("contract-added"), pytest.mark.quiet("contract-removed", "version-not-bumped")],
        id="contract added",
    ),
    pytest.param(
        _both(_deep_base, lambda r: _deep(r, {"type": "integer"})),
        "tool shaped_tool output /deep" + "/x" * 48,
        marks=[pytest.mark.fires("comparison-cut-short"), pytest.mark.quiet("response-type-widened")],
        id="past the depth limit",
    ),
    pytest.param(
        _both(_bump("1.0.0"), envelope(lambda d: defs(d, "FailureEnvelope")["properties"].pop("data"))),
        "envelope [success=false]/data",
        marks=[pytest.mark.fires("property-removed"), pytest.mark.quiet("version-not-bumped")],
        id="a break with a major bump",
    ),
    pytest.param(
        _both(_bump("0.2.0"), envelope(lambda d: defs(d, "FailureEnvelope")["properties"].pop("data"))),
        "version",
        marks=[pytest.mark.fires("version-not-bumped", "property-removed")],
        id="a break with a minor bump",
    ),
    pytest.param(
        _both(_bump("0.2.0"), tool(0, lambda t: t["inputSchema"]["properties"]["mode"]["enum"].append("c"))),
        "tool example_tool input /mode",
        marks=[pytest.mark.fires("input-widened"), pytest.mark.quiet("version-not-bumped")],
        id="a note with a minor bump",
    ),
]


@pytest.mark.parametrize(("edit", "subject"), CASES)
def test_each_rule_fires_on_its_edit_and_not_on_the_others(
    repo: Path, edit: Callable[[Path], None], subject: str, request: pytest.FixtureRequest
) -> None:
    expected = [rule for mark in request.node.iter_markers("fires") for rule in mark.args]
    silent = {rule for mark in request.node.iter_markers("quiet") for rule in mark.args}
    edit(repo)
    code, findings = judged(repo)
    fired = {f["rule"] for f in findings}
    assert set(expected) <= fired, findings
    assert not silent & fired, findings
    first = next(f for f in findings if f["rule"] == expected[0])
    assert first["subject"] == subject
    assert code == (1 if any(f["level"] == "error" for f in findings) else 0)


@pytest.mark.quiet("comparison-cut-short", "union-by-position")
def test_a_deep_schema_unchanged_is_no_finding(repo: Path) -> None:
    _deep_base(repo)
    assert judged(repo) == (0, [])


REFACTORINGS = [
    pytest.param(envelope(lambda d: d["oneOf"].reverse()), id="union branches reordered"),
    pytest.param(_rename_tool_error, id="a $defs entry renamed"),
    pytest.param(_swap_inline, id="inline and $defs swapped"),
    pytest.param(tool(0, lambda t: t["inputSchema"]["properties"]["target"]["oneOf"].reverse()), id="input reordered"),
    pytest.param(
        tool(1, lambda t: t["outputSchema"]["properties"]["name"]["anyOf"].reverse()), id="untagged union reordered"
    ),
    pytest.param(lambda r: edit_json(r, "tools.yaml", lambda t: t["tools"].reverse()), id="tools reordered"),
]


@pytest.mark.quiet(
    "property-removed",
    "property-optional",
    "object-opened",
    "response-type-widened",
    "response-branch-added",
    "union-by-position",
    "input-branch-removed",
    "input-required",
    "tool-removed",
    "tool-added",
    "version-not-bumped",
)
@pytest.mark.parametrize("edit", REFACTORINGS)
def test_a_refactoring_is_no_finding(repo: Path, edit: Callable[[Path], None]) -> None:
    edit(repo)
    assert judged(repo) == (0, [])


def test_findings_name_both_places(repo: Path) -> None:
    """The new place and the old one: file, line and JSON pointer, through a `$ref`."""
    edit_json(repo, ENVELOPE, lambda d: defs(d, "SuccessEnvelope")["required"].remove("data"))
    _required_mode(repo)
    _, findings = judged(repo)
    by_rule = {f["rule"]: f for f in findings}
    optional = by_rule["property-optional"]
    lines = (repo / CONTRACT / ENVELOPE).read_text(encoding="utf-8").splitlines()
    assert optional["file"] == f"{CONTRACT.as_posix()}/{ENVELOPE}"
    assert optional["pointer"] == "/$defs/SuccessEnvelope/properties/data"
    assert '"data": {' in lines[optional["line"] - 1]
    before = optional["before"]
    # the old side is named as git names a file of a revision
    assert before["file"] == f"HEAD:{optional['file']}" and before["pointer"] == optional["pointer"]
    old = subprocess.run(["git", "show", f"HEAD:{CONTRACT.as_posix()}/{ENVELOPE}"], cwd=repo, capture_output=True)
    assert '"data": {' in old.stdout.decode().splitlines()[before["line"] - 1]
    assert before["line"] != optional["line"]  # the edit moved it: each side has its own line
    required = by_rule["input-required"]
    assert required["file"] == f"{CONTRACT.as_posix()}/tools.yaml"
    assert required["pointer"] == "/tools/0/inputSchema/required/mode"
    tools = (repo / CONTRACT / "tools.yaml").read_text(encoding="utf-8").splitlines()
    assert '"required": [' in tools[required["line"] - 1]
    assert required["before"]["pointer"] == "/tools/0/inputSchema"
    assert required["contract"] == "demo"


def _dag(depth: int, leaf: Any) -> dict[str, Any]:
    """D0 .. D<depth>, each with two properties that both name the next: 2**depth paths."""
    nodes = {
        f"D{i}": {
            "type": "object",
            "properties": {"a": {"$ref": f"#/$defs/D{i + 1}"}, "b": {"$ref": f"#/$defs/D{i + 1}"}},
        }
        for i in range(depth)
    }
    return {**nodes, f"D{depth}": leaf}


def _output_defs(repo: Path, definitions: dict[str, Any], root: str) -> None:
    def change(output: Any) -> None:
        output["$defs"] = definitions
        output["properties"]["graph"] = {"$ref": f"#/$defs/{root}"}

    edit_json(repo, "tools.yaml", lambda t: change(t["tools"][1]["outputSchema"]))


@pytest.mark.quiet("comparison-cut-short")
def test_a_schema_of_exponentially_many_paths_is_compared_pair_by_pair(repo: Path) -> None:
    """30 levels of two references each: a billion paths, 31 pairs of schemas. The change at
    the bottom is reported once, at the first path that reaches it."""
    _output_defs(repo, _dag(30, {"type": "string"}), "D0")
    _git(repo, "commit", "--quiet", "-am", "a graph")
    _output_defs(repo, _dag(30, {"type": "integer"}), "D0")
    started = time.monotonic()
    code, findings = judged(repo)
    assert time.monotonic() - started < 10
    widened = [f for f in findings if f["rule"] == "response-type-widened"]
    assert [f["subject"] for f in widened] == ["tool shaped_tool output /graph" + "/a" * 30]
    assert widened[0]["pointer"] == "/tools/1/outputSchema/$defs/D30/type"
    assert "comparison-cut-short" not in {f["rule"] for f in findings} and code == 1


@pytest.mark.fires("comparison-cut-short")
def test_a_comparison_past_its_size_limit_says_where_it_stopped() -> None:
    old = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(20)}}
    new = {"type": "object", "properties": {f"p{i}": {"type": "integer"} for i in range(20)}}
    differ = Differ(Side.of({"": old}), Side.of({"": new}), RESPONSE, max_pairs=5)
    found = differ.run(old, new, ("", ()), ("", ()))
    assert [c.rule for c in found].count("response-type-widened") == 4
    cut = [c for c in found if c.rule == "comparison-cut-short"]
    assert len(cut) == 1 and cut[0].path == ("/p4",) and "past 5 pairs of schemas" in cut[0].message


@pytest.mark.fires("property-removed")
def test_a_recursive_schema_is_compared_once_round_its_cycle(repo: Path) -> None:
    node = {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}
    node["properties"]["children"] = {"type": "array", "items": {"$ref": "#/$defs/Node"}}
    _output_defs(repo, {"Node": node}, "Node")
    _git(repo, "commit", "--quiet", "-am", "a tree")
    del node["properties"]["id"]
    node["required"] = []
    _output_defs(repo, {"Node": node}, "Node")
    code, findings = judged(repo)
    assert {(f["rule"], f["subject"]) for f in findings if f["level"] == "error"} == {
        ("property-removed", "tool shaped_tool output /graph/id"),
        ("version-not-bumped", "version"),
    }
    assert code == 1


def test_a_removed_thing_is_placed_at_its_nearest_parent_and_a_changed_value_on_its_line(repo: Path) -> None:
    edit_json(repo, "tools.yaml", lambda t: t["tools"].pop(3))
    edit_text(repo, "errors.yaml", "http_status: 400", "http_status: 409")
    _, findings = judged(repo)
    by_rule = {f["rule"]: f for f in findings}
    removed = by_rule["tool-removed"]
    assert (removed["pointer"], removed["before"]["pointer"]) == ("/tools", "/tools/3")
    tools = (repo / CONTRACT / "tools.yaml").read_text(encoding="utf-8").splitlines()
    assert tools[removed["line"] - 1].strip() == '"tools": ['
    changed = by_rule["code-value-changed"]
    assert changed["file"] == f"{CONTRACT.as_posix()}/errors.yaml"
    assert changed["before"]["file"] == f"HEAD:{CONTRACT.as_posix()}/errors.yaml"
    assert changed["pointer"] == changed["before"]["pointer"] == "/errors/0/http_status"
    errors = (repo / CONTRACT / "errors.yaml").read_text(encoding="utf-8").splitlines()
    assert errors[changed["line"] - 1].strip() == "http_status: 409"
    assert changed["line"] == changed["before"]["line"] and changed["column"] == 5
