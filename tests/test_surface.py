"""Resources, resource templates and prompts in a contract (resources.yaml, prompts.yaml):
what loading refuses, at which line; the listings `generate` writes; the docs page; and what
`mock` answers, through the official SDK's client, at each protocol revision.

The example contract is tests/contracts/conformance-fixtures, which declares the resources,
the template and the prompts of the official conformance suite's scenarios.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import sys
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from conform_json import conform_report
from conftest import REFERENCE, ROOT, SHARED, generated_package, run_cli, tree_bytes
from forkserver import python
from jsonschema import Draft7Validator, Draft202012Validator
from mcp import Client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_contracts_generator import api
from mcp_contracts_generator.model import Contract
from mcp_contracts_generator.protocol import VERSIONS, revision
from mcp_contracts_generator.serving.mock import Mock, build_server
from mcp_contracts_generator.serving.served import served
from mcp_servers import MOCK
from pydantic import ValidationError

FIXTURES = ROOT / "tests" / "contracts" / "conformance-fixtures"
NAME = "conformance-fixtures"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose only contract is a copy of the example contract."""
    shutil.copytree(FIXTURES, tmp_path / "schemas" / "contracts" / NAME)
    return tmp_path


def _folder(project: Path) -> Path:
    return project / "schemas" / "contracts" / NAME


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path: Path, needle: str, nth: int = 1) -> int:
    found = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if needle in line]
    return found[nth - 1]


def _problems(project: Path) -> list[str]:
    result = api.load(project / "schemas")
    assert result.project is None, "the sources should not load"
    return [str(d) for d in result.diagnostics]


def _contract(project: Path) -> Contract:
    result = api.load(project / "schemas")
    assert result.project is not None, [str(d) for d in result.diagnostics]
    return result.project.contracts[0]


def test_the_example_contract_loads_its_resources_templates_and_prompts(project: Path) -> None:
    surface = _contract(project).surface
    assert [r.uri for r in surface.resources] == [
        "test://static-text",
        "test://static-binary",
        "test://watched-resource",
        "test://config",
    ]
    assert [t.uri for t in surface.templates] == ["test://template/{id}/data"]
    assert [p.name for p in surface.prompts] == [
        "test_simple_prompt",
        "test_prompt_with_arguments",
        "test_prompt_with_embedded_resource",
        "test_prompt_with_image",
    ]
    text, binary = surface.resources[0].contents, surface.resources[1].contents
    assert text is not None and text.text == (_folder(project) / "examples/resources/static-text.txt").read_text()
    assert binary is not None and binary.text is None
    assert (
        base64.b64decode(binary.blob or "") == (_folder(project) / "examples/resources/static-binary.png").read_bytes()
    )


# Each bad edit of resources.yaml, the text on the line it is reported at, and the message.
RESOURCE_PROBLEMS = [
    (
        "uri: test://static-binary",
        "uri: test://static-text",
        "uri: test://static-text",
        2,
        "is listed twice (first at line",
    ),
    ("name: static-binary", "name: static-text", "name: static-text", 2, "is listed twice"),
    ("uri: test://static-text", "uri: static text", "uri: static text", 1, "is not an absolute URI"),
    ("mimeType: image/png", "mimeType: png", "mimeType: png", 1, "'png' is not a media type (RFC 6838"),
    (
        "contents: static-text.txt",
        "contents: ../resources.yaml",
        "contents: ../resources.yaml",
        1,
        "is not a file inside",
    ),
    ("contents: static-text.txt", "contents: missing.txt", "contents: missing.txt", 1, "is not a file inside"),
    ("size: 48", "size: 47", "size: 47", 1, "says 47 bytes, and its contents file holds 48"),
    ("name: static-text", "name: config-judge", "name: config", 2, "are both CONFIG_JUDGE in Python"),
    (
        "test://template/{id}/data",
        "test://template/{id/data",
        "uriTemplate: test://template/{id/data",
        1,
        "not a URI template",
    ),
    (
        "templateTest: {const: true",
        "templateTest: {const: false",
        "contents: template-data.json",
        1,
        "its schema refuses it",
    ),
    # a schema is refused at the line of the keyword its meta-schema refuses
    ("        data: {type: string,", "        data: {type: strung,", "data: {type: strung", 1, "not a valid schema"),
    # ...and a `$ref` that reaches no file of the folder, at the line of the reference
    ('{$ref: "resource-parts.schema.json#', '{$ref: "no-such.schema.json#', "$ref", 1, "no-such.schema.json"),
    # ...and a pattern that is not ECMA-262
    ("        data: {type: string,", "        data: {type: string, pattern: '(?i)abc',", "pattern", 1, "ECMA"),
    ("    title: Static text\n", "    title: Static text\n    colour: red\n", "colour: red", 1, "colour"),
]


PROMPT_PROBLEMS = [
    ("name: test_prompt_with_image", "name: test_simple_prompt", "name: test_simple_prompt", 2, "is listed twice"),
    ("{name: arg2,", "{name: arg1,", "{name: arg1,", 2, "is an argument of this prompt already"),
    ("role: user", "role: system", "role: system", 1, "system"),
    ("content: {type: text, text: This is", "content: {type: video, text: This is", "type: video", 1, "video"),
    # base64 a client cannot decode, which `mock` would serve (import refuses the same)
    ("data: iVBORw0KGgo", "data: not*base64 iVBORw0KGgo", "data: not*base64", 1, "not base64"),
    ("data: iVBORw0KGgo", "data: iVBORw0KGgo=", "data: iVBORw0KGgo=", 1, "not base64"),
]


@pytest.mark.parametrize(
    ("file", "old", "new", "line_text", "nth", "message"),
    [("resources.yaml", *edit) for edit in RESOURCE_PROBLEMS] + [("prompts.yaml", *edit) for edit in PROMPT_PROBLEMS],
)
def test_a_bad_resources_or_prompts_yaml_is_refused_at_the_line_of_the_value(
    project: Path, file: str, old: str, new: str, line_text: str, nth: int, message: str
) -> None:
    path = _folder(project) / file
    _edit(path, old, new)
    line = _line_of(path, line_text, nth)
    found = [p for p in _problems(project) if f"{file}:{line}" in p]
    assert any(message in p for p in found), _problems(project)


@pytest.mark.parametrize(
    ("contents", "message"),
    [
        ('{"theme": "dark", "retries": 3, "theme": "light"}', "the key theme appears twice in one object"),
        ('{"theme": "dark",\n "retries": 3', ":2: invalid JSON"),
        ('{"theme": "\\ud800", "retries": 3}', "a lone surrogate escape"),
    ],
)
def test_a_json_contents_file_is_read_as_a_json_source_is(project: Path, contents: str, message: str) -> None:
    """A repeated key hides a mistake (JSON readers keep either value): refused, as in an
    example, at the line of `contents:`, and so is what no JSON reader reads alike."""
    (_folder(project) / "examples" / "resources" / "config.json").write_text(contents, encoding="utf-8")
    line = _line_of(_folder(project) / "resources.yaml", "contents: config.json")
    found = [p for p in _problems(project) if f"resources.yaml:{line}" in p]
    assert any("examples/resources/config.json" in p and message in p for p in found), _problems(project)


def test_a_content_type_a_declared_revision_lacks_is_refused(project: Path) -> None:
    """resource_link is of 2025-06-18 and later: a contract that serves 2025-03-26 cannot return it."""
    prompts = _folder(project) / "prompts.yaml"
    _edit(
        prompts,
        "content: {type: text, text: This is a simple prompt for testing.}",
        "content: {type: resource_link, uri: 'test://static-text', name: static-text}",
    )
    assert "\nprotocol:" not in (_folder(project) / "contract.yaml").read_text()  # every revision, 2025-03-26 too
    line = _line_of(prompts, "type: resource_link")
    assert any(f"prompts.yaml:{line}" in p and "does not exist at 2025-03-26" in p for p in _problems(project))
    with (_folder(project) / "contract.yaml").open("a", encoding="utf-8") as file:
        file.write('protocol: ["2025-06-18", "2025-11-25"]\n')
    assert _contract(project).surface.prompts[0].messages[0]["content"]["type"] == "resource_link"


def test_generate_refuses_a_bad_surface_with_exit_2_and_writes_nothing(project: Path) -> None:
    assert run_cli("generate", "--schemas", str(project / "schemas"), "--out", str(project / "out")).returncode == 0
    before = tree_bytes(project / "out")
    _edit(_folder(project) / "resources.yaml", "mimeType: image/png", "mimeType: png")
    result = run_cli("generate", "--schemas", str(project / "schemas"), "--out", str(project / "out"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "resources.yaml" in result.stderr and "not a media type" in result.stderr
    assert tree_bytes(project / "out") == before


def test_generate_writes_each_listing_one_entry_a_line(project: Path) -> None:
    out = project / "out"
    assert run_cli("generate", "--schemas", str(project / "schemas"), "--out", str(out)).returncode == 0
    contract = _contract(project)
    for suffix, key, entries in (
        ("resources", "resources", contract.surface.resources),
        ("resource-templates", "resourceTemplates", contract.surface.templates),
        ("prompts", "prompts", contract.surface.prompts),
    ):
        text = (out / "mcp" / f"{NAME}.{suffix}.json").read_text(encoding="utf-8")
        assert text.count("\n") == len(entries) + 2  # the opening line, one a entry, the closing line
        assert json.loads(text)[key] == [dict(entry.listing) for entry in entries]


def test_a_contract_of_tools_only_writes_no_listing_of_them(project: Path) -> None:
    (_folder(project) / "resources.yaml").unlink()
    (_folder(project) / "prompts.yaml").unlink()
    out = project / "out"
    assert run_cli("generate", "--schemas", str(project / "schemas"), "--out", str(out)).returncode == 0
    assert sorted(p.name for p in (out / "mcp").iterdir()) == [f"{NAME}.tools.json"]


def test_the_docs_page_has_a_table_of_each_kind_that_no_description_breaks(project: Path) -> None:
    _edit(
        _folder(project) / "resources.yaml",
        "description: A static text resource.",
        "description: 'a | b\n\n# not a heading'",
    )
    out = project / "out"
    assert run_cli("generate", "--schemas", str(project / "schemas"), "--out", str(out)).returncode == 0
    page = (out / "docs" / f"{NAME}.md").read_text(encoding="utf-8")
    for title in ("## Resources", "## Resource templates", "## Prompts"):
        assert title in page
    row = next(line for line in page.splitlines() if "test://static-text" in line and line.startswith("|"))
    # two cells, Key | Details (a column a line in the second), the pipe escaped
    assert row.count(" | ") + 2 == row.count("|") == 3 and "**Description:** a &#124; b" in row
    assert "# not a heading" not in page.splitlines()
    assert "| arg1, arg2 |" in page


def test_the_docs_page_describes_each_json_resources_contents_with_anchors_of_their_own(project: Path) -> None:
    """The config's schema gains a definition named as one of the envelope's (`Success`): each
    keeps an anchor of its own, every link of the page leads to an anchor on it, and a
    description cannot break the table."""
    _edit(
        _folder(project) / "resources.yaml",
        "        retries: {type: integer, minimum: 0, description: How often a call is tried again.}\n",
        "        retries: {type: integer, minimum: 0}\n        last: {$ref: '#/$defs/Success'}\n"
        "      $defs:\n        Success: {type: object, description: 'a | b', properties: {at: {type: string}}}\n",
    )
    page = (_generated(project) / "docs" / f"{NAME}.md").read_text(encoding="utf-8")
    contents = page[page.index("## Resource contents") : page.index("## Examples")]
    assert [line for line in contents.splitlines() if line.startswith("###")] == [
        "### config",
        "#### ConfigContents",
        "#### Success",
        "### template-data",
        "#### TemplateDataContents",
    ]
    assert "| last | [Success](#contents-config-success) | no |" in contents
    # a reference to a definition the page does not show (of resource-parts.schema.json): what it says, in words
    assert '| theme | string | yes | How the client is drawn. Constraints: one of "dark", "light". |' in contents
    assert "The contents of [test://config](#resource-test-config)" in contents
    anchors = re.findall(r'<a id="([^"]+)"></a>', page)
    assert len(anchors) == len(set(anchors)) and {"def-success", "contents-config-success"} <= set(anchors)
    assert set(re.findall(r"\]\(#([^)]+)\)", page)) <= set(anchors)
    assert "a &#124; b" in contents


# --- the mock, through the official SDK's client


def _with_client(project: Path, body: Callable[[Client], Awaitable[Any]], mode: str = "legacy") -> Any:
    contract = served(_contract(project))

    async def main() -> Any:
        async with Client(build_server(Mock(contract)), mode=mode) as client:
            return await body(client)

    return anyio.run(main)


def _wire(result: Any) -> Any:
    return result.model_dump(by_alias=True, mode="json", exclude_none=True)


def test_the_mock_reads_text_binary_and_template_resources(project: Path) -> None:
    async def body(client: Client) -> list[Any]:
        return [
            await client.read_resource("test://static-text"),
            await client.read_resource("test://static-binary"),
            await client.read_resource("test://template/a%22b/data"),
        ]

    text, binary, template = (_wire(r)["contents"][0] for r in _with_client(project, body))
    assert text == {
        "uri": "test://static-text",
        "mimeType": "text/plain",
        "text": "This is the content of the static text resource.",
    }
    assert base64.b64decode(binary["blob"]) == (_folder(project) / "examples/resources/static-binary.png").read_bytes()
    # the value decoded from the URI, put into the JSON's strings: a quote in it keeps the JSON whole
    assert json.loads(template["text"]) == {"id": 'a"b', "templateTest": True, "data": 'Data for ID: a"b'}


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_mock_refuses_a_uri_the_contract_lacks_with_the_revisions_code(project: Path, mode: str) -> None:
    async def body(client: Client) -> int:
        with pytest.raises(MCPError) as raised:
            await client.read_resource("test://nowhere")
        return raised.value.error.code

    version = "2025-11-25" if mode == "legacy" else mode
    assert _with_client(project, body, mode) == revision(version).resource_not_found


def test_the_mock_takes_a_subscription_to_its_resources_only(project: Path) -> None:
    """`resources/subscribe`, of the revisions before 2026-07-28 (the SDK's client warns it is gone since)."""

    async def body(client: Client) -> int:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.subscribe_resource("test://watched-resource")
            await client.unsubscribe_resource("test://watched-resource")
            with pytest.raises(MCPError) as raised:
                await client.subscribe_resource("test://nowhere")
        return raised.value.error.code

    assert _with_client(project, body) == revision("2025-11-25").resource_not_found


def test_the_mock_fills_a_prompts_arguments_and_refuses_what_it_does_not_take(project: Path) -> None:
    async def body(client: Client) -> tuple[Any, list[str]]:
        got = await client.get_prompt("test_prompt_with_arguments", {"arg1": "one {arg2}", "arg2": "two"})
        refused = []
        for name, arguments in (
            ("test_prompt_with_arguments", {"arg1": "one"}),
            ("test_prompt_with_arguments", {"arg1": "1", "arg2": "2", "arg3": "3"}),
            ("no_such_prompt", {}),
        ):
            with pytest.raises(MCPError) as raised:
                await client.get_prompt(name, arguments)
            refused.append(raised.value.error.message)
        return got, refused

    got, refused = _with_client(project, body)
    # a value that holds `{arg2}` is not filled again
    assert _wire(got)["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "Prompt with arguments: arg1='one {arg2}', arg2='two'"}}
    ]
    assert "needs the argument 'arg2'" in refused[0]
    assert "takes no argument 'arg3'" in refused[1]
    assert "unknown prompt 'no_such_prompt'" in refused[2]


def test_a_mock_of_tools_only_declares_no_resources_or_prompts(project: Path) -> None:
    (_folder(project) / "resources.yaml").unlink()
    (_folder(project) / "prompts.yaml").unlink()

    async def body(client: Client) -> tuple[Any, str]:
        with pytest.raises(MCPError) as raised:
            await client.list_resources()
        return client.server_capabilities, raised.value.error.message

    capabilities, message = _with_client(project, body)
    assert capabilities.resources is None and capabilities.prompts is None
    assert "not found" in message.lower()


def _spec(version: str, definition: str) -> Any:
    """The validator of one definition of a revision's MCP schema (draft-07 before 2025-11-25)."""
    schema = json.loads((REFERENCE / "mcp-spec" / f"schema-{version}.json").read_text(encoding="utf-8"))
    container = "$defs" if "$defs" in schema else "definitions"
    validator = Draft202012Validator if container == "$defs" else Draft7Validator
    return validator({**schema, "$ref": f"#/{container}/{definition}"})


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"needs the MCP specification's schemas in {REFERENCE}")
@pytest.mark.parametrize("version", VERSIONS)
def test_every_listing_and_answer_is_valid_at_every_revision(project: Path, version: str) -> None:
    """What a client of each revision gets, judged by that revision's own schema."""
    at = revision(version)
    mode = "legacy" if at.handshake else version

    async def body(client: Client) -> list[tuple[str, Any]]:
        if at.handshake:  # the legacy handshake negotiates the newest: the SDK's client of a revision
            assert client.protocol_version in VERSIONS
        return [
            ("ListResourcesResult", await client.list_resources()),
            ("ListResourceTemplatesResult", await client.list_resource_templates()),
            ("ListPromptsResult", await client.list_prompts()),
            ("ReadResourceResult", await client.read_resource("test://static-text")),
            ("ReadResourceResult", await client.read_resource("test://static-binary")),
            ("ReadResourceResult", await client.read_resource("test://template/7/data")),
            (
                "GetPromptResult",
                await client.get_prompt("test_prompt_with_embedded_resource", {"resourceUri": "test://x"}),
            ),
            ("GetPromptResult", await client.get_prompt("test_prompt_with_image")),
        ]

    for definition, result in _with_client(project, body, mode):
        wire = _wire(result)
        errors = [e.message for e in _spec(version, definition).iter_errors(wire)]
        assert errors == [], (definition, wire)


# --- lint


# and the envelope's `property-described`, which reads a JSON resource's schema too
SURFACE_RULES = ("resource-described", "prompt-described", "placeholder-unknown", "property-described")


def _lint(project: Path) -> list[dict[str, Any]]:
    result = run_cli("lint", "--format", "json", "--schemas", str(project / "schemas"))
    assert result.returncode == 0, result.stdout + result.stderr
    findings: list[dict[str, Any]] = json.loads(result.stdout)["findings"]
    return [f for f in findings if f["rule"] in SURFACE_RULES]


@pytest.mark.quiet(*SURFACE_RULES)
def test_the_example_contract_has_no_finding_of_the_surface_rules(project: Path) -> None:
    assert _lint(project) == []


# rule, file, the edit, the text on the line the finding is at, its pointer
SURFACE_EDITS = [
    (
        "resource-described",
        "resources.yaml",
        "    description: A static text resource.\n",
        "name: static-text",
        "/resources/0/name",
    ),
    (
        "resource-described",
        "resources.yaml",
        "    description: The data of one ID, as JSON.\n",
        "name: template-data",
        "/templates/0/name",
    ),
    (
        "prompt-described",
        "prompts.yaml",
        "    description: A prompt without arguments.\n",
        "name: test_simple_prompt",
        "/prompts/0/name",
    ),
    (
        "prompt-described",
        "prompts.yaml",
        " description: Second test argument,",
        "{name: arg2,",
        "/prompts/1/arguments/1/name",
    ),
    (
        "placeholder-unknown",
        "prompts.yaml",
        "arg2='{arg2}'",
        '      - role: user\n        content: {type: text, text: "Prompt',
        "/prompts/1/messages/0",
    ),
    ("placeholder-unknown", "resources.yaml", "", "contents: template-data.json", "/templates/0/contents"),
    (
        "property-described",
        "resources.yaml",
        ", description: The data of the ID.",
        "data: {type: string}",
        "/templates/0/schema/properties/data",
    ),
]


@pytest.mark.fires(*SURFACE_RULES)
@pytest.mark.parametrize(("rule", "file", "removed", "needle", "pointer"), SURFACE_EDITS)
def test_each_surface_rule_fires_at_the_line_of_what_it_names(
    project: Path, rule: str, file: str, removed: str, needle: str, pointer: str
) -> None:
    if removed:
        replacement = "arg2='{arg3}'" if rule == "placeholder-unknown" else ""
        _edit(_folder(project) / file, removed, replacement)
    else:  # a variable the template does not have, in its contents
        _edit(_folder(project) / "examples/resources/template-data.json", "Data for ID: {id}", "Data for {ID}")
    [finding] = _lint(project)
    assert (finding["rule"], finding["level"]) == (rule, "warning")
    text = (_folder(project) / file).read_text(encoding="utf-8")
    line = text[: text.index(needle)].count("\n") + 1  # where `needle` begins
    assert (finding["line"], finding["pointer"]) == (line, pointer)
    assert finding["file"].endswith(f"contracts/{NAME}/{file}")


# --- the generated Python


@pytest.fixture
def generated(project: Path) -> Path:
    """The output folder of the example contract, with an optional query variable in its template."""
    _edit(
        _folder(project) / "resources.yaml",
        "uriTemplate: test://template/{id}/data",
        "uriTemplate: test://template/{id}/data{?page,sort}",
    )
    return _generated(project)


def _generated(project: Path) -> Path:
    """The output folder `generate` writes for the project as it stands."""
    out = project / "out"
    result = run_cli("generate", "--schemas", str(project / "schemas"), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def test_the_python_package_names_each_resource_and_expands_and_matches_each_template(generated: Path) -> None:
    with generated_package(generated, "conformance_fixtures.resources") as resources:
        assert resources.RESOURCES == (
            "test://static-text",
            "test://static-binary",
            "test://watched-resource",
            "test://config",
        )
        assert resources.STATIC_TEXT == "test://static-text"
        assert resources.TEMPLATES == (resources.TEMPLATE_DATA,)
        uri = resources.expand_template_data(id="a/b c", sort="new")
        assert uri == "test://template/a%2Fb%20c/data?sort=new"  # `page` left out, name and all
        assert resources.match_template_data(uri) == {"id": "a/b c", "sort": "new"}
        assert resources.match_template_data(resources.expand_template_data(id="7")) == {"id": "7"}
        assert resources.match_template_data("test://elsewhere/7/data") is None
        with pytest.raises(TypeError):
            resources.expand_template_data("7")  # keyword arguments only


def test_the_python_package_has_a_model_of_each_prompts_arguments(generated: Path) -> None:
    with generated_package(generated, "conformance_fixtures.prompts") as prompts:
        assert prompts.PROMPTS[:2] == ("test_simple_prompt", "test_prompt_with_arguments")
        model = prompts.TestPromptWithArgumentsArguments
        assert model.model_validate({"arg1": "a", "arg2": "b"}).model_dump() == {"arg1": "a", "arg2": "b"}
        for refused in ({"arg1": "a"}, {"arg1": "a", "arg2": "b", "arg3": "c"}, {"arg1": "a", "arg2": 2}):
            with pytest.raises(ValidationError):
                model.model_validate(refused)
        assert not hasattr(prompts, "TestSimplePromptArguments")  # a prompt without arguments has no model


# --- conform, against `mcp-contracts mock` of the contract, or of an edited copy of it


CONFORM_RULES = (
    "surface-unlisted",
    "missing-resource",
    "resource-differs",
    "read-failed",
    "resource-contents-invalid",
    "missing-prompt",
    "prompt-differs",
    "prompt-get-failed",
)


def _conform(
    project: Path, server: Path, *protocols: str, target: tuple[str, ...] = (), extra: tuple[str, ...] = ()
) -> tuple[int, list[dict[str, Any]]]:
    """`conform` of the project's contract against the mock of `server`'s (a schemas folder), or `target`."""
    mock = ("--", *(target or (*MOCK, "--contract", NAME, "--schemas", str(server))))
    asked = [item for version in protocols for item in ("--protocol", version)]
    result = run_cli(
        "conform", "--contract", NAME, "--schemas", str(project / "schemas"), "--format", "json", *asked, *extra, *mock
    )
    report = conform_report(result.stdout)
    assert report["problem"] is None, report
    return result.returncode, report["findings"]


@pytest.mark.quiet(*CONFORM_RULES)
def test_the_mock_of_the_example_contract_conforms_to_it(project: Path) -> None:
    code, findings = _conform(project, project / "schemas", "2025-06-18", "2026-07-28")
    assert (code, findings) == (0, [])


@pytest.fixture
def server(tmp_path: Path) -> Path:
    """The schemas folder of a server: a copy of the example contract a test edits."""
    shutil.copytree(FIXTURES, tmp_path / "server" / "contracts" / NAME)
    return tmp_path / "server"


def _server_edit(server: Path, file: str, old: str, new: str) -> None:
    _edit(server / "contracts" / NAME / file, old, new)


@pytest.mark.fires(*CONFORM_RULES)
def test_each_departure_of_a_servers_resources_and_prompts_is_a_finding_at_its_entry(
    project: Path, server: Path
) -> None:
    resources, prompts = _folder(project) / "resources.yaml", _folder(project) / "prompts.yaml"
    _server_edit(server, "resources.yaml", "  - uri: test://watched-resource\n", "  - uri: test://watched-elsewhere\n")
    _server_edit(server, "resources.yaml", "    mimeType: image/png\n", "    mimeType: image/gif\n")
    _server_edit(server, "resources.yaml", "test://template/{id}/data", "test://template/{id}")
    _server_edit(server, "resources.yaml", "    size: 48\n    contents: static-text.txt\n", "")  # nothing to read
    # the server's schema of the config is looser than the contract's, and its contents break the contract's
    _server_edit(
        server, "resources.yaml", 'theme: {$ref: "resource-parts.schema.json#/$defs/Theme"}', "theme: {type: string}"
    )
    _edit(server / "contracts" / NAME / "examples/resources/config.json", '"dark"', '"blue"')
    _server_edit(server, "prompts.yaml", "  - name: test_prompt_with_image\n", "  - name: test_prompt_with_a_picture\n")
    _server_edit(
        server, "prompts.yaml", "description: Second test argument, required: true", "description: Second test argument"
    )
    _server_edit(
        server,
        "prompts.yaml",
        "    description: A prompt without arguments.\n",
        "    description: A prompt without arguments.\n    arguments:\n"
        "      - {name: topic, description: What about, required: true}\n",
    )
    code, findings = _conform(project, server, "2025-11-25")
    assert code == 1
    found = sorted((f["rule"], f["file"].rsplit("/", 1)[-1], f["line"]) for f in findings)
    assert found == sorted(
        [
            ("missing-resource", "resources.yaml", _line_of(resources, "uri: test://watched-resource")),
            ("resource-differs", "resources.yaml", _line_of(resources, "mimeType: image/png")),
            ("resource-differs", "resources.yaml", _line_of(resources, "uriTemplate:")),
            ("read-failed", "resources.yaml", _line_of(resources, "uri: test://static-text")),
            ("resource-contents-invalid", "resources.yaml", _line_of(resources, "schema:")),
            ("missing-prompt", "prompts.yaml", _line_of(prompts, "name: test_prompt_with_image")),
            ("prompt-differs", "prompts.yaml", _line_of(prompts, "{name: arg2,")),
            ("prompt-differs", "prompts.yaml", _line_of(prompts, "name: test_simple_prompt")),
            ("prompt-get-failed", "prompts.yaml", _line_of(prompts, "name: test_simple_prompt")),
        ]
    ), findings


@pytest.mark.fires("surface-unlisted")
def test_a_server_that_lists_no_prompts_for_a_contract_that_declares_some(project: Path, server: Path) -> None:
    (server / "contracts" / NAME / "prompts.yaml").unlink()
    code, findings = _conform(project, server, "2025-11-25")
    assert code == 1
    [finding] = findings
    assert (finding["rule"], finding["subject"], finding["file"].rsplit("/", 1)[-1]) == (
        "surface-unlisted",
        "prompts/list",
        "prompts.yaml",
    )


# --- breaking, against a folder of the sources before the edit


BREAKING_RULES = (
    "resource-removed",
    "resource-added",
    "template-removed",
    "template-added",
    "template-variable-removed",
    "template-changed",
    "resource-media-type-changed",
    "prompt-removed",
    "prompt-added",
    "prompt-argument-removed",
    "prompt-argument-required",
    "prompt-argument-added",
)


def _breaking(project: Path, before: Path) -> list[tuple[str, str, int | None]]:
    """(rule, subject, line) of each finding of `breaking` of the project against `before`, but the version's."""
    result = run_cli("breaking", "--against", str(before), "--schemas", str(project / "schemas"), "--format", "json")
    assert result.returncode in (0, 1), result.stdout + result.stderr
    findings = json.loads(result.stdout)["findings"]
    return sorted((f["rule"], f["subject"], f["line"]) for f in findings if not f["rule"].startswith("version"))


@pytest.mark.quiet(*BREAKING_RULES)
def test_the_same_resources_and_prompts_break_nothing(project: Path, server: Path) -> None:
    assert _breaking(project, server) == []


@pytest.mark.fires(
    "resource-removed",
    "resource-added",
    "template-removed",
    "template-added",
    "resource-media-type-changed",
    "prompt-removed",
    "prompt-added",
    "prompt-argument-removed",
    "prompt-argument-required",
    "prompt-argument-added",
)
def test_each_change_of_a_resource_template_or_prompt_is_classified(project: Path, server: Path) -> None:
    resources, prompts = _folder(project) / "resources.yaml", _folder(project) / "prompts.yaml"
    _edit(resources, "  - uri: test://watched-resource\n", "  - uri: test://watched-elsewhere\n")
    _edit(resources, "    mimeType: image/png\n", "    mimeType: image/gif\n")
    _edit(prompts, "  - name: test_prompt_with_image\n", "  - name: test_prompt_with_a_picture\n")
    _edit(prompts, "      - {name: arg1, description: First test argument, required: true}\n", "")
    _edit(
        prompts,
        "      - {name: resourceUri, description: URI of the resource to embed, required: true}\n",
        "      - {name: resourceUri, description: URI of the resource to embed, required: true}\n"
        "      - {name: note, description: A note}\n      - {name: lang, description: A language, required: true}\n",
    )
    # the template renamed on the old side only: one removed, one added
    _server_edit(server, "resources.yaml", "    name: template-data\n", "    name: template-of-old\n")
    found = _breaking(project, server)
    expected = {
        ("resource-removed", "resource test://watched-resource"),
        ("resource-added", "resource test://watched-elsewhere"),
        ("resource-media-type-changed", "resource test://static-binary mimeType"),
        ("template-removed", "template template-of-old"),
        ("template-added", "template template-data"),
        ("prompt-removed", "prompt test_prompt_with_image"),
        ("prompt-added", "prompt test_prompt_with_a_picture"),
        ("prompt-argument-removed", "prompt test_prompt_with_arguments argument arg1"),
        ("prompt-argument-added", "prompt test_prompt_with_embedded_resource argument note"),
        ("prompt-argument-required", "prompt test_prompt_with_embedded_resource argument lang"),
    }
    assert {(rule, subject) for rule, subject, _ in found} == expected, found
    line = _line_of(prompts, "{name: lang,")
    assert ("prompt-argument-required", "prompt test_prompt_with_embedded_resource argument lang", line) in found


@pytest.mark.fires("template-variable-removed", "template-changed", "property-added", "prompt-argument-required")
def test_a_template_changed_and_a_json_resources_schema_are_classified_as_their_readers_see_them(
    project: Path, server: Path
) -> None:
    resources, prompts = _folder(project) / "resources.yaml", _folder(project) / "prompts.yaml"
    _edit(resources, "test://template/{id}/data", "test://template/data")
    _edit(
        resources,
        "        retries: {type: integer, minimum: 0, description: How often a call is tried again.}\n",
        "        retries: {type: integer, minimum: 0}\n        colour: {type: string}\n",
    )
    _edit(
        prompts,
        "      - {name: arg2, description: Second test argument, required: true}\n",
        "      - {name: arg2, description: Second test argument, required: true}\n"
        "      - {name: arg3, description: Third}\n",
    )
    _server_edit(
        server,
        "prompts.yaml",
        "      - {name: arg2, description: Second test argument, required: true}\n",
        "      - {name: arg2, description: Second test argument, required: true}\n"
        "      - {name: arg3, description: Third}\n",
    )
    _edit(prompts, "{name: arg3, description: Third}", "{name: arg3, description: Third, required: true}")
    found = {(rule, subject) for rule, subject, _ in _breaking(project, server)}
    assert ("template-variable-removed", "template template-data uriTemplate") in found
    assert ("prompt-argument-required", "prompt test_prompt_with_arguments argument arg3") in found
    assert any(
        rule == "property-added" and subject.startswith("resource test://config schema") for rule, subject in found
    ), found
    _edit(resources, "test://template/data", "test://templates/{id}/data")
    found = {(rule, subject) for rule, subject, _ in _breaking(project, server)}
    assert ("template-changed", "template template-data uriTemplate") in found


def test_a_change_in_a_file_a_resources_schema_refers_to_is_found_in_that_file(project: Path, server: Path) -> None:
    parts = _folder(project) / "resource-parts.schema.json"
    _edit(parts, '"enum": ["dark", "light"]', '"enum": ["dark", "light", "contrast"]')
    result = run_cli("breaking", "--against", str(server), "--schemas", str(project / "schemas"), "--format", "json")
    findings = [f for f in json.loads(result.stdout)["findings"] if f["subject"].startswith("resource test://config")]
    assert result.returncode == 1 and len(findings) == 1, result.stdout + result.stderr
    assert findings[0]["subject"] == "resource test://config schema /theme"
    assert findings[0]["file"].endswith(f"contracts/{NAME}/resource-parts.schema.json"), findings[0]
    assert findings[0]["pointer"] == "/$defs/Theme/enum" and "contrast" in findings[0]["message"], findings[0]


def test_variables_that_are_no_python_names_become_parameters_that_are(project: Path) -> None:
    _edit(
        _folder(project) / "resources.yaml", "test://template/{id}/data", "test://template/{id}/data{?page.size,from}"
    )
    out = project / "out"
    assert run_cli("generate", "--schemas", str(project / "schemas"), "--out", str(out)).returncode == 0
    with generated_package(out, "conformance_fixtures.resources") as resources:
        uri = resources.expand_template_data(id="1", page_size="5", from_="x y")
        assert uri == "test://template/1/data?page.size=5&from=x%20y"
        assert resources.match_template_data(uri) == {"id": "1", "page.size": "5", "from": "x y"}
        assert resources.TemplateDataValues.__optional_keys__ == {"page.size", "from"}


# --- conform --fuzz: each template read and each prompt got with drawn values

FUZZ = ("--fuzz", "12", "--seed", "7")
FAULTY_SURFACE = (*python(str(ROOT / "tests" / "servers" / "faulty_surface.py")),)


@pytest.mark.fires("fuzz-crash", "fuzz-invalid-accepted")
@pytest.mark.parametrize(
    ("flags", "said"),
    [
        ((), "JSON-RPC internal error -32603 (cannot read an encoded id)"),
        # a plain exception the handler raised: the Python SDK answers it with code 0
        (("--unhandled",), "error code 0, the Python MCP SDK's answer to an exception its handler raised"),
    ],
)
def test_fuzzing_reads_each_template_and_gets_each_prompt_with_drawn_values(
    project: Path, flags: tuple[str, ...], said: str
) -> None:
    _, findings = _conform(project, project, "2025-11-25", target=(*FAULTY_SURFACE, *flags), extra=FUZZ)
    fuzzed = sorted((f["rule"], f["subject"], f["line"]) for f in findings if f["rule"].startswith("fuzz-"))
    resources, prompts = _folder(project) / "resources.yaml", _folder(project) / "prompts.yaml"
    assert fuzzed == [
        ("fuzz-crash", "resources/read template-data", _line_of(resources, "- uriTemplate:")),
        (
            "fuzz-invalid-accepted",
            "prompts/get test_prompt_with_arguments",
            _line_of(prompts, "name: test_prompt_with_arg"),
        ),
        (
            "fuzz-invalid-accepted",
            "prompts/get test_prompt_with_embedded_resource",
            _line_of(prompts, "name: test_prompt_with_em"),
        ),
    ], findings
    crash = next(f for f in findings if f["rule"] == "fuzz-crash")
    assert said in crash["message"] and "--seed 7" in crash["message"], crash


@pytest.mark.quiet("fuzz-crash", "fuzz-hang", "fuzz-invalid-accepted")
def test_fuzzing_finds_nothing_where_a_server_reads_any_value_and_refuses_a_missing_argument(project: Path) -> None:
    _, findings = _conform(project, project, "2025-11-25", target=(*FAULTY_SURFACE, "--clean"), extra=FUZZ)
    assert [f for f in findings if f["rule"].startswith("fuzz-") or f["rule"] == "invalid-response"] == []
    code, findings = _conform(project, project / "schemas", "2025-11-25", extra=FUZZ)  # the mock: no finding at all
    assert (code, findings) == (0, []), findings


def test_a_json_resource_with_a_schema_gets_a_judge_and_a_model_that_read_its_contents(generated: Path) -> None:
    """`config`'s schema refers to resource-parts.schema.json for its `theme`: the model and the
    judge read the bundle that holds it."""
    with generated_package(generated, "conformance_fixtures.resources") as resources:
        config = resources.read_config(b'{"theme": "dark", "retries": 3}')
        assert (type(config).__name__, config.theme, config.retries) == ("ConfigContents", "dark", 3)
        assert config.model_dump() == {"theme": "dark", "retries": 3}
        for refused, said in (
            (b'{"theme": "blue", "retries": 3}', "theme"),  # the enum of the file it refers to
            (b'{"theme": "dark", "retries": -1}', "retries"),  # `minimum`, which no Python type says
            (b'{"theme": "dark", "retries": 3, "more": 1}', "more"),
            (b"{", "Invalid JSON"),
        ):
            with pytest.raises(ValidationError) as raised:
                resources.read_config(refused)
            assert said in str(raised.value), raised.value
        assert resources.CONFIG_JUDGE.is_valid({"theme": "light", "retries": 0})
        data = resources.read_template_data('{"id": "7", "templateTest": true, "data": "x"}')
        assert (type(data).__name__, data.id, data.templateTest) == ("TemplateDataContents", "7", True)
        assert not hasattr(resources, "read_static_text")  # text, no schema: no judge
        schema = type(config).model_json_schema()  # the schema of resources.yaml, not one pydantic derives
        assert schema["properties"]["retries"] == {
            "description": "How often a call is tried again.",
            "minimum": 0,
            "type": "integer",
        }
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert Draft202012Validator(schema).is_valid({"theme": "dark", "retries": 3})
        assert not Draft202012Validator(schema).is_valid({"theme": "blue", "retries": 3})
    package = generated / "python/mcp_contracts/conformance_fixtures"
    assert (package / "config.resource.json").is_file() and (package / "resource_models/config.py").is_file()


# Two JSON resources whose schemas name the same classes, one an array at its root, and a
# template whose schema is draft-07.
MORE_JSON = """  - uri: test://items
    name: items
    mimeType: application/json
    schema:
      type: array
      items: {$ref: "#/$defs/Item"}
      $defs:
        Item:
          type: object
          required: [id]
          properties: {id: {type: integer}, tags: {type: array, items: {type: string}}}
  - uri: test://item-of-day
    name: item-of-day
    mimeType: application/json
    schema:
      title: Item of the day
      type: object
      properties: {item: {$ref: "#/$defs/Item"}}
      $defs:
        Item: {type: object, properties: {name: {type: string, maxLength: 3}}}
  - uri: test://class
    name: class
    mimeType: application/json
    schema: {title: Bundle, type: object, properties: {of: {$ref: "#/$defs/Violation"}}, $defs: {Violation: {}}}
"""


@pytest.fixture
def more_json(project: Path) -> Path:
    """The output folder of the example contract with MORE_JSON among its resources."""
    path = _folder(project) / "resources.yaml"
    _edit(path, "templates:\n", MORE_JSON + "templates:\n")
    _edit(
        path,
        "      required: [id, templateTest, data]",
        "      $schema: http://json-schema.org/draft-07/schema#\n      required: [id, templateTest, data]",
    )
    return _generated(project)


def test_each_json_resource_has_a_module_of_its_own_models(more_json: Path) -> None:
    with generated_package(more_json, "conformance_fixtures.resources") as resources:
        items = resources.read_items('[{"id": 1, "tags": ["a"]}, {"id": 2}]')
        assert type(items).__name__ == "ItemsContents" and [item.id for item in items.root] == [1, 2]
        assert type(items.root[0]).__module__.endswith("resource_models.items")
        with pytest.raises(ValidationError):
            resources.read_items('[{"id": "1"}]')
        today = resources.read_item_of_day('{"item": {"name": "abc"}}')
        assert type(today).__name__ == "ItemOfTheDay" and today.item.name == "abc"
        assert type(today.item).__name__ == "Item" and type(today.item) is not type(items.root[0])
        with pytest.raises(ValidationError, match="longer than 3"):  # the `Item` of this schema judges
            resources.read_item_of_day('{"item": {"name": "abcd"}}')
        assert type(today.item).model_validate({"name": "xy"}).name == "xy"
        with pytest.raises(ValidationError):
            type(today.item).model_validate({"name": "wxyz"})
        data = resources.read_template_data('{"id": "7", "templateTest": true, "data": "x"}')
        assert data.data == "x"  # read in draft-07, as it says
        # a keyword's module takes `_` after it: resource_models/class_.py
        assert type(resources.read_class('{"of": 1}')).__module__.endswith("resource_models.class_")


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (("fooBar", "foo-bar"), "'foo-bar' and 'fooBar' are both FooBarModel in TypeScript"),
        (("404", "model-404"), "'model-404' and '404' are both Model404Model in TypeScript"),
    ],
)
def test_two_json_resources_whose_models_would_share_a_name_are_refused(
    project: Path, names: tuple[str, str], said: str
) -> None:
    entries = "".join(
        f"  - {{uri: 'test://{i}', name: '{name}', mimeType: application/json, schema: {{type: object}}}}\n"
        for i, name in enumerate(names)
    )
    path = _folder(project) / "resources.yaml"
    _edit(path, "templates:\n", entries + "templates:\n")
    line = _line_of(path, f"name: '{names[1]}'")
    assert any(f"resources.yaml:{line}: {said}" in p for p in _problems(project)), _problems(project)


@pytest.mark.slow
def test_the_models_of_json_resources_pass_ruff_and_mypy_strict(more_json: Path) -> None:
    python = more_json / "python"
    command = [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "F,E,W,B,UP,I", "--ignore", "E501", "."]
    ruff = subprocess.run(command, cwd=python, capture_output=True, text=True, check=False)
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--no-incremental",
        "--cache-dir",
        "/dev/null",
        "mcp_contracts",
    ]
    mypy = subprocess.run(command, cwd=python, capture_output=True, text=True, check=False)
    assert mypy.returncode == 0, mypy.stdout + mypy.stderr


def test_a_schema_of_a_resource_that_is_not_json_is_refused(project: Path) -> None:
    path = _folder(project) / "resources.yaml"
    _edit(
        path,
        "    mimeType: application/json\n    schema:\n      type: object\n      required: [theme",
        "    mimeType: text/plain\n    schema:\n      type: object\n      required: [theme",
    )
    line = _line_of(path, "mimeType: text/plain", 3)
    assert any(
        f"resources.yaml:{line}" in p and "mimeType must be a JSON type" in p for p in _problems(project)
    ), _problems(project)
