"""A contract folder's four files read and held to their meta-schemas, the columns that
contract.yaml declares judged with it (an old revision's format adopted first, for
`breaking`). Apart from `project.py`, which builds a contract of them, because `lint` reads
them too: it judges the files of a contract that does not load."""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from ..diagnostics import Diagnostic
from .catalogue import CORE_NAMES, declared_columns
from .documents import Document, read_json, read_yaml
from .meta import check_against_meta, meta_schema, semver
from .reading import Reading

CONTRACT_FILES = ("contract.yaml", "envelope.schema.json", "errors.yaml", "tools.yaml")


def read_documents(
    folder: Path, reading: Reading, lenient: bool = False
) -> tuple[dict[str, Document], list[Diagnostic]]:
    """The documents of a contract folder that read and meet their meta-schema, and every
    problem of those that do not."""
    documents: dict[str, Document] = {}
    problems: list[Diagnostic] = []
    for name in CONTRACT_FILES:
        path = folder / name
        if not reading.files.is_file(path):
            problems.append(Diagnostic(reading.name(path), None, None, "missing: every contract folder needs it"))
            continue
        result = read_json(path, reading) if name.endswith(".json") else read_yaml(path, reading)
        if isinstance(result, Diagnostic):
            problems.append(result)
        else:
            documents[name] = result
    identity = documents.get("contract.yaml")
    if lenient and identity is not None and isinstance(identity.data, dict):
        _adopt_old_format(identity, documents)
    columns = declared_columns(identity.data if identity is not None else {})
    for name, kind in (("contract.yaml", "contract"), ("errors.yaml", "errors"), ("tools.yaml", "tools")):
        if name in documents and identity is None and name != "contract.yaml":
            del documents[name]  # its columns are declared in contract.yaml: it cannot be judged yet
        elif name in documents:
            found = check_against_meta(documents[name], kind, columns)
            if name == "contract.yaml":
                found += _column_names(documents[name])
            if found:
                problems += found
                del documents[name]
    return documents, problems


def _column_names(identity: Document) -> list[Diagnostic]:
    """Declared columns become dataclass fields of `errors.py`: no Python keyword may name one."""
    declared = identity.data.get("columns", {}) if isinstance(identity.data, dict) else {}
    return [
        identity.diagnostic(["columns", table, name], f"a Python keyword cannot name a column: {name!r}")
        for table, names in (declared.items() if isinstance(declared, dict) else ())
        for name in (names if isinstance(names, dict) else ())
        if keyword.iskeyword(name)
    ]


_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"))


def _adopt_old_format(identity: Document, documents: dict[str, Document]) -> None:
    """Make sources of an earlier format readable (see `load_project`'s `lenient`)."""
    known = set(meta_schema("contract")["properties"])
    for key in [k for k in identity.data if k not in known]:
        del identity.data[key]
    if "version" in identity.data:
        identity.data["version"] = _as_semver(identity.data["version"])
    columns = identity.data.setdefault("columns", {})
    sections = (("errors.yaml", "errors"), ("errors.yaml", "error_types"), ("errors.yaml", "warnings"))
    for name, table in (*sections, ("tools.yaml", "tools")):
        document = documents.get(name)
        entries = document.data.get(table, []) if document is not None and isinstance(document.data, dict) else []
        declared = columns.setdefault(table, {})
        for entry in entries if isinstance(entries, list) else []:
            for key, value in entry.items() if isinstance(entry, dict) else ():
                kind = next((t for python, t in _JSON_TYPES if isinstance(value, python)), None)
                if key not in CORE_NAMES and key not in declared and kind is not None:
                    declared[key] = {"type": kind, "description": f"{key} (from an earlier format)"}


def _as_semver(version: object) -> object:
    """An old revision's `version`, written before it had to be a semantic version, as one:
    its first numbers (`1.0` is 1.0.0, `v2` is 2.0.0, `mcp.envelope.v0.1` is 0.1.0), or 0.0.0
    when it has none (`latest`), so that `breaking` asks the new version for the bump."""
    text = str(version)
    if semver().fullmatch(text) is not None:
        return text
    found = re.search(r"([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?", text)
    numbers = [int(part) for part in found.groups(default="0")] if found is not None else [0, 0, 0]
    return ".".join(map(str, numbers))
