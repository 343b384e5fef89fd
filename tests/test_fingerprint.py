"""`check` answers from the fingerprint `generate` keeps in the output folder, and only when
the full comparison would give the same answer; anything else is compared in full."""

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
from conftest import GENERATED, ROOT, SCHEMAS, assert_report, run_cli, run_process
from mcp_contracts_generator import api, write
from mcp_contracts_generator.fingerprint import FINGERPRINT, files_digest, installed_version
from mcp_contracts_generator.resources import META_SCHEMAS_DIR, TEMPLATES_DIR

pytestmark = pytest.mark.xdist_group("fingerprint")  # one jsonrpc render, shared through api's plans


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with one contract (jsonrpc), generated."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mcp-contracts]\nschemas = "schemas"\noutput = "generated"\npackage = "pkg"\n', encoding="utf-8"
    )
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", tmp_path / "schemas" / "contracts" / "jsonrpc")
    result = run_cli("generate", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return tmp_path


def _check(project: Path, *, full: bool = False) -> api.Outcome:
    before = Path.cwd()
    os.chdir(project)
    try:
        return api.check(full=full)
    finally:
        os.chdir(before)


def _facts(outcome: api.Outcome) -> object:
    drift = outcome.drift
    if drift is None:
        return [str(d) for d in outcome.diagnostics]
    return drift.changed, drift.missing, drift.extra, drift.diffs, drift.stale


def test_generate_writes_the_fingerprint_of_every_other_file(project: Path) -> None:
    out = project / "generated"
    document = json.loads((out / FINGERPRINT).read_bytes())
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert document["outputs"] == {
        path: hashlib.sha256(content).hexdigest() for path, content in files.items() if path != FINGERPRINT
    }
    assert document["format"] == 1 and document["inputs"]["settings"]["package"] == "pkg"
    assert document["inputs"]["tool"]["versions"]["black"] == version("black")
    assert str(project) not in (out / FINGERPRINT).read_text(encoding="ascii")


def test_check_answers_from_the_fingerprint_when_nothing_changed(project: Path) -> None:
    outcome = _check(project)
    assert outcome.answered == "fingerprint"
    assert outcome.drift is not None and outcome.drift.clean
    full = _check(project, full=True)
    assert full.answered == "comparison"
    assert _facts(full) == _facts(outcome) == ((), (), (), {}, ())


def test_the_fingerprint_answer_imports_no_loader_renderer_or_formatter(project: Path) -> None:
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
    assert json.loads(result.stdout)["facts"]["answered"] == "fingerprint"
    modules = json.loads(result.stderr.splitlines()[-1])
    heavy = {"jinja2", "black", "datamodel_code_generator", "ruamel", "jsonschema", "jsonschema_rs", "referencing"}
    assert sorted(m for m in modules if m.split(".")[0] in heavy) == []
    ours = {m.removeprefix("mcp_contracts_generator.") for m in modules if m.startswith("mcp_contracts_generator.")}
    assert not ours & {"load", "render", "render.plan", "model", "runtime", "validate", "mcp", "lint", "breaking"}


def test_the_api_answer_imports_no_pydantic(project: Path) -> None:
    """Through the API, nothing of the rendering side is imported, pydantic neither."""
    script = (
        "import json, sys\n"
        "from mcp_contracts_generator import api\n"
        "outcome = api.check()\n"
        "assert outcome.answered == 'fingerprint' and outcome.drift.clean, outcome\n"
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


def _edit_fingerprint(project: Path) -> None:
    path = project / "generated" / FINGERPRINT
    document = json.loads(path.read_bytes())
    document["inputs"]["sources"] = "0" * 64
    path.write_text(json.dumps(document), encoding="utf-8")


def _forge_fingerprint(project: Path) -> None:  # a listed digest that is not the file's
    path = project / "generated" / FINGERPRINT
    document = json.loads(path.read_bytes())
    document["outputs"]["docs/jsonrpc.md"] = "0" * 64
    path.write_text(json.dumps(document), encoding="utf-8")


def _delete_fingerprint(project: Path) -> None:
    (project / "generated" / FINGERPRINT).unlink()


def _change_package(project: Path) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8").replace('"pkg"', '"pkh"'), encoding="utf-8")


def _tighten_a_limit(project: Path) -> None:  # the sources no longer load: exit 2, on the slow path
    with (project / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write("\n[tool.mcp-contracts.limits]\nsource_bytes = 100\n")


def _symlink_in_sources(project: Path) -> None:  # never answered from a fingerprint
    (project / "schemas" / "link").symlink_to(project / "pyproject.toml")


EDITS: dict[str, tuple[Callable[[Path], None], str]] = {
    "source": (_edit_source, "drift"),
    "source-byte-without-output": (_space_in_source, "stale"),
    "output": (_edit_output, "drift"),
    "deleted-output": (_delete_output, "drift"),
    "extra-output": (_extra_output, "drift"),
    "extra-hidden-output": (_extra_hidden_output, "drift"),
    "hand-edited-fingerprint": (_edit_fingerprint, "stale"),
    "forged-output-digest": (_forge_fingerprint, "stale"),
    "deleted-fingerprint": (_delete_fingerprint, "stale"),
    "setting": (_change_package, "drift"),
    "limit": (_tighten_a_limit, "invalid"),
    "symlink-in-sources": (_symlink_in_sources, "stale"),
}


@pytest.mark.parametrize("edit", EDITS)
def test_every_change_is_found_as_the_full_comparison_finds_it(project: Path, edit: str) -> None:
    change, expected = EDITS[edit]
    change(project)
    outcome, full = _check(project), _check(project, full=True)
    assert outcome.answered == full.answered == "comparison"
    assert _facts(outcome) == _facts(full)
    drift = outcome.drift
    found = "invalid" if drift is None else "drift" if not drift.clean else "stale" if drift.stale else "clean"
    assert found == expected, _facts(outcome)
    if expected == "stale":
        assert drift is not None and drift.stale == (FINGERPRINT,) and FINGERPRINT not in drift.diffs


def test_a_broken_source_is_exit_2_with_its_file_and_line(project: Path) -> None:
    envelope = project / "schemas" / "contracts" / "jsonrpc" / "envelope.schema.json"
    envelope.write_bytes(envelope.read_bytes().replace(b"{", b"{,", 2))
    result = run_cli("check", cwd=project)
    assert result.returncode == 2
    assert re.search(r"schemas/contracts/jsonrpc/envelope.schema.json:\d+: ", result.stderr), result.stderr
    assert "nothing was written" in result.stderr


def test_sources_that_read_a_folder_outside_are_always_compared_in_full(project: Path) -> None:
    """A `references:` folder outside the sources is not in the fingerprint: it records no
    inputs, and `check` renders, so an edit there is found."""
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
    assert json.loads((project / "generated" / FINGERPRINT).read_bytes())["inputs"] is None
    clean = _check(project)
    assert clean.answered == "comparison" and clean.drift is not None and clean.drift.clean
    (shared / "word.json").write_text('{"type": "string", "description": "A longer word."}', encoding="utf-8")
    outcome = _check(project)
    assert outcome.drift is not None and not outcome.drift.clean, _facts(outcome)


def test_an_edited_template_override_is_found(project: Path) -> None:
    templates = project / "templates"
    templates.mkdir()
    (templates / "README.md.jinja").write_bytes((TEMPLATES_DIR / "README.md.jinja").read_bytes())
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + 'templates = "templates"\n', encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    assert _check(project).answered == "fingerprint"
    (templates / "README.md.jinja").write_bytes((TEMPLATES_DIR / "README.md.jinja").read_bytes() + b"More.\n")
    outcome, full = _check(project), _check(project, full=True)
    assert outcome.answered == "comparison"
    assert _facts(outcome) == _facts(full)
    assert outcome.drift is not None and outcome.drift.changed == ("README.md",)


def test_bytecode_in_the_output_keeps_the_fingerprint_answer(project: Path) -> None:
    cache = project / "generated" / "python" / "pkg" / "__pycache__"
    cache.mkdir()
    (cache / "__init__.cpython-311.pyc").write_bytes(b"\x00")
    (project / "generated" / "python" / "pkg" / "stray.pyc").write_bytes(b"\x00")
    assert _check(project).answered == "fingerprint"


def test_a_stale_fingerprint_is_a_note_and_generate_refreshes_it(project: Path) -> None:
    _edit_fingerprint(project)
    result = run_cli("check", "--format", "json", cwd=project)
    assert result.returncode == 0, result.stdout
    report = json.loads(result.stdout)
    assert_report(report, "findings-report")
    facts = report["facts"]
    assert facts["clean"] is True and facts["stale"] == [FINGERPRINT] and facts["answered"] == "comparison"
    assert "`mcp-contracts generate` refreshes it" in result.stderr
    generated = run_cli("generate", cwd=project)
    assert f"updated  generated/{FINGERPRINT}" in generated.stdout
    assert _check(project).answered == "fingerprint"


def test_check_full_flag_compares_in_full(project: Path) -> None:
    fast = run_cli("check", "--format", "json", cwd=project)
    full = run_cli("check", "--full", "--format", "json", cwd=project)
    assert fast.returncode == full.returncode == 0
    fast_facts, full_facts = json.loads(fast.stdout)["facts"], json.loads(full.stdout)["facts"]
    assert fast_facts["answered"] == "fingerprint"
    assert full_facts["answered"] == "comparison"
    assert {**fast_facts, "answered": None} == {**full_facts, "answered": None}


def test_the_fingerprint_is_written_in_the_same_swap_as_the_rest(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that fails after the fingerprint was staged leaves the old tree, old fingerprint included."""
    out = project / "generated"
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    _edit_source(project)
    written: list[str] = []

    class Failing(write.FileSystem):
        def write(self, path: Path, content: bytes) -> None:
            written.append(path.name)
            if path.name == "README.md":
                raise OSError(5, "Input/output error", str(path))
            super().write(path, content)

    monkeypatch.setattr(write, "FS", Failing())
    result = run_cli("generate", cwd=project)
    assert result.returncode == 2
    assert FINGERPRINT in written[: written.index("README.md")]
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert _check(project).answered == "comparison"


def test_fingerprint_bytes_are_the_same_for_every_seed_and_place(tmp_path: Path) -> None:
    """Two clones at different absolute paths, generated by processes under different hash seeds."""
    fingerprints = []
    for seed, place in (("0", "a"), ("1", "b/deeper/clone")):
        clone = tmp_path / place
        shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", clone / "schemas" / "contracts" / "jsonrpc")
        result = run_process(
            "generate", "--schemas", str(clone / "schemas"), "--out", str(clone / "out"), env={"PYTHONHASHSEED": seed}
        )
        assert result.returncode == 0, result.stderr
        fingerprints.append((clone / "out" / FINGERPRINT).read_bytes())
    assert fingerprints[0] == fingerprints[1]


def test_the_built_in_output_is_answered_from_its_fingerprint() -> None:
    outcome = api.check(SCHEMAS, GENERATED)
    assert outcome.answered == "fingerprint", "run `mcp-contracts generate` and commit generated/"


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
    assert fast.answered == "comparison" and _facts(fast) == _facts(full)
    assert any("contract.yaml" in str(d) for d in full.diagnostics)


def test_a_contract_with_references_is_always_compared_in_full(project: Path) -> None:
    identity = project / "schemas" / "contracts" / "jsonrpc" / "contract.yaml"
    identity.write_text(identity.read_text(encoding="utf-8") + 'references: {"file:///vendor/": ../../../vendor}\n')
    (project / "vendor").mkdir()
    assert run_cli("generate", cwd=project).returncode == 0
    document = json.loads((project / "generated" / FINGERPRINT).read_bytes())
    assert document["inputs"] is None
    assert _check(project).answered == "comparison"
