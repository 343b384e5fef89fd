"""The docs site of the tool itself (mkdocs.yml, docs/): it builds strict, its generated pages
are what the commands and the rule registry say now, and it promises nothing that does not exist.

Not the docs `generate` writes for a project's contracts (tests/test_docs.py): these are the
tool's own manual, which the README links to.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
import typer
from conftest import ROOT
from mcp_contracts_generator.cli import app

pytestmark = pytest.mark.xdist_group("docs-site")  # one build of the site for the module

DOCS = ROOT / "docs"
PAGES_SCRIPT = ROOT / ".ci" / "docs_pages.py"


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict`, as CI runs it."""
    return _run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)], cwd=config.parent)


def _run(command: list[str], cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of this checkout, built strict into a scratch folder."""
    built = tmp_path_factory.mktemp("docs-site") / "site"
    result = _build(ROOT / "mkdocs.yml", built)
    assert result.returncode == 0, result.stderr
    return built


class _Text(HTMLParser):
    """The text of an HTML page's main content, as a reader sees it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _words(text: str) -> str:
    """Text as compared with a page: whitespace collapsed, backticks dropped (a code span
    shows its text, not its backticks)."""
    return " ".join(text.replace("`", "").split())


def _page_text(site: Path, page: str) -> str:
    parser = _Text()
    parser.feed((site / page / "index.html").read_text(encoding="utf-8"))
    return _words("".join(parser.parts))  # "<code>x</code>." reads "x.", the markup's own whitespace kept


def test_the_site_builds_strict_with_every_page_of_its_nav(site: Path) -> None:
    for page in ("quickstart", "contract-format", "configuration", "commands", "reports", "ci", "mcp", "import"):
        assert (site / page / "index.html").is_file(), page
    for page in ("python", "typescript", "python-api", "limits", "changelog", "reference/cli", "reference/rules"):
        assert (site / page / "index.html").is_file(), page
    assert "## Unreleased" not in _page_text(site, "changelog") and "Unreleased" in _page_text(site, "changelog")


def test_no_list_is_left_as_text_on_any_page(site: Path) -> None:
    """Python-Markdown starts a list only after a blank line, where GitHub needs none: a list it
    did not read shows its dashes as text."""
    unread = []
    for page in sorted(site.glob("**/index.html")):
        html = re.sub(r"<pre.*?</pre>", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
        unread += [f"{page.parent.name}: {line}" for line in re.findall(r"^\s*- .*$", html, flags=re.MULTILINE)]
    assert unread == []


def test_a_broken_anchor_fails_the_build(tmp_path: Path) -> None:
    """Strict means strict: a link to an anchor no page has is an error, not a warning."""
    copy = tmp_path / "project"
    shutil.copytree(DOCS, copy / "docs", symlinks=True)
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    shutil.copy(ROOT / "CHANGELOG.md", copy / "CHANGELOG.md")
    with (copy / "docs" / "quickstart.md").open("a", encoding="utf-8") as page:
        page.write("\nSee [the limits](limits.md#no-such-section).\n")
    result = _build(copy / "mkdocs.yml", tmp_path / "site")
    assert result.returncode == 1
    assert "no-such-section" in result.stderr


def test_the_generated_pages_are_what_the_commands_and_the_registry_say() -> None:
    checked = _run([sys.executable, str(PAGES_SCRIPT), "--check"])
    assert checked.returncode == 0, checked.stderr


def test_a_stale_reference_page_is_found_with_the_command_that_updates_it(tmp_path: Path) -> None:
    (tmp_path / ".ci").mkdir()
    shutil.copy(PAGES_SCRIPT, tmp_path / ".ci" / "docs_pages.py")
    shutil.copytree(DOCS / "reference", tmp_path / "docs" / "reference")
    page = tmp_path / "docs" / "reference" / "cli.md"
    page.write_text(page.read_text(encoding="utf-8").replace("Print the version and exit.", "Print it."))
    checked = _run([sys.executable, str(tmp_path / ".ci" / "docs_pages.py"), "--check"])
    assert checked.returncode == 1
    assert "run `python .ci/docs_pages.py`" in checked.stderr
    assert "-| `--version` | Print it. |" in checked.stderr
    assert page.read_text(encoding="utf-8").count("Print it.") == 1  # --check writes nothing


def test_a_meta_schema_enum_the_registry_does_not_say_is_found_then_rewritten(tmp_path: Path) -> None:
    """The enums of rule IDs and levels in schemas/meta/ are the registry's: `--check` shows one
    that differs, and the script writes it back, leaving the rest of the schema as it was."""
    (tmp_path / ".ci").mkdir()
    shutil.copy(PAGES_SCRIPT, tmp_path / ".ci" / "docs_pages.py")
    shutil.copytree(ROOT / "schemas" / "meta", tmp_path / "schemas" / "meta")
    schema = tmp_path / "schemas" / "meta" / "contract.schema.json"
    schema.write_text(schema.read_text(encoding="utf-8").replace('          "tool-title",\n', ""), encoding="utf-8")
    checked = _run([sys.executable, str(tmp_path / ".ci" / "docs_pages.py"), "--check"])
    assert checked.returncode == 1
    assert "+++ schemas/meta/contract.schema.json" in checked.stderr and '+          "tool-title",' in checked.stderr
    assert _run([sys.executable, str(tmp_path / ".ci" / "docs_pages.py")]).returncode == 0
    assert schema.read_bytes() == (ROOT / "schemas" / "meta" / "contract.schema.json").read_bytes()


def test_every_command_and_option_reaches_the_cli_page_word_for_word(site: Path) -> None:
    """Each command's help and each option's, as the command tree holds them (square brackets
    and all), is on the built page."""
    root = typer.main.get_command(app)
    context = root.context_class(root, info_name="mcp-contracts")
    text = _page_text(site, "reference/cli")
    missing = []
    for name in root.list_commands(context):
        command = root.commands[name]
        sub = command.context_class(command, info_name=name, parent=context)
        said = [f"mcp-contracts {name}", *(command.help or "").split("\n\n")]
        for param in command.get_params(sub):
            record = param.get_help_record(sub)
            said += [] if record is None else list(record)
        missing += [(name, words) for words in map(_words, said) if words not in text]
    assert missing == []


def test_no_escaping_backslash_shows_on_the_cli_page(site: Path) -> None:
    assert "\\$" not in _page_text(site, "reference/cli")


def test_a_code_span_of_a_help_text_is_code_on_the_cli_page(site: Path) -> None:
    """A help text's `generate` is code, as in a contract's description: escaped, it showed
    its backticks as text (tests/test_docs_browser.py finds any such backtick in a browser)."""
    html = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "<code>output-drift</code>" in html and "<code>mkdocs build --strict</code>" in html
    assert "\\`" not in (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")


def _python_recipes() -> list[tuple[str, str]]:
    """Every Python block of the pages that starts with an import: code meant to run as written."""
    found = []
    for page in sorted(DOCS.glob("*.md")):
        for block in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.DOTALL):
            if block.startswith(("from ", "import ")):
                found.append((page.name, block))
    return found


@pytest.mark.parametrize(("page", "block"), _python_recipes(), ids=lambda value: value[:40])
def test_every_python_recipe_imports_what_it_names(page: str, block: str) -> None:
    """ruff's undefined-name check (F821) on each recipe, as a module of its own."""
    ruff = [sys.executable, "-m", "ruff", "check", "--isolated", "--select", "F821", "--stdin-filename", "recipe.py"]
    checked = _run([*ruff, "-"], stdin=block)
    assert checked.returncode == 0, f"{page}:\n{checked.stdout}"


# What a release brings and no checkout has: a name on the package index, tags.
UNPUBLISHED = re.compile(r"(pip|pipx|uv tool) install ['\"]?mcp-contracts\b")
NONEXISTENT = ("OWNER/", "@v1", "<a tag>", "==1.4.0")


def test_every_install_line_says_what_works_today() -> None:
    """An install of `mcp-contracts` by name says, on its line or the one before, that it is
    what a release brings; nothing names a tag or an owner that does not exist."""
    files = [ROOT / "README.md", ROOT / "action.yml", ROOT / ".pre-commit-hooks.yaml", *DOCS.glob("*.md")]
    wrong = []
    for path in files:
        if path.name == "changelog.md":
            continue  # history, as it was written
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            before = lines[number - 1] if number else ""
            if UNPUBLISHED.search(line) and "releas" not in before + line:
                wrong.append(f"{path.name}:{number + 1}: {line}")
            wrong += [f"{path.name}:{number + 1}: {line}" for name in NONEXISTENT if name in line]
    assert wrong == []


def test_every_link_of_the_readme_leads_to_a_file_of_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = [link for link in re.findall(r"\]\(([^)\s]+)\)", readme) if "://" not in link]
    assert len(links) > 10
    assert [link for link in links if not (ROOT / link.split("#", 1)[0]).is_file()] == []
