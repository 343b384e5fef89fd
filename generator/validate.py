"""Judging JSON documents with a contract's judge (`mcp-contracts validate`).

The verdict is the contract's own schema, compiled by jsonschema-rs: the judge `load`
compiled from the sources (`Contract.judge`), the one `mock` and `conform` judge with and
the one `generate` bundles for the generated models, which run it before they build. So an
output folder that is not regenerated yet cannot make `validate` disagree with them.
`load_judge` reads the judge of a generated package instead (the test of the generated
runtime against the official suite uses it). Errors are reported as JSON pointers, and
for a failed `oneOf` or `anyOf` the errors of the branch the document most likely meant.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from . import debug
from .diagnostics import Refused
from .files import NotRegular, read_regular
from .load.documents import depth_of
from .model import Contract
from .runtime import NOT_A_JSON_VALUE, Judge, NotJson, Violation, parse_json


class UnknownContract(LookupError):
    """No generated module for the contract: unknown name, or never generated."""


class UnknownDefinition(LookupError):
    """A `--definition` the contract's schema does not define; the message names those it does."""


@dataclass(frozen=True)
class Verdict:
    """One document's judgement; `problem` is set when it could not be judged at all."""

    path: str
    valid: bool
    errors: tuple[Violation, ...] = ()
    problem: str | None = None

    def as_json(self) -> dict[str, Any]:
        errors = [{"pointer": v.pointer, "message": v.message} for v in self.errors]
        if self.problem is not None:
            errors = [{"pointer": "", "message": self.problem}]
        return {"path": self.path, "valid": self.valid, "errors": errors}


@dataclass(frozen=True)
class ContractJudge:
    """A contract's judge, pointed at the root or at one of its definitions."""

    contract: str
    judge: Judge
    location: str = ""
    max_depth: int = 200

    def judge_bytes(self, path: str, data: bytes) -> Verdict:
        try:
            document = parse_json(data)
        except NotJson as problem:
            return Verdict(path, False, problem=f"not JSON: {problem}")
        depth = depth_of(document)
        if depth > self.max_depth:
            return Verdict(path, False, problem=f"nested {depth} deep, over limits.document_depth ({self.max_depth})")
        repeated = _repeated_key(data)
        if repeated is not None:
            return Verdict(path, False, problem=f"not JSON: the key {repeated!r} appears twice in one object")
        try:
            if self.judge.is_valid(document, self.location):  # the fast answer for the common case
                return Verdict(path, True)
        except ValueError as exc:  # deeper than the engine follows
            return Verdict(path, False, problem=f"cannot judge: {exc}")
        violations = self.judge.violations(document, self.location)
        if len(violations) == 1 and violations[0].message.startswith(NOT_A_JSON_VALUE):
            return Verdict(path, False, problem=f"cannot judge: {violations[0].message}")  # too deep for the engine
        return Verdict(path, False, tuple(violations))


def _repeated_key(data: bytes) -> str | None:
    """A key that one object of the document repeats (RFC 8259: names SHOULD be unique; a
    parser keeps one of them, and which one is up to it), or None."""
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in items]
        if len(set(keys)) != len(keys) and not found:
            found.append(next(key for index, key in enumerate(keys) if key in keys[:index]))
        return {}

    json.loads(data, object_pairs_hook=pairs)  # valid JSON: msgspec read it already
    return found[0] if found else None


def load_judge(contract: str, out_dir: Path, package_name: str, definition: str | None = None) -> ContractJudge:
    """The judge of `contract` from the generated package `package_name` under `out_dir/python`.

    The package is imported under a private name of its folder's, so that any number of
    output folders can be judged in one process, beside a package of the same name that
    the process imported itself (generated code imports itself relatively).
    UnknownContract for a contract that is not generated there (its message names those
    that are), UnknownDefinition for a definition its schema lacks.
    """
    folder = (out_dir / "python" / package_name).resolve()
    if not (folder / "__init__.py").is_file():
        raise UnknownContract(f"no generated package {package_name!r} under {out_dir.as_posix()}/python")
    try:
        package = _import_package(folder)
        known: dict[str, str] = getattr(package, "CONTRACTS", {})
        if contract not in known:
            close = difflib.get_close_matches(contract, known, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise UnknownContract(f"{hint}generated contracts: {', '.join(sorted(known)) or 'none'}")
        judge = importlib.import_module(f"{package.__name__}.{known[contract]}").JUDGE
    except UnknownContract:
        raise
    except Exception as exc:  # a broken or foreign package: a message, not a traceback
        debug.handled(exc)
        raise UnknownContract(f"{package_name} cannot be imported: {exc}") from exc
    return _pointed(contract, judge, definition)


def contract_judge(contract: Contract, definition: str | None = None, max_depth: int = 200) -> ContractJudge:
    """The judge `load` compiled for `contract`, at its root or at the entry `definition` of
    its `$defs`; UnknownDefinition for a definition its schema lacks."""
    return _pointed(contract.name, contract.judge, definition, max_depth)


def _pointed(contract: str, judge: Judge, definition: str | None, max_depth: int = 200) -> ContractJudge:
    if definition is None:
        return ContractJudge(contract, judge, max_depth=max_depth)
    try:
        return ContractJudge(contract, judge, judge.definition(definition), max_depth)
    except KeyError:
        names = ", ".join(sorted(judge.definitions())) or "none"
        raise UnknownDefinition(
            f"contract {contract!r} has no definition {definition!r} in its $defs (it has: {names})"
        ) from None


def _import_package(folder: Path) -> ModuleType:
    """The generated package in `folder`, imported once per generation, under a name made
    from its path and its `__init__.py`."""
    # `generate` swaps in a whole new tree: a new `__init__.py` (inode, time) means a new
    # import, not the stale module; one stat, however many contracts the package holds.
    marker = os.stat(folder / "__init__.py")
    identity = f"{folder}\0{marker.st_ino}\0{marker.st_mtime_ns}\0{marker.st_size}"
    alias = "_mcp_contracts_judged_" + hashlib.sha256(identity.encode()).hexdigest()[:16]
    if alias in sys.modules:
        return sys.modules[alias]
    spec = importlib.util.spec_from_file_location(
        alias, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"no package at {folder}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[alias]
        raise
    return module


def read_document(path: str, limit: int = 64_000_000) -> bytes | Refused:
    """The bytes of a file (`-` is standard input), or `Refused` saying why not: it cannot
    be read, it is not a regular file (a folder, a FIFO, a device: refused at once, never
    waited on), or it is over `limit` bytes."""
    try:
        data = sys.stdin.buffer.read(limit + 1) if path == "-" else read_regular(path, limit)
    except NotRegular as exc:
        return Refused(f"cannot read: {exc}")
    except OSError as exc:
        return Refused(f"cannot read: {exc.strerror or exc}")
    if len(data) > limit:
        return Refused(f"cannot read: over limits.document_bytes ({limit:,} bytes)")
    return data
