"""A listing read, kept, served and compared as the server writes it: `import` keeps a tool's
`execution`, `_meta` and the fields no SDK model knows, `mock` serves them, `conform`
compares them; both declare roots, sampling and elicitation unless `--client-capabilities`
says otherwise, and answer what those let a server ask. The server is our own, written
without an SDK (tests/servers/capability_server.py), started as a real process."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli
from forkserver import python
from ruamel.yaml import YAML

SERVER = ("--", *python(str(ROOT / "tests" / "servers" / "capability_server.py")))
MOCK = ("--", *python("-m", "mcp_contracts_generator", "mock", "--contract", "caps"))
ASKING = ("list_roots", "sample", "elicit")


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A project holding `caps`, imported from the server calling the tools that ask the
    client; the notes import said."""
    project = tmp_path_factory.mktemp("caps")
    calls = [argument for name in ASKING for argument in ("--call-tool", name)]
    result = run_cli("import", "caps", *calls, *SERVER, cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    return project, result.stderr


@pytest.fixture
def project(imported: tuple[Path, str], tmp_path: Path) -> Path:
    """A copy of the imported project, for a test to edit."""
    copy = tmp_path / "project"
    shutil.copytree(imported[0], copy)
    return copy


def _tools(project: Path) -> dict[str, dict[str, Any]]:
    document = YAML(typ="safe").load((project / "schemas" / "contracts" / "caps" / "tools.yaml").read_text())
    return {tool["name"]: tool for tool in document["tools"]}


def _conform(project: Path, *arguments: str) -> tuple[int, dict[str, Any]]:
    result = run_cli("conform", "--contract", "caps", "--format", "json", *arguments, cwd=project)
    return result.returncode, conform_report(result.stdout)


def test_import_keeps_execution_meta_and_the_fields_no_sdk_knows(imported: tuple[Path, str]) -> None:
    echo = _tools(imported[0])["echo"]
    assert echo["execution"] == {"taskSupport": "optional", "x-note": "a member no SDK model knows"}
    assert echo["_meta"] == {"example.com/ui": {"hidden": False}}
    assert echo["other_fields"] == {"x-cost": 3}


def test_the_client_declares_roots_sampling_and_elicitation_and_answers_what_they_ask(
    imported: tuple[Path, str],
) -> None:
    """The tools a server lists only to such a client are imported; each one that asks the
    client gets an answer at once: no roots, sampling refused, elicitation declined."""
    project, notes = imported
    assert list(_tools(project)) == ["echo", *ASKING]
    assert "list_roots: called with {}" in notes and "elicit: called with {}" in notes
    refused = 'sample: no example recorded: {}: an error result: the client answered {"code": -32600, "message": '
    assert refused in notes


def test_client_capabilities_none_declares_nothing(imported: tuple[Path, str], tmp_path: Path) -> None:
    result = run_cli("import", "bare", "--client-capabilities", "none", *SERVER, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    document = YAML(typ="safe").load((tmp_path / "schemas" / "contracts" / "bare" / "tools.yaml").read_text())
    assert [tool["name"] for tool in document["tools"]] == ["echo"]
    code, report = _conform(imported[0], "--client-capabilities", "roots", *SERVER)
    assert code == 1
    assert sorted({(f["rule"], f["subject"]) for f in report["findings"]}) == [
        ("missing-tool", "tools/list"),
    ]
    assert sorted({f["message"] for f in report["findings"]}) == [
        "the server does not list 'elicit'",
        "the server does not list 'sample'",
    ]


@pytest.mark.parametrize("given", ["bogus", "roots,bogus", ""])
def test_an_unknown_client_capability_is_refused(given: str, tmp_path: Path) -> None:
    for command in (("import", "x"), ("conform", "--contract", "x")):
        result = run_cli(*command, "--client-capabilities", given, *SERVER, cwd=tmp_path)
        assert result.returncode == 2 and "--client-capabilities" in result.stderr, result.stderr
    assert not (tmp_path / "schemas").exists()


@pytest.mark.quiet("tool-field-differs")
@pytest.mark.parametrize("server", [SERVER, MOCK], ids=["server", "mock"])
def test_the_server_and_the_mock_of_its_import_conform_with_every_field(
    imported: tuple[Path, str], server: tuple[str, ...]
) -> None:
    """The mock serves `execution`, `_meta` and `x-cost` as the contract writes them (the
    SDK's own listing would drop `x-cost`); `execution` only at 2025-11-25, which defines it."""
    code, report = _conform(imported[0], *server)
    assert (code, report["findings"], report["problem"]) == (0, [], None)
    assert report["revisions"] == ["2025-06-18", "2025-11-25"]


@pytest.mark.fires("tool-field-differs")
def test_a_field_the_server_lists_otherwise_is_a_finding_at_its_line(project: Path) -> None:
    """`x-cost` edited in the contract; the server's `execution` without its `x-note`, a
    member the SDK's model would not have seen."""
    tools = project / "schemas" / "contracts" / "caps" / "tools.yaml"
    tools.write_text(tools.read_text().replace("x-cost: 3", "x-cost: 4"), encoding="utf-8")
    plain = ("--execution", '{"taskSupport": "optional"}')
    code, report = _conform(project, *SERVER, *plain)
    assert code == 1
    found = {(f["rule"], tuple(f["revisions"]), f["subject"], f["message"], f["pointer"]) for f in report["findings"]}
    said = '{"taskSupport": "optional", "x-note": "a member no SDK model knows"}'
    execution = f'execution is {{"taskSupport": "optional"}}; the contract gives {said}'
    cost = "x-cost is 3; the contract gives 4"
    both = ("2025-06-18", "2025-11-25")
    assert found == {
        ("tool-field-differs", both, "tools/list echo.x-cost", cost, "/tools/0/other_fields/x-cost"),  # one fault
        ("tool-field-differs", ("2025-11-25",), "tools/list echo.execution", execution, "/tools/0/execution"),
    }
    assert len(report["findings"]) == 2


COST = "    other_fields:\n      x-cost: 3\n"
EXECUTION = "    execution:\n      taskSupport: optional\n"
META = "    _meta:\n      example.com/ui:\n        hidden: false\n"


@pytest.mark.parametrize(
    ("old", "new", "at", "said"),
    [
        (COST, COST + "      title: Echo\n", "    other_fields:", 'is not allowed for "title"'),
        (EXECUTION, EXECUTION.replace("optional", "sometimes"), "      taskSupport: sometimes", '"sometimes"'),
        (META, "    _meta: 5\n", "    _meta: 5", 'is not of type "object"'),
    ],
    ids=["a-key-of-its-own", "task-support", "meta-not-an-object"],
)
def test_tools_yaml_refuses_what_the_listing_fields_cannot_be(
    project: Path, old: str, new: str, at: str, said: str
) -> None:
    """`other_fields` holds no field tools.yaml has a key for (it would be said twice), and
    `execution` and `_meta` are what MCP says they are: exit 2, the line named, nothing written."""
    tools = project / "schemas" / "contracts" / "caps" / "tools.yaml"
    text = tools.read_text(encoding="utf-8")
    assert old in text
    tools.write_text(text.replace(old, new), encoding="utf-8")
    result = run_cli("generate", cwd=project)
    line = text.replace(old, new).splitlines().index(at) + 1
    assert result.returncode == 2 and not (project / "generated").exists(), result.stderr
    assert f"tools.yaml:{line}: " in result.stderr and said in result.stderr, result.stderr
