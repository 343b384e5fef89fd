"""`mcp-contracts init`: a new contract folder that `generate` accepts at once.

A project without a `[tool.mcp-contracts]` section gets one, in the pyproject.toml of
its root (made when there is none, appended to when there is), so that every later command
finds the same folders; it names the generated package (`package`, `distribution`) as the
project would by default (package_names.py), where the user sees the names and may change them.

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
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from .config import PYPROJECT, Settings, section_text
from .diagnostics import Diagnostic, display_path
from .load.documents import read_yaml
from .load.reading import Reading
from .naming import longest_file_name
from .package_names import FALLBACK_PACKAGE, contract_folders, usable_version
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


@dataclass(frozen=True)
class Scaffolded:
    """What `init` wrote: the files it created, and the pyproject.toml it appended the
    settings section to (None: it appended to none; a pyproject.toml it made is created)."""

    created: list[Path]
    appended: Path | None = None


def scaffold(settings: Settings, name: str) -> Scaffolded | Diagnostic:
    """Write `<schemas>/contracts/NAME/` (and the settings section when the project has none);
    nothing is written when it cannot be."""
    folder = settings.schemas / "contracts" / name
    problem = name_problem(settings, name)
    if problem is not None:
        return problem
    if folder.exists():
        return Diagnostic(display_path(folder), None, None, "already exists")
    settings = _with_contract(settings, name)
    env = template_environment(settings.templates)
    pascal = "".join(part.capitalize() for part in name.split("-"))
    context = {
        "name": name,
        "module": name.replace("-", "_"),
        "title": f"{name} envelope",
        "root_model": pascal + "Envelope",
    }
    files = {relative: env.get_template(template).render(**context).encode() for template, relative in FILES.items()}
    version = settings.distribution_version or _first_version(settings, name, files["contract.yaml"])
    servers: dict[Path, str] = {}  # a server per language the project generates
    for language in (language for language in SERVER_TEMPLATES if language in settings.languages):
        server = server_path(settings, name, language)
        more = _server_context(settings, server, pascal, version)
        servers[server] = env.get_template(SERVER_TEMPLATES[language]).render(**context, **more)
    replace_tree(files, folder)
    created = [folder / relative for relative in FILES.values()]
    created += [server for server, text in servers.items() if _create(server, text)]
    if settings.config is None:
        appended = _holds_text(settings.root / PYPROJECT)
        pyproject = add_section(settings)
        return Scaffolded(created, pyproject) if appended else Scaffolded([*created, pyproject])
    return Scaffolded(created)


def _with_contract(settings: Settings, name: str) -> Settings:
    """`settings` as they will be once contract `name` is written: a name that follows the
    first contract (no `[project] name`, none named in the settings) follows it, where it
    comes first. A name the settings or a flag gave is kept."""
    if settings.naming is None:
        return settings
    before = settings.naming.named(settings.schemas, settings.languages)
    after = settings.naming.named(settings.schemas, settings.languages, adding=name)
    package = after.package if settings.package == before.package else settings.package
    distribution = after.distribution if settings.distribution == before.distribution else settings.distribution
    return replace(settings, package=package, distribution=distribution)


def _first_version(settings: Settings, name: str, written: bytes) -> str:
    """The version of the generated packages where neither the settings nor the project give
    one: the first contract's `version:` (render/plan.py), `written` where `name` comes first."""
    first = contract_folders(settings.schemas, name)[0]
    if first == name:  # the templates' text (a project's own may override them)
        from ruamel.yaml import YAML
        from ruamel.yaml.error import YAMLError

        try:
            data = YAML(typ="safe", pure=True).load(written)
        except YAMLError:
            data = None
    else:
        reading = Reading.within(settings.schemas, settings.limits)
        document = read_yaml(settings.schemas / "contracts" / first / "contract.yaml", reading)
        data = document.data if not isinstance(document, Diagnostic) else None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) and usable_version(version, settings.languages) else "0.0.0"


def server_path(settings: Settings, name: str, language: str = "python") -> Path:
    """Where `init` writes the server of contract `name` in `language`: beside the sources folder."""
    suffix = {"python": ".py", "typescript": ".ts"}[language]
    return settings.schemas.parent / f"{name.replace('-', '_')}_server{suffix}"


def _server_context(settings: Settings, server: Path, pascal: str, version: str) -> dict[str, str]:
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
        "tarball": f"{npm}-{version}.tgz",
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


def _holds_text(path: Path) -> bool:
    """Whether `path` is a file with more than white space in it: `add_section` appends to it."""
    return path.is_file() and bool(path.read_text(encoding="utf-8").strip())


def add_section(settings: Settings) -> Path:
    """Append `[tool.mcp-contracts]`, with the folders and names these settings use, to the
    root's pyproject.toml (made when there is none). Called once the new contract is written:
    names the project had nothing to follow when the settings loaded (no `[project] name`, no
    contract) follow that contract now, as `generate` will."""
    pyproject = settings.root / PYPROJECT
    before = pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""
    named = settings.naming.named(settings.schemas, settings.languages) if settings.naming is not None else None
    if named is not None and settings.package == FALLBACK_PACKAGE and settings.distribution is None:
        settings = replace(settings, package=named.package, distribution=named.distribution)
    section = section_text(settings.package, settings.distribution or settings.package.replace("_", "-"))
    schemas = Path(os.path.relpath(settings.schemas.resolve(), settings.root.resolve())).as_posix()
    section = section.replace('schemas = "schemas"', f"schemas = {json.dumps(schemas)}")
    text = before.rstrip("\n") + "\n" + section if before.strip() else section.lstrip("\n")
    pyproject.write_text(text, encoding="utf-8")
    return pyproject
