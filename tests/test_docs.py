"""The generated docs: a real `mkdocs build --strict`, anchors for every code and tool,
valid examples, an index with counts, and templates a user can override."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from builtin_models import verdicts
from conftest import CONTRACTS, GENERATED, SCHEMAS, load_json, run_cli
from mcp_contracts_generator import api, options
from mcp_contracts_generator.naming import error_anchor, slug
from mcp_contracts_generator.site import SITE_MARKER_LINE

# One worker runs the module (one site built for the module),
# not each worker again (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("docs")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("docs") / "site"
    result = run_cli("docs", "--site", str(target))
    assert result.returncode == 0, result.stdout + result.stderr
    return target


def test_strict_build_makes_a_page_per_contract_with_navigation_and_search(site: Path) -> None:
    home = (site / "index.html").read_text(encoding="utf-8")
    for contract in CONTRACTS:
        assert (site / contract / "index.html").is_file()
        assert f'href="{contract}/"' in home
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert len(index["docs"]) > 50


@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_code_tool_and_definition_can_be_found(site: Path, contract: str) -> None:
    page = (site / contract / "index.html").read_text(encoding="utf-8")
    for tool in load_json(GENERATED / "manifests" / f"{contract}.json")["tools"]:
        assert f'id="tool-{slug(tool["name"])}"' in page, tool["name"]
    errors = load_json(SCHEMAS / "contracts" / contract / "envelope.schema.json")
    for name in [errors["title"], *(d.get("title", k) for k, d in errors.get("$defs", {}).items())]:
        assert f'id="def-{name.lower()}"' in page, name
    for definition in [errors, *errors.get("$defs", {}).values()]:
        for field in definition.get("properties", {}):
            assert f"<td>{field}</td>" in page, field
    module = __import__(f"mcp_contracts.{contract.replace('-', '_')}", fromlist=["ErrorCode"])
    for code in module.ErrorCode:
        assert f'id="{error_anchor(code.value)}"' in page, code


def test_descriptions_show_their_code_spans_as_code_on_every_page(site: Path) -> None:
    for page in (GENERATED / "docs").glob("*.md"):
        assert "\\`" not in page.read_text(encoding="utf-8"), f"{page.name} shows a backtick as text"
    rules = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert "Every <code>$defs</code> entry of the envelope schema is referenced." in rules
    scalpel = (site / "code-scalpel" / "index.html").read_text(encoding="utf-8")
    assert "The feature needs a higher tier; see <code>upgrade_hints</code>." in scalpel
    envelope = (site / "mcp-envelope" / "index.html").read_text(encoding="utf-8")
    assert "such as <code>sha256:&lt;hex&gt;</code>." in envelope
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "as the <code>result</code> of an mcp.envelope.v0.1" in index


def test_tool_error_codes_link_to_the_catalogue() -> None:
    manifest = load_json(GENERATED / "manifests" / "tuitbot.json")
    tool = next(t for t in manifest["tools"] if "x_rate_limited" in t["possible_error_codes"])
    page = (GENERATED / "docs" / "tuitbot.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if f'id="tool-{tool["name"]}"' in line)
    assert "[x\\_rate\\_limited](#error-x_rate_limited)" in row


def test_conditional_requirements_are_stated_in_words() -> None:
    scalpel = (GENERATED / "docs" / "code-scalpel.md").read_text(encoding="utf-8")
    assert 'required when tier is "pro" or "enterprise"; optional when tier is "community"' in scalpel
    tuitbot = (GENERATED / "docs" / "tuitbot.md").read_text(encoding="utf-8")
    assert "required when success is false; absent when success is true" in tuitbot
    assert "required in WorkflowToolMeta; absent in ApiToolMeta" in tuitbot


def _row(page: str, definition: str, field: str) -> str:
    """The row of `field` in the fields table of `definition` on a docs page."""
    section = page.split(f'<a id="def-{definition}"></a>', 1)[1].split("<a id=", 1)[0]
    return next(line for line in section.splitlines() if line.startswith(f"| {field} |"))


def test_a_merged_field_is_described_by_each_variants_own_description() -> None:
    """Where the variants of a `oneOf` describe a field differently, its merged row says each,
    under the variant's condition, never one branch's words for all."""
    tuitbot = (GENERATED / "docs" / "tuitbot.md").read_text(encoding="utf-8")
    success = _row(tuitbot, "tuitbotenvelope", "success")
    assert "When success is true: Always true for a success." in success
    assert "When success is false: Always false for a failure." in success
    data = _row(tuitbot, "tuitbotenvelope", "data")
    assert "When success is false: The tool's payload, any JSON value (often null on failure)." in data
    retryable = _row(tuitbot, "toolerror", "retryable")
    assert "Derived from the code: true." in retryable and "Derived from the code: false." in retryable
    code = _row(tuitbot, "toolerror", "code")
    assert "that is retryable" in code and "that is not retryable" in code
    # one description shared by every variant stays one
    assert _row(tuitbot, "tuitbotenvelope", "meta").endswith(
        "| Metadata a tool attaches: the API profile's"
        " shape, or the workflow profile's with mode and approval\\_mode both present. |"
    )


def test_index_lists_every_contract_with_counts() -> None:
    index = (GENERATED / "docs" / "index.md").read_text(encoding="utf-8")
    assert "| [TuitBot tool envelope](tuitbot.md) | 1.0.0 | 23 | 27 | 65 |" in index
    for contract in CONTRACTS:
        assert f"]({contract}.md)" in index


@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_example_shown_in_the_docs_is_valid(contract: str) -> None:
    page = (GENERATED / "docs" / f"{contract}.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^(`{3,})json\n(.*?)\n\1$", page, re.M | re.S)
    assert len(blocks) == len(list((SCHEMAS / "contracts" / contract / "examples").glob("*.json")))
    for _, block in blocks:
        assert verdicts(contract, json.loads(block)) == (True, True)


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    shutil.copytree(GENERATED, out, ignore=shutil.ignore_patterns("__pycache__"))
    page = out / "docs" / "jsonrpc.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [nowhere](#no-such-anchor).\n", encoding="utf-8")
    result = run_cli("docs", "--out", str(out), "--site", str(tmp_path / "site"))
    assert result.returncode == 2
    assert "no-such-anchor" in result.stderr


def test_a_custom_template_overrides_the_built_in_one_by_path(rpc_schemas: Path, tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    (templates / "docs").mkdir(parents=True)
    (templates / "docs" / "index.md.jinja").write_text(
        "# Our contracts\n{% for entry in entries %}\n"
        "- [{{ entry.title|md }}]({{ entry.page }}): {{ entry.tools }} tools\n{% endfor %}\n",
        encoding="utf-8",
    )
    out = tmp_path / "generated"
    outcome = api.run(options.Generate(schemas=rpc_schemas, out=out, templates=templates))
    assert (outcome.findings, outcome.exit_code) == ((), 0)
    index = (out / "docs" / "index.md").read_text(encoding="utf-8")
    assert index.startswith("# Our contracts\n")
    assert "- [JSON-RPC request envelope](jsonrpc.md): 1 tools" in index
    assert (out / "docs" / "jsonrpc.md").read_bytes() == (GENERATED / "docs" / "jsonrpc.md").read_bytes()
    checked = run_cli("check", "--schemas", str(rpc_schemas), "--out", str(out), "--templates", str(templates))
    assert checked.returncode == 0, checked.stdout
    assert run_cli("check", "--schemas", str(rpc_schemas), "--out", str(out)).returncode == 1


PROJECT = (
    '[tool.mcp-contracts]\nschemas = "schemas"\noutput = "generated"\npackage = "contracts"\ntemplates = "templates"\n'
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-contract project, generated, beside a folder of the user's (`notes/`)."""
    project = tmp_path_factory.mktemp("site") / "project"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / "schemas" / "contracts" / "jsonrpc")
    (project / "pyproject.toml").write_text(PROJECT, encoding="utf-8")
    (project / "templates").mkdir()
    (project / "templates" / "ours.txt").write_text("a template folder of the user's\n", encoding="utf-8")
    (project / "notes").mkdir()
    (project / "notes" / "mine.md").write_text("# Mine\n", encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    return project


def _snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under `folder`: a file's bytes, a folder or symlink as what it is."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[name] = f"-> {os.readlink(path)}"
        else:
            found[name] = "folder" if path.is_dir() else path.read_bytes()
    return found


@pytest.mark.parametrize(
    ("site", "message"),
    [
        ("schemas", "schemas overlaps the sources folder schemas"),
        ("schemas/contracts/jsonrpc", "schemas/contracts/jsonrpc overlaps the sources folder schemas"),
        ("generated", "generated overlaps the output folder generated"),
        ("generated/docs", "generated/docs overlaps the output folder generated"),
        ("templates", "templates overlaps the templates folder templates"),
        (".", ". overlaps the sources folder schemas"),
        ("..", ".. overlaps the sources folder schemas"),
        ("notes", "notes has no .mcp-contracts-site of mcp-contracts docs: not emptying a folder it did not build"),
        ("pyproject.toml", "pyproject.toml is a file, not a folder"),
    ],
)
def test_docs_builds_no_site_where_it_would_empty_a_folder_not_its_own(project: Path, site: str, message: str) -> None:
    """mkdocs empties its site folder: `docs --site schemas` erased every source."""
    before = _snapshot(project.parent)
    result = run_cli("docs", "--site", site, cwd=project)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"error: {message}" in result.stderr
    assert _snapshot(project.parent) == before


def test_docs_follows_no_symlink_to_its_site(project: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "link").symlink_to(empty)
    ours = tmp_path / "ours"  # a site of docs' own, with a link into the sources planted in it
    ours.mkdir()
    (ours / ".mcp-contracts-site").write_bytes(SITE_MARKER_LINE)
    (ours / "css").mkdir()
    (ours / "css" / "theme.css").symlink_to(project / "schemas" / "contracts" / "jsonrpc" / "contract.yaml")
    forged = tmp_path / "forged"  # a marker that is a symlink to one
    forged.mkdir()
    (forged / "page.html").write_text("mine", encoding="utf-8")
    (forged / ".mcp-contracts-site").symlink_to(ours / ".mcp-contracts-site")
    before = _snapshot(tmp_path), _snapshot(project)
    for site, message in [
        ("link", "is a symlink: the site is built only into a folder of its own"),
        ("ours", "ours/css/theme.css is a symlink: not followed"),
        ("forged", "has no .mcp-contracts-site of mcp-contracts docs"),
    ]:
        result = run_cli("docs", "--site", str(tmp_path / site), cwd=project)
        assert result.returncode == 2 and message in result.stderr, result.stderr
    assert (_snapshot(tmp_path), _snapshot(project)) == before


def test_docs_builds_again_over_its_own_site_and_into_an_empty_folder(project: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    first = run_cli("docs", "--site", str(site), cwd=project)
    assert first.returncode == 0, first.stderr
    assert (site / ".mcp-contracts-site").read_bytes() == SITE_MARKER_LINE
    assert (site / "jsonrpc" / "index.html").is_file()
    (site / "stale.html").write_text("left from an earlier build", encoding="utf-8")
    again = run_cli("docs", "--site", str(site), cwd=project)
    assert again.returncode == 0, again.stderr
    assert not (site / "stale.html").exists() and (site / "index.html").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_cli("docs", "--site", str(empty), cwd=project).returncode == 0
    assert (empty / ".mcp-contracts-site").is_file() and (empty / "index.html").is_file()


def test_the_rules_page_is_the_projects_choice(project: Path, tmp_path: Path) -> None:
    """The rules page is the tool's, not the project's: a project's docs carry it only when
    `rules_page = true` says so, so that a tool upgrade that rewords a rule drifts no `check`."""
    out = project / "generated"
    assert not (out / "docs" / "rules.md").exists()
    for page in ("mkdocs.yml", "docs/index.md", "README.md"):
        assert "rules" not in (out / page).read_text(encoding="utf-8").lower(), page

    chosen = tmp_path / "chosen"
    shutil.copytree(project, chosen, symlinks=True)
    assert run_cli("check", cwd=chosen).returncode == 0  # a clean comparison: the cache records it
    (chosen / "pyproject.toml").write_text(PROJECT + "rules_page = true\n", encoding="utf-8")
    drifted = run_cli("check", cwd=chosen)  # the setting is among the inputs the cache holds
    assert drifted.returncode == 1 and "generated/docs/rules.md" in drifted.stdout, drifted.stdout
    assert run_cli("generate", cwd=chosen).returncode == 0
    written = chosen / "generated"
    assert (written / "docs" / "rules.md").read_bytes() == (GENERATED / "docs" / "rules.md").read_bytes()
    assert "  - Rules: rules.md\n" in (written / "mkdocs.yml").read_text(encoding="utf-8")
    assert "[the rules page](rules.md)" in (written / "docs" / "index.md").read_text(encoding="utf-8")
    built = run_cli("docs", "--site", str(tmp_path / "site"), cwd=chosen)
    assert built.returncode == 0, built.stdout + built.stderr
    assert 'id="http-range"' in (tmp_path / "site" / "rules" / "index.html").read_text(encoding="utf-8")


def test_the_output_folders_readme_names_every_output_and_nothing_else(project: Path) -> None:
    for out in (GENERATED, project / "generated"):
        readme = (out / "README.md").read_text(encoding="utf-8")
        paths = "".join(line.split("|")[1] for line in readme.splitlines() if line.startswith("| `"))
        named = set(re.findall(r"`([^`]+)`", paths))
        there = set()
        for entry in out.iterdir():
            if entry.name in ("python", "typescript"):  # each holds the one package (and python its pyproject)
                there |= {f"{entry.name}/{p.name}" + ("/" if p.is_dir() else "") for p in entry.iterdir()}
            elif entry.name not in ("README.md", "__pycache__"):
                there.add(entry.name + "/" if entry.is_dir() else entry.name)
        assert named == there, out


def test_a_field_behind_an_anchor_says_what_its_definition_says(schemas_copy: Path, tmp_path: Path) -> None:
    """A field's `$ref` is read as the schema core resolves it: through an `$anchor`, the
    field's row carries the definition's description, as through a pointer."""
    for other in (schemas_copy / "contracts").iterdir():
        if other.name != "tuitbot":
            shutil.rmtree(other)
    source = schemas_copy / "contracts" / "tuitbot" / "envelope.schema.json"
    schema = load_json(source)
    schema["$defs"]["ToolMeta"]["$anchor"] = "tool-meta"
    schema["$defs"]["SuccessEnvelope"]["properties"]["meta"] = {"$ref": "#tool-meta"}
    source.write_text(json.dumps(schema), encoding="utf-8")
    out = tmp_path / "out"
    assert run_cli("generate", "--schemas", str(schemas_copy), "--out", str(out)).returncode == 0
    page = (out / "docs" / "tuitbot.md").read_text(encoding="utf-8")
    section = page[page.index('<a id="def-successenvelope"></a>') :]
    row = next(line for line in section.splitlines() if line.startswith("| meta |"))
    assert row.startswith("| meta | [ToolMeta](#def-toolmeta) | no |") and "Metadata a tool attaches" in row
