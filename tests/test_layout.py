"""The layout ARCHITECTURE.md draws, held against the code: every import runs down a row, no
two packages import each other, and the page names every module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT

GENERATOR = ROOT / "generator"

# The rows of ARCHITECTURE.md's drawing, top to bottom: a part imports only parts of a lower row.
ROWS: tuple[frozenset[str], ...] = tuple(
    frozenset(row.split())
    for row in (
        "__main__",
        "cli",
        "cli_server cli_params",
        "api",
        "api_serve",
        "options api_sources",
        "conformance importing",
        "lint breaking client",
        "findings lint_surface lint_schemas",
        "validate fingerprint scaffold serving",
        "load write site",
        "render config drift",
        "model diagnostics package_names",
        "schema rules protocol naming files resources media interrupt runtime __init__",
        "debug",
    )
)


def _part(path: Path) -> str:
    """The top-level part of the generator a module belongs to (its package, or itself)."""
    return path.relative_to(GENERATOR).with_suffix("").parts[0]


def _imported(path: Path) -> set[tuple[str, int]]:
    """(the part, the line) of each module of the generator that `path` imports."""
    relative = path.relative_to(GENERATOR).with_suffix("").parts
    package = relative[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = package[: len(package) - (node.level - 1)]
        target = (*base, *(node.module.split(".") if node.module else ()))
        names = [target] if target else [(alias.name,) for alias in node.names]
        found |= {(name[0], node.lineno) for name in names if name[0] != "__version__"}
    return found


def _row(part: str) -> int:
    rows = [index for index, row in enumerate(ROWS) if part in row]
    assert rows, f"generator/{part} stands on no row of ARCHITECTURE.md's drawing"
    return rows[0]


def test_every_part_of_the_generator_stands_on_a_row() -> None:
    parts = {_part(p) for p in GENERATOR.rglob("*.py")}
    assert sorted(p for p in parts if not any(p in row for row in ROWS)) == []


def test_every_import_runs_down_a_row() -> None:
    """No arrow back up, and so no package cycle: a part imports only parts drawn below it."""
    up = []
    for path in sorted(GENERATOR.rglob("*.py")):
        part = _part(path)
        for target, line in sorted(_imported(path)):
            if target != part and _row(target) <= _row(part):
                up.append(f"generator/{path.relative_to(GENERATOR).as_posix()}:{line} imports {target}")
    assert up == []


def test_the_architecture_page_names_every_module() -> None:
    """Each module by its path (a schema core module by its name, in the core's table); a
    package's face that only hands names on need not be named."""
    page = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w/]+\.py)`", page))
    missing = []
    for path in sorted(GENERATOR.rglob("*.py")):
        relative = path.relative_to(GENERATOR).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        face = path.name == "__init__.py" and not any(
            isinstance(n, ast.FunctionDef | ast.ClassDef | ast.Assign | ast.AnnAssign) for n in tree.body
        )
        core = relative.startswith("schema/") and path.name in named
        if relative not in named and not face and not core:
            missing.append(relative)
    assert missing == []


# What reads, lists or probes the disk, by the name it is called by (`path.read_text()`,
# `os.scandir(...)`, `open(...)`), but through the `Files` seam (`reading.files.glob(...)`).
_DISK_CALLS = frozenset(
    {"open", "read_text", "read_bytes", "iterdir", "glob", "rglob", "scandir", "listdir", "stat", "lstat"}
    | {"exists", "lexists", "is_file", "is_dir", "is_symlink", "read_regular", "fdopen"}
)
# The files of the tool itself, not of a contract: the meta-schemas (`load/meta.py`).
_OWN_FILES = {("load/meta.py", "read_text")}
# The seam's disk side, built on the walker (held below); import's writing, which reads
# nothing of the contract, and its staging (`Tree`: contents it read from the server, staged in
# a folder of its own making).
_SKIPPED = {
    "load/reading.py": frozenset({"Disk"}),
    "importing/folder.py": frozenset({"write_changes", "_replace_file", "_umask", "Tree"}),
}


def _disk_calls(path: Path, skip: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """(line, name) of each call in `path` that reaches the disk other than through the
    `Files` seam (a receiver named `files`), outside the classes and functions `skip`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name in skip
        for inner in ast.walk(node)
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or id(node) in skipped:
            continue
        function = node.func
        if isinstance(function, ast.Name) and function.id in _DISK_CALLS:
            found.append((node.lineno, function.id))
        elif isinstance(function, ast.Attribute) and function.attr == "walk":  # `os.walk`, not a schema walk
            if isinstance(function.value, ast.Name) and function.value.id == "os":
                found.append((node.lineno, "walk"))
        elif isinstance(function, ast.Attribute) and function.attr in _DISK_CALLS:
            receiver = function.value
            through_seam = isinstance(receiver, ast.Attribute) and receiver.attr == "files"
            if not through_seam:
                found.append((node.lineno, function.attr))
    return found


def test_every_file_read_of_the_load_stage_goes_through_the_walker() -> None:
    """The load stage reads, lists and probes a contract's files only through `Reading.files`,
    whose disk side (`load/reading.Disk`) is built on `files.read_beneath` and its kin, which
    follow no symlink below the sources folder; `import` reads a contract folder through the
    same walker (`importing/folder.py`). A new `open()` or `path.glob()` here is a way around it."""
    modules = [*sorted((GENERATOR / "load").glob("*.py")), GENERATOR / "importing" / "folder.py"]
    around = []
    for path in modules:
        relative = path.relative_to(GENERATOR).as_posix()
        skip = _SKIPPED.get(relative, frozenset())
        for line, name in _disk_calls(path, skip):
            if (relative, name) not in _OWN_FILES:
                around.append(f"generator/{relative}:{line}: {name}()")
    assert around == []


def test_the_disk_side_of_the_seam_stands_on_the_walker() -> None:
    """`Disk` reads and lists only through `files.read_beneath`, `listing_beneath` and
    `entry_beneath` (and `os.lstat` of a path outside the sources, which `references:` names)."""
    tree = ast.parse((GENERATOR / "load" / "reading.py").read_text(encoding="utf-8"))
    disk = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Disk")
    calls = {
        node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        for node in ast.walk(disk)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute | ast.Name)
        and not (
            isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"
        )  # its own methods
    }
    assert {"read_beneath", "listing_beneath", "entry_beneath"} <= calls
    assert calls & _DISK_CALLS <= {"lstat"}


# The schema core's walkers and resolvers of a raw schema: a renderer reads what the model
# computed of a schema (`model.Bundle`: its published documents, its `outline`) and walks none.
_RAW_SCHEMA_MODULES = frozenset({"resolver", "walk", "dialect", "compound", "translate", "outline", "proofs", "reach"})
_RAW_POINTER_NAMES = frozenset({"follow", "resolve", "value_at", "put", "written_tokens"})


def test_no_renderer_walks_or_resolves_a_raw_schema() -> None:
    """No module under generator/render/ imports `schema.resolver` (references resolved),
    `schema.walk` (subschemas visited), `schema.dialect` (a document's dialect read),
    `schema.compound` or `schema.translate` (a bundle made one document, draft-07 said in
    2020-12), `schema.outline` (what docs and the TypeScript judge read of a schema),
    `schema.proofs` or `schema.reach` (a schema proven to accept objects only, pruned to what
    its root reaches: `Bundle.listed`, `Bundle.published`, `ToolArguments.listed_output`): the
    model reaches their results. Nor does one import `follow`, `resolve`, `value_at`, `put` or
    `written_tokens` of `schema.pointer` (a pointer followed into a document), nor spell
    RFC 6901's escapes `~0` and `~1` (a pointer codec of its own): `encode` and `decode`
    of `schema.pointer` are the codec. `schema.patterns` (a `pattern` written as the
    Rust engine reads it, in the text of `schema.json`) and the core's tables
    (`schema.vocabulary`) stay open to render."""
    found = []
    for path in sorted((GENERATOR / "render").rglob("*.py")):
        relative = f"generator/{path.relative_to(GENERATOR).as_posix()}"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                parts = node.module.split(".")
                if parts[0] != "schema":
                    continue
                modules = parts[1:2] or [alias.name for alias in node.names]
                if set(modules) & _RAW_SCHEMA_MODULES:
                    found.append(f"{relative}:{node.lineno} imports schema.{modules[0]}")
                if parts[1:] == ["pointer"] and {alias.name for alias in node.names} & _RAW_POINTER_NAMES:
                    found.append(f"{relative}:{node.lineno} follows a pointer")
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and ("~0" in node.value or "~1" in node.value)
            ):
                found.append(f"{relative}:{node.lineno} spells a pointer's escape")
    assert found == []
