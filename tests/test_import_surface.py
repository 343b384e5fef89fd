"""`mcp-contracts import` of a server's resources, resource templates and prompts: written to
resources.yaml and prompts.yaml as listed, read only with --read-resources, merged on importing
again, and every entry the loader would refuse left out with a note.

The server is `mock` of tests/contracts/conformance-fixtures (the official conformance suite's
resources, template and prompts), or tests/servers/surface_server.py, a bare server that lists
whatever a test writes, two entries a page."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import ROOT, run_cli
from forkserver import python
from hypothesis import given
from hypothesis import strategies as st
from mcp_contracts_generator import api
from mcp_contracts_generator.importing.resource_contents import contents_name
from mcp_servers import MOCK
from ruamel.yaml import YAML

FIXTURES = ROOT / "tests" / "contracts" / "conformance-fixtures"
SERVED = "conformance-fixtures"
BARE = ROOT / "tests" / "servers" / "surface_server.py"


@pytest.fixture
def server(tmp_path: Path) -> Path:
    """The schemas folder `mock` serves: a copy of the example contract."""
    shutil.copytree(FIXTURES, tmp_path / "server" / "contracts" / SERVED)
    return tmp_path / "server"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project").mkdir()
    return tmp_path / "project"


def mock(server: Path) -> tuple[str, ...]:
    return ("--", *MOCK, "--contract", SERVED, "--schemas", str(server))


def bare(tmp_path: Path, listing: dict[str, Any]) -> tuple[str, ...]:
    path = tmp_path / "listing.json"
    path.write_text(json.dumps(listing), encoding="utf-8")
    return ("--", *python(str(BARE), str(path)))


def folder(project: Path, name: str = "imported") -> Path:
    return project / "schemas" / "contracts" / name


def source(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def without(entries: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    return [{key: value for key, value in entry.items() if key not in keys} for entry in entries]


def loads(project: Path) -> None:
    result = api.load(project / "schemas")
    assert result.project is not None, [str(d) for d in result.diagnostics]
    generated = run_cli("generate", cwd=project)
    assert generated.returncode == 0, generated.stdout + generated.stderr


def notes(stderr: str) -> list[str]:
    return [line.removeprefix("note: ") for line in stderr.splitlines() if line.startswith("note: ")]


def test_what_a_server_lists_is_written_read_when_asked_and_conforms(server: Path, project: Path) -> None:
    result = run_cli("import", "imported", "--read-resources", *mock(server), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    ours, theirs = source(folder(project) / "resources.yaml"), source(FIXTURES / "resources.yaml")
    named = {"static-text": "static-text.txt", "static-binary": "static-binary.png", "config": "config.json"}
    named["watched-resource"] = "watched-resource.txt"  # a file name of its own name and media type
    assert ours["resources"] == [
        {**entry, "contents": named[entry["name"]]} for entry in without(theirs["resources"], "schema", "contents")
    ]
    assert ours["templates"] == without(theirs["templates"], "schema", "contents")  # a template is not read
    prompts = source(folder(project) / "prompts.yaml")["prompts"]
    assert prompts == without(source(FIXTURES / "prompts.yaml")["prompts"], "messages")
    for entry in theirs["resources"]:
        written = folder(project) / "examples" / "resources" / named[entry["name"]]
        assert written.read_bytes() == (FIXTURES / "examples" / "resources" / entry["contents"]).read_bytes()
    assert sorted(p.name for p in (folder(project) / "examples" / "resources").iterdir()) == sorted(named.values())
    loads(project)
    conform = run_cli("conform", "--contract", "imported", "--format", "json", *mock(server), cwd=project)
    report = conform_report(conform.stdout)
    assert (conform.returncode, report["problem"], report["findings"]) == (0, None, [])


def test_importing_again_keeps_what_people_wrote(server: Path, project: Path) -> None:
    assert run_cli("import", "imported", *mock(server), cwd=project).returncode == 0
    resources_yaml = folder(project) / "resources.yaml"
    assert not (folder(project) / "examples").exists()  # nothing read unless asked
    assert not any("contents" in entry for entry in source(resources_yaml)["resources"])
    text = resources_yaml.read_text(encoding="utf-8")
    text = text.replace(
        "  - uri: test://config\n", "  # kept: our own note on the configuration\n  - uri: test://config\n"
    )
    schema = "    schema:\n      type: object\n      required: [theme]\n"
    text = text.replace("    mimeType: application/json\n", "    mimeType: application/json\n" + schema, 1)
    text = text.replace(
        "    mimeType: text/plain\n    annotations:",
        "    mimeType: text/plain\n    contents: ours.txt\n    annotations:",
    )
    resources_yaml.write_text(text, encoding="utf-8")
    (folder(project) / "examples" / "resources").mkdir(parents=True)
    (folder(project) / "examples" / "resources" / "ours.txt").write_text("written by hand\n", encoding="utf-8")
    loads(project)
    served = server / "contracts" / SERVED / "resources.yaml"
    served.write_text(served.read_text().replace("A static text resource.", "Text that stays."), encoding="utf-8")

    result = run_cli("import", "imported", "--write", "--read-resources", *mock(server), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    text = resources_yaml.read_text(encoding="utf-8")
    assert "  # kept: our own note on the configuration\n  - uri: test://config\n" in text
    entries = {entry["name"]: entry for entry in source(resources_yaml)["resources"]}
    assert entries["config"]["schema"] == {"type": "object", "required": ["theme"]}
    assert entries["config"]["contents"] == "config.json"  # read now, and its kept schema accepts it
    assert entries["watched-resource"]["contents"] == "ours.txt"  # not read over
    assert (folder(project) / "examples" / "resources" / "ours.txt").read_text() == "written by hand\n"
    assert not (folder(project) / "examples" / "resources" / "watched-resource.txt").exists()
    assert entries["static-text"]["description"] == "Text that stays."
    assert list(entries) == ["static-text", "static-binary", "watched-resource", "config"]
    loads(project)


@pytest.mark.parametrize("required", ["theme", "colour"])
def test_a_kept_schema_that_refers_to_a_file_of_the_folder_judges_what_is_read(
    server: Path, project: Path, required: str
) -> None:
    """Contents are recorded only where the kept schema, with the file it refers to, accepts them."""
    parts = {"$defs": {"Config": {"type": "object", "required": [required]}}}
    files = {"parts.schema.json": json.dumps(parts)}
    result, entries = _import_keeping(server, project, '{$ref: "parts.schema.json#/$defs/Config"}', files)
    if required == "theme":  # the server's contents have one
        assert entries["config"]["contents"] == "config.json"
    else:
        assert "contents" not in entries["config"]
        assert any("config" in note and "its schema refuses them" in note for note in notes(result.stderr))
    loads(project)


@pytest.mark.parametrize("formats", ["annotate", "assert"])
def test_a_kept_schema_judges_what_is_read_with_the_contracts_formats(
    server: Path, project: Path, formats: str
) -> None:
    """The server's config has `"theme": "dark"`, no email: recorded unless the contract asserts `format`."""
    result, entries = _import_keeping(server, project, "{properties: {theme: {format: email}}}", {}, formats)
    assert ("contents" in entries["config"]) == (formats == "annotate"), result.stderr
    loads(project)


def _import_keeping(
    server: Path, project: Path, schema: str, files: dict[str, str], formats: str = "annotate"
) -> tuple[Any, dict[str, Any]]:
    """Import, give the config `schema` (with `files` beside it, and `formats:`), import again
    reading the resources: the run and the resources.yaml entries it wrote, by name."""
    assert run_cli("import", "imported", "--write", *mock(server), cwd=project).returncode == 0
    contract_yaml = folder(project) / "contract.yaml"
    contract_yaml.write_text(contract_yaml.read_text(encoding="utf-8") + f"formats: {formats}\n", encoding="utf-8")
    resources_yaml, typed = folder(project) / "resources.yaml", "    mimeType: application/json\n"
    text = resources_yaml.read_text(encoding="utf-8").replace(typed, f"{typed}    schema: {schema}\n", 1)
    resources_yaml.write_text(text, encoding="utf-8")
    for name, content in files.items():
        (folder(project) / name).write_text(content, encoding="utf-8")
    loads(project)
    result = run_cli("import", "imported", "--write", "--read-resources", *mock(server), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    return result, {entry["name"]: entry for entry in source(resources_yaml)["resources"]}


def test_a_resource_over_the_message_bound_is_noted_and_the_others_are_read(server: Path, project: Path) -> None:
    """A read whose answer is over `limits.message_bytes` ends its session (no message is half
    read): that resource is noted, and the ones after it are read in a new session."""
    contents = server / "contracts" / SERVED / "examples" / "resources"
    (contents / "static-text.txt").write_text("x" * 60_000, encoding="utf-8")  # the first one listed
    (contents / "watched.txt").write_text("y" * 60_000, encoding="utf-8")  # the third
    resources = server / "contracts" / SERVED / "resources.yaml"
    resources.write_text(resources.read_text(encoding="utf-8").replace("    size: 48\n", ""), encoding="utf-8")
    (project / "pyproject.toml").write_text("[tool.mcp-contracts.limits]\nmessage_bytes = 30000\n", encoding="utf-8")
    result = run_cli("import", "imported", "--write", "--read-resources", *mock(server), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    over = "not recorded: its answer exceeded limits.message_bytes (30,000 bytes)"
    assert [n for n in notes(result.stderr) if "resources/read" in n] == [
        f"resources/read test://static-text: {over}",
        f"resources/read test://watched-resource: {over}",
    ], result.stderr
    entries = {entry["name"]: entry for entry in source(folder(project) / "resources.yaml")["resources"]}
    assert {name: entry.get("contents") for name, entry in entries.items()} == {
        "static-text": None,
        "static-binary": "static-binary.png",
        "watched-resource": None,
        "config": "config.json",
    }
    loads(project)


LISTING: dict[str, Any] = {
    "capabilities": {"tools": {}, "resources": {}, "prompts": {}},
    "resources": [
        {"uri": "file:///a.txt", "name": "a-file", "mimeType": "text/plain", "size": 5, "icons": [{"src": "i.png"}]},
        {"uri": "file:///b.txt", "name": "a_file", "mimeType": "text/plain"},
        {"uri": "file:///a.txt", "name": "again"},
        {"uri": "no scheme", "name": "spaced"},
        {"uri": "file:///c.bin", "name": "../../etc/passwd", "mimeType": "application/octet-stream"},
        {"uri": "file:///d.txt", "name": "latin", "mimeType": "text/plain"},
        {"uri": "file:///e.txt", "name": "failing", "mimeType": "text/plain"},
        {"uri": "file:///f", "name": "typed", "mimeType": "not a type"},
        {"uri": "file:///g", "name": "RESOURCES"},
        {"uri": "file:///h.txt", "name": "sized", "mimeType": "text/plain", "size": 3},
    ],
    "resourceTemplates": [
        {"uriTemplate": "file:///logs/{day", "name": "broken"},
        {"uriTemplate": "file:///items/{id}", "name": "item", "mimeType": "application/json"},
        {"uriTemplate": "file:///things/{id}", "name": "Item"},
    ],
    "prompts": [
        {"name": "review", "description": "", "arguments": [{"name": "code", "required": True, "x-own": 1}]},
        {"name": "review", "title": "Again"},
        {"name": "two", "arguments": [{"name": "a-b"}, {"name": "a_b"}]},
    ],
    "contents": {
        "file:///a.txt": [{"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hello"}],
        "file:///c.bin": [{"uri": "file:///c.bin", "blob": "AAEC"}],
        "file:///d.txt": [{"uri": "file:///d.txt", "blob": "//79"}],
        "file:///h.txt": [{"uri": "file:///h.txt", "text": "four"}],
    },
    "read_errors": ["file:///e.txt"],
}


def test_what_the_loader_would_refuse_is_left_out_with_a_note(tmp_path: Path, project: Path) -> None:
    result = run_cli("import", "imported", "--read-resources", *bare(tmp_path, LISTING), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    said = notes(result.stderr)
    left = "resources.yaml: the resource"
    for note in (
        "resources.yaml: left out of the resources, having no key there: icons (of 'a-file')",
        f"{left} 'a_file' (file:///b.txt): left out: 'a_file' and 'a-file' are both A_FILE in Python",
        f"{left} 'again' (file:///a.txt): left out: its URI is listed twice",
        f"{left} 'spaced' (no scheme): left out: 'no scheme' is not an absolute URI (RFC 3986: a scheme, then no"
        " space)",
        f"{left} 'typed' (file:///f): left out: 'not a type' is not a media type (RFC 6838: type/subtype)",
        f"{left} 'RESOURCES' (file:///g): left out: 'RESOURCES' is RESOURCES in Python, a name the generated module"
        " takes for itself",
        f"{left} 'latin' (file:///d.txt): no contents recorded: its blob is not UTF-8 (invalid start byte), and"
        " text/plain is text",
        f"{left} 'sized' (file:///h.txt): no contents recorded: the server lists size 3, and its contents hold 4 bytes",
        "resources/read file:///e.txt: not recorded: cannot read file:///e.txt today",
        "resources.yaml: the template 'Item': left out: 'Item' and 'item' are both ITEM in Python",
        "prompts.yaml: left out of the prompts, having no key there: arguments.code.x-own (of 'review')",
        "prompts.yaml: the prompt 'review': left out: the name 'review' is listed twice",
        "prompts.yaml: the prompt 'two': left out: its arguments 'a-b' and 'a_b' are both a_b in Python",
    ):
        assert note in said, said
    assert any(
        n.startswith("resources.yaml: the template 'broken': left out: its uriTemplate 'file:///logs/{day' is")
        for n in said
    ), said
    written = source(folder(project) / "resources.yaml")
    assert [r["name"] for r in written["resources"]] == ["a-file", "../../etc/passwd", "latin", "failing", "sized"]
    assert written["resources"][0] == {
        "uri": "file:///a.txt",
        "name": "a-file",
        "mimeType": "text/plain",
        "size": 5,
        "contents": "a-file.txt",
    }
    assert written["templates"] == [
        {"uriTemplate": "file:///items/{id}", "name": "item", "mimeType": "application/json"}
    ]
    assert source(folder(project) / "prompts.yaml")["prompts"] == [
        {"name": "review", "arguments": [{"name": "code", "required": True}]}  # an empty description is none
    ]
    contents = folder(project) / "examples" / "resources"
    assert {p.name: p.read_bytes() for p in contents.iterdir()} == {
        "a-file.txt": b"hello",
        "etc-passwd.bin": b"\x00\x01\x02",  # a name of the server's is no path
    }
    loads(project)


@pytest.mark.parametrize(
    "listing",
    [
        {"capabilities": {"tools": {}, "resources": {}, "prompts": {}}, "resources": [], "resourceTemplates": []},
        {"capabilities": {"tools": {}}, **{k: LISTING[k] for k in ("resources", "resourceTemplates", "prompts")}},
    ],
    ids=["lists-none", "declares-none"],
)
def test_a_server_without_resources_or_prompts_writes_neither_file(
    tmp_path: Path, project: Path, listing: dict[str, Any]
) -> None:
    """An empty listing, "Method not found" (prompts/list of the first), or no capability
    declared (the second lists them, unasked): none, and nothing to note."""
    result = run_cli("import", "imported", *bare(tmp_path, listing), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (folder(project) / "resources.yaml").exists() and not (folder(project) / "prompts.yaml").exists()
    assert not [note for note in notes(result.stderr) if "/list" in note or ".yaml" in note]
    loads(project)


def test_a_listing_that_is_not_one_is_a_note_and_writes_nothing_of_its_file(tmp_path: Path, project: Path) -> None:
    """A file one of whose listings is not one is not written as if it were whole."""
    listing = {**LISTING, "prompts": [{"title": "no name"}], "resourceTemplates": "not a list"}
    result = run_cli("import", "imported", *bare(tmp_path, listing), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    said = notes(result.stderr)
    unread = "not written, its listing not read"
    assert any(n.startswith(f"prompts.yaml: {unread}: prompts/list: not a prompts/list result: ") for n in said), said
    assert any(n.startswith(f"resources.yaml: {unread}: resources/templates/list: not a ") for n in said), said
    assert not (folder(project) / "prompts.yaml").exists()
    assert not (folder(project) / "resources.yaml").exists()
    loads(project)


@pytest.mark.parametrize(
    ("name", "media_type", "expected"),
    [
        ("static-text", "text/plain; charset=utf-8", "static-text.txt"),
        ("notes.md", "text/markdown", "notes.md"),
        ("../../etc/passwd", None, "etc-passwd.txt"),
        ("/abs/olute", "image/png", "abs-olute.png"),
        ("..", "application/vnd.api+json", "resource.json"),
        ("con", "text/plain", "con-resource.txt"),
        ("naïve name", "application/x-unknown", "na-ve-name.bin"),
        ("taken", "text/plain", "taken-2.txt"),
    ],
)
def test_a_contents_file_name_is_safe_and_unique(name: str, media_type: str | None, expected: str) -> None:
    assert contents_name(name, media_type, {"examples/resources/taken.txt"}) == expected
    long = contents_name("x" * 300, "text/plain", set())
    assert len(long) < 100 and long.endswith(".txt")


def test_a_kept_contents_file_the_servers_new_size_belies_is_taken_out(server: Path, project: Path) -> None:
    """The server's static text grows by a byte: the contents file there would not load with
    its new `size`, so it is taken out with a note, and `--read-resources` records the new one;
    a resource and a prompt the server no longer lists are taken out too."""
    assert run_cli("import", "imported", "--read-resources", *mock(server), cwd=project).returncode == 0
    served = server / "contracts" / SERVED
    text = (served / "examples" / "resources" / "static-text.txt").read_text(encoding="utf-8")
    (served / "examples" / "resources" / "static-text.txt").write_text(text + "!", encoding="utf-8")
    resources = (served / "resources.yaml").read_text(encoding="utf-8").replace("size: 48", "size: 49")
    start, end = resources.index("  - uri: test://config"), resources.index("templates:")
    (served / "resources.yaml").write_text(resources[:start] + resources[end:], encoding="utf-8")
    prompts = (served / "prompts.yaml").read_text(encoding="utf-8")
    start = prompts.index("  - name: test_prompt_with_image")
    (served / "prompts.yaml").write_text(prompts[:start], encoding="utf-8")

    result = run_cli("import", "imported", "--write", *mock(server), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    taken = "contents: static-text.txt taken out: the server lists size 49, and it holds 48 bytes"
    assert f"resources.yaml: the resource 'static-text' (test://static-text): {taken}" in notes(result.stderr)
    entries = {entry["name"]: entry for entry in source(folder(project) / "resources.yaml")["resources"]}
    assert list(entries) == ["static-text", "static-binary", "watched-resource"]
    assert "contents" not in entries["static-text"] and entries["static-binary"]["contents"] == "static-binary.png"
    assert [p["name"] for p in source(folder(project) / "prompts.yaml")["prompts"]] == [
        "test_simple_prompt",
        "test_prompt_with_arguments",
        "test_prompt_with_embedded_resource",
    ]
    loads(project)
    result = run_cli("import", "imported", "--write", "--read-resources", *mock(server), cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    entries = {entry["name"]: entry for entry in source(folder(project) / "resources.yaml")["resources"]}
    assert entries["static-text"]["contents"] == "static-text.txt"
    assert (folder(project) / "examples" / "resources" / "static-text.txt").read_text(encoding="utf-8") == text + "!"
    loads(project)


SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.[a-z0-9]+")


@given(st.text(max_size=300), st.sampled_from([None, "text/plain", "image/png", "application/x-y", "a/b+json"]))
def test_any_resource_name_makes_a_file_name_of_the_folder(name: str, media_type: str | None) -> None:
    found = contents_name(name, media_type, {"examples/resources/resource.txt"})
    assert SAFE.fullmatch(found) and ".." not in found and len(found.encode()) < 100, found
    assert found.lower() != "resource.txt"
