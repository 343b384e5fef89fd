"""The TypeScript side of resources, resource templates and prompts (issue 34): resources.ts and
prompts.ts of a contract that declares them, compiled under `tsc --strict` and called from node,
and the runtime's `_runtime/uri_template.ts`, which must agree with `runtime/uri_template.py`.

The differential tests run both modules on the same batch of cases (the Python tests' hand-written
tables and RFC 6570's examples, then templates and values hypothesis draws) and assert equal
refusals (reason, column and message), expansions, matches and, on the hostile URIs, equal
step counts; node runs each batch in one process (tests/ts/uri_template_cases.mjs).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp_contracts_generator.runtime.uri_template import MAX_URI_LENGTH, TemplateError, UriTemplate, _Tally
from typescript_toolchain import TS, call, compile_package, node_or_skip, run_script
from uri_template_cases import (
    HOSTILE_TEMPLATES,
    MATCHES,
    REFUSALS,
    RFC_EXAMPLES,
    RFC_UNMATCHABLE,
    RFC_VALUES,
    TAKEN,
    URI_EDITS,
    VALUE_TEXT,
    templates,
    values_for,
)

pytestmark = [pytest.mark.xdist_group("typescript-surface"), pytest.mark.slow]  # tsc builds, node runs

FIXTURES = ROOT / "tests" / "contracts" / "conformance-fixtures"
NAME = "conformance-fixtures"
DRAWS = settings(max_examples=200, deadline=None, derandomize=True, database=None)

# A template with optional query variables, one no JS identifier, a JSON one named as a keyword
# whose schema names the runtime's types, and a prompt with an optional argument.
ITEMS = """  - uriTemplate: "test://class/{id}"
    name: class
    mimeType: application/json
    schema:
      title: Bundle
      type: object
      properties: {of: {$ref: "#/$defs/Violation"}, by: {$ref: "#/$defs/ContractViolation"}}
      $defs: {Violation: {type: integer}, ContractViolation: {type: string}}
  - uriTemplate: "test://items/{id}{?page,page.size}"
    name: items
    mimeType: text/plain
  - uriTemplate: "test://odd*/{__proto__}{&constructor}"
    name: odd
    description: "Names JavaScript reads specially, and a comment's end: */"
    mimeType: text/plain
"""
REVIEW = """  - name: review
    arguments:
      - {name: code, required: true}
      - {name: style}
    messages:
      - role: user
        content: {type: text, text: "Review {code} in {style}"}
  - name: odd
    arguments:
      - {name: __proto__, description: "*/ ends no comment", required: true}
    messages:
      - role: user
        content: {type: text, text: "{__proto__}"}
"""


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The npm package of a project whose one contract is the example contract with ITEMS and
    REVIEW added, compiled with tests/ts/surface_usage.ts: its `dist/`."""
    node_or_skip()
    project = tmp_path_factory.mktemp("surface")
    folder = project / "schemas" / "contracts" / NAME
    shutil.copytree(FIXTURES, folder)
    with (folder / "resources.yaml").open("a", encoding="utf-8") as resources:
        resources.write(ITEMS)
    with (folder / "prompts.yaml").open("a", encoding="utf-8") as prompts:
        prompts.write(REVIEW)
    (project / "pyproject.toml").write_text(
        '[tool.mcp-contracts]\nlanguages = ["python", "typescript"]\n', encoding="utf-8"
    )
    generated = run_cli("generate", cwd=project)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    staged = project / "staged"
    shutil.copytree(project / "generated" / "typescript" / "conformance_fixtures_contracts", staged)
    shutil.copy(TS / "surface_usage.ts", staged / "src" / "surface_usage.ts")
    compiled = compile_package(staged, project / "built")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return project / "built" / "dist"


# --- the generated functions ------------------------------------------------------------------


def _calls(dist: Path, tmp_path: Path, calls: list[dict[str, Any]]) -> list[Any]:
    outcomes = call(node_or_skip(), dist / "conformance_fixtures" / "index.js", calls, tmp_path)
    assert all("error" not in outcome for outcome in outcomes), outcomes
    return [outcome["value"] for outcome in outcomes]


def test_the_usage_compiles_and_each_expected_error_is_one(dist: Path) -> None:
    """surface_usage.ts compiled (the fixture asserts it), so each `@ts-expect-error` met an error."""
    assert (dist / "surface_usage.js").is_file()
    assert (dist / "_runtime" / "uri_template.js").is_file()


def test_the_constants_are_the_python_ones(dist: Path, tmp_path: Path) -> None:
    values = _calls(
        dist,
        tmp_path,
        [{"get": "resources.RESOURCES"}, {"get": "resources.STATIC_TEXT"}, {"get": "prompts.PROMPTS"}],
    )
    assert values == [
        ["test://static-text", "test://static-binary", "test://watched-resource", "test://config"],
        "test://static-text",
        [
            "test_simple_prompt",
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image",
            "review",
            "odd",
        ],
    ]


def test_expand_and_match_round_trip(dist: Path, tmp_path: Path) -> None:
    values = {"id": "a/b \u00e9~"}
    sized = {"id": "7", "page": "2", "page.size": "20"}
    outcomes = _calls(
        dist,
        tmp_path,
        [
            {"fn": "resources.expandTemplateData", "args": [values]},
            {"fn": "resources.matchTemplateData", "args": ["test://template/a%2Fb%20%C3%A9~/data"]},
            {"fn": "resources.expandItems", "args": [{"id": "7"}]},
            {"fn": "resources.matchItems", "args": ["test://items/7"]},
            {"fn": "resources.expandItems", "args": [sized]},
            {"fn": "resources.matchItems", "args": ["test://items/7?page.size=20&page=2"]},
            {"fn": "resources.matchItems", "args": ["test://items/7?page.size=20&sort=up"]},
            {"fn": "resources.matchTemplateData", "args": ["test://template/a/b/data"]},
        ],
    )
    assert outcomes == [
        "test://template/a%2Fb%20%C3%A9~/data",
        values,
        "test://items/7",  # the optional query variables left out, name and all
        {"id": "7"},
        "test://items/7?page=2&page.size=20",
        sized,  # the query's members in any order
        None,  # a member the template does not name
        None,  # a raw '/' is no value of {id}
    ]


def test_a_json_resources_model_judges_its_contents_as_the_python_one_does(dist: Path, tmp_path: Path) -> None:
    """The schema of `config` refers to a file of the contract folder (resource-parts.schema.json);
    both languages judge by the bundle that holds it."""
    documents: list[Any] = [
        {"theme": "dark", "retries": 3},
        {"theme": "blue", "retries": 3},  # the `$ref`'d enum refuses it
        {"theme": "dark", "retries": -1},
        {"theme": "dark", "retries": 1.5},
        {"theme": "dark"},
        {"theme": "dark", "retries": 3, "extra": True},
        ["dark"],
    ]
    checks = [{"fn": "resources.ConfigModel.isContents", "args": [d]} for d in documents]
    checks += [{"fn": "resources.ConfigModel.validate", "args": [{"theme": "blue", "retries": 3}]}]
    checks += [{"fn": "resources.readConfig", "args": ['{"theme": "light", "retries": 0}']}]
    checks += [{"fn": "resources.ClassModel.isContents", "args": [v]} for v in ({"of": 1, "by": "x"}, {"of": "1"})]
    outcomes = _calls(dist, tmp_path, checks)
    python = _contract_resource_judge(dist)
    assert outcomes[: len(documents)] == [python.is_valid(d) for d in documents] == [True] + [False] * 6
    assert [v["pointer"] for v in outcomes[len(documents)]] == ["/theme"]
    assert outcomes[-3:] == [{"theme": "light", "retries": 0}, True, False]
    refused = call(
        node_or_skip(),
        dist / "conformance_fixtures" / "index.js",
        [{"fn": "resources.readConfig", "args": ['{"theme": "blue", "retries": 0}']}],
        tmp_path,
    )
    assert "ContractViolation" in str(refused) and "/theme" in str(refused), refused


def _contract_resource_judge(dist: Path) -> Any:
    """The Python judge of `config`'s contents, from the bundle the same `generate` wrote."""
    from mcp_contracts_generator.runtime import Judge

    bundle = json.loads(
        (
            dist.parents[1]
            / "generated/python/conformance_fixtures_contracts/conformance_fixtures/config.resource.json"
        ).read_text()
    )
    return Judge(bundle["root"], bundle["resources"], formats=bundle["formats"])


def test_names_javascript_reads_specially_are_own_keys(dist: Path, tmp_path: Path) -> None:
    """A variable or argument named `__proto__` is a property, never the prototype; `constructor` too."""
    outcomes = _calls(
        dist,
        tmp_path,
        [
            {"fn": "resources.expandOdd", "args": [{"__proto__": "p q", "constructor": "c"}]},
            {"fn": "resources.matchOdd", "args": ["test://odd*/p%20q&constructor=c"]},
            {"fn": "resources.matchOdd", "args": ["test://odd*/p"]},
            {"fn": "prompts.isOddArguments", "args": [{"__proto__": "x"}]},
            {"fn": "prompts.isOddArguments", "args": [{}]},
        ],
    )
    assert outcomes == [
        "test://odd*/p%20q&constructor=c",
        {"__proto__": "p q", "constructor": "c"},
        {"__proto__": "p"},
        True,
        False,
    ]


def test_the_prompts_argument_check_takes_exactly_the_arguments(dist: Path, tmp_path: Path) -> None:
    given_values: list[Any] = [
        {"code": "x"},
        {"code": "x", "style": "terse"},
        {"style": "terse"},  # a required argument missing
        {"code": "x", "extra": "1"},  # an extra key
        {"code": 1},  # not a string
        {"code": "x", "style": None},
        {"code": "x", "__proto__": "y"},  # an own key, as JSON.parse makes it
        ["x"],
        "x",
        None,
    ]
    checks = [{"fn": "prompts.isReviewArguments", "args": [value]} for value in given_values]
    checks += [
        {"fn": "prompts.isTestPromptWithArgumentsArguments", "args": [{"arg1": "a", "arg2": "b"}]},
        {"fn": "prompts.isTestPromptWithArgumentsArguments", "args": [{"arg1": "a"}]},
    ]
    expected = [True, True, False, False, False, False, False, False, False, False, True, False]
    assert _calls(dist, tmp_path, checks) == expected


# --- the URI template runtime, against the Python module ---------------------------------------


def _python(case: dict[str, Any]) -> dict[str, Any]:
    """What runtime/uri_template.py gives for a case of tests/ts/uri_template_cases.mjs."""
    try:
        template = UriTemplate.parse(case["template"])
    except TemplateError as error:
        reason = {"name": "TemplateError", "reason": error.reason, "column": error.column, "message": str(error)}
        return {"error": reason}
    steps = []
    for uri in case.get("count", []):
        tally = _Tally()
        template._match(uri, tally)
        steps.append(tally.steps)
    return {
        "variables": list(template.variables),
        "expanded": [template.expand(values) for values in case.get("expand", [])],
        "matched": [template.match(uri) for uri in case.get("match", [])],
        "steps": steps,
    }


def _assert_agree(dist: Path, tmp_path: Path, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Both modules' outcomes of `cases`, asserted equal case by case; the outcomes."""
    typescript = run_script(
        "uri_template_cases.mjs", dist / "_runtime" / "uri_template.js", spec=tmp_path / "cases.json", data=cases
    )
    assert len(typescript) == len(cases)
    python = [_python(case) for case in cases]
    for case, expected, found in zip(cases, python, typescript, strict=True):
        assert found == expected, case["template"]
    return python


def test_the_hand_written_cases_agree(dist: Path, tmp_path: Path) -> None:
    """RFC 6570's examples, and every case written by hand for tests/test_uri_template.py
    (tests/uri_template_cases.py): refusals, what is taken, matches."""
    cases = [{"template": t, "expand": [RFC_VALUES], "match": [uri]} for t, uri in RFC_EXAMPLES]
    cases += [{"template": t, "expand": [RFC_VALUES], "match": [uri]} for t, uri, _ in RFC_UNMATCHABLE]
    cases += [{"template": t} for t, _, _ in REFUSALS]
    cases += [{"template": t, "expand": [{}]} for t in TAKEN]
    cases += [{"template": t, "match": [uri]} for t, uri, _ in MATCHES]
    outcomes = _assert_agree(dist, tmp_path, cases)
    refused = sum("error" in outcome for outcome in outcomes)
    assert refused == len(RFC_UNMATCHABLE) + len(REFUSALS)
    assert len(cases) > 100


def test_hostile_uris_take_the_same_steps_and_the_cap_holds(dist: Path, tmp_path: Path) -> None:
    uris = ["a" * MAX_URI_LENGTH, "&a=" * (MAX_URI_LENGTH // 3), ";a=" * (MAX_URI_LENGTH // 3)]
    cases = [{"template": t, "match": uris, "count": uris} for t in HOSTILE_TEMPLATES]
    # At the cap and beyond it, in code points: a character outside the BMP is two UTF-16 units, one code point.
    wide = "\U0001f600" * 10
    at_cap = [wide + "a" * (MAX_URI_LENGTH - 10), wide + "a" * (MAX_URI_LENGTH - 9)]
    cases.append({"template": "{+path}", "match": ["a" * MAX_URI_LENGTH, "a" * (MAX_URI_LENGTH + 1), *at_cap]})
    typescript = run_script(
        "uri_template_cases.mjs",
        dist / "_runtime" / "uri_template.js",
        spec=tmp_path / "wide.json",
        data=[{"template": "{+path}", "count": at_cap}],
    )
    assert typescript[0]["steps"][0] > 0, "a URI of MAX_URI_LENGTH code points is read"
    assert typescript[0]["steps"][1] == 0, "one of a code point more is not"
    outcomes = _assert_agree(dist, tmp_path, cases)
    assert outcomes[-1]["matched"][:2] == [{"path": "a" * MAX_URI_LENGTH}, None]


# Template text of any characters the grammar has a rule for, and some it refuses, to compare refusals.
TEMPLATE_TEXT = st.lists(
    st.sampled_from([*"{}{}%,.:*=!@|+#/;?&aZ1_ \"'\\-", "%41", "\u00e9", "\U0001f600", "\x85", "\ufdd0"]), max_size=12
).map("".join)


def test_drawn_templates_values_and_uris_agree(dist: Path, tmp_path: Path) -> None:
    """Templates of the grammar (tests/uri_template_cases.py), values drawn for them, their
    expansions, those edited and text of the template's characters; and text that may not parse."""
    cases: list[dict[str, Any]] = []

    @DRAWS
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        text = data.draw(templates())
        template = UriTemplate.parse(text)
        values = [data.draw(values_for(template, VALUE_TEXT, all_defined=bool(i))) for i in range(2)]
        uris = [template.expand(v) for v in values]
        edited = uris[0]
        position = data.draw(st.integers(0, len(edited)))
        cut = position + data.draw(st.integers(0, 3))
        uris.append(edited[:position] + data.draw(st.text(URI_EDITS, max_size=3)) + edited[cut:])
        uris.append(data.draw(st.text(st.sampled_from(sorted(set(text + URI_EDITS) - set("{}"))), max_size=16)))
        cases.append({"template": text, "expand": values, "match": uris})

    @DRAWS
    @given(TEMPLATE_TEXT)
    def draw_text(text: str) -> None:
        cases.append({"template": text, "expand": [{"a": "x y", "Z1": ""}], "match": ["", "a", "x"]})

    draw()
    draw_text()
    outcomes = _assert_agree(dist, tmp_path, cases)
    matched = sum(found is not None for outcome in outcomes if "matched" in outcome for found in outcome["matched"])
    refused = sum("error" in outcome for outcome in outcomes)
    # The draws reach both sides of each question: not every case a refusal, a match or no match.
    assert len(cases) >= 300 and 0 < refused < len(cases)
    assert 0 < matched < sum(len(outcome.get("matched", [])) for outcome in outcomes)
