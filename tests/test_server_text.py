"""Text from outside reaches terminals and reports escaped: what a server says (tool names,
its name, error messages holding ESC, NUL, newlines) goes through `diagnostics.printable`,
and a `--url` with a user name, a password or a query is never shown whole
(`diagnostics.shown_url`), in messages, in reports of any format or in report files.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli
from forkserver import python
from mcp_servers import http_mock

HOSTILE = [*python(str(ROOT / "tests" / "servers" / "hostile_text_server.py"))]
# What a terminal acts on: C0 controls but tab and newline, DEL, C1 controls.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
FORMATS = ("json", "sarif", "junit", "markdown", "github", "text")


def _clean(text: str) -> None:
    assert RAW.search(text) is None, text
    assert not any(line.startswith("INJECTED") for line in text.splitlines()), text


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A real process: the server's bytes reach its output as they would a terminal."""
    command = [sys.executable, "-m", "mcp_contracts_generator", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, timeout=300)


def test_import_prints_a_servers_text_escaped(tmp_path: Path) -> None:
    (tmp_path / "schemas" / "contracts").mkdir(parents=True)
    done = _run("import", "shop", "--call-tool", "get_item", "--", *HOSTILE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "no tools/call: \\x1b[31mred\\x1b[0m\\x00nul\\x7fdel\\x9bcsi\\nINJECTED line\\r" in done.stderr
    _clean(done.stdout + done.stderr)


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose contract `shop` is imported from the hostile server, once for the module."""
    project = tmp_path_factory.mktemp("imported")
    (project / "schemas" / "contracts").mkdir(parents=True)
    assert _run("import", "shop", "--", *HOSTILE, cwd=project).returncode == 0
    return project


# One format in the default run; the others under `slow` (each is a conform process at every revision).
@pytest.mark.parametrize(
    "output", ["text", pytest.param("github", marks=pytest.mark.slow), pytest.param("json", marks=pytest.mark.slow)]
)
def test_conform_prints_a_servers_text_escaped(imported: Path, tmp_path: Path, output: str) -> None:
    """A server listing tools named with control characters, then one refusing to start with them."""
    shutil.copytree(imported, tmp_path, dirs_exist_ok=True)
    for refuse in ((), ("--refuse",)):
        done = _run("conform", "--contract", "shop", "--format", output, "--", *HOSTILE, *refuse, cwd=tmp_path)
        assert done.returncode == (2 if refuse else 0), done.stderr
        _clean(done.stdout + done.stderr)
    assert "cannot talk to the server at 2025-06-18: no initialize: \\x1b[31mred" in done.stderr


SECRET = "http://user:PW@127.0.0.1:{port}/mcp?token=Q"


def _reports(tmp_path: Path) -> tuple[list[str], list[Path]]:
    paths = [tmp_path / f"report.{name}" for name in FORMATS]
    return [f"--report={name}:{path}" for name, path in zip(FORMATS, paths, strict=True)], paths


def _hidden(done: subprocess.CompletedProcess[str], paths: list[Path]) -> str:
    """Everything shown, checked: neither the password nor the query, the URL shown without them."""
    shown = done.stdout + done.stderr + "".join(path.read_text(encoding="utf-8") for path in paths)
    assert "PW" not in shown and "token" not in shown and "user" not in shown, shown
    return shown


@pytest.mark.parametrize("command", ["conform", "import"])
def test_a_url_with_credentials_and_a_query_is_never_shown_whole(tmp_path: Path, command: str) -> None:
    """A port where nothing listens: the message that says so names the URL."""
    reports, paths = _reports(tmp_path)
    asked = ("--contract", "tuitbot") if command == "conform" else ("shop",)
    url = SECRET.format(port=9)
    result = run_cli(command, *asked, "--url", url, "--timeout", "5", "--format", "json", *reports)
    assert result.returncode == 2, result.stderr
    assert "http://***@127.0.0.1:9/mcp?***" in _hidden(result, paths)


def test_a_url_with_credentials_is_hidden_from_the_reports_of_a_server_that_conforms(tmp_path: Path) -> None:
    reports, paths = _reports(tmp_path)
    with http_mock("tuitbot") as url:
        port = url.rsplit(":", 1)[1].split("/")[0]
        secret = SECRET.format(port=port)
        done = run_cli("conform", "--contract", "tuitbot", "--protocol", "2025-11-25", "--url", secret, *reports)
    assert done.returncode == 0, done.stderr
    assert f"http://***@127.0.0.1:{port}/mcp?***" in _hidden(done, paths)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://user:PW@host/mcp?token=Q", "http://***@host/mcp?***"),
        ("https://host:8443/mcp", "https://host:8443/mcp"),
        ("http://a@b@host/x#part", "http://***@host/x#***"),
        ("http://host?q", "http://host?***"),
        ("http://ho\x1bst/\n", "http://ho\\x1bst/\\n"),
    ],
)
def test_shown_url_keeps_the_scheme_host_and_path_only(url: str, shown: str) -> None:
    from mcp_contracts_generator.diagnostics import shown_url, without_secrets

    assert shown_url(url) == shown
    assert without_secrets(f"at '{url}': refused") == f"at '{shown}': refused"
