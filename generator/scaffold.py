"""`mcp-contracts init`: a new contract folder that `generate` accepts at once.

A project without a `[tool.mcp-contracts]` section gets one, in the pyproject.toml of
its root (made when there is none), so that every later command finds the same folders.

A project that generates Python also gets a server of its own to start from,
`<module>_server.py` on the generated `Handlers`, beside the sources folder (the project
root in the usual layout), and one that generates TypeScript `<module>_server.ts`, on the
npm package's `Handlers` imported by the package's name: not in the contract folder, which
holds the contract alone, the same for every language, as a buf module holds .proto files and
the code that serves them lives in the project. A file of that name already there is the
user's: it is kept.
"""

from __future__ import annotations

import json
import keyword
import os
from functools import cache
from pathlib import Path
from typing import Any

from .config import PYPROJECT, Settings, section_text
from .diagnostics import Diagnostic, display_path
from .naming import longest_file_name
from .render.environment import template_environment
from .render.typescript import npm_name
from .resources import META_SCHEMAS_DIR
from .write import replace_tree

# template -> file, relative to the new contract folder
FILES = {
    "init/contract.yaml.jinja": "contract.yaml",
    "init/envelope.schema.json.jinja": "envelope.schema.json",
    "init/errors.yaml.jinja": "errors.yaml",
    "init/tools.yaml.jinja": "tools.yaml",
    "init/success.json.jinja": "examples/success.json",
}
SERVER_TEMPLATES = {"python": "init/server.py.jinja", "typescript": "init/server.ts.jinja"}


def scaffold_contract(settings: Settings, name: str) -> list[Path] | Diagnostic:
    """Write `<schemas>/contracts/NAME/` (and the settings section when the project has none);
    nothing is written when it cannot be."""
    folder = settings.schemas / "contracts" / name
    problem = name_problem(settings, name)
    if problem is not None:
        return problem
    if folder.exists():
        return Diagnostic(display_path(folder), None, None, "already exists")
    env = template_environment(settings.templates)
    pascal = "".join(part.capitalize() for part in name.split("-"))
    context = {
        "name": name,
        "module": name.replace("-", "_"),
        "title": f"{name} envelope",
        "root_model": pascal + "Envelope",
    }
    files = {relative: env.get_template(template).render(**context).encode() for template, relative in FILES.items()}
    servers: dict[Path, str] = {}  # a server per language the project generates
    for language in (language for language in SERVER_TEMPLATES if language in settings.languages):
        server = server_path(settings, name, language)
        more = _server_context(settings, server, pascal)
        servers[server] = env.get_template(SERVER_TEMPLATES[language]).render(**context, **more)
    replace_tree(files, folder)
    created = [folder / relative for relative in FILES.values()]
    created += [server for server, text in servers.items() if _create(server, text)]
    if settings.config is None:
        created.append(add_section(settings))
    return created


def server_path(settings: Settings, name: str, language: str = "python") -> Path:
    """Where `init` writes the server of contract `name` in `language`: beside the sources folder."""
    suffix = {"python": ".py", "typescript": ".ts"}[language]
    return settings.schemas.parent / f"{name.replace('-', '_')}_server{suffix}"


def _server_context(settings: Settings, server: Path, pascal: str) -> dict[str, str]:
    """What a server's template says beside the contract's names: where the generated package
    is from the server and what `npm pack` makes of it (for its comment), how it is imported,
    the server's class name."""
    out = settings.output / ("python" if server.suffix == ".py" else f"typescript/{settings.package}")
    relative = Path(os.path.relpath(out.resolve(), server.parent.resolve())).as_posix()
    npm = npm_name(settings.package, settings.distribution)
    return {
        "package": settings.package,
        "npm": npm,
        "pascal": pascal + "_" if keyword.iskeyword(pascal) else pascal,  # `none` is `None`, `true` `True`
        "file": server.name,
        "compiled": server.with_suffix(".js").name,
        "tarball": f"{npm}-{settings.distribution_version}.tgz",
        "python_out": relative,
        "typescript_out": relative if relative.startswith(".") else f"./{relative}",  # npm: a path, not a name
    }


def _create(path: Path, text: str) -> bool:
    """Write `path` unless a file is there already (then it is the user's, kept): whether it was written."""
    try:
        with path.open("x", encoding="utf-8", newline="\n") as file:
            file.write(text)
    except FileExistsError:
        return False
    return True


def name_problem(settings: Settings, name: str) -> Diagnostic | None:
    """Why `name` cannot name a contract (its folder, its module), or None: what the loader
    refuses, and a name longer than the contracts folder's file system takes."""
    folder = settings.schemas / "contracts" / name
    said = contract_name_problem(name) or _length_problem(name, folder.parent)
    return Diagnostic(display_path(folder), None, None, said) if said is not None else None


def contract_name_problem(name: str) -> str | None:
    """Why the loader would refuse `name` in contract.yaml (the meta-schema's `name`, and
    its module a keyword), or None: `init` and `import` refuse what `generate` would."""
    schema = _name_schema()
    if not name.isascii() or not _name_judge().is_valid(name):  # the pattern is ASCII; a lone surrogate no JSON
        if name.isascii() and _name_pattern().is_valid(name):  # kebab case, one of the names `not` refuses
            reserved = ", ".join(schema["not"]["enum"])
            return f"{name!r} names a page of the docs: a contract cannot be named {reserved}"
        return "a contract name is kebab case: lower-case letters, digits, hyphens"
    if keyword.iskeyword(name.replace("-", "_")):
        return "a Python keyword cannot name the contract's module"
    return None


# What `init` and `generate` make of a name beside the folder: `replace_tree`'s staging
# folder `.NAME.new-XXXXXXXX` is the longest (`NAME.tools.json` under mcp/ is shorter).
_LONGEST_DERIVED = len(".") + len(".new-") + 8


def _length_problem(name: str, contracts: Path) -> str | None:
    """Why `name` is too long for the file system of `contracts`, or None."""
    most = longest_file_name(contracts) - _LONGEST_DERIVED
    size = len(name.encode("utf-8", "surrogateescape"))
    if size <= most:
        return None
    return f"a contract name of {size} bytes is longer than this file system takes: {most} at most"


@cache
def _name_schema() -> dict[str, Any]:
    """`name` of contract.yaml's meta-schema: the loader judges contract names with it."""
    meta = json.loads((META_SCHEMAS_DIR / "contract.schema.json").read_text(encoding="utf-8"))
    name: dict[str, Any] = meta["properties"]["name"]
    return name


@cache
def _name_judge() -> Any:
    import jsonschema_rs

    return jsonschema_rs.validator_for(_name_schema())


@cache
def _name_pattern() -> Any:
    import jsonschema_rs

    return jsonschema_rs.validator_for({"type": "string", "pattern": _name_schema()["pattern"]})


def add_section(settings: Settings) -> Path:
    """Append `[tool.mcp-contracts]`, with the folders these settings use, to the root's pyproject."""
    pyproject = settings.root / PYPROJECT
    before = pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""
    section = section_text(settings.package)
    schemas = Path(os.path.relpath(settings.schemas.resolve(), settings.root.resolve())).as_posix()
    section = section.replace('schemas = "schemas"', f"schemas = {json.dumps(schemas)}")
    text = before.rstrip("\n") + "\n" + section if before.strip() else section.lstrip("\n")
    pyproject.write_text(text, encoding="utf-8")
    return pyproject
