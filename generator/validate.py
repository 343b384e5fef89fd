"""Judging JSON documents with a contract's generated models (`mcp-contracts validate`).

The verdict is pydantic's compiled validator, the same one a server would run; only
on failure are its errors turned into JSON pointers. For a union (oneOf) pydantic
reports every branch; we keep the branch the document most likely meant, as the
source-side diagnostics do.
"""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.diagnostics import json_pointer

PACKAGE = "mcp_contracts"
_TYPE_TAGS = {"str", "int", "float", "bool", "none", "list", "dict", "tuple", "set"}


class UnknownContract(LookupError):
    """No generated module for the contract: unknown name, or never generated."""


@dataclass(frozen=True, slots=True)
class Violation:
    pointer: str
    message: str


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
class Judge:
    """The root model of one contract, and the names of its model classes."""

    contract: str
    model: type[BaseModel]
    model_names: frozenset[str] = field(default_factory=frozenset)

    def judge(self, path: str, text: bytes) -> Verdict:
        try:
            self.model.model_validate_json(text)
        except ValidationError as exc:
            errors = exc.errors(include_url=False)
            malformed = [e for e in errors if e["type"] == "json_invalid"]
            if malformed:
                return Verdict(path, False, problem=f"malformed JSON: {malformed[0]['msg']}")
            return Verdict(path, False, tuple(self._violations(errors, json.loads(text))))
        return Verdict(path, True)

    def _is_tag(self, item: object) -> bool:
        """A loc entry naming a union branch rather than a key of the document."""
        return isinstance(item, str) and (item in self.model_names or item in _TYPE_TAGS or "[" in item)

    def _split(self, loc: tuple[Any, ...], document: Any) -> tuple[list[Any], tuple[str, ...]]:
        """A pydantic location as a path in the document and the union branches taken.

        An entry is part of the path when the document has it at that point (or, last,
        when it names a missing field); otherwise it names a branch.
        """
        path: list[Any] = []
        tags: list[str] = []
        node = document
        for index, item in enumerate(loc):
            in_object = isinstance(node, dict) and item in node
            in_array = isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node)
            if in_object or in_array:
                path.append(item)
                node = node[item]
            elif index == len(loc) - 1 and not self._is_tag(item):
                path.append(item)
            else:
                tags.append(str(item))
        return path, tuple(tags)

    def _violations(self, errors: list[Any], document: Any) -> list[Violation]:
        branches: dict[tuple[str, ...], list[tuple[list[Any], Any]]] = {}
        for error in errors:
            path, tags = self._split(error["loc"], document)
            branches.setdefault(tags, []).append((path, error))
        chosen = min(branches.values(), key=lambda found: _branch_score([e for _, e in found]))
        violations = {Violation(json_pointer(path), _message(e["msg"])) for path, e in chosen}
        return sorted(violations, key=lambda v: (v.pointer, v.message))


def _branch_score(errors: list[Any]) -> tuple[bool, int, int]:
    """Lower is likelier the branch meant: its tag matched, few errors, deep ones."""
    tag_mismatch = any(e["type"] == "literal_error" for e in errors)
    return (tag_mismatch, len(errors), -max(len(e["loc"]) for e in errors))


def _message(text: str) -> str:
    return text.removeprefix("Value error, ")


def load_judge(contract: str, out_dir: Path) -> Judge:
    """The judge of `contract` from the generated package under `out_dir/python`."""
    root = (out_dir / "python").resolve()
    if not (root / PACKAGE / "__init__.py").is_file():
        raise UnknownContract(contract)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        package = importlib.import_module(PACKAGE)
        if Path(package.__file__ or "").resolve().parent != root / PACKAGE:
            raise UnknownContract(f"{PACKAGE} was already imported from elsewhere")
        module_name = package.CONTRACTS[contract]
        models = importlib.import_module(f"{PACKAGE}.{module_name}.models")
        envelope = importlib.import_module(f"{PACKAGE}.{module_name}").Envelope
    except (ImportError, KeyError, AttributeError) as exc:
        raise UnknownContract(contract) from exc
    names = frozenset(n for n, v in vars(models).items() if isinstance(v, type) and issubclass(v, BaseModel))
    return Judge(contract, envelope, names)


def read_document(path: str) -> bytes | str:
    """The bytes of a file (`-` is standard input), or a message saying why not."""
    try:
        return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
