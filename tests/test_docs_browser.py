"""Both docs sites as a reader sees them: every page opened in a real headless Chromium at
1,280px wide, where no table is wider than its column, no code block runs out of sight,
and no backtick shows as text.

The site of the tool (mkdocs.yml, docs/: the readthedocs theme made to fit by
docs/css/fit.css) and the site `mcp-contracts docs` builds of the built-in contracts
(generated/docs, the mkdocs theme). HTML read as text cannot say either: the theme kept table
cells on one line (white-space: nowrap) and a table 696px wide showed its longest cells only
by scrolling sideways, which only layout finds.

The browser is the system's Chromium (Debian's `chromium`, which `.ci/run` installs), driven by
Playwright (the test extra), whose own browser download is never used. Without either, the
tests skip with the reason; with MCP_CONTRACTS_REQUIRE_BROWSER=1 (CI) they fail instead. One
browser serves every page of the module.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from conftest import ROOT, run_cli

pytestmark = pytest.mark.xdist_group("docs-browser")  # one browser, one build of each site

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
# Headless, and nothing that reaches the network or the user's profile.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WIDTH = 1280

# What does not fit, on the page open in the browser: each table wider than the content
# column (its own or its wrapper's scrolling width beyond its box, as the readthedocs theme
# scrolls a table inside it, or its right edge beyond the column's), each code block whose
# lines run out of sight, and each text node outside code that holds a backtick (a code span
# escaped as text). Each named as a reader finds it: its number on the page, its first words.
MISFITS = """() => {
  const column = document.querySelector('[role="main"]') || document.body;
  const edge = column.getBoundingClientRect().right;
  const start = (element) => element.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60);
  const found = [];
  document.querySelectorAll('table').forEach((table, index) => {
    const holder = table.parentElement === column ? null : table.parentElement;
    const over = Math.max(
      table.scrollWidth - table.clientWidth,
      holder ? holder.scrollWidth - holder.clientWidth : 0,
      table.getBoundingClientRect().right - edge);
    if (over > 1) {
      const head = start(table.querySelector('th, td') || table);
      found.push(`table ${index + 1} ("${head}"): ${Math.round(over)}px wider than its column`);
    }
  });
  document.querySelectorAll('pre, pre > code').forEach((block) => {
    const over = Math.max(block.scrollWidth - block.clientWidth, block.getBoundingClientRect().right - edge);
    if (over > 1) found.push(`code block ("${start(block)}"): ${Math.round(over)}px wider than its column`);
  });
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    if (node.data.includes('`') && !node.parentElement.closest('code, pre, script, style, textarea')) {
      found.push(`a backtick as text: "${node.data.trim().slice(0, 80)}"`);
    }
  }
  return found;
}"""


def _unavailable(reason: str) -> NoReturn:
    """Skip, or fail where CI requires the browser (MCP_CONTRACTS_REQUIRE_BROWSER=1)."""
    if os.environ.get("MCP_CONTRACTS_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}; MCP_CONTRACTS_REQUIRE_BROWSER=1 requires it")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser_page() -> Iterator[Any]:
    """One page of one headless Chromium at 1,280px wide, for every page of the module."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("no playwright to drive the browser: pip install -e '.[test]'")
    chromium = next((path for path in CHROMIUM if Path(path).is_file()), None) or shutil.which("chromium")
    if chromium is None:
        _unavailable("no Chromium at /usr/bin/chromium: apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": 900})
            # Offline, as the suite runs: the themes' highlight.js from a CDN is not fetched
            # (code blocks then lack its colours and padding, not their layout).
            page.route(re.compile(r"^(?!file:)"), lambda route: route.abort())
            yield page
        finally:
            browser.close()


def _misfits(page: Any, site: Path) -> list[str]:
    """What does not fit on each page of `site` (every index.html), as "page: what"."""
    pages = sorted(site.glob("**/index.html"))
    assert len(pages) > 5, f"{site} has too few pages to be a site"
    found = []
    for html in pages:
        page.goto(html.as_uri(), wait_until="domcontentloaded")  # the theme's scripts have run
        page.evaluate("document.fonts.ready")  # widths measured in the theme's fonts
        name = html.parent.relative_to(site).as_posix()
        found += [f"{name if name != '.' else 'index'}: {misfit}" for misfit in page.evaluate(MISFITS)]
    return found


@pytest.fixture(scope="module")
def tool_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of this checkout, built strict as CI builds it (tests/test_docs_site.py)."""
    site = tmp_path_factory.mktemp("docs-browser") / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)]
    built = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    return site


def test_every_page_of_the_tool_site_fits_its_column(browser_page: Any, tool_site: Path) -> None:
    misfits = _misfits(browser_page, tool_site)
    assert not misfits, "\n".join(misfits)


def test_every_contract_page_docs_builds_fits_its_column(
    browser_page: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The pages `mcp-contracts docs` builds of the built-in contracts (generated/docs)."""
    site = tmp_path_factory.mktemp("contract-site") / "site"
    built = run_cli("docs", "--site", str(site))
    assert built.returncode == 0, built.stdout + built.stderr
    misfits = _misfits(browser_page, site)
    assert not misfits, "\n".join(misfits)
