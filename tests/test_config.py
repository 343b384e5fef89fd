"""`[tool.mcp-contracts]` in pyproject.toml: found from any subfolder, checked, overridden by flags."""

from __future__ import annotations

import ast
import json
import shutil
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from conftest import GENERATED, ROOT, SCHEMAS, run_cli
from mcp_contracts_generator import __version__, api, options
from mcp_contracts_generator.cli import app
from mcp_contracts_generator.config import load_settings
from mcp_contracts_generator.resources import GENERATED_CODE_IMPORTS, GENERATED_SERVING_IMPORTS
from packaging.requirements import Requirement
from typer.testing import CliRunner

RUNNER = CliRunner()
SECTION = '[tool.mcp-contracts]\nschemas = "contracts"\noutput = "build/out"\npackage = "demo_api"\n'


def _project(tmp_path: Path, section: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "demo"\n\n{section}', encoding="utf-8")
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", tmp_path / "contracts" / "contracts" / "jsonrpc")
    return tmp_path


def test_settings_are_found_from_a_subfolder_and_relative_to_the_file(tmp_path: Path) -> None:
    root = _project(tmp_path, SECTION)
    deep = root / "src" / "demo"
    deep.mkdir(parents=True)
    settings = load_settings(deep)
    assert not isinstance(settings, list)
    assert (settings.schemas, settings.output, settings.package) == (root / "contracts", root / "build/out", "demo_api")
    assert settings.with_flags(package="other", output=Path("x")).package == "other"


def test_generate_and_check_from_a_subfolder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path, SECTION)
    deep = root / "src"
    deep.mkdir()
    monkeypatch.chdir(deep)
    generated = RUNNER.invoke(app, ["generate"])
    assert generated.exit_code == 0, generated.output
    assert "created  ../build/out/python/demo_api/jsonrpc/models.py" in generated.output
    assert (root / "build" / "out" / "python" / "demo_api" / "jsonrpc" / "canonical.py").is_file()
    assert api.run(options.Check()).facts.clean is True  # type: ignore[attr-defined]
    assert RUNNER.invoke(app, ["check"]).exit_code == 0
    # A flag overrides the file: another package is drift against the output folder.
    assert RUNNER.invoke(app, ["check", "--package", "elsewhere"]).exit_code == 1


def test_a_misspelt_key_is_reported_at_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, '[tool.mcp-contracts]\nschemas = "contracts"\npakage = "demo_api"\n')
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["generate"])
    assert result.exit_code == 2
    assert "pyproject.toml:6: unknown key 'pakage' in [tool.mcp-contracts]; did you mean 'package'?" in result.output


# As TOML writes it, and as the error shows the value: a newline at the end made a folder `pkg\n`.
@pytest.mark.parametrize(("written", "shown"), [("class", "'class'"), ("pkg\\n", "'pkg\\n'")])
def test_a_package_that_python_cannot_import_is_refused(
    written: str, shown: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path, f'[tool.mcp-contracts]\npackage = "{written}"\n')
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["generate"])
    assert result.exit_code == 2
    assert f"pyproject.toml:5: {shown} is not a Python package name" in result.output
    assert not (tmp_path / "generated").exists()


@pytest.mark.parametrize(
    ("package", "said"),
    [
        ("json", "the standard library's 'json'"),
        ("Pydantic", "'pydantic', which the generated code imports"),  # a file system may ignore case
        ("typing_extensions", "'typing_extensions', which the generated code imports"),
    ],
)
def test_a_package_that_shadows_a_module_it_imports_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str, said: str
) -> None:
    _project(tmp_path, f'[tool.mcp-contracts]\nschemas = "contracts"\npackage = "{package}"\n')
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["generate"])
    assert result.exit_code == 2
    assert f"pyproject.toml:6: {package!r} would shadow {said}" in result.output
    assert not (tmp_path / "generated").exists()
    flag = RUNNER.invoke(app, ["generate", "--out", "else", "--package", package.lower()])
    assert flag.exit_code == 2 and "would shadow" in flag.output


def _imported(path: Path) -> set[str]:
    """The top-level modules a Python file imports, but for relative imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.partition(".")[0])
    return names


def _required(distribution: str) -> set[str]:
    """`distribution` and everything it requires (but for extras), as distribution names."""
    seen, stack = set(), [distribution]
    while stack:
        name = canonical(stack.pop())
        if name not in seen:
            seen.add(name)
            requires = metadata.requires(name) or []
            stack += [Requirement(r).name for r in requires if "extra ==" not in r]
    return seen


def canonical(name: str) -> str:
    return name.lower().replace("_", "-")


def test_the_modules_no_package_may_shadow_are_those_the_generated_code_imports() -> None:
    """The runtime and every generated module import nothing else outside the standard
    library, and pydantic, jsonschema-rs and msgspec need no other distribution; the server and
    the client (the extra `mcp`) import the SDK and what it brings."""
    files = [*sorted((ROOT / "generator" / "runtime").glob("*.py")), *sorted((GENERATED / "python").rglob("*.py"))]
    imported = set().union(*map(_imported, files)) - set(sys.stdlib_module_names) - {"__future__"}
    assert imported <= {*GENERATED_CODE_IMPORTS, *GENERATED_SERVING_IMPORTS}, imported
    assert set(GENERATED_SERVING_IMPORTS) <= imported
    imported -= set(GENERATED_SERVING_IMPORTS)
    modules = {canonical(m): m for m in GENERATED_CODE_IMPORTS}
    needed = set().union(*(_required(canonical(m)) for m in imported))
    assert needed <= set(modules), needed - set(modules)


def test_version() -> None:
    result = RUNNER.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"mcp-contracts {__version__}\n"
    assert __version__[0].isdigit()


def test_an_unknown_contract_names_the_known_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SCHEMAS.parent / "generated")
    result = api.run(options.Validate(contract="tuitbt", documents=("-",)))
    [unknown] = result.findings
    assert result.exit_code == 2 and "did you mean 'tuitbot'?" in unknown.message
    assert "code-scalpel, foundry, jsonrpc, mcp-envelope, tuitbot" in unknown.message


def test_init_adds_the_section_to_an_existing_pyproject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = '[project]\nname = "demo"\n\n[tool.black]\nline-length = 100\n'
    (tmp_path / "pyproject.toml").write_text(original, encoding="utf-8")
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path / "src")
    result = RUNNER.invoke(app, ["init", "orders"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    assert text.startswith(original)
    assert text.endswith(
        '\n[tool.mcp-contracts]\nschemas = "schemas"\noutput = "generated"\n'
        'package = "demo_contracts"  # the import name of the generated Python\n'
        'distribution = "demo-contracts"  # the name pip installs it as, and the npm package\'s\n'
        '# distribution_version = "1.0.0"  # default: [project] version, else the first contract\'s version\n'
        'languages = ["python"]  # or ["typescript"], or ["python", "typescript"]\n'
    )
    assert (tmp_path / "schemas" / "contracts" / "orders" / "contract.yaml").is_file()


def test_one_process_judges_with_the_output_as_it_is_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """generate, validate, edit, generate, validate: the second verdict is the new schema's."""
    root = _project(tmp_path, SECTION)
    monkeypatch.chdir(root)
    document = root / "doc.json"
    document.write_text('{"id": "1", "jsonrpc": "2.0", "method": "m", "params": {}}', encoding="utf-8")
    judged = options.Validate(contract="jsonrpc", documents=(str(document),))
    assert api.run(options.Generate()).exit_code == 0
    assert api.run(judged).facts.documents[0]["valid"]  # type: ignore[attr-defined]
    schema = root / "contracts" / "contracts" / "jsonrpc" / "envelope.schema.json"
    schema.write_text(schema.read_text(encoding="utf-8").replace('"minLength": 1', '"minLength": 5', 1))
    assert api.run(options.Generate()).exit_code == 0
    assert not api.run(judged).facts.documents[0]["valid"]  # type: ignore[attr-defined]


def test_a_typescript_only_project_generates_no_python_and_every_command_works(tmp_path: Path) -> None:
    """`languages = ["typescript"]`: the npm package, manifests, listings and pages, no Python;
    `check`, `validate` and `lint` work as with Python (they judge with the sources)."""
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", tmp_path / "schemas" / "contracts" / "jsonrpc")
    (tmp_path / "pyproject.toml").write_text('[tool.mcp-contracts]\nlanguages = ["typescript"]\n', encoding="utf-8")
    assert run_cli("generate", cwd=tmp_path).returncode == 0
    out = tmp_path / "generated"
    written = sorted(p.name for p in out.iterdir())
    assert written == ["README.md", "docs", "manifests", "mcp", "mkdocs.yml", "typescript"]
    assert (out / "typescript" / "jsonrpc_contracts" / "src" / "jsonrpc" / "judge.ts").is_file()
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "`python/" not in readme and "`typescript/jsonrpc_contracts/`" in readme
    page = (out / "docs" / "jsonrpc.md").read_text(encoding="utf-8")
    assert "| Contract | Version | TypeScript module | Source |" in page
    assert "| jsonrpc | 0.1.0 | jsonrpc-contracts/jsonrpc |" in page
    assert run_cli("check", cwd=tmp_path).returncode == 0
    example = tmp_path / "schemas" / "contracts" / "jsonrpc" / "examples" / "tool-invoke.json"
    assert run_cli("validate", "--contract", "jsonrpc", str(example), cwd=tmp_path).returncode == 0
    assert run_cli("lint", cwd=tmp_path).returncode == 0
    (out / "python").mkdir()  # a file generate did not write: check names it
    (out / "python" / "stale.py").write_text("", encoding="utf-8")
    checked = run_cli("check", "--full", cwd=tmp_path)
    assert checked.returncode == 1 and "python/stale.py" in checked.stdout + checked.stderr


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        (
            '[tool.mcp-contracts]\nlanguages = ["typescript"]\npackage = "x"\nlanguages = ["python"]\n',
            4,
            "Cannot overwrite a value",
        ),
        ('[tool.mcp-contracts]\npackage = "x\n', 2, "Illegal character"),
        ("[tool.mcp-contracts.rules]\nx = 1\n[tool.mcp-contracts.rules]\n", 3, "Cannot declare"),
    ],
)
def test_a_pyproject_that_is_no_toml_is_an_error_at_its_line_not_the_defaults(
    tmp_path: Path, text: str, line: int, said: str
) -> None:
    """A file that names our section but does not parse was passed over for the defaults:
    a duplicated `languages` generated Python only, silently."""
    shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", tmp_path / "schemas" / "contracts" / "jsonrpc")
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    result = run_cli("generate", cwd=tmp_path)
    assert result.returncode == 2
    assert f"error: pyproject.toml:{line}: invalid TOML: {said}" in result.stderr
    assert not (tmp_path / "generated").exists()


@pytest.mark.parametrize(
    ("limit", "value"),
    [("source_bytes", 9223372036854775807), ("server_bytes", 2**40 + 1), ("server_seconds", 0)],
    ids=["int64-max", "over-a-tebibyte", "zero"],
)
def test_a_limit_outside_its_range_is_refused_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str, value: int
) -> None:
    """Every limit is from 1 to 1 TiB: `source_bytes = 9223372036854775807` (the largest
    TOML integer) once ended in an OverflowError traceback (`read(limit + 1)`)."""
    limits = f"[tool.mcp-contracts.limits]\n{limit} = {value}\n"
    _project(tmp_path, f'[tool.mcp-contracts]\nschemas = "contracts"\n\n{limits}')
    monkeypatch.chdir(tmp_path)
    result = RUNNER.invoke(app, ["generate"])
    assert result.exit_code == 2, result.output
    said = f"pyproject.toml:8: limit {limit!r} must be an integer from 1 to 1,099,511,627,776"
    assert said in result.output and "Traceback" not in result.output, result.output


def test_a_limit_of_one_tebibyte_is_taken(tmp_path: Path) -> None:
    _project(tmp_path, f"[tool.mcp-contracts]\n\n[tool.mcp-contracts.limits]\nserver_bytes = {2**40}\n")
    chosen = load_settings(tmp_path)
    assert not isinstance(chosen, list) and chosen.limits.server_bytes == 2**40, chosen


def _names(
    tmp_path: Path, pyproject: str, contracts: tuple[str, ...] = ("jsonrpc",)
) -> tuple[str, str | None, str | None]:
    """The package, distribution and version the settings of a project hold: its pyproject.toml
    (none where empty) and a copy of the built-in jsonrpc contract under each name of `contracts`."""
    for name in contracts:
        shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", tmp_path / "schemas" / "contracts" / name)
    if pyproject:
        (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    else:
        (tmp_path / ".git").mkdir()  # the project root, without a pyproject.toml
    chosen = load_settings(tmp_path)
    assert not isinstance(chosen, list), chosen
    return chosen.package, chosen.distribution, chosen.distribution_version


@pytest.mark.parametrize(
    ("pyproject", "contracts", "names"),
    [
        # No pyproject.toml: the first contract in sorted order names them; its version: the render's.
        ("", ("orders", "billing-api"), ("billing_api_contracts", "billing-api-contracts", None)),
        ("[tool.mcp-contracts]\n", ("jsonrpc",), ("jsonrpc_contracts", "jsonrpc-contracts", None)),
        # `[project]`: its name (normalized, as pip compares names) and its static version.
        (
            '[project]\nname = "Shop.API"\nversion = "2.1.0"\n',
            ("jsonrpc",),
            ("shop_api_contracts", "shop-api-contracts", "2.1.0"),
        ),
        ('[project]\nname = "shop"\ndynamic = ["version"]\n', ("jsonrpc",), ("shop_contracts", "shop-contracts", None)),
        # A name the package could not be imported as: the contract's instead.
        (
            '[project]\nname = "3d-tools"\nversion = "1.0.0"\n',
            ("jsonrpc",),
            ("jsonrpc_contracts", "jsonrpc-contracts", "1.0.0"),
        ),
        # Explicit keys win, each on its own.
        (
            '[project]\nname = "shop"\nversion = "2.1.0"\n[tool.mcp-contracts]\npackage = "own"\n',
            ("jsonrpc",),
            ("own", "shop-contracts", "2.1.0"),
        ),
        (
            '[project]\nname = "shop"\nversion = "2.1.0"\n'
            '[tool.mcp-contracts]\ndistribution = "acme"\ndistribution_version = "3.0.0"\n',
            ("jsonrpc",),
            ("shop_contracts", "acme", "3.0.0"),
        ),
        # A version npm does not take, with TypeScript: the first contract's (at render).
        (
            '[project]\nname = "shop"\nversion = "1.0"\n[tool.mcp-contracts]\nlanguages = ["typescript"]\n',
            ("jsonrpc",),
            ("shop_contracts", "shop-contracts", None),
        ),
    ],
    ids=[
        "first-contract",
        "empty-section",
        "project",
        "dynamic-version",
        "not-importable",
        "package-set",
        "distribution-set",
        "npm-version",
    ],
)
def test_the_generated_package_is_named_after_the_project(
    tmp_path: Path, pyproject: str, contracts: tuple[str, ...], names: tuple[str, str | None, str | None]
) -> None:
    assert _names(tmp_path, pyproject, contracts) == names


BOTH = '[tool.mcp-contracts]\nlanguages = ["python", "typescript"]\n'


def test_a_clone_under_another_folder_name_generates_the_same_bytes(tmp_path: Path) -> None:
    """The names follow the project, never the checkout's folder: without `[project]`, the
    version of the generated packages is the first contract's `version:`, not 0.0.0."""
    outputs = []
    for folder in ("checkout", "another-name"):
        project = tmp_path / folder
        shutil.copytree(SCHEMAS / "contracts" / "jsonrpc", project / "schemas" / "contracts" / "jsonrpc")
        (project / "pyproject.toml").write_text(BOTH, encoding="utf-8")
        assert run_cli("generate", cwd=project).returncode == 0
        out = project / "generated"
        outputs.append({p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()})
    assert outputs[0] == outputs[1]
    metadata = tomllib.loads(outputs[0]["python/pyproject.toml"].decode())["project"]
    assert (metadata["name"], metadata["version"]) == ("jsonrpc-contracts", "0.1.0")  # jsonrpc's `version:`
    assert metadata["description"] == "The MCP tool contracts of jsonrpc, generated by mcp-contracts."
    package = json.loads(outputs[0]["typescript/jsonrpc_contracts/package.json"])
    assert (package["name"], package["version"]) == ("jsonrpc-contracts", "0.1.0")


def test_other_sources_name_the_package_after_their_own_contracts(tmp_path: Path, rpc_schemas: Path) -> None:
    """`--schemas` elsewhere, in a project that names nothing: the names follow those sources."""
    (tmp_path / "here").mkdir()
    (tmp_path / "here" / ".git").mkdir()
    chosen = load_settings(tmp_path / "here")
    assert not isinstance(chosen, list)
    assert chosen.package == "contracts"  # nothing to name it after: no `[project]`, no contract
    moved = chosen.with_flags(schemas=rpc_schemas)
    assert (moved.package, moved.distribution) == ("jsonrpc_contracts", "jsonrpc-contracts")
    assert moved.with_flags(schemas=rpc_schemas, package="given").package == "given"  # a flag wins
