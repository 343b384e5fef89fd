"""The shapes real catalogues publish, through the generated TypeScript (issue 21).

Every schema of tests/corpus/ becomes a contract as tests/test_corpus.py makes it, beside
tests/contracts/every-keyword/ (every keyword of draft 2020-12, `$ref`s across files); the
project is generated once with `languages = ["python", "typescript"]`, and its npm package
must compile under `tsc --strict`: the types, zod expressions and literals of every shape.
Then every hand-written document, the hypothesis mutations test_corpus.py draws of them, and
each object and array inside them judged as each type of the contract, get from the
generated modules' `validate` and `isEnvelope` (tests/ts/judge_documents.mjs, one node
process for all) the Python judge's verdict.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import ROOT, generated_package, load_json, run_cli
from corpus_project import DRAWS_PER_SCHEMA, NAMES, hand_written, make_contract
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_contracts_generator import api
from mcp_contracts_generator.model import Contract
from mcp_contracts_generator.runtime import Judge
from schema_strategies import JSON_VALUES, from_schema, mutations
from typescript_toolchain import call, compile_package, node_or_skip, run_script

pytestmark = [pytest.mark.xdist_group("typescript-package"), pytest.mark.slow]  # tsc builds, node runs

PACKAGE = "corpus_contracts"
EVERY_KEYWORD = ROOT / "tests" / "contracts" / "every-keyword"
EVERY_KEYWORD_DRAWN = 200
# The URI a tool's published schema is judged at, as the runtime's zod.ts judges it.
TOOL_SCHEMA = "file:///tool.schema.json"
# At most this many values inside a contract's documents are judged as each of its types.
INSIDE_PER_CONTRACT = 40


def _generate(project: Path) -> Path:
    """The corpus and every-keyword as contracts of one project, generated with TypeScript."""
    project.mkdir()
    (project / "pyproject.toml").write_text(
        f'[tool.mcp-contracts]\npackage = "{PACKAGE}"\nlanguages = ["python", "typescript"]\n', encoding="utf-8"
    )
    for name in NAMES:
        make_contract(project, name)
    shutil.copytree(EVERY_KEYWORD, project / "schemas" / "contracts" / "every-keyword")
    result = run_cli("generate", cwd=project)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return project / "generated"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated project's folder (`schemas/`, `generated/`, and `built/`, the compiled package)."""
    node_or_skip()
    folder = tmp_path_factory.mktemp("ts-corpus") / "project"
    out = _generate(folder)
    compiled = compile_package(out / "typescript" / PACKAGE, folder / "built")
    assert compiled.returncode == 0, compiled.stdout[-8000:] + compiled.stderr[-2000:]
    return folder


@pytest.fixture(scope="module")
def contracts(project: Path) -> dict[str, Contract]:
    loaded = api.load(project / "schemas").project
    assert loaded is not None
    return {c.name: c for c in loaded.contracts}


def _draw(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    drawn: list[Any] = []

    @settings(max_examples=count, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(document: Any) -> None:
        drawn.append(json.loads(json.dumps(document)))

    draw()
    return drawn


def _corpus_documents(name: str) -> list[Any]:
    """The hand-written documents of a corpus schema, and the mutations test_corpus.py draws of them."""
    documents = hand_written(name)
    written = documents["valid"] + documents["invalid"]
    seeds = st.sampled_from(written)
    return written + _draw(st.one_of(mutations(seeds), mutations(mutations(seeds)), JSON_VALUES), DRAWS_PER_SCHEMA)


def _every_keyworddocuments() -> list[Any]:
    examples = [load_json(p) for p in sorted((EVERY_KEYWORD / "examples").glob("*.json"))]
    root = load_json(EVERY_KEYWORD / "envelope.schema.json")
    seeds = st.sampled_from(examples)
    drawn = _draw(st.one_of(mutations(seeds), mutations(mutations(seeds)), from_schema(root)), EVERY_KEYWORD_DRAWN)
    return examples + drawn


def _inside(documents: list[Any]) -> list[Any]:
    """The objects and arrays inside documents (not the documents themselves), each once."""
    found: dict[str, Any] = {}

    def visit(value: Any, top: bool) -> None:
        if isinstance(value, dict | list):
            if not top:
                found.setdefault(json.dumps(value, sort_keys=True), value)
            for item in value.values() if isinstance(value, dict) else value:
                visit(item, False)

    for document in documents:
        visit(document, True)
    return list(found.values())[:INSIDE_PER_CONTRACT]


def _typescript_verdicts(project: Path, cases: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    dist, spec = project / "built" / "dist", project / "cases.json"
    verdicts: list[list[dict[str, Any]]] = run_script("judge_documents.mjs", dist, spec=spec, data=cases)
    return verdicts


@pytest.fixture(scope="module")
def judged(project: Path, contracts: dict[str, Contract]) -> dict[str, list[tuple[Any, str, bool, dict[str, Any]]]]:
    """For each contract: (document, type judged as ("" the envelope), Python's verdict, TypeScript's)."""
    cases: list[dict[str, Any]] = []
    expected: list[tuple[str, list[Any], str, list[bool]]] = []
    for name, contract in sorted(contracts.items()):
        documents = _every_keyworddocuments() if name == "every-keyword" else _corpus_documents(name)
        bundle = load_json(project / "generated" / "python" / PACKAGE / contract.module / "schema.json")
        judge = Judge.from_bundle(bundle)
        cases.append({"module": contract.module, "documents": documents})
        expected.append((name, documents, "", [judge.is_valid(d) for d in documents]))
        inside = _inside(documents)
        for model in contract.view.classes:
            if model.location == "" or not inside:
                continue
            cases.append({"module": contract.module, "as": model.name, "documents": inside})
            expected.append((name, inside, model.name, [judge.is_valid(d, model.location) for d in inside]))
    found: dict[str, list[tuple[Any, str, bool, dict[str, Any]]]] = {name: [] for name in contracts}
    for (name, documents, kind, by_python), by_typescript in zip(
        expected, _typescript_verdicts(project, cases), strict=True
    ):
        found[name] += [(d, kind, p, t) for d, p, t in zip(documents, by_python, by_typescript, strict=True)]
    return found


def test_the_corpus_package_compiles_under_tsc_strict(project: Path, contracts: dict[str, Contract]) -> None:
    assert len(contracts) == len(NAMES) + 1
    for contract in contracts.values():
        for file in ("index", "judge", "types", "errors", "tools"):
            assert (project / "built" / "dist" / contract.module / f"{file}.js").is_file(), contract.module


@pytest.mark.parametrize("name", [*NAMES, "every-keyword"])
def test_the_typescript_judge_gives_the_python_judges_verdict(
    name: str, project: Path, judged: dict[str, list[tuple[Any, str, bool, dict[str, Any]]]]
) -> None:
    """`validate` and `isEnvelope`, as each type too, give the Python judge's verdict; each
    tool's zod `outputSchema` gives the verdict of its published schema, judged in Python."""
    published = load_json(project / "generated" / "mcp" / f"{name}.tools.json")["tools"]
    judges = {
        tool["name"]: Judge.from_bundle({"root": TOOL_SCHEMA, "formats": False, "resources": {TOOL_SCHEMA: schema}})
        for tool in published
        if (schema := tool.get("outputSchema")) is not None
    }

    def outputs(document: Any) -> dict[str, bool]:
        return {name: judge.is_valid(document) for name, judge in judges.items()}

    verdicts = {True: 0, False: 0}
    for document, kind, by_python, by_typescript in judged[name]:
        text = json.dumps(document, ensure_ascii=False)[:2000]
        assert "error" not in by_typescript, f"{text} as {kind or 'the envelope'}: {by_typescript['error']}"
        assert by_typescript["valid"] == by_python, f"{text} as {kind or 'the envelope'}: Python says {by_python}"
        assert by_typescript["valid"] == (by_typescript["pointers"] == [])
        if not kind:
            assert by_typescript["guard"] == by_python, text
            if isinstance(document, dict):  # what MCP's structuredContent can be
                assert by_typescript["zod"] == outputs(document), f"{text}: the zod outputSchemas"
            verdicts[by_python] += 1
    assert min(verdicts.values()) > 0, verdicts  # both verdicts, on the envelope
    if name != "every-keyword":  # and the hand-written verdict on each hand-written document
        by_typescript = {json.dumps(d, sort_keys=True): t["valid"] for d, kind, _, t in judged[name] if not kind}
        for expected, documents in ((True, hand_written(name)["valid"]), (False, hand_written(name)["invalid"])):
            for document in documents:
                assert by_typescript[json.dumps(document, sort_keys=True)] is expected, document


# --- an SDK server on the corpus ------------------------------------------------------------

ARGUMENTS_DRAWN = 12


def _arguments(schema: dict[str, Any]) -> list[Any]:
    """Arguments for a tool of this input schema: none, a null, number or string for each of its
    first properties, drawn ones and their mutations (objects only)."""
    drawn = _draw(st.one_of(from_schema(schema), mutations(from_schema(schema))), ARGUMENTS_DRAWN)
    named = [{name: value} for name in list(schema.get("properties", {}))[:3] for value in (None, 1, "x")]
    return [{}, *named, *(a for a in drawn if isinstance(a, dict))]


# The zod paths of the runtime's zod.ts: on the release the package pins, `judged` hooks zod's
# internals ("private"); on one outside its `TESTED` (4.7.0, the first out), zod's public API
# only ("public"), as tests/ts/sdk_tools.mjs's `--zod=` makes zod say.
ZOD_PATHS = {"private": (), "public": ("--zod=4.7.0",)}


def _served(project: Path, cases: list[dict[str, Any]], path: str = "private") -> list[dict[str, Any]]:
    dist, spec = project / "built" / "dist", project / f"sdk-cases-{path}.json"
    served: list[dict[str, Any]] = run_script("sdk_tools.mjs", dist, spec=spec, data=cases, options=ZOD_PATHS[path])
    return served


def _as_listed(tool: dict[str, Any], path: str = "private") -> dict[str, Any]:
    """A tool of tools.json as `tools/list` sends it: each schema under an explicit draft 2020-12
    `$schema` where it has none (zod would say draft-07 of it), and the SDK's `execution`; on
    the public path without a root `id` (zod's registry reads it as a name of its own)."""
    found = {**tool, "execution": {"taskSupport": "forbidden"}}
    for key in ("inputSchema", "outputSchema"):
        if key in found and "$schema" not in found[key]:
            found[key] = {"$schema": "https://json-schema.org/draft/2020-12/schema", **found[key]}
        if key in found and path == "public":
            found[key] = {name: value for name, value in found[key].items() if name != "id"}
    return found


def _as_sent(arguments: Any) -> Any:
    """Arguments as the judge and the handler see them: without a root member `__proto__`,
    which the SDK's parse of a `tools/call` request drops (on either zod path); also a
    document as the public path's judge sees it (zod drops the member before its checks)."""
    if isinstance(arguments, dict):
        return {name: value for name, value in arguments.items() if name != "__proto__"}
    return arguments


@pytest.fixture(scope="module", params=sorted(ZOD_PATHS))
def served(
    request: pytest.FixtureRequest, project: Path, contracts: dict[str, Contract]
) -> tuple[str, dict[str, tuple[list[dict[str, Any]], dict[str, Any]]]]:
    """The zod path, and for each contract: its tools.json's tools, and what an SDK server
    registering `TOOLS` listed and did with the calls (`calls`, each with the Python judge's
    verdict `expected`) on that path."""
    path: str = request.param
    cases, published = [], {}
    for name, contract in sorted(contracts.items()):
        tools = load_json(project / "generated" / "mcp" / f"{name}.tools.json")["tools"]
        calls = [
            {
                "tool": tool["name"],
                "arguments": arguments,
                "expected": _tool_judge(tool["inputSchema"]).is_valid(_as_sent(arguments)),
            }
            for tool in tools
            for arguments in _arguments(tool["inputSchema"])
        ]
        cases.append({"module": contract.module, "calls": calls})
        published[name] = tools
    return path, {
        name: (published[name], {**answer, "expected": case["calls"]})
        for name, case, answer in zip(sorted(contracts), cases, _served(project, cases, path), strict=True)
    }


def _tool_judge(schema: dict[str, Any]) -> Judge:
    return Judge.from_bundle({"root": TOOL_SCHEMA, "formats": False, "resources": {TOOL_SCHEMA: schema}})


@pytest.mark.parametrize("name", [*NAMES, "every-keyword"])
def test_an_sdk_server_lists_the_published_tools_and_judges_calls_by_them(
    name: str, served: tuple[str, dict[str, tuple[list[dict[str, Any]], dict[str, Any]]]]
) -> None:
    """`McpServer.registerTool` with each tool of `TOOLS`: `tools/list` sends tools.json's tools
    (each schema under a `$schema`), and a call reaches its handler when the published input
    schema, judged in Python, accepts its arguments, and only then: on either zod path."""
    path, by_name = served
    published, answer = by_name[name]
    assert "error" not in answer, answer["error"]
    assert answer["tools"] == [_as_listed(tool, path) for tool in published]
    for asked, done in zip(answer["expected"], answer["calls"], strict=True):
        assert (
            done["reached"] == asked["expected"]
        ), f"{asked['tool']}({json.dumps(asked['arguments'])}): {done['text']}"
    assert {done["reached"] for done in answer["calls"]} == {True, False}


# --- hostile names ----------------------------------------------------------------------------

# A TypeScript file compiled beside the hostile contracts' modules: values of their types
# written as object literals, and the builders called with no members.
HOSTILE_USAGE = """\
import {
  RETRYABLE_CODES,
  RETRYABLE_WARNING_CODES,
  successResponse,
  validate,
  type Array as ArrayType,
  type Envelope,
  type ErrorInfo,
  type types,
} from "./delete/index.js";
import { ERRORS, TOOLS, type Envelope as Recursive, type ErrorCode } from "./new/index.js";

const built: Envelope = successResponse();
const written: Envelope = { success: true, data: 1, constructor: null, list: { xs: ["a"] } };
const listed: ArrayType = { xs: ["a", "b"] };
const nested: Recursive = ["a", ["b", []]];
const codes: readonly ErrorCode[] = [];
const info: ErrorInfo["retryable"] = true; // the catalogue's ErrorInfo: its export hides the definition's
const shadowed: types.ErrorInfo = { detail: "the definition, under `types`" };
const sets = [RETRYABLE_CODES.size, RETRYABLE_WARNING_CODES.size];
export const used = [built, written, listed, nested, codes, ERRORS.size, Object.keys(TOOLS), validate(written)];
export const more = [info, shadowed, sets];
"""
# Properties named as what every JavaScript object inherits.
INHERITED = {
    "constructor": {"type": "integer"},
    "toString": {"type": "string"},
    "valueOf": {"type": "integer"},
    "__proto__": {"type": "integer"},
}


def _hostile_project(folder: Path) -> Path:
    """Two contracts: `billing-api` in module `delete` (a definition `Array`, members named as
    `Object`'s methods in its envelope, its builders' shapes and its tool's input) and
    `no-tools` in module `new` (draft-07, a root that is an array of itself or a string, no
    tools, no error codes); generated with TypeScript, the package compiled with HOSTILE_USAGE."""
    folder.mkdir()
    assert run_cli("init", "billing-api", cwd=folder).returncode == 0
    pyproject = folder / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace('languages = ["python"]', _LANGUAGES), encoding="utf-8")  # init's line
    contract = folder / "schemas" / "contracts" / "billing-api"
    identity = contract / "contract.yaml"
    text = identity.read_text(encoding="utf-8").replace("module: billing_api", "module: delete")
    # A boolean column of the warnings named as one of the errors': two sets, not one twice.
    warning_column = "  warnings:\n    retryable:\n      type: boolean\n      description: Whether to try again.\n"
    identity.write_text(text.replace("  tools:\n", warning_column + "  tools:\n", 1), encoding="utf-8")
    catalogue = contract / "errors.yaml"
    warnings = "warnings:\n  - code: slow\n    retryable: true\n    description: It took long.\n"
    catalogue.write_text(catalogue.read_text(encoding="utf-8") + warnings, encoding="utf-8")
    envelope = load_json(contract / "envelope.schema.json")
    success = envelope["$defs"]["SuccessEnvelope"]
    success["properties"].update(
        {
            "__proto__": {"type": "string"},
            "constructor": {"type": ["string", "null"]},
            "toString": {"type": "object"},
            "valueOf": {"type": "integer"},
            "list": {"$ref": "#/$defs/Array"},
        }
    )
    success["required"].append("constructor")  # required, and put as null by the builder
    envelope["$defs"]["Array"] = {
        "type": "object",
        "properties": {"xs": {"type": "array", "items": {"type": "string"}}},
    }
    # A definition named as an export of the catalogue; `types.ErrorInfo` reaches it.
    envelope["$defs"]["ErrorInfo"] = {"type": "object", "properties": {"detail": {"type": "string"}}}
    success["properties"]["info"] = {"$ref": "#/$defs/ErrorInfo"}
    (contract / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    (contract / "examples" / "success.json").write_text('{"success": true, "data": 1, "constructor": null}')
    tools = yaml.safe_load((contract / "tools.yaml").read_text(encoding="utf-8"))
    nested = {"type": "object", "properties": INHERITED}
    tools["tools"][0]["inputSchema"]["properties"].update({**INHERITED, "nested": nested})
    (contract / "tools.yaml").write_text(yaml.safe_dump(tools), encoding="utf-8")
    other = folder / "schemas" / "contracts" / "no-tools"
    other.mkdir()
    (other / "contract.yaml").write_text(
        'name: no-tools\ntitle: No tools\nversion: "1.0.0"\nsummary: Nothing to call.\nmodule: new\n', encoding="utf-8"
    )
    (other / "errors.yaml").write_text("errors: []\n", encoding="utf-8")
    (other / "tools.yaml").write_text("tools: []\n", encoding="utf-8")
    recursive = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "anyOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "string"}],
    }
    (other / "envelope.schema.json").write_text(json.dumps(recursive), encoding="utf-8")
    generated = run_cli("generate", cwd=folder)
    assert generated.returncode == 0, generated.stdout[-4000:] + generated.stderr[-4000:]
    return folder / "generated"


_LANGUAGES = 'languages = ["python", "typescript"]'


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile project's folder, its package compiled (with HOSTILE_USAGE) into `built/`."""
    node_or_skip()
    folder = tmp_path_factory.mktemp("ts-hostile") / "project"
    out = _hostile_project(folder)
    source = folder / "source"
    shutil.copytree(out / "typescript" / "billing_api_contracts", source)
    (source / "src" / "hostile_usage.ts").write_text(HOSTILE_USAGE, encoding="utf-8")
    compiled = compile_package(source, folder / "built")
    assert compiled.returncode == 0, compiled.stdout[-8000:] + compiled.stderr[-2000:]
    return folder


def test_hostile_names_compile_and_their_types_take_object_literals(hostile: Path) -> None:
    """A definition named `Array` (the global stays reachable), optional members named as
    `Object`'s methods (an object literal without them is of the type; the builders take no
    members), a module named as a JavaScript keyword, a contract of no tools or codes."""
    types = (hostile / "built" / "src" / "delete" / "types.ts").read_text(encoding="utf-8")
    assert '"xs"?: globalThis.Array<string>;' in types
    assert '"toString"?: unknown;' in types and '"constructor": string | null;' in types
    assert (hostile / "built" / "dist" / "hostile_usage.js").is_file()


@pytest.mark.parametrize("path", sorted(ZOD_PATHS))
def test_zod_never_refuses_what_the_published_schema_accepts_of_inherited_names(hostile: Path, path: str) -> None:
    """zod reads an absent `constructor` as the inherited function: the zod part leaves such
    members to the judge, and arguments without them reach the handler, on either zod path. A
    member `__proto__` is judged as given, but at the root, where the SDK drops it. zod's own
    refusal comes first on the private path; on the public one the judge alone refuses."""
    tools = load_json(hostile / "generated" / "mcp" / "billing-api.tools.json")["tools"]
    judge = _tool_judge(tools[0]["inputSchema"])
    arguments: list[Any] = [
        {},
        {"text": "a"},
        {"nested": {}},
        {"constructor": 1, "toString": "s", "valueOf": 2, "__proto__": 3, "nested": {"constructor": 3}},
        {"__proto__": "x"},
        {"constructor": "x"},
        {"toString": 1},
        {"nested": {"valueOf": "x"}},
        {"nested": {"__proto__": "x"}},
        {"text": 1},
    ]
    calls = [{"tool": tools[0]["name"], "arguments": a} for a in arguments]
    cases: list[dict[str, Any]] = [{"module": "delete", "calls": calls}, {"module": "new", "calls": []}]
    delete, new = _served(hostile, cases, path)
    assert delete["tools"] == [_as_listed(tool, path) for tool in tools]
    reached = [done["reached"] for done in delete["calls"]]
    assert reached == [judge.is_valid(_as_sent(a)) for a in arguments]
    assert reached == [True] * 5 + [False] * 5
    by_judge = "1 is not of type 'string' at text"
    assert (by_judge in delete["calls"][-1]["text"]) is (path == "public"), delete["calls"][-1]["text"]
    assert new == {"tools": [], "calls": []}


@pytest.mark.parametrize("path", sorted(ZOD_PATHS))
def test_an_outputs_zod_schema_judges_structured_content_on_either_zod_path(hostile: Path, path: str) -> None:
    """A tool's zod `outputSchema` (what the SDK parses a handler's `structuredContent` with)
    gives the published schema's verdict, judged in Python: of the document as given on the
    private path; on the public one without a root member `__proto__`, which zod drops before
    any public check sees the value (the envelope here types it: a string)."""
    published = load_json(hostile / "generated" / "mcp" / "billing-api.tools.json")["tools"]
    judges = {tool["name"]: _tool_judge(tool["outputSchema"]) for tool in published if "outputSchema" in tool}
    assert judges
    success = load_json(hostile / "schemas" / "contracts" / "billing-api" / "examples" / "success.json")
    documents = [
        success,
        {**success, "__proto__": "s"},
        {**success, "__proto__": 1},
        {**success, "valueOf": "x"},
        {**success, "toString": {"__proto__": 1}},
    ]
    cases = [{"module": "delete", "documents": documents}]
    spec = hostile / f"outputs-{path}.json"
    [verdicts] = run_script(
        "judge_documents.mjs", hostile / "built" / "dist", spec=spec, data=cases, options=ZOD_PATHS[path]
    )
    seen = [d if path == "private" else _as_sent(d) for d in documents]
    assert [v["zod"] for v in verdicts] == [{name: j.is_valid(d) for name, j in judges.items()} for d in seen]
    assert [set(v["zod"].values()) for v in verdicts] == [{True}, {True}, {path == "public"}, {False}, {True}]


def test_the_hostile_contracts_judges_and_builders_say_what_pythons_say(hostile: Path) -> None:
    with generated_package(hostile / "generated", "delete", "billing_api_contracts") as delete:
        python_success = delete.builders.success_response().model_dump(mode="json", by_alias=True, exclude_unset=True)
        documents = [python_success, {**python_success, "__proto__": 1}, {**python_success, "valueOf": "x"}]
        expected = [delete.JUDGE.is_valid(d) for d in documents]
    with generated_package(hostile / "generated", "new", "billing_api_contracts") as new:
        recursive = [["a", ["b", []]], "s", [1], {}, [["a", [None]]]]
        expected_recursive = [new.JUDGE.is_valid(d) for d in recursive]
    module = hostile / "built" / "dist" / "delete" / "index.js"
    calls: list[dict[str, Any]] = [{"fn": "successResponse", "args": [{}]}]
    calls += [{"fn": "validate", "args": [d]} for d in documents]
    calls.append({"fn": "validate", "args": [{}, "NoSuchType"]})
    outcomes = call(node_or_skip(), module, calls, hostile)
    assert outcomes.pop()["error"] == "RangeError"  # a type LOCATIONS does not name
    assert outcomes[0]["value"] == python_success
    assert [o["value"] == [] for o in outcomes[1:]] == expected == [True, False, False]
    [verdicts] = _typescript_verdicts(hostile, [{"module": "new", "documents": recursive}])
    assert [v["valid"] for v in verdicts] == expected_recursive == [True, True, False, False, False]
