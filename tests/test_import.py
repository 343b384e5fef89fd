"""`mcp-contracts import`: a contract written from a live server, the SDK's MCPServer started as
a real process (tests/servers/import_server.py). What it writes generates, lints without
errors and conforms to the same server at once; tools are called only when asked; importing
again shows what changed and writes only with --write, keeping what people wrote.

The reference servers of the package index: tests/test_import_reference.py."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_cli, run_process
from forkserver import python
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from mcp_contracts_generator.importing.envelope import envelope_of
from mcp_contracts_generator.importing.folder import write_changes
from mcp_contracts_generator.protocol import VERSIONS
from ruamel.yaml import YAML

SERVER = ROOT / "tests" / "servers" / "import_server.py"


def server(shape: str) -> tuple[str, ...]:
    return ("--", *python(str(SERVER), shape))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder (no pyproject: import adds the section), and the file `bump` writes to."""
    monkeypatch.setenv("IMPORT_SERVER_CALLS", str(tmp_path / "calls.txt"))
    return tmp_path


def folder(project: Path, name: str) -> Path:
    return project / "schemas" / "contracts" / name


def files_of(path: Path) -> dict[str, bytes]:
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def tools_yaml(project: Path, name: str) -> list[dict[str, Any]]:
    from ruamel.yaml import YAML

    return list(YAML(typ="safe").load((folder(project, name) / "tools.yaml").read_text())["tools"])


def conform_json(project: Path, name: str, shape: str) -> dict[str, Any]:
    result = run_cli("conform", "--contract", name, "--format", "json", *server(shape), cwd=project)
    report: dict[str, Any] = json.loads(result.stdout)
    assert result.returncode == 0, report
    return report


# One shape in the default run; the others under `slow` (each: an import, generate, lint and conform).
@pytest.mark.parametrize(
    "shape", ["shared", pytest.param("many", marks=pytest.mark.slow), pytest.param("hostile", marks=pytest.mark.slow)]
)
def test_an_imported_contract_generates_lints_and_conforms(project: Path, shape: str) -> None:
    result = run_cli("import", shape, "--call", *server(shape), cwd=project)
    assert result.returncode == 0, result.stderr
    assert f"wrote schemas/contracts/{shape} (" in result.stdout
    assert "[tool.mcp-contracts]" in (project / "pyproject.toml").read_text()
    generated = run_cli("generate", cwd=project)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    lint = run_cli("lint", "--format", "json", cwd=project)
    assert json.loads(lint.stdout)["counts"]["error"] == 0, lint.stdout
    report = conform_json(project, shape, shape)
    assert report["findings"] == [] and report["facts"]["revisions"] == list(VERSIONS)
    read_only = {"shared": 3, "many": 4, "hostile": 4}[shape]  # the tools --call calls: not bump
    assert report["facts"]["calls"] == read_only * 4  # each example call, at each revision
    # The section import added names the package after the one contract there is.
    assert f'package = "{shape}_contracts"' in (project / "pyproject.toml").read_text()
    models = project / "generated" / "python" / f"{shape}_contracts" / shape / "models.py"
    compile(models.read_text(), str(models), "exec")


def test_the_contract_says_what_the_server_lists(project: Path) -> None:
    assert run_cli("import", "shop", *server("shared"), cwd=project).returncode == 0
    contract = (folder(project, "shop") / "contract.yaml").read_text()
    assert "title: shop\n" in contract and "summary: Items of a shop, read by name or number.\n" in contract
    assert "protocol:\n  - '2025-03-26'\n  - '2025-06-18'\n  - '2025-11-25'\n  - '2026-07-28'\n" in contract
    assert "negotiated_revision: '2026-07-28'" in contract
    tools = {tool["name"]: tool for tool in tools_yaml(project, "shop")}
    assert list(tools) == ["get_item", "find_item", "echo", "bump"]  # the server's order
    # get_item, find_item and bump share one output shape: the envelope, which they reference
    assert not any("outputSchema" in tool for tool in tools.values())
    envelope = json.loads((folder(project, "shop") / "envelope.schema.json").read_text())
    assert envelope["title"] == "Item" and envelope["required"] == ["name", "price"]
    assert tools["echo"]["result"] == {"structured": False}  # not called: its block types are not known
    assert tools["get_item"]["annotations"] == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }
    assert tools["get_item"]["inputSchema"]["properties"]["item_id"]["minimum"] == 0
    assert tools["bump"]["annotations"] == {"readOnlyHint": False, "destructiveHint": False}
    assert not (folder(project, "shop") / "examples").exists()  # nothing called: not asked
    assert "examples" not in tools["get_item"]


def test_call_leaves_tools_that_may_reach_other_hosts_or_destroy_to_call_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read-only is not enough for `--call`, as for `conform --fuzz`: `openWorldHint` true or
    not given (mcp-server-fetch's `fetch` reached the network so), or `destructiveHint` true,
    and the tool is called only when `--call-tool` names it; a note says why."""
    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("OPEN_WORLD_CALLS", str(calls))
    command = ("--", *python(str(ROOT / "tests" / "servers" / "open_world.py")))
    result = run_cli("import", "world", "--call", "--call-tool", "peek", *command, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(calls.read_text(encoding="utf-8").split()) == ["count_nodes", "look", "peek"]
    reach = "the server does not annotate it closed-world (openWorldHint false): it may reach other hosts"
    assert f"fetch: not called: {reach} (name it with --call-tool)" in result.stderr
    assert "wipe: not called: the server annotates it destructive (name it with --call-tool)" in result.stderr
    assert "peek: not called" not in result.stderr


def test_shapes_of_their_own_make_an_envelope_of_every_one(project: Path) -> None:
    assert run_cli("import", "shop", *server("many"), cwd=project).returncode == 0
    tools = {tool["name"]: tool for tool in tools_yaml(project, "shop")}
    envelope = json.loads((folder(project, "shop") / "envelope.schema.json").read_text())
    assert [branch["$ref"] for branch in envelope["anyOf"]] == ["#/$defs/Item", "#/$defs/Stats"]
    assert tools["stats"]["outputSchema"]["title"] == "Stats" and tools["get_item"]["outputSchema"]["title"] == "Item"


def test_only_read_only_tools_are_called_and_others_when_named(project: Path) -> None:
    calls = project / "calls.txt"
    result = run_cli("import", "shop", "--call", *server("shared"), cwd=project)
    assert result.returncode == 0
    assert "bump: not called: the server does not annotate it read-only (name it with --call-tool)" in result.stderr
    assert not calls.exists()
    tools = {tool["name"]: tool for tool in tools_yaml(project, "shop")}
    assert tools["get_item"]["examples"] == [{"arguments": {"item_id": 0}, "result": "get_item.json"}]
    # the first value its description quotes that the server answers without an error
    assert tools["find_item"]["examples"] == [{"arguments": {"name": "pen"}, "result": "find_item.json"}]
    assert tools["echo"]["examples"] == [{"arguments": {}}]  # text: no document to keep
    answer = json.loads((folder(project, "shop") / "examples" / "get_item.json").read_text())
    assert answer == {"name": "pen", "price": 1.5, "tags": ["0"]}

    other = project.parent / f"{project.name}-other"  # beside, not under: no project around it
    other.mkdir()
    named = run_cli("import", "shop", "--call-tool", "bump", *server("shared"), cwd=other)
    assert named.returncode == 0, named.stderr
    assert calls.read_text() == "bump\n"  # once: the call recorded
    tools = {tool["name"]: tool for tool in tools_yaml(other, "shop")}
    assert tools["bump"]["examples"] == [{"arguments": {}, "result": "bump.json"}]
    assert "examples" not in tools["get_item"]  # --call-tool alone calls that tool only


def test_importing_again_shows_what_changed_and_writes_only_with_write(project: Path) -> None:
    assert run_cli("import", "shop", "--call", *server("shared"), cwd=project).returncode == 0
    contract = folder(project, "shop")
    tools_path = contract / "tools.yaml"
    text = tools_path.read_text()
    # hand-written: a description, a comment, a column's value, a catalogue, a schema's words
    start, end = text.index("  - name: find_item"), text.index("  - name: echo")
    edited = text[:start] + text[end:]  # find_item taken out
    edited = edited.replace("description: An item by its number.", "description: One item. # ours")
    edited = edited.replace("          title: Item Id\n", "          title: Our number\n")
    tools_path.write_text(edited)
    (contract / "errors.yaml").write_text("errors:\n  - code: NOT_FOUND\n    message: No such item.\n")
    before = files_of(contract)

    shown = run_cli("import", "shop", "--format", "json", *server("shared"), cwd=project)
    assert shown.returncode == 1, shown.stdout + shown.stderr
    report = json.loads(shown.stdout)
    assert [(f["rule"], f["file"]) for f in report["findings"]] == [("tool-added", "schemas/contracts/shop/tools.yaml")]
    assert report["facts"]["changed"] is True and report["facts"]["written"] == []
    assert files_of(contract) == before  # nothing written

    written = run_cli("import", "shop", "--write", *server("shared"), cwd=project)
    assert written.returncode == 0, written.stdout + written.stderr
    after = tools_path.read_text()
    assert "description: One item. # ours" in after and "title: Our number" in after
    assert [tool["name"] for tool in tools_yaml(project, "shop")] == ["get_item", "echo", "bump", "find_item"]
    assert (contract / "errors.yaml").read_bytes() == before["errors.yaml"]
    assert files_of(contract)["examples/get_item.json"] == before["examples/get_item.json"]

    again = run_cli("import", "shop", *server("shared"), cwd=project)
    assert again.returncode == 0 and "is up to date with the server" in again.stdout
    assert run_cli("generate", cwd=project).returncode == 0
    conform_json(project, "shop", "shared")


def test_a_server_that_changed_shows_its_break(project: Path) -> None:
    """The server now lists a shape of its own for `stats`: the envelope widens (a branch
    added), which `breaking` names for clients."""
    assert run_cli("import", "shop", *server("shared"), cwd=project).returncode == 0
    result = run_cli("import", "shop", "--format", "json", *server("many"), cwd=project)
    assert result.returncode == 1
    rules = {f["rule"] for f in json.loads(result.stdout)["findings"]}
    assert {"tool-added", "response-branch-added"} <= rules, rules


def test_nothing_is_written_when_the_server_cannot_be_read(project: Path) -> None:
    result = run_cli("import", "shop", "--timeout", "5", "--", sys.executable, "-c", "pass", cwd=project)
    assert result.returncode == 2
    assert "error: cannot read the tools of" in result.stderr and "at any revision" in result.stderr
    assert not (project / "schemas").exists() and not (project / "pyproject.toml").exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("Bad_Name",), "a contract name is kebab case"),
        (("shop", "--call-tool", "nope"), "--call-tool 'nope' is not a tool the server lists"),
        (("shop", "--url", "http://127.0.0.1:9/mcp", "--", "x"), "give either --url URL or -- COMMAND"),
    ],
)
def test_bad_requests_exit_2_and_write_nothing(project: Path, arguments: tuple[str, ...], message: str) -> None:
    rest = () if "--url" in arguments else server("shared")
    result = run_cli("import", *arguments, *rest, cwd=project)
    assert result.returncode == 2, result.stdout
    assert message in result.stderr
    assert not (project / "schemas").exists()


@pytest.mark.slow  # two import processes, each starting the server at every revision
def test_the_same_server_gives_the_same_bytes(tmp_path: Path) -> None:
    """Two imports in two folders, under two hash seeds: byte-identical contracts."""
    made = []
    for seed in ("0", "1"):
        place = tmp_path / seed
        place.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed, "IMPORT_SERVER_CALLS": str(tmp_path / "calls")}
        result = run_process("import", "shop", "--call", *server("many"), cwd=place, env=env)
        assert result.returncode == 0, result.stderr
        made.append(files_of(folder(place, "shop")))
    assert made[0] == made[1]


# ---- the envelope of several output shapes accepts exactly what one of them accepts ----

ITEM = {
    "type": "object",
    "title": "Item",
    "properties": {"name": {"type": "string"}, "next": {"$ref": "#"}, "part": {"$ref": "#/$defs/Part"}},
    "required": ["name"],
    "$defs": {"Part": {"type": "object", "properties": {"size": {"type": "integer", "maximum": 9}}}},
}
ORDER = {  # a `Part` of its own, another than Item's: it must not take Item's place
    "type": "object",
    "title": "Order",
    "properties": {"part": {"$ref": "#/$defs/Part"}, "items": {"type": "array", "items": {"$ref": "#/$defs/Line"}}},
    "$defs": {
        "Part": {"type": "object", "properties": {"size": {"type": "string"}}, "required": ["size"]},
        "Line": {"type": "object", "properties": {"of": {"$ref": "#"}}},
    },
}
UNION = envelope_of("shop result", [("get", ITEM), ("order", ORDER), ("other", ITEM)])


def test_each_shape_keeps_its_own_definitions_and_references() -> None:
    assert UNION.referencing == frozenset()
    assert sorted(UNION.schema["$defs"]) == ["Item", "Line", "Order", "Part", "Part2"]
    assert [branch["$ref"] for branch in UNION.schema["anyOf"]] == ["#/$defs/Item", "#/$defs/Order"]
    assert UNION.schema["anyOf"][0]["description"] == "The result of `get`, `other`."


# JSON documents made of the shapes' own names and values on either side of their bounds
# (hypothesis-jsonschema draws no instance of a recursive schema)
SCALARS = st.one_of(st.none(), st.booleans(), st.sampled_from([0, 9, 10, -1, 1.5, "", "pen"]))
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["name", "next", "part", "size", "items", "of"]), inner, max_size=4),
    ),
    max_leaves=12,
)


@pytest.mark.parametrize("shape", [ITEM, ORDER], ids=["Item", "Order"])
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_branch_judges_as_the_shape_it_came_from(shape: dict[str, Any], data: st.DataObject) -> None:
    branch = {**UNION.schema, "anyOf": None}
    del branch["anyOf"]
    branch["$ref"] = f"#/$defs/{shape['title']}"
    instance = data.draw(DOCUMENTS)
    assert Draft202012Validator(branch).is_valid(instance) == Draft202012Validator(shape).is_valid(instance)


def test_one_shape_is_the_envelope_and_its_tools_reference_it() -> None:
    one = envelope_of("x", [("a", ITEM), ("b", ITEM)])
    assert one.referencing == {"a", "b"}
    assert one.schema == {"$schema": "https://json-schema.org/draft/2020-12/schema", **ITEM}
    none = envelope_of("x", [])
    assert none.schema["type"] == "object" and none.referencing == frozenset()


RAW_SERVER = python(str(ROOT / "tests" / "servers" / "raw_server.py"))
RAW = (*RAW_SERVER, "{}")


def test_a_listing_that_would_not_load_is_every_problem_named_and_nothing_written(project: Path) -> None:
    """The raw server speaks 2025-06-18 alone, and lists an inputSchema that does not compile."""
    bad = json.dumps({"inputSchema": {"type": "object", "properties": {"a": {"type": "nope"}}}})
    result = run_cli("import", "raw", "--", *RAW, "--tool", bad, cwd=project)
    assert result.returncode == 2
    assert (
        "error: schemas/contracts/raw/tools.yaml:" in result.stderr and "does not compile on its own" in result.stderr
    )
    assert "note: 2025-11-25 not spoken: asked for it, the server answered 2025-06-18" in result.stderr
    assert not (project / "schemas").exists()

    good = run_cli("import", "raw", "--", *RAW, cwd=project)
    assert good.returncode == 0, good.stderr
    assert "protocol:\n  - '2025-06-18'\n" in (folder(project, "raw") / "contract.yaml").read_text()


@contextmanager
def _raw_over(transport: str, tmp_path: Path, *options: str) -> Iterator[tuple[str, ...]]:
    """The raw server with `options`, as `import` is pointed at it: a command over stdio, or
    the URL of its streamable HTTP (each answer a JSON body, or one event with `sse`)."""
    command = python(str(ROOT / "tests" / "servers" / "raw_server.py"), *options)
    if transport == "stdio":
        yield ("--", *command)
        return
    url_file = tmp_path / "url"
    running = subprocess.Popen([*command, "--http", str(url_file), *(["--sse"] if transport == "sse" else [])])
    try:
        deadline = time.monotonic() + 30
        while not url_file.is_file() and time.monotonic() < deadline:
            time.sleep(0.05)
        yield ("--url", url_file.read_text(encoding="utf-8"))
    finally:
        running.terminate()
        running.wait(timeout=10)


# What a double makes of each: infinity, and 0 (which the SDK hands on before anyone sees the text).
UNHELD = [
    ("1e400", "1e400 is not a finite double: JSON parsers disagree on it"),
    ("1e-400", "1e-400 is too small for a double: it reads as 0, and JSON parsers disagree on it"),
]


@pytest.mark.parametrize("transport", ["stdio", "http", "sse"])
@pytest.mark.parametrize(("number", "why"), UNHELD)
def test_a_number_of_the_listing_no_double_holds_is_refused_and_nothing_written(
    project: Path, transport: str, number: str, why: str
) -> None:
    """The raw server lists `maximum: 1e400` (or `1e-400`): the SDK reads infinity (or 0),
    which a contract would write as null (or as 0); the number is seen as the server wrote it."""
    huge = f'{{"inputSchema": {{"type": "object", "properties": {{"a": {{"type": "number", "maximum": {number}}}}}}}}}'
    with _raw_over(transport, project, "{}", "--tool", huge) as target:
        result = run_cli("import", "raw", *target, cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    assert (
        "the server's tools/list result holds a number no contract can hold at"
        f" tools/0/inputSchema/properties/a/maximum: {why}" in result.stderr
    ), result.stderr
    assert not (project / "schemas").exists() and not (project / "pyproject.toml").exists()


@pytest.mark.parametrize(
    ("said", "version"),
    [
        ("1.4.2-beta.1", "1.4.2-beta.1"),
        ("v2.1.0", "2.1.0"),
        ("latest", "0.1.0"),
        pytest.param("1.0", "0.1.0", marks=pytest.mark.slow),  # as `latest`: in the slow run
        pytest.param("", "0.1.0", marks=pytest.mark.slow),
    ],
)
def test_the_contract_version_is_semantic_and_the_servers_own_is_in_metadata(
    project: Path, said: str, version: str
) -> None:
    """`serverInfo.version` as the server says it goes under `metadata:`; `version:` is it when
    it is a semantic version, or without its `v`, else 0.1.0. Importing again takes the server's
    new release when it says one so, and keeps the contract's own otherwise."""
    result = run_cli("import", "raw", "--", *RAW, "--version", said, cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    identity = folder(project, "raw") / "contract.yaml"
    written = YAML(typ="safe").load(identity.read_text())
    assert (written["version"], written["metadata"]["server_version"]) == (version, said)
    assert run_cli("generate", cwd=project).returncode == 0

    identity.write_text(identity.read_text().replace(f"\nversion: {version}\n", "\nversion: 3.0.0\n"))
    for release, kept in (("latest", "3.0.0"), ("v9.0.0", "9.0.0")):
        again = run_cli("import", "raw", "--write", "--", *RAW, "--version", release, cwd=project)
        assert again.returncode == 0, again.stdout + again.stderr
        written = YAML(typ="safe").load(identity.read_text())
        assert (written["version"], written["metadata"]["server_version"]) == (kept, release)


def test_a_listing_that_is_no_listing_of_the_protocol_is_said(project: Path) -> None:
    untyped = json.dumps({"inputSchema": {"properties": {"a": {"type": "string"}}}})
    result = run_cli("import", "raw", "--", *RAW, "--tool", untyped, cwd=project)
    assert result.returncode == 2
    assert "not a tools/list result: tools/0/inputSchema/type: Field required" in result.stderr
    assert not (project / "schemas").exists()


def test_importing_again_with_call_keeps_the_example_calls_there(project: Path) -> None:
    """A tool that has example calls gets no other: nothing changes, nothing is written."""
    assert run_cli("import", "shop", "--call", *server("shared"), cwd=project).returncode == 0
    before = files_of(folder(project, "shop"))
    again = run_cli("import", "shop", "--call", "--write", *server("shared"), cwd=project)
    assert again.returncode == 0 and "is up to date with the server" in again.stdout, again.stdout
    assert files_of(folder(project, "shop")) == before


@pytest.mark.slow  # the whole road, and a fuzz run that waits out a hang
@pytest.mark.parametrize(
    ("server_file", "planted"),
    [
        ("faulty_boundary.py", {("fuzz-crash", "get_page"), ("fuzz-hang", "lookup")}),
        ("faulty_lax.py", {("fuzz-invalid-accepted", "get_item")}),
        ("faulty_optional.py", {("fuzz-crash", "search")}),  # its handler raises: MCPServer says so
    ],
)
def test_from_a_faulty_server_to_its_fault(project: Path, server_file: str, planted: set[tuple[str, str]]) -> None:
    """The whole road of a team with a server: import, generate, lint, conform (0 findings:
    the fault is not on the example paths), then `conform --fuzz` finds what was planted."""
    command = ("--", *python(str(ROOT / "tests" / "servers" / server_file)))
    assert run_cli("import", "faulty", *command, cwd=project).returncode == 0
    assert run_cli("generate", cwd=project).returncode == 0
    lint = run_cli("lint", "--format", "json", cwd=project)
    assert json.loads(lint.stdout)["counts"]["error"] == 0, lint.stdout
    newest = ("--protocol", "2026-07-28")  # every revision: the round trips above
    plain = run_cli("conform", "--contract", "faulty", "--format", "json", *newest, *command, cwd=project)
    assert plain.returncode == 0 and json.loads(plain.stdout)["findings"] == [], plain.stdout
    fuzz = ("--fuzz", "20", "--seed", "3", "--timeout", "3")
    fuzzed = run_cli("conform", "--contract", "faulty", "--format", "json", *newest, *fuzz, *command, cwd=project)
    assert fuzzed.returncode == 1
    found = {(f["rule"], (f["subject"] or "").partition("(")[0]) for f in json.loads(fuzzed.stdout)["findings"]}
    assert planted <= found, found


ANSWER = json.dumps({"content": [{"type": "text", "text": "{}"}], "structuredContent": {"name": "pen", "price": 1}})


def raw(*tool_changes: str) -> tuple[str, ...]:
    """The raw server answering every call with ANSWER, its tool changed by `--tool JSON`."""
    changes = [part for change in tool_changes for part in ("--tool", change)]
    return ("--", *python(str(ROOT / "tests" / "servers" / "raw_server.py"), ANSWER, *changes))


@pytest.mark.parametrize("transport", ["stdio", "http", "sse"])
@pytest.mark.parametrize(("number", "why"), UNHELD)
def test_an_answer_with_a_number_no_double_holds_is_no_example(
    project: Path, transport: str, number: str, why: str
) -> None:
    """The server answers `price: 1e400` (or `1e-400`): read as infinity it would be written
    `Infinity`, read as 0 the example would say what the server did not."""
    with _raw_over(transport, project, ANSWER.replace('"price": 1', f'"price": {number}')) as target:
        result = run_cli("import", "raw", "--call", *target, cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "get_item: no example recorded: " in result.stderr
    assert f"its answer holds a number no contract can hold at /structuredContent/price: {why}" in result.stderr
    assert not (folder(project, "raw") / "examples").exists()
    assert run_cli("generate", cwd=project).returncode == 0


def test_an_example_the_server_now_refuses_is_taken_out_and_named(project: Path) -> None:
    """Importing again after the server made an optional argument required: the example call
    recorded before would keep the contract from loading, so it goes, and the findings say so."""
    assert run_cli("import", "raw", "--call", *raw(), cwd=project).returncode == 0
    assert tools_yaml(project, "raw")[0]["examples"] == [{"arguments": {"item_id": 0}, "result": "get_item.json"}]
    schema = {
        "type": "object",
        "required": ["item_id", "kind"],
        "properties": {"item_id": {"type": "integer"}, "kind": {"enum": ["book", "pen"]}},
    }
    stricter = raw(json.dumps({"inputSchema": schema}))
    shown = run_cli("import", "raw", "--format", "json", *stricter, cwd=project)
    assert shown.returncode == 1, shown.stdout + shown.stderr
    rules = {f["rule"] for f in json.loads(shown.stdout)["findings"]}
    assert {"input-required", "tool-examples-changed"} <= rules, rules
    assert "get_item: an example call taken out: the schemas the server lists refuse it" in shown.stderr
    assert "examples" in tools_yaml(project, "raw")[0]  # nothing written
    written = run_cli("import", "raw", "--call", "--write", *stricter, cwd=project)
    assert written.returncode == 0, written.stdout + written.stderr
    assert tools_yaml(project, "raw")[0]["examples"] == [
        {"arguments": {"item_id": 0, "kind": "book"}, "result": "get_item-2.json"}
    ]
    assert run_cli("generate", cwd=project).returncode == 0


PICTURE = json.dumps(
    {
        "content": [
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {"type": "resource_link", "uri": "file:///item.png", "name": "item"},
        ]
    }
)


def test_import_records_the_block_types_its_calls_saw_and_none_it_did_not_see(project: Path) -> None:
    """A tool that lists no output schema and answers with an image and a resource link: not
    called, it declares no block types (any conforms); called, those it answered with. Either
    contract conforms to the server, and importing again changes nothing."""
    pictures = ("--", *RAW_SERVER, PICTURE, "--tool", json.dumps({"outputSchema": None}))
    assert run_cli("import", "raw", *pictures, cwd=project).returncode == 0
    assert tools_yaml(project, "raw")[0]["result"] == {"structured": False}
    tools = folder(project, "raw") / "tools.yaml"
    tools.write_text(tools.read_text() + "    examples:\n      - arguments: {item_id: 1}\n")  # a call of one's own
    plain = run_cli("conform", "--contract", "raw", "--format", "json", *pictures, cwd=project)
    assert (plain.returncode, json.loads(plain.stdout)["findings"]) == (0, []), plain.stdout

    called = run_cli("import", "raw", "--call", "--write", *pictures, cwd=project)
    assert called.returncode == 0, called.stdout + called.stderr
    assert tools_yaml(project, "raw")[0]["result"] == {"structured": False, "content": ["image", "resource_link"]}
    again = run_cli("import", "raw", "--call", *pictures, cwd=project)
    assert again.returncode == 0 and "is up to date with the server" in again.stdout, again.stdout
    conformed = run_cli("conform", "--contract", "raw", "--format", "json", *pictures, cwd=project)
    assert (conformed.returncode, json.loads(conformed.stdout)["findings"]) == (0, []), conformed.stdout


def test_a_tool_name_too_long_for_a_file_name_gets_an_example_file_all_the_same(project: Path) -> None:
    name = "x" * 300
    result = run_cli("import", "raw", "--call", *raw(json.dumps({"name": name})), cwd=project)
    assert result.returncode == 0, result.stderr
    (example,) = tools_yaml(project, "raw")[0]["examples"]
    assert example["result"].startswith("x" * 67 + "-") and len(example["result"]) == 80 + len(".json")
    assert (folder(project, "raw") / "examples" / example["result"]).is_file()


@pytest.mark.parametrize(
    "shape",
    [
        {"$id": "https://example.com/a", "type": "object", "properties": {"a": {"$ref": "#/properties/b"}}},
        {"type": "object", "properties": {"a": {"$ref": "#node"}}, "$defs": {"N": {"$anchor": "node"}}},
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "items": [{"type": "string"}]},
        {"type": "object", "properties": {"a": {"$ref": "https://example.com/other.json"}}},
    ],
    ids=["$id", "anchor", "draft-07", "remote"],
)
def test_a_shape_that_cannot_move_leaves_an_envelope_of_any_result(shape: dict[str, Any]) -> None:
    envelope = envelope_of("x", [("a", shape), ("b", ITEM)])
    assert envelope.referencing == frozenset() and set(envelope.schema) == {"$schema", "title", "description"}


def test_a_property_named_like_a_keyword_keeps_its_reference() -> None:
    named = {"type": "object", "properties": {"default": {"$ref": "#/properties/n"}, "n": {"type": "integer"}}}
    schema = envelope_of("x", [("a", named), ("b", ITEM)]).schema
    moved = schema["$defs"][schema["anyOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert moved["properties"]["default"] == {"$ref": "#/$defs/AResult/properties/n"}
    branch = Draft202012Validator({**schema, "anyOf": [schema["anyOf"][0]]})
    assert branch.is_valid({"default": 1}) and not branch.is_valid({"default": "s"})


@pytest.mark.parametrize("text", ["tools: [\n", "- a list, not a mapping\n"])
def test_a_contract_there_that_no_merge_can_read_is_said_and_left(project: Path, text: str) -> None:
    assert run_cli("import", "shop", *server("shared"), cwd=project).returncode == 0
    (folder(project, "shop") / "tools.yaml").write_text(text)
    before = files_of(folder(project, "shop"))
    result = run_cli("import", "shop", "--write", *server("shared"), cwd=project)
    assert result.returncode == 2
    assert "error: schemas/contracts/shop: the contract there cannot be merged with the server's listing" in (
        result.stderr
    )
    assert files_of(folder(project, "shop")) == before


def entries(path: Path) -> dict[str, object]:
    """Every entry under `path`, not followed: a file's bytes and mode, a folder, a symlink's
    target, a FIFO."""
    found: dict[str, object] = {}
    for entry in sorted(path.rglob("*")):
        mode = entry.lstat().st_mode
        name = entry.relative_to(path).as_posix()
        if stat.S_ISLNK(mode):
            found[name] = f"-> {os.readlink(entry)}"
        elif stat.S_ISREG(mode):
            found[name] = (entry.read_bytes(), stat.S_IMODE(mode))
        else:
            found[name] = "folder" if stat.S_ISDIR(mode) else "special"
    return found


def test_writing_keeps_every_file_and_folder_it_does_not_own_and_names_what_it_changed(project: Path) -> None:
    assert run_cli("import", "shop", *server("shared"), cwd=project).returncode == 0
    contract = folder(project, "shop")
    (contract / "notes").mkdir()
    (contract / "notes" / "mine.md").write_text("# Ours\n")
    (contract / "drafts").mkdir()  # empty
    (contract / "__pycache__").mkdir()
    (contract / "__pycache__" / "canonical.cpython-311.pyc").write_bytes(b"\0")
    (contract / "tools.yaml").chmod(0o600)
    before = entries(contract)

    result = run_cli("import", "shop", "--write", "--format", "json", *server("many"), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    facts = json.loads(result.stdout)["facts"]
    changed = ["envelope.schema.json", "tools.yaml"]
    assert facts["written"] == [f"schemas/contracts/shop/{name}" for name in changed] and facts["removed"] == []
    after = entries(contract)
    assert {name for name in after if after[name] != before[name]} == set(changed) and set(after) == set(before)
    assert stat.S_IMODE((contract / "tools.yaml").stat().st_mode) == 0o600
    assert [p.name for p in contract.iterdir() if p.name.startswith(".")] == []  # nothing left beside them

    again = run_cli("import", "shop", "--write", "--format", "json", *server("many"), cwd=project)
    assert again.returncode == 0 and json.loads(again.stdout)["facts"]["written"] == []
    assert entries(contract) == after


def _symlinked_file(contract: Path, outside: Path) -> str:
    (contract / "leak.txt").symlink_to(outside / "passwd")
    return "schemas/contracts/shop/leak.txt: a symlink: not followed"


def _symlinked_folder(contract: Path, outside: Path) -> str:
    (contract / "examples").symlink_to(outside, target_is_directory=True)
    return "schemas/contracts/shop/examples: a symlink: not followed"


def _fifo(contract: Path, outside: Path) -> str:
    os.mkfifo(contract / "pipe")
    return "schemas/contracts/shop/pipe: a FIFO, not a regular file: not read"


def _symlinked_contract(contract: Path, outside: Path) -> str:
    moved = outside / "shop"
    contract.rename(moved)
    contract.symlink_to(moved, target_is_directory=True)
    return "schemas/contracts/shop: a symlink: import writes only into a folder of its own"


@pytest.mark.parametrize("plant", [_symlinked_file, _symlinked_folder, _fifo, _symlinked_contract])
def test_a_symlink_or_special_file_in_the_contract_is_refused_before_anything_is_written(
    project: Path, plant: Any
) -> None:
    """import --write replaced a symlink to /etc/passwd with a copy of it."""
    assert run_cli("import", "shop", *server("shared"), cwd=project).returncode == 0
    outside = project / "outside"
    outside.mkdir()
    (outside / "passwd").write_text("root:x:0:0\n")
    message = plant(folder(project, "shop"), outside)
    before = entries(project)
    result = run_cli("import", "shop", "--write", *server("many"), cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"error: {message}" in result.stderr
    assert entries(project) == before


def test_a_file_an_import_takes_out_is_the_only_one_removed(tmp_path: Path) -> None:
    contract = tmp_path / "shop"
    (contract / "examples").mkdir(parents=True)
    existing = {"tools.yaml": b"tools: []\n", "examples/old.json": b"{}\n", "examples/kept.json": b"[]\n"}
    for name, content in existing.items():
        (contract / name).write_bytes(content)
    (contract / "mine.txt").write_text("not the import's")
    files = {"tools.yaml": b"tools: []\n", "examples/kept.json": b"[1]\n", "examples/new.json": b"{}\n"}
    changed = write_changes(contract, files, {k: v for k, v in existing.items()})
    assert changed.written == [contract / "examples" / "kept.json", contract / "examples" / "new.json"]
    assert changed.removed == [contract / "examples" / "old.json"]
    assert sorted(p.relative_to(contract).as_posix() for p in contract.rglob("*")) == [
        "examples",
        "examples/kept.json",
        "examples/new.json",
        "mine.txt",
        "tools.yaml",
    ]


def test_the_notes_of_an_import_are_its_outcomes_each_with_a_level(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The API gives one `Outcome`, its notes in it; `--format json` carries them too."""
    from mcp import StdioServerParameters
    from mcp_contracts_generator import api, options
    from mcp_contracts_generator.findings.finding import Note, Outcome

    spoken = Note("note", "2025-11-25 not spoken: asked for it, the server answered 2025-06-18")
    monkeypatch.chdir(project)
    outcome = api.run(options.Import(name="raw", target=StdioServerParameters(command=RAW[0], args=list(RAW[1:]))))
    assert isinstance(outcome, Outcome) and outcome.exit_code == 0, outcome
    assert spoken in outcome.notes
    result = run_cli("import", "raw", "--format", "json", "--", *RAW, cwd=project)
    assert result.returncode == 0, result.stderr
    assert spoken.as_json() in json.loads(result.stdout)["notes"]
    assert f"{spoken}\n" in result.stderr
