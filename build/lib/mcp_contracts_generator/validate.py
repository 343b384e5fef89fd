"""Judging JSON documents with a contract's generated judge (`mcp-contracts validate`).

The verdict is the contract's own schema, compiled by jsonschema-rs: the same judge the
generated models run before they build. Its errors are reported as JSON pointers, and
for a failed `oneOf` or `anyOf` the errors of the branch the document most likely meant.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .runtime import Judge, NotJson, Violation, parse_json


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

    def judge_bytes(self, path: str, data: bytes) -> Verdict:
        try:
            document = parse_json(data)
        except NotJson as problem:
            return Verdict(path, False, problem=f"not JSON: {problem}")
        if self.judge.is_valid(document, self.location):  # the fast answer for the common case
            return Verdict(path, True)
        return Verdict(path, False, tuple(self.judge.violations(document, self.location)))


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
        raise UnknownContract(f"{package_name} cannot be imported: {exc}") from exc
    if definition is None:
        return ContractJudge(contract, judge)
    try:
        return ContractJudge(contract, judge, judge.definition(definition))
    except KeyError:
        names = ", ".join(sorted(judge.definitions())) or "none"
        raise UnknownDefinition(
            f"contract {contract!r} has no definition {definition!r} in its $defs (it has: {names})"
        ) from None


def _import_package(folder: Path) -> ModuleType:
    """The generated package in `folder`, imported (once) under a name made from its path."""
    alias = "_mcp_contracts_judged_" + hashlib.sha256(str(folder).encode()).hexdigest()[:16]
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


def read_document(path: str) -> bytes | str:
    """The bytes of a file (`-` is standard input), or a message saying why not."""
    try:
        return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
