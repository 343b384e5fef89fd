"""The runtime of generated contracts: the schema as the judge, models as typed views.

A contract's schema, bundled with every resource it refers to, is compiled by
jsonschema-rs (a conforming, compiled validator) into a `Judge`. The generated models
inherit `JudgedModel` or `JudgedRootModel`: `model_validate` and `model_validate_json`
ask the judge first, so they accept exactly what the schema accepts, then build the
typed view, which is never stricter than the schema. Their JSON Schema
(`model_json_schema()`, pydantic's `TypeAdapter`, what the MCP SDK publishes as a tool's
`outputSchema`) is the contract's own, from the package's `published.json`.

This module is the generator's own and is copied (black-formatted) into every generated
package as `_runtime.py`: generated code needs pydantic, jsonschema-rs and msgspec, and
not the generator. It must import nothing else.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from typing import Annotated, Any, ClassVar, Generic, Self, TypeVar

import jsonschema_rs
import msgspec
from pydantic import MISSING, BaseModel, BeforeValidator, ConfigDict, GetJsonSchemaHandler, RootModel, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, InitErrorDetails, PydanticCustomError

_BOM = b"\xef\xbb\xbf"
_LOCATION_BASE = "urn:mcp-contracts:location"
_DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
NOT_A_JSON_VALUE = "not a JSON value: "
_MAX_MESSAGE = 200


class NotJson(ValueError):
    """Bytes that are not one JSON document; the message says why."""


_decode = msgspec.json.Decoder().decode


def parse_json(data: bytes | bytearray | memoryview | str) -> Any:
    """One JSON document (RFC 8259), every integer exact: no BOM, no NaN or Infinity.

    msgspec reads as fast as orjson and, unlike it, keeps integers beyond 64 bits exact.
    """
    try:
        return _decode(data)
    except (ValueError, RecursionError) as exc:  # msgspec.DecodeError and UnicodeError are ValueErrors
        raise NotJson(_json_problem(data, exc)) from None


def _json_problem(data: bytes | bytearray | memoryview | str, error: Exception) -> str:
    """What is wrong with a text that is not JSON, located by line and column where it can be."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if isinstance(error, RecursionError):
        return "nested too deeply: more arrays and objects inside each other than the parser can follow"
    if isinstance(error, (UnicodeDecodeError, UnicodeEncodeError)):
        return f"not valid UTF-8: {error.reason}"
    if raw.startswith(_BOM):
        return "starts with a UTF-8 byte order mark, which JSON text must not have"
    if not raw.strip(b" \t\r\n"):
        return "empty: a JSON document holds one value"
    message = str(error)
    lone = lone_surrogate(raw) if message == "Input data was truncated" or "surrogate" in message else None
    if lone is not None:  # msgspec says "truncated" for a high half that nothing follows
        line, column = _line_and_column(raw, lone)
        escape = raw[lone : lone + 6].decode("ascii")
        return (
            f"a lone surrogate escape {escape} at line {line}, column {column}: half of a UTF-16 pair, not a character"
        )
    if message.startswith("Integer value out of range"):
        return "an integer too long to read (Python reads integers of at most 4,300 digits)"
    if message == "Input data was truncated":
        line, column = _line_and_column(raw, len(raw))
        return f"unexpected end of data at line {line}, column {column}: a string, array or object is not closed"
    offset = re.search(r"\(byte (\d+)\)$", message)
    if offset is None:
        return message
    at = int(offset.group(1)) - message.startswith("JSON is malformed: trailing")  # msgspec counts past it
    line, column = _line_and_column(raw, at)
    what = message[: offset.start()].removeprefix("JSON is malformed: ").rstrip()
    if raw.startswith((b"NaN", b"Infinity", b"-Infinity"), at):
        what = "NaN and Infinity are not JSON numbers"
    return f"{what} at line {line}, column {column}"


_ESCAPE = re.compile(rb"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


def lone_surrogate(raw: bytes) -> int | None:
    """The byte offset of the first `\\uD800`..`\\uDFFF` escape of a JSON text that is not
    one half of a pair (a high half followed at once by a low half), or None."""
    waiting, end = None, -1  # the offset of a high half, and where the escape before ended
    for escape in _ESCAPE.finditer(raw):
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
    return raw.count(b"\n", 0, at) + 1, len(raw[line_start:at].decode("utf-8", "replace")) + 1


def short(message: str) -> str:
    """A message cut to a readable length: some quote whole instances."""
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."


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


def _branch_score(errors: list[jsonschema_rs.ValidationError], depth: int) -> tuple[bool, bool, int, int]:
    """Lower is likelier the branch meant: the type fits, the tag (a const) matches, few
    errors, deep ones. `depth` is the length of the branching value's path."""
    wrong_type = any(e.kind.name == "type" and len(e.instance_path) == depth for e in errors)
    tag_missed = any(e.kind.name in ("const", "enum") for e in errors)
    return (wrong_type, tag_missed, len(errors), -max(len(e.instance_path) for e in errors))


def _specific(error: jsonschema_rs.ValidationError) -> Iterator[jsonschema_rs.ValidationError]:
    """For a failed oneOf/anyOf, the errors of the branch the document most likely meant."""
    branches = getattr(error.kind, "context", None)
    if error.kind.name in ("oneOf", "anyOf") and branches and all(branches):
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
        return [Violation((*path, key), short(f"{key!r} is not allowed here ({what} property)")) for key in unexpected]
    return [Violation(path, short(error.message))]


_DIALECTS = {
    "draft-04": jsonschema_rs.Draft4,
    "draft-06": jsonschema_rs.Draft6,
    "draft-07": jsonschema_rs.Draft7,
    "draft/2019-09": jsonschema_rs.Draft201909,
    "draft/2020-12": jsonschema_rs.Draft202012,
}


def dialect(schema: Any) -> int | None:
    """The draft a schema's `$schema` names, when it names a standard one."""
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    if isinstance(declared, str) and "json-schema.org/" in declared:
        return next((draft for name, draft in _DIALECTS.items() if name in declared), None)
    return None


class Judge:
    """The validators of one bundled schema, compiled on first use, one per location.

    `resources` maps each URI to a schema resource: the contract's schema and everything
    it refers to, so that nothing is fetched. A location is a URI with a JSON pointer
    fragment, such as `json-schema:///envelope.schema.json#/$defs/Meta`.
    """

    def __init__(self, root: str, resources: Mapping[str, Any], *, formats: bool = False) -> None:
        self.root = root
        self.resources = resources
        self.formats = formats
        self._validators: dict[str, jsonschema_rs.Validator] = {}
        self._registry: jsonschema_rs.Registry | None = None

    @classmethod
    def from_bundle(cls, bundle: Mapping[str, Any]) -> Judge:
        """A judge of a bundle as `generate` writes it: `root`, `formats`, `resources`."""
        return cls(bundle["root"], bundle["resources"], formats=bundle["formats"])

    @classmethod
    def from_package(cls, package: str, name: str = "schema.json") -> Judge:
        """The judge of a generated contract package, from its bundled schema file."""
        return cls.from_bundle(json.loads(resources.files(package).joinpath(name).read_bytes()))

    def validator(self, location: str = "") -> jsonschema_rs.Validator:
        """The compiled validator of the schema at `location` ("" is the root)."""
        found = self._validators.get(location)
        if found is None:
            found = self._validators[location] = self._compile(location)
        return found

    def _compile(self, location: str) -> jsonschema_rs.Validator:
        root = self.resources[self.root]
        if self._registry is None:  # a resource without `$schema` is read in the root's dialect
            self._registry = jsonschema_rs.Registry(sorted(self.resources.items()), draft=dialect(root))
        schema: Any = root
        base = self.root
        if location:  # a schema of its own that refers to the location, under a base of its own
            schema, base = {"$ref": location}, _LOCATION_BASE
            if isinstance(root, dict) and "$schema" in root:
                schema["$schema"] = root["$schema"]
        return jsonschema_rs.validator_for(
            schema,
            registry=self._registry,
            base_uri=base,
            validate_formats=self.formats,
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
        found = {v for error in errors for specific in _specific(error) for v in _violations(specific)}
        return sorted(found, key=lambda v: (tuple(map(str, v.path)), v.message))

    def check(self, instance: Any, location: str, title: str) -> None:
        """Raise pydantic's ValidationError, one line per violation, unless `instance` is valid."""
        try:
            if self.is_valid(instance, location):
                return
        except ValueError:
            pass  # not JSON: `violations` says so
        raise ValidationError.from_exception_data(
            title,
            [
                InitErrorDetails(
                    type=PydanticCustomError("json_schema", "{message}", {"message": v.message}),
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
    which it embeds under `$defs`. Each is a new copy, for the caller to keep or change."""

    def __init__(self, package: str, name: str = "published.json") -> None:
        self.package = package
        self.name = name
        self._published: Mapping[str, Any] | None = None

    def document(self, location: str) -> dict[str, Any]:
        """The schema a class bound to `location` publishes; KeyError for an unknown one."""
        if self._published is None:
            self._published = json.loads(resources.files(self.package).joinpath(self.name).read_bytes())
        schema = self._published["schema"]
        head = self._published["classes"][location]
        if head is None:
            return copy.deepcopy(schema)
        return {"$schema": _DRAFT_2020_12, **head, "$defs": {schema["$id"]: copy.deepcopy(schema)}}


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
                setattr(generator, walk, _registering(generator, references, getattr(generator, walk)))
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
    error = PydanticCustomError("json_invalid", "Invalid JSON: {error}", {"error": str(problem)})
    return ValidationError.from_exception_data(title, [InitErrorDetails(type=error, loc=(), input=data)])


def _integral(value: Any) -> Any:
    """JSON Schema's integer includes 1.0 and 1e300: any number without a fraction."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integer = Annotated[int, BeforeValidator(_integral)]
"""A JSON Schema integer as a Python int, whichever way the document wrote it."""


class _Judged:
    """`model_validate` and `model_validate_json`: the judge first, then the typed view.

    `bind` sets the judge and the location of the class's own schema, so that a class
    used alone judges by its own subschema, and publishes it as its JSON Schema.
    Construction by keywords builds a view only.
    """

    __judge__: ClassVar[Judge]
    __location__: ClassVar[str]
    __published__: ClassVar[Published | None] = None

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler, /) -> JsonSchemaValue:
        """The contract's schema of the class, not one pydantic derives from its fields."""
        if cls.__published__ is None:
            return handler(core_schema)
        document = cls.__published__.document(cls.__location__)
        _let_through(handler, document)
        return document

    @classmethod
    def _judged(cls, value: Any) -> None:
        judge = getattr(cls, "__judge__", None)
        if judge is None:
            raise TypeError(f"{cls.__name__} has no judge: import it through its contract package")
        judge.check(value, cls.__location__, cls.__name__)

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Self:
        if isinstance(obj, BaseModel):
            obj = obj.model_dump(mode="json", by_alias=True)
        cls._judged(obj)
        return super().model_validate(obj, **options)  # type: ignore[misc, no-any-return]

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray, **options: Any) -> Self:
        try:
            value = parse_json(json_data)
        except NotJson as problem:
            raise _not_json(cls.__name__, problem, json_data) from None
        cls._judged(value)
        return super().model_validate(value, **options)  # type: ignore[misc, no-any-return]


class JudgedModel(_Judged, BaseModel):
    """A generated object model: it accepts exactly what its schema accepts."""

    # A property may be called anything (`model_dump`, `schema`): its field takes a name
    # with `_` appended, which pydantic would otherwise warn about on import.
    model_config = ConfigDict(protected_namespaces=())


RootT = TypeVar("RootT")


class JudgedRootModel(_Judged, RootModel[RootT], Generic[RootT]):
    """A generated model whose value is not one object: a union, a list or a scalar."""


def bind(judge: Judge, locations: Mapping[type[_Judged], str], published: Published | None = None) -> None:
    """Give each generated model the judge and the location of its own schema, and the
    schemas it publishes."""
    for model, location in locations.items():
        model.__judge__ = judge
        model.__location__ = location
        model.__published__ = published


Path = tuple[str, ...]
"""The reference tokens of a JSON pointer, unescaped: `("errors", "0", "code")` is
`/errors/0/code`. The generated builders hold their pointers split once, as paths."""

Placements = tuple[tuple[Path, Any], ...]
"""(path, value): what a builder puts where, in order."""

_ABSENT: Any = object()
_CONTAINERS = (dict, list)  # a value of these types is copied into each document that gets it
# What a token of a `Filling` leads to: a container on the way, a value, a slot, a default.
_NODE, _VALUE, _SLOT, _DEFAULT = range(4)


def plain(value: Any) -> Any:
    """A catalogue value as JSON has it: an enum member's value, anything else as it is."""
    return value.value if isinstance(value, Enum) else value


def catalogue_values(catalogue: Mapping[Any, Any], derived: tuple[tuple[Path, str], ...]) -> dict[str, tuple[Any, ...]]:
    """For each code of a catalogue (`ERRORS`): its value, then the value of each column of
    `derived` (path, column) for it, as JSON has them. Made once, at import, so that an
    error builder's call looks its code up once; the keys are the codes' values, which
    their enum members (`StrEnum`) find too."""
    return {
        plain(code): (plain(code), *(plain(getattr(info, column)) for _, column in derived))
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

    def __init__(self, placements: Placements = (), slots: tuple[Path, ...] = (), defaults: Placements = ()) -> None:
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
                    raise ValueError(f"{json_pointer(path)} is inside a value the builder puts")
            if isinstance(node.get(path[-1]), dict):
                raise ValueError(f"{json_pointer(path)} holds values the builder puts")
            node[path[-1]] = (kind, payload)  # a later one at the same path replaces an earlier
        self._root = _compiled(root)

    def fill(self, members: Mapping[str, Any], *values: Any, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
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
        document = {key: value for key, value in members.items() if value is not MISSING}
        _merge(document, self._root, values)
        return document


_Items = tuple[tuple[str, int, Any, Path], ...]


def _compiled(tree: dict[str, Any], path: Path = ()) -> _Items:
    """(token, kind, payload, path) of each entry of a tree; a container's payload is (its
    items, whether a value or slot is inside it (not only defaults), and None for an object,
    or for an array whether the builder can make it: its indexes are 0, 1... in turn)."""
    items = []
    for token, entry in tree.items():
        at = (*path, token)
        if isinstance(entry, dict):
            inside = _compiled(entry, at)
            placed = any(kind != _DEFAULT if kind != _NODE else payload[1] for _, kind, payload, _ in inside)
            tokens = list(entry)
            array = _is_index(tokens[0]) and tokens == [str(index) for index in range(len(tokens))]
            items.append((token, _NODE, (inside, placed, array if _is_index(tokens[0]) else None), at))
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
        elif kind == _DEFAULT or (kind == _NODE and not payload[1]):  # only defaults: nothing is made
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
                if kind != _DEFAULT and (found != value or type(found) is not type(value)):
                    raise ValueError(f"{json_pointer(path)} is {value!r} in this contract, not {found!r}")
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
    if not array or (len(made) < len(items) and list(made) != [str(index) for index in range(len(made))]):
        raise ValueError(f"{json_pointer(items[0][3][:-1])} cannot be made: the indexes of an array go 0, 1...")
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
