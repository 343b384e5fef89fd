# Copied by mcp-contracts from its generator/runtime.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""The runtime of generated contracts: the schema as the judge, models as typed views.

A contract's schema, bundled with every resource it refers to, is compiled by
jsonschema-rs (a conforming, compiled validator) into a `Judge`. The generated models
inherit `JudgedModel` or `JudgedRootModel`: `model_validate` and `model_validate_json`
ask the judge first, so they accept exactly what the schema accepts, then build the
typed view, which is never stricter than the schema. The view of a judged document is built
without validating again: `_Compiler` writes, on a class's first use, Python functions from
its core schema that set what pydantic's validation sets (the same classes, values, fields
set and extra members), choosing a union's branch by a tag or a marker key; what they are
not sure of is left to pydantic. Nothing is built or read at import: the model classes
(`defer_build`), the bundled schema, msgspec and jsonschema-rs wait for the first use. Their JSON Schema
(`model_json_schema()`, pydantic's `TypeAdapter`, what the MCP SDK publishes as a tool's
`outputSchema`) is the contract's own, from the package's `published.json`.

This module is the generator's own and is copied (black-formatted) into every generated
package as `_runtime.py`: generated code needs pydantic, jsonschema-rs and msgspec, and
not the generator. It must import nothing else.
"""

from __future__ import annotations

import copy
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Generic, Self, TypeVar

from pydantic import (
    MISSING,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    GetJsonSchemaHandler,
    RootModel,
    ValidationError,
)
from pydantic.json_schema import JsonSchemaValue

if TYPE_CHECKING:
    import jsonschema_rs
from pydantic_core import CoreSchema, InitErrorDetails, PydanticCustomError

_BOM = b"\xef\xbb\xbf"
_LOCATION_BASE = "urn:mcp-contracts:location"
_DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
NOT_A_JSON_VALUE = "not a JSON value: "
_MAX_MESSAGE = 200


class NotJson(ValueError):
    """Bytes that are not one JSON document; the message says why."""


def _first_decode(data: bytes | bytearray | memoryview | str) -> Any:
    """msgspec's decoder, imported on the first document read (an import costs time)."""
    global _decode
    import msgspec

    _decode = msgspec.json.Decoder().decode
    return _decode(data)


_decode: Callable[[bytes | bytearray | memoryview | str], Any] = _first_decode


def parse_json(data: bytes | bytearray | memoryview | str) -> Any:
    """One JSON document (RFC 8259), every integer exact: no BOM, no NaN or Infinity.

    msgspec reads as fast as orjson and, unlike it, keeps integers beyond 64 bits exact.
    """
    try:
        return _decode(data)
    except (
        ValueError,
        RecursionError,
    ) as exc:  # msgspec.DecodeError and UnicodeError are ValueErrors
        raise NotJson(_json_problem(data, exc)) from None


def _json_problem(data: bytes | bytearray | memoryview | str, error: Exception) -> str:
    """What is wrong with a text that is not JSON, located by line and column where it can be."""
    raw = (
        data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    )
    if isinstance(error, RecursionError):
        return "nested too deeply: more arrays and objects inside each other than the parser can follow"
    if isinstance(error, (UnicodeDecodeError, UnicodeEncodeError)):
        return f"not valid UTF-8: {error.reason}"
    if raw.startswith(_BOM):
        return "starts with a UTF-8 byte order mark, which JSON text must not have"
    if not raw.strip(b" \t\r\n"):
        return "empty: a JSON document holds one value"
    message = str(error)
    lone = (
        lone_surrogate(raw)
        if message == "Input data was truncated" or "surrogate" in message
        else None
    )
    if (
        lone is not None
    ):  # msgspec says "truncated" for a high half that nothing follows
        line, column = _line_and_column(raw, lone)
        escape = raw[lone : lone + 6].decode("ascii")
        return f"a lone surrogate escape {escape} at line {line}, column {column}: half of a UTF-16 pair, not a character"
    if message.startswith("Integer value out of range"):
        return "an integer too long to read (Python reads integers of at most 4,300 digits)"
    if message == "Input data was truncated":
        line, column = _line_and_column(raw, len(raw))
        return f"unexpected end of data at line {line}, column {column}: a string, array or object is not closed"
    offset = re.search(r"\(byte (\d+)\)$", message)
    if offset is None:
        return message
    at = int(offset.group(1)) - message.startswith(
        "JSON is malformed: trailing"
    )  # msgspec counts past it
    line, column = _line_and_column(raw, at)
    what = message[: offset.start()].removeprefix("JSON is malformed: ").rstrip()
    if raw.startswith((b"NaN", b"Infinity", b"-Infinity"), at):
        what = "NaN and Infinity are not JSON numbers"
    return f"{what} at line {line}, column {column}"


_ESCAPE = (
    rb"\\(?:u([0-9a-fA-F]{4})|.)"  # compiled when a text is not JSON (`re` caches it)
)


def lone_surrogate(raw: bytes) -> int | None:
    """The byte offset of the first `\\uD800`..`\\uDFFF` escape of a JSON text that is not
    one half of a pair (a high half followed at once by a low half), or None."""
    waiting, end = (
        None,
        -1,
    )  # the offset of a high half, and where the escape before ended
    for escape in re.finditer(_ESCAPE, raw, re.DOTALL):
        digits = escape.group(1)
        code = int(digits, 16) if digits is not None else None
        if waiting is not None:
            if escape.start() != end or code is None or not 0xDC00 <= code <= 0xDFFF:
                return waiting
            waiting, code = None, None  # a pair: the low half is taken
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return escape.start()
        if code is not None and 0xD800 <= code <= 0xDBFF:
            waiting = escape.start()
        end = escape.end()
    return waiting


def _line_and_column(raw: bytes, at: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte offset `at`."""
    line_start = raw.rfind(b"\n", 0, at) + 1
    return (
        raw.count(b"\n", 0, at) + 1,
        len(raw[line_start:at].decode("utf-8", "replace")) + 1,
    )


def short(message: str) -> str:
    """A message cut to a readable length: some quote whole instances."""
    return (
        message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."
    )


def json_pointer(parts: Sequence[object]) -> str:
    """RFC 6901 pointer for a sequence of keys and indexes ("" is the whole document)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@dataclass(frozen=True, slots=True)
class Violation:
    """One way a document breaks the schema: where in the document, and what."""

    path: tuple[str | int, ...]
    message: str

    @property
    def pointer(self) -> str:
        return json_pointer(self.path)


def _branch_score(
    errors: list[jsonschema_rs.ValidationError], depth: int
) -> tuple[bool, bool, int, int]:
    """Lower is likelier the branch meant: the type fits, the tag (a const) matches, few
    errors, deep ones. `depth` is the length of the branching value's path."""
    facts = [
        (e.kind.name, len(e.instance_path)) for e in errors
    ]  # each read builds a Python object
    wrong_type = any(kind == "type" and length == depth for kind, length in facts)
    tag_missed = any(kind in ("const", "enum") for kind, _ in facts)
    return (wrong_type, tag_missed, len(errors), -max(length for _, length in facts))


def _specific(
    error: jsonschema_rs.ValidationError,
) -> Iterator[jsonschema_rs.ValidationError]:
    """For a failed oneOf/anyOf, the errors of the branch the document most likely meant."""
    kind = error.kind
    branches = getattr(kind, "context", None)
    if branches and kind.name in ("oneOf", "anyOf") and all(branches):
        depth = len(error.instance_path)
        for sub in min(branches, key=lambda branch: _branch_score(branch, depth)):
            yield from _specific(sub)
        return
    yield error


def _violations(error: jsonschema_rs.ValidationError) -> list[Violation]:
    """The violations of one engine error, each at the member it is about: a missing
    required property, or each property that is not allowed."""
    path = tuple(error.instance_path)
    kind = error.kind.name
    if kind == "required":
        return [Violation((*path, error.kind.property), short(error.message))]  # type: ignore[attr-defined]
    if kind in ("additionalProperties", "unevaluatedProperties"):
        what = "additional" if kind == "additionalProperties" else "unevaluated"
        unexpected = error.kind.unexpected  # type: ignore[attr-defined]
        return [
            Violation(
                (*path, key), short(f"{key!r} is not allowed here ({what} property)")
            )
            for key in unexpected
        ]
    return [Violation(path, short(error.message))]


_DIALECTS = {
    "draft-04": "Draft4",
    "draft-06": "Draft6",
    "draft-07": "Draft7",
    "draft/2019-09": "Draft201909",
    "draft/2020-12": "Draft202012",
}


def dialect(schema: Any) -> int | None:
    """The draft a schema's `$schema` names, when it names a standard one."""
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if isinstance(declared, str) and "json-schema.org/" in declared:
        import jsonschema_rs

        found = next(
            (draft for name, draft in _DIALECTS.items() if name in declared), None
        )
        return None if found is None else int(getattr(jsonschema_rs, found))
    return None


class _Annotation:
    """`contentMediaType` and `contentEncoding` read as annotations. Draft-07 lets a validator
    assert them or not, and jsonschema-rs does; the TypeScript judge, 2020-12 and the clients
    that judge a published schema (ajv, python-jsonschema) do not. One verdict per contract:
    no judge asserts them (the generator's `schema.engine.CONTENT_ANNOTATIONS` says the same).
    """

    def __init__(self, parent_schema: Any, value: Any, schema_path: Any) -> None:
        pass

    def validate(self, instance: Any) -> None:
        return None


CONTENT_ANNOTATIONS: dict[str, Any] = {
    "contentMediaType": _Annotation,
    "contentEncoding": _Annotation,
}


def _json_loads(data: bytes) -> Any:
    import json  # the standard library's, for files beside the package: first use only

    return json.loads(data)


def _package_file(package: str, name: str) -> bytes:
    """The bytes of a file beside a package's modules (importlib.resources when the package
    is not a folder of files, such as one inside a zip archive)."""
    module = sys.modules.get(package)
    where = getattr(module, "__file__", None)
    if where:
        try:
            with open(os.path.join(os.path.dirname(where), name), "rb") as file:
                return file.read()
        except OSError:
            pass
    from importlib import resources

    return resources.files(package).joinpath(name).read_bytes()


class Judge:
    """The validators of one bundled schema, compiled on first use, one per location.

    `resources` maps each URI to a schema resource: the contract's schema and everything
    it refers to, so that nothing is fetched. A location is a URI with a JSON pointer
    fragment, such as `json-schema:///envelope.schema.json#/$defs/Meta`.
    """

    def __init__(
        self, root: str, resources: Mapping[str, Any], *, formats: bool = False
    ) -> None:
        self._root = root
        self._resources = resources
        self._formats = formats
        self._bundle: Callable[[], Mapping[str, Any]] | None = None
        self._validators: dict[str, jsonschema_rs.Validator] = {}
        self._registry: jsonschema_rs.Registry | None = None

    @classmethod
    def from_bundle(cls, bundle: Mapping[str, Any]) -> Judge:
        """A judge of a bundle as `generate` writes it: `root`, `formats`, `resources`."""
        return cls(bundle["root"], bundle["resources"], formats=bundle["formats"])

    @classmethod
    def from_package(cls, package: str, name: str = "schema.json") -> Judge:
        """The judge of a generated contract package, from its bundled schema file, which
        is read on first use (importing the package reads no file)."""
        judge = cls("", {})
        judge._bundle = lambda: _json_loads(_package_file(package, name))
        return judge

    def _read(self) -> None:
        if self._bundle is not None:
            bundle, self._bundle = self._bundle(), None
            self._root, self._resources, self._formats = (
                bundle["root"],
                bundle["resources"],
                bundle["formats"],
            )

    @property
    def root(self) -> str:
        """The URI of the root resource."""
        self._read()
        return self._root

    @property
    def resources(self) -> Mapping[str, Any]:
        """Each URI's schema resource."""
        self._read()
        return self._resources

    @property
    def formats(self) -> bool:
        """Whether `format` is asserted."""
        self._read()
        return self._formats

    def validator(self, location: str = "") -> jsonschema_rs.Validator:
        """The compiled validator of the schema at `location` ("" is the root)."""
        found = self._validators.get(location)
        if found is None:
            found = self._validators[location] = self._compile(location)
        return found

    def _compile(self, location: str) -> jsonschema_rs.Validator:
        import jsonschema_rs

        root = self.resources[self.root]
        if (
            self._registry is None
        ):  # a resource without `$schema` is read in the root's dialect
            self._registry = jsonschema_rs.Registry(
                sorted(self.resources.items()), draft=dialect(root)
            )
        schema: Any = root
        base = self.root
        if (
            location
        ):  # a schema of its own that refers to the location, under a base of its own
            schema, base = {"$ref": location}, _LOCATION_BASE
            if isinstance(root, dict) and "$schema" in root:
                schema["$schema"] = root["$schema"]
        return jsonschema_rs.validator_for(
            schema,
            registry=self._registry,
            base_uri=base,
            validate_formats=self.formats,
            keywords=CONTENT_ANNOTATIONS,
            offline=True,
        )

    def definition(self, name: str) -> str:
        """The location of an entry of the root's `$defs` (or `definitions`); KeyError if none."""
        root = self.resources[self.root]
        for container in ("$defs", "definitions"):
            entries = root.get(container) if isinstance(root, dict) else None
            if isinstance(entries, dict) and name in entries:
                return f"{self.root}#{json_pointer([container, name])}"
        raise KeyError(name)

    def definitions(self) -> list[str]:
        """The names of the root's `$defs` (or `definitions`) entries."""
        root = self.resources[self.root]
        names: list[str] = []
        for container in ("$defs", "definitions"):
            entries = root.get(container) if isinstance(root, dict) else None
            names += list(entries) if isinstance(entries, dict) else []
        return names

    def is_valid(self, instance: Any, location: str = "") -> bool:
        """Whether the schema at `location` accepts `instance`: the hot path, kept short."""
        validator = self._validators.get(location)
        if validator is None:
            validator = self.validator(location)
        return validator.is_valid(instance)

    def violations(self, instance: Any, location: str = "") -> list[Violation]:
        """Every way `instance` breaks the schema at `location`, most specific first."""
        try:
            errors = list(self.validator(location).iter_errors(instance))
        except ValueError as exc:  # a Python value that is not JSON, such as a set
            return [Violation((), f"{NOT_A_JSON_VALUE}{exc}")]
        found = {
            v
            for error in errors
            for specific in _specific(error)
            for v in _violations(specific)
        }
        return sorted(found, key=lambda v: (tuple(map(str, v.path)), v.message))

    def check(self, instance: Any, location: str, title: str) -> None:
        """Raise pydantic's ValidationError, one line per violation, unless `instance` is valid."""
        try:
            if self.is_valid(instance, location):
                return
        except ValueError:
            pass  # not JSON: `violations` says so
        self.refuse(instance, location, title)

    def refuse(self, instance: Any, location: str, title: str) -> None:
        """Raise pydantic's ValidationError, one line per violation of an `instance` judged invalid."""
        raise ValidationError.from_exception_data(
            title,
            [
                InitErrorDetails(
                    type=PydanticCustomError(
                        "json_schema", "{message}", {"message": v.message}
                    ),
                    loc=v.path,
                    input=instance,
                )
                for v in self.violations(instance, location)
            ],
        )


class Published:
    """The JSON Schema each model class of a contract publishes, from `published.json`
    (read on first use): the root class's is the contract's schema as one self-contained
    draft 2020-12 document; another class's refers to its location inside that document,
    which it embeds under `$defs`. Each is a new copy, for the caller to keep or change.
    """

    def __init__(self, package: str, name: str = "published.json") -> None:
        self.package = package
        self.name = name
        self._published: Mapping[str, Any] | None = None

    def document(self, location: str) -> dict[str, Any]:
        """The schema a class bound to `location` publishes; KeyError for an unknown one."""
        if self._published is None:
            self._published = _json_loads(_package_file(self.package, self.name))
        schema = self._published["schema"]
        head = self._published["classes"][location]
        if head is None:
            return copy.deepcopy(schema)
        return {
            "$schema": _DRAFT_2020_12,
            **head,
            "$defs": {schema["$id"]: copy.deepcopy(schema)},
        }


_UNMANAGED = "mcp-contracts:published-schema"


def _references(node: Any) -> Iterator[str]:
    """Every string under a `$ref` key in a JSON value."""
    if isinstance(node, dict):
        reference = node.get("$ref")
        if isinstance(reference, str):
            yield reference
        for value in node.values():
            yield from _references(value)
    elif isinstance(node, list):
        for item in node:
            yield from _references(item)


def _let_through(handler: GetJsonSchemaHandler, document: Any) -> None:
    """Let pydantic's schema generator pass the `$ref`s of a published document.

    The generator follows each `$ref` of the schemas it assembles into its own definitions,
    and raises KeyError at one it does not manage (pydantic issue #12145). While it walks,
    each of the document's references stands registered for an empty definition, removed
    again before anything is written: the document is returned as it is, `$defs` and all.
    """
    generator = getattr(handler, "generate_json_schema", None)
    if generator is None or not hasattr(generator, "json_to_defs_refs"):
        return
    state = vars(generator)
    references: set[str] | None = state.get("_published_references")
    if references is None:
        references = state["_published_references"] = set()
        for walk in ("get_json_ref_counts", "_garbage_collect_definitions"):
            if hasattr(generator, walk):
                setattr(
                    generator,
                    walk,
                    _registering(generator, references, getattr(generator, walk)),
                )
    references.update(_references(document))


def _registering(generator: Any, references: set[str], walk: Any) -> Any:
    def walked(schema: Any) -> Any:
        added = [r for r in sorted(references) if r not in generator.json_to_defs_refs]
        for reference in added:
            generator.json_to_defs_refs[reference] = _UNMANAGED
        generator.definitions[_UNMANAGED] = {}
        try:
            return walk(schema)
        finally:
            for reference in added:
                generator.json_to_defs_refs.pop(reference, None)
            generator.definitions.pop(_UNMANAGED, None)

    return walked


def _not_json(title: str, problem: NotJson, data: object) -> ValidationError:
    error = PydanticCustomError(
        "json_invalid", "Invalid JSON: {error}", {"error": str(problem)}
    )
    return ValidationError.from_exception_data(
        title, [InitErrorDetails(type=error, loc=(), input=data)]
    )


def _integral(value: Any) -> Any:
    """JSON Schema's integer includes 1.0 and 1e300: any number without a fraction."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integer = Annotated[int, BeforeValidator(_integral)]
"""A JSON Schema integer as a Python int, whichever way the document wrote it."""


def _literals(schema: Mapping[str, Any]) -> list[Any] | None:
    """The values of a field's `literal` schema (under its default and MISSING wrappers)."""
    while schema.get("type") in ("default", "missing-sentinel"):
        schema = schema["schema"]
    return list(schema["expected"]) if schema.get("type") == "literal" else None


class _Branch:
    """What rules a JSON object out of a model branch of a union for certain: the keys it
    requires, the keys it takes when it is closed (None when open), and its literal fields
    whose values are all strings or all booleans. Only what pydantic rejects in every mode
    counts (`Literal[True]` takes 1, `Literal[1]` takes True)."""

    def __init__(self, model: Mapping[str, Any]) -> None:
        fields_schema = model["schema"]
        config = model.get("config") or {}
        closed = (
            fields_schema.get("extra_behavior") or config.get("extra_fields_behavior")
        ) == "forbid"
        self.required: set[str] = set()
        accepted: set[str] = set()
        self.literals: dict[str, tuple[type, frozenset[Any]]] = {}
        for name, field in fields_schema["fields"].items():
            alias = field.get("validation_alias", name)
            if not isinstance(
                alias, str
            ):  # an alias path or choices: keys rule nothing out
                closed = False
                continue
            keys = {name, alias}
            accepted |= keys
            if len(keys) > 1:
                continue
            if field["schema"].get("type") not in ("default", "missing-sentinel"):
                self.required.add(alias)
            expected = _literals(field["schema"])
            kinds = {type(value) for value in expected or ()}
            if expected and len(kinds) == 1 and kinds <= {str, bool}:
                self.literals[alias] = (kinds.pop(), frozenset(expected))
        self.accepted = accepted if closed else None


def _tag(branches: list[_Branch]) -> tuple[str, type, list[frozenset[Any]]] | None:
    """A key every branch requires with literal values of one type, no value in two branches."""
    for key in sorted(set.intersection(*(b.required for b in branches))):
        found = [b.literals.get(key) for b in branches]
        kinds = {f[0] for f in found if f is not None}
        if all(found) and len(kinds) == 1:
            values = [f[1] for f in found if f is not None]
            if sum(map(len, values)) == len(frozenset().union(*values)):
                return key, kinds.pop(), values
    return None


def _marker(branches: list[_Branch]) -> str | None:
    """For two branches, a key one requires and the other, closed, refuses."""
    if len(branches) != 2:
        return None
    first, second = branches
    for key in sorted(first.required ^ second.required):
        refuser = second if key in first.required else first
        if refuser.accepted is not None and key not in refuser.accepted:
            return key
    return None


class _Undecided(Exception):
    """A value the fast build of a view does not take on: pydantic builds that one."""


class _Unsupported(Exception):
    """A core schema the fast build does not follow: pydantic builds every view of it."""


_ABSENT: Any = object()  # a member that is not there (the views and the builders)
_PLAIN_SCALARS = (type(None), bool, int, float, str)
_SCALAR_CHECKS = {
    "str": "str",
    "bool": "bool",
    "int": "int",
    "float": "float",
    "none": "type(None)",
}
# keys of a core schema that change nothing a valid value's view is built from
_NEUTRAL = frozenset({"type", "ref", "metadata", "serialization"})


class _Compiler:
    """Writes, once per class, the Python source of functions that build the view of a value
    the judge has accepted exactly as pydantic's validation builds it: the same classes at
    every level, the same values and types, fields set and extra members; without checking
    again what the judge has decided. A value it is not sure of raises `_Undecided`, and
    pydantic validates that document; a schema it does not know raises `_Unsupported`.
    """

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.definitions: dict[str, Any] = {}
        self._collect(schema)
        self.lines: list[str] = []
        self.tail: list[str] = []
        self.names: dict[str, Any] = {
            "_Undecided": _Undecided,
            "_ABSENT": _ABSENT,
            "_new": object.__new__,
        }
        self.built: dict[int, str] = {}  # id of a model schema -> its function's name
        self.root = self._value(schema)

    def _collect(self, node: Any) -> None:
        if isinstance(node, (list, tuple)):
            for item in node:
                self._collect(item)
        elif isinstance(node, dict):
            if (
                isinstance(node.get("ref"), str)
                and node.get("type") != "definition-ref"
            ):
                self.definitions[node["ref"]] = node
            for key, value in node.items():
                if key != "metadata":
                    self._collect(value)

    def _resolved(self, node: Any) -> Any:
        seen = 0
        while node.get("type") == "definition-ref":
            node, seen = self.definitions[node["schema_ref"]], seen + 1
            if seen > 64:
                raise _Unsupported("a reference to itself")
        return node

    def _constant(self, value: Any) -> str:
        name = f"_c{len(self.names)}"
        self.names[name] = value
        return name

    def _function(self, body: list[str]) -> str:
        name = f"_f{len(self.names)}"
        self.names[name] = None
        self.lines += [f"def {name}(v):", *(f"    {line}" for line in body), ""]
        return name

    def _value(self, node: Any) -> str:
        """The name of a function from a JSON value to its view under `node`."""
        node = self._resolved(node)
        if node.get("type") == "definitions":
            return self._value(node["schema"])
        if node.get("type") == "model":
            return self._model(node)
        return self._function([*self._convert(node, "v"), "return v"])

    def _callable(self, statements: list[str]) -> str:
        """A function of `v` that runs `statements`, or the one function they call."""
        called = (
            re.fullmatch(r"v = (\w+)\(v\)", statements[0])
            if len(statements) == 1
            else None
        )
        return called.group(1) if called else self._function([*statements, "return v"])

    def _convert(self, node: Any, var: str) -> list[str]:
        """Statements that turn `var`, a JSON value, into its view under `node` in place."""
        node = self._resolved(node)
        kind = node.get("type")
        if kind in ("definitions", "model"):
            return [f"{var} = {self._value(node)}({var})"]
        allowed = {
            "schema",
            "items_schema",
            "keys_schema",
            "values_schema",
            "choices",
            "expected",
            "function",
            "mode",
        }
        if set(node) - _NEUTRAL - allowed:
            raise _Unsupported(
                f"{kind} with constraints"
            )  # strict, lengths, bounds: pydantic's to check
        if kind == "any":
            return []
        if kind in _SCALAR_CHECKS:
            return [
                f"if type({var}) is not {_SCALAR_CHECKS[kind]}:",
                "    raise _Undecided",
            ]
        if kind == "literal":
            expected = list(node["expected"])
            if not all(type(value) in (str, bool, int) for value in expected):
                raise _Unsupported("a literal that is not a string, boolean or integer")
            kinds = {type(value) for value in expected}
            if len(kinds) == 1:
                table = self._constant(frozenset(expected))
                check = kinds.pop().__name__
                return [
                    f"if type({var}) is not {check} or {var} not in {table}:",
                    "    raise _Undecided",
                ]
            table = self._constant(
                frozenset((type(value), value) for value in expected)
            )
            return [f"if (type({var}), {var}) not in {table}:", "    raise _Undecided"]
        if kind == "function-before" and node["function"].get("function") is _integral:
            if (
                self._resolved(node["schema"]).get("type") != "int"
                or set(node["schema"]) - _NEUTRAL
            ):
                raise _Unsupported("an integer with constraints")
            return [
                f"if type({var}) is not int:",
                f"    if type({var}) is float and {var}.is_integer():",
                f"        {var} = int({var})",
                "    else:",
                "        raise _Undecided",
            ]
        if kind == "nullable":
            inner = self._convert(node["schema"], var)
            return [
                f"if {var} is not None:",
                *(f"    {line}" for line in inner or ["pass"]),
            ]
        if kind == "list":
            item = self._convert(node.get("items_schema", {"type": "any"}), "v")
            if not item:
                return [
                    f"if type({var}) is not list:",
                    "    raise _Undecided",
                    f"{var} = list({var})",
                ]
            convert = self._callable(item)
            return [
                f"if type({var}) is not list:",
                "    raise _Undecided",
                f"{var} = [{convert}(i) for i in {var}]",
            ]
        if kind == "dict":
            keys = self._resolved(node.get("keys_schema", {"type": "str"}))
            if keys.get("type") not in ("str", "any") or set(keys) - _NEUTRAL:
                raise _Unsupported("dict keys with constraints")
            # every key is a string: the judge has accepted the value as JSON
            value = self._convert(node.get("values_schema", {"type": "any"}), "v")
            if not value:
                return [
                    f"if type({var}) is not dict:",
                    "    raise _Undecided",
                    f"{var} = dict({var})",
                ]
            convert = self._callable(value)
            return [
                f"if type({var}) is not dict:",
                "    raise _Undecided",
                f"{var} = {{k: {convert}(i) for k, i in {var}.items()}}",
            ]
        if kind == "union":
            return [f"{var} = {self._union(node)}({var})"]
        raise _Unsupported(f"a {kind} schema")

    def _union(self, node: Mapping[str, Any]) -> str:
        choices = [
            self._resolved(c[0] if isinstance(c, tuple) else c) for c in node["choices"]
        ]
        if set(node) - _NEUTRAL - {"choices", "mode"}:
            raise _Unsupported("a union with options")
        scalars = {
            c["type"]
            for c in choices
            if c.get("type") in _SCALAR_CHECKS and not set(c) - _NEUTRAL
        }
        models = [
            c for c in choices if c.get("type") == "model" and not c.get("root_model")
        ]
        if len(models) + sum(c.get("type") in scalars for c in choices) != len(choices):
            raise _Unsupported("a union of other kinds")
        body = ["t = type(v)"]
        # a scalar of a branch's own type is that branch's exact match: smart mode keeps it as it is
        for kind in scalars:
            body += [f"if t is {_SCALAR_CHECKS[kind]}:", "    return v"]
        if models:
            builders = [self._model(model) for model in models]
            if len(models) == 1:
                body += ["if t is dict:", f"    return {builders[0]}(v)"]
            else:
                decide = self._constant(_decider([_Branch(model) for model in models]))
                table = self._constant(
                    None
                )  # the tuple of builders, once they are all defined
                self.tail.append(f"{table} = ({', '.join(builders)},)")
                body += ["if t is dict:", f"    return {table}[{decide}(v)](v)"]
        body.append("raise _Undecided")
        return self._function(body)

    def _model(self, node: Mapping[str, Any]) -> str:
        found = self.built.get(id(node))
        if found is not None:
            return found
        name = f"_m{len(self.names)}"
        self.names[name] = None
        self.built[id(node)] = name
        cls = node["cls"]
        if (
            node.get("custom_init")
            or node.get("post_init")
            or getattr(cls, "__private_attributes__", None)
        ):
            raise _Unsupported("a model with an initialiser or private attributes")
        new = self._constant(cls)
        if node.get("root_model"):
            root = self._value(node["schema"])
            body = [
                f"o = _new({new})",
                f"_osa(o, '__dict__', {{'root': {root}(v)}})",
                "_sf(o, {'root'})",
                "_se(o, None)",
                "_sp(o, None)",
            ]
            self.lines += [
                f"def {name}(v):",
                *(f"    {line}" for line in body),
                "    return o",
                "",
            ]
            return name
        fields_schema = self._resolved(node["schema"])
        config = node.get("config") or {}
        if fields_schema.get("type") != "model-fields" or fields_schema.get(
            "computed_fields"
        ):
            raise _Unsupported("model fields of another kind")
        extra = (
            fields_schema.get("extra_behavior")
            or config.get("extra_fields_behavior")
            or "ignore"
        )
        by_name = config.get("validate_by_name") or config.get("populate_by_name")
        if fields_schema.get("extras_schema") is not None or by_name:
            raise _Unsupported("extra members with a schema, or fields by name")
        body = ["if type(v) is not dict:", "    raise _Undecided"]
        keys: list[str] = []
        required: list[str] = []
        items: list[str] = []
        optional = False
        field_options = {
            "schema",
            "validation_alias",
            "serialization_alias",
            "serialization_exclude",
            "frozen",
        }
        for index, (field_name, field) in enumerate(fields_schema["fields"].items()):
            key = field.get("validation_alias", field_name)
            if not isinstance(key, str) or set(field) - _NEUTRAL - field_options:
                raise _Unsupported("a field with an alias path or options")
            keys.append(key)
            schema = field["schema"]
            default: Any = _ABSENT
            while schema.get("type") in ("default", "missing-sentinel"):
                if schema["type"] == "default":
                    if (
                        set(schema) - _NEUTRAL - {"schema", "default"}
                        or "default" not in schema
                    ):
                        raise _Unsupported("a default that is not a value")
                    default = schema["default"]
                schema = schema["schema"]
            var = f"x{index}"
            items.append(f"{field_name!r}: {var}")
            convert = self._convert(schema, var)
            body.append(f"{var} = v.get({key!r}, _ABSENT)")
            if default is _ABSENT:
                required.append(field_name)
                body += [f"if {var} is _ABSENT:", "    raise _Undecided", *convert]
                continue
            optional = True
            if default is MISSING or type(default) in _PLAIN_SCALARS:
                fill = self._constant(default)
            else:  # pydantic gives each instance a copy of a default that is not hashable
                self.names["_deepcopy"] = copy.deepcopy
                fill = f"_deepcopy({self._constant(default)})"
            body += [
                f"if {var} is _ABSENT:",
                f"    {var} = {fill}",
                "else:",
                *(f"    {line}" for line in convert),
                f"    s.add({field_name!r})",
            ]
        body.insert(
            2, f"s = {{{', '.join(map(repr, required))}}}" if required else "s = set()"
        )
        known = self._constant(frozenset(keys))
        given = "len(s)" if optional else str(len(required))
        if extra == "allow":
            body.append(
                f"e = {{k: i for k, i in v.items() if k not in {known}}} if len(v) != {given} else {{}}"
            )
            body.append(
                "s.update(e)"
            )  # pydantic counts extra members among the fields set
        else:
            if extra == "forbid":
                body += [f"if len(v) != {given}:", "    raise _Undecided"]
            body.append("e = None")
        made = f"{{{', '.join(items)}}}"
        body += [
            f"o = _new({new})",
            f"_osa(o, '__dict__', {made})",
            "_sf(o, s)",
            "_se(o, e)",
            "_sp(o, None)",
            "return o",
        ]
        self.lines += [f"def {name}(v):", *(f"    {line}" for line in body), ""]
        return name

    def build(self) -> Callable[[Any], Any]:
        slots = BaseModel.__dict__
        namespace = {
            **self.names,
            "_osa": object.__setattr__,
            "_sf": slots["__pydantic_fields_set__"].__set__,
            "_se": slots["__pydantic_extra__"].__set__,
            "_sp": slots["__pydantic_private__"].__set__,
        }
        exec(
            compile(
                "\n".join(self.lines + self.tail),
                "<mcp-contracts view builder>",
                "exec",
            ),
            namespace,
        )
        built: Callable[[Any], Any] = namespace[self.root]
        return built


def _decider(branches: list[_Branch]) -> Callable[[dict[str, Any]], int]:
    """Which model branch of a union a JSON object fits: by a tag, or by a marker key for
    two closed branches; `_Undecided` when nothing says it for certain."""
    tag = _tag(branches)
    if tag is not None:
        key, kind, values = tag
        table = {
            (kind, value): index
            for index, found in enumerate(values)
            for value in found
        }

        def by_tag(value: dict[str, Any]) -> int:
            found = value.get(key, _ABSENT)
            index = table.get((type(found), found))
            if index is None:
                raise _Undecided
            return index

        return by_tag
    marker = _marker(branches)
    if marker is not None:
        present = 0 if marker in branches[0].required else 1

        def by_marker(value: dict[str, Any]) -> int:
            return present if marker in value else 1 - present

        return by_marker

    def undecided(value: dict[str, Any]) -> int:
        raise _Undecided

    return undecided


def _view_builder(model: Any) -> Callable[[Any], Any] | None:
    """The function that builds `model`'s view of a judged value, or None where pydantic must."""
    if not model.__pydantic_complete__:
        model.model_rebuild()
    try:
        return _Compiler(model.__pydantic_core_schema__).build()
    except _Unsupported:
        return None


class _Judged:
    """`model_validate` and `model_validate_json`: the judge first, then the typed view.

    `bind` sets the judge and the location of the class's own schema, so that a class
    used alone judges by its own subschema, and publishes it as its JSON Schema.
    Construction by keywords builds a view only.
    """

    __judge__: ClassVar[Judge]
    __location__: ClassVar[str]
    __published__: ClassVar[Published | None] = None
    __view__: ClassVar[Callable[[Any], Any] | None]
    __fast__: ClassVar[tuple[Callable[[Any], bool], Callable[[Any], Any] | None]]

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler, /
    ) -> JsonSchemaValue:
        """The contract's schema of the class, not one pydantic derives from its fields."""
        if cls.__published__ is None:
            return handler(core_schema)
        document = cls.__published__.document(cls.__location__)
        _let_through(handler, document)
        return document

    @classmethod
    def _judge(cls) -> Judge:
        judge: Judge | None = getattr(cls, "__judge__", None)
        if judge is None:
            raise TypeError(
                f"{cls.__name__} has no judge: import it through its contract package"
            )
        return judge

    @classmethod
    def _judged(cls, value: Any) -> None:
        cls._judge().check(value, cls.__location__, cls.__name__)

    @classmethod
    def _view(cls) -> Callable[[Any], Any] | None:
        """The function that builds this class's view of a judged value, made on first use."""
        if "__view__" not in cls.__dict__:
            cls.__view__ = _view_builder(cls)
        return cls.__view__

    @classmethod
    def _fast(cls) -> tuple[Callable[[Any], bool], Callable[[Any], Any] | None]:
        """The compiled validator's `is_valid` of the class's location, and its view builder."""
        found: tuple[Callable[[Any], bool], Callable[[Any], Any] | None] | None = (
            cls.__dict__.get("__fast__")
        )
        if found is None:
            found = cls.__fast__ = (
                cls._judge().validator(cls.__location__).is_valid,
                cls._view(),
            )
        return found

    @classmethod
    def _built(
        cls, value: Any, options: Mapping[str, Any], view: Callable[[Any], Any] | None
    ) -> Self:
        """The view of a judged value: built at once by `view` where nothing is left to
        decide, else by pydantic's validation."""
        if view is not None and not options:
            try:
                built: Self = view(value)
                return built
            except _Undecided:
                pass
        if options.get("by_name") or options.get("by_alias") is False:
            # the judge read the document's members by the schema's names: so does the view
            raise TypeError(
                f"{cls.__name__} reads a document by the schema's property names only: by_name=True and"
                " by_alias=False would read a member `from_` as the property `from`"
            )
        return super().model_validate(value, **options)  # type: ignore[misc, no-any-return]

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Self:
        if isinstance(obj, BaseModel):
            obj = obj.model_dump(mode="json", by_alias=True)
        cls._judged(obj)
        return cls._built(obj, options, cls._fast()[1])

    @classmethod
    def model_validate_json(
        cls, json_data: str | bytes | bytearray, **options: Any
    ) -> Self:
        # The hot path, kept short: read, judge, build; anything else takes the long way.
        is_valid, view = cls.__dict__.get("__fast__") or cls._fast()
        try:
            value = _decode(json_data)
        except (ValueError, RecursionError):
            try:
                value = parse_json(json_data)
            except NotJson as problem:
                raise _not_json(cls.__name__, problem, json_data) from None
        if not is_valid(value):
            cls._judge().refuse(value, cls.__location__, cls.__name__)
        return cls._built(value, options, view)


# A field whose property is no Python name (`from`, `retry-after`, `model_dump`) has that
# property as its alias. Documents give and take the schema's names, never the fields':
# every dump writes the aliases unless told `by_alias=False`, and validation reads the
# aliases only, so a member `from_` of an open object stays an extra member `from_`.
_JSON_NAMES = ConfigDict(
    serialize_by_alias=True, validate_by_alias=True, validate_by_name=False
)


class JudgedModel(_Judged, BaseModel):
    """A generated object model: it accepts exactly what its schema accepts."""

    # A property may be called anything (`model_dump`, `schema`): its field takes a name
    # with `_` appended, which pydantic would otherwise warn about on import.
    # Its validator and serializer are built on first use, not when the module is imported.
    model_config = ConfigDict(protected_namespaces=(), defer_build=True, **_JSON_NAMES)


RootT = TypeVar("RootT")


class JudgedRootModel(_Judged, RootModel[RootT], Generic[RootT]):
    """A generated model whose value is not one object: a union, a list or a scalar."""

    model_config = ConfigDict(defer_build=True, **_JSON_NAMES)


def bind(
    judge: Judge,
    locations: Mapping[type[_Judged], str],
    published: Published | None = None,
) -> None:
    """Give each generated model the judge and the location of its own schema, and the
    schemas it publishes."""
    for model, location in locations.items():
        model.__judge__ = judge
        model.__location__ = location
        model.__published__ = published
        if "__fast__" in model.__dict__:
            del model.__fast__


Path = tuple[str, ...]
"""The reference tokens of a JSON pointer, unescaped: `("errors", "0", "code")` is
`/errors/0/code`. The generated builders hold their pointers split once, as paths."""

Placements = tuple[tuple[Path, Any], ...]
"""(path, value): what a builder puts where, in order."""

_CONTAINERS = (
    dict,
    list,
)  # a value of these types is copied into each document that gets it
# What a token of a `Filling` leads to: a container on the way, a value, a slot, a default.
_NODE, _VALUE, _SLOT, _DEFAULT = range(4)


def plain(value: Any) -> Any:
    """A catalogue value as JSON has it: an enum member's value, anything else as it is."""
    return value.value if isinstance(value, Enum) else value


def catalogue_values(
    catalogue: Mapping[Any, Any], derived: tuple[tuple[Path, str], ...]
) -> dict[str, tuple[Any, ...]]:
    """For each code of a catalogue (`ERRORS`): its value, then the value of each column of
    `derived` (path, column) for it, as JSON has them. Made once, at import, so that an
    error builder's call looks its code up once; the keys are the codes' values, which
    their enum members (`StrEnum`) find too."""
    return {
        plain(code): (
            plain(code),
            *(plain(getattr(info, column)) for _, column in derived),
        )
        for code, info in catalogue.items()
    }


class Filling:
    """What a builder puts into the members its caller gave, compiled once from paths.

    `placements` are (path, value); `slots` are paths whose values each call gives, in
    order (one given as `MISSING` is left out); `defaults` are (path, value) put where
    nothing is, inside an object that is there. Of two at the same path, the later is
    kept (a slot for the code replaces the constant a schema of one code has there). The
    paths are compiled into a tree of the objects and arrays on the way, so that a call
    walks each once.
    """

    __slots__ = ("_root",)

    def __init__(
        self,
        placements: Placements = (),
        slots: tuple[Path, ...] = (),
        defaults: Placements = (),
    ) -> None:
        root: dict[str, Any] = {}
        leaves = [
            *((path, _VALUE, value) for path, value in placements),
            *((path, _SLOT, index) for index, path in enumerate(slots)),
            *((path, _DEFAULT, value) for path, value in defaults),
        ]
        for path, kind, payload in leaves:
            if not path:
                raise ValueError("a builder puts nothing at the whole document's place")
            node = root
            for token in path[:-1]:
                node = node.setdefault(token, {})
                if not isinstance(node, dict):
                    raise ValueError(
                        f"{json_pointer(path)} is inside a value the builder puts"
                    )
            if isinstance(node.get(path[-1]), dict):
                raise ValueError(f"{json_pointer(path)} holds values the builder puts")
            node[path[-1]] = (
                kind,
                payload,
            )  # a later one at the same path replaces an earlier
        self._root = _compiled(root)

    def fill(
        self,
        members: Mapping[str, Any],
        *values: Any,
        extra: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The document of the members a builder's caller gave, with every value put at
        its path, a value for each slot.

        `members` are the builder's keyword parameters (those left at `MISSING` are left
        out); `extra` the members that are not. Only the objects and arrays on the paths
        are copied, or made where they are missing (an array where the next token is an
        index, an object otherwise): nothing the caller gave is changed, and nothing off
        the paths is copied. A value already there that differs is a ValueError naming
        its pointer, not overwritten.
        """
        if extra:
            members = {**extra, **members}
        document = {
            key: value for key, value in members.items() if value is not MISSING
        }
        _merge(document, self._root, values)
        return document


_Items = tuple[tuple[str, int, Any, Path], ...]


def _compiled(tree: dict[str, Any], path: Path = ()) -> _Items:
    """(token, kind, payload, path) of each entry of a tree; a container's payload is (its
    items, whether a value or slot is inside it (not only defaults), and None for an object,
    or for an array whether the builder can make it: its indexes are 0, 1... in turn).
    """
    items = []
    for token, entry in tree.items():
        at = (*path, token)
        if isinstance(entry, dict):
            inside = _compiled(entry, at)
            placed = any(
                kind != _DEFAULT if kind != _NODE else payload[1]
                for _, kind, payload, _ in inside
            )
            tokens = list(entry)
            array = _is_index(tokens[0]) and tokens == [
                str(index) for index in range(len(tokens))
            ]
            items.append(
                (
                    token,
                    _NODE,
                    (inside, placed, array if _is_index(tokens[0]) else None),
                    at,
                )
            )
        else:
            items.append((token, *entry, at))
    return tuple(items)


def _merge(node: Any, items: _Items, values: tuple[Any, ...]) -> None:
    """Put `items` into `node`, a container of the document's own (made or copied here)."""
    in_object = type(node) is dict
    for token, kind, payload, path in items:
        if in_object:
            key: Any = token
            found = node.get(token, _ABSENT)
        elif kind == _DEFAULT or (
            kind == _NODE and not payload[1]
        ):  # only defaults: nothing is made
            key = int(token) if _is_index(token) else len(node)
            if key >= len(node):
                continue
            found = node[key]
        else:
            key = _index(node, path)
            found = node[key] if key < len(node) else _ABSENT
        if kind == _NODE:
            inside, placed, array = payload
            if found is _ABSENT:
                if not placed:
                    continue  # defaults go only into an object that is there
                value = _made(inside, values, array)
                if not value:
                    continue  # every slot inside was left out
            else:
                if isinstance(found, Mapping):
                    value = dict(found)
                elif isinstance(found, (list, tuple)):
                    value = list(found)
                elif placed:
                    raise ValueError(
                        f"{json_pointer(path)} is {found!r}: the builder puts values inside it,"
                        " in an object or an array"
                    )
                else:
                    continue
                _merge(value, inside, values)
        else:
            value = values[payload] if kind == _SLOT else payload
            if value is MISSING:
                continue
            if found is not _ABSENT:
                if kind != _DEFAULT and (
                    found != value or type(found) is not type(value)
                ):
                    raise ValueError(
                        f"{json_pointer(path)} is {value!r} in this contract, not {found!r}"
                    )
                continue
            if type(value) in _CONTAINERS:
                value = copy.deepcopy(value)
        if in_object or key < len(node):
            node[key] = value
        else:
            node.append(value)


def _made(items: _Items, values: tuple[Any, ...], array: bool | None) -> Any:
    """A new container of `items`, where nothing was: an array (when `array` is not None)
    only of the indexes 0, 1... in turn."""
    made: Any = {}
    for token, kind, payload, _ in items:
        if kind == _NODE:
            inside, placed, inner = payload
            if not placed:
                continue
            value = _made(inside, values, inner)
            if not value:
                continue
        else:
            value = values[payload] if kind == _SLOT else payload
            if value is MISSING:
                continue
            if type(value) in _CONTAINERS:
                value = copy.deepcopy(value)
        made[token] = value
    if array is None:
        return made
    if not array or (
        len(made) < len(items)
        and list(made) != [str(index) for index in range(len(made))]
    ):
        raise ValueError(
            f"{json_pointer(items[0][3][:-1])} cannot be made: the indexes of an array go 0, 1..."
        )
    return list(made.values())


def _index(array: list[Any], path: Path) -> int:
    """The index the last token of `path` names in `array`: at most one past its end."""
    token = path[-1]
    if _is_index(token) and int(token) <= len(array):
        return int(token)
    raise ValueError(
        f"{json_pointer(path)} cannot be filled: {json_pointer(path[:-1])} is an array of {len(array)},"
        f" and {token!r} is not an index of it or the next one"
    )


def _is_index(token: str) -> bool:
    return token.isascii() and token.isdigit()
