"""The judge: a contract's schema, bundled with every resource it refers to, compiled by
jsonschema-rs (a conforming, compiled validator), one validator per location, on first use;
its verdict, and every way a document breaks the schema, most specific first."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from .json_text import NOT_A_JSON_VALUE, json_pointer, package_json, short

if TYPE_CHECKING:
    import jsonschema_rs

_LOCATION_BASE = "urn:mcp-contracts:location"


@dataclass(frozen=True, slots=True)
class Violation:
    """One way a document breaks the schema: where in the document, and what."""

    path: tuple[str | int, ...]
    message: str

    @property
    def pointer(self) -> str:
        return json_pointer(self.path)


Found = tuple[tuple[str | int, ...], str]
"""A violation as a path and a message, before it is a `Violation` or a line of pydantic's error."""

_BRANCHING = frozenset(("oneOf", "anyOf"))


def schema_violations(validators: dict[Any, Any], key: Any, schema: Any, document: Any) -> list[Violation]:
    """Every way `document` breaks a schema of its own (a tool's `outputSchema`, its text's
    schema), compiled once: its validator is kept in `validators` under `key`."""
    validator = validators.get(key)
    if validator is None:
        import jsonschema_rs

        validator = validators[key] = jsonschema_rs.validator_for(schema)
    try:
        return [Violation(tuple(e.instance_path), e.message) for e in validator.iter_errors(document)]
    except ValueError as exc:  # a Python value that is no JSON
        return [Violation((), f"{NOT_A_JSON_VALUE}{exc}")]


def _branch_score(errors: list[jsonschema_rs.ValidationError], depth: int) -> tuple[bool, bool, int, int]:
    """Lower is likelier the branch meant: the type fits, the tag (a const) matches, few
    errors, deep ones. `depth` is the length of the branching value's path."""
    wrong_type = tag_missed = False
    deepest = 0
    for error in errors:  # each attribute read builds a Python object: once each
        name = error.kind.name
        length = len(error.instance_path)
        if name == "type":
            wrong_type = wrong_type or length == depth
        elif name in ("const", "enum"):
            tag_missed = True
        deepest = max(deepest, length)
    return (wrong_type, tag_missed, len(errors), -deepest)


def _specific(error: jsonschema_rs.ValidationError, into: list[jsonschema_rs.ValidationError]) -> None:
    """Put into `into` the error, or for a failed oneOf/anyOf the errors of the branch the
    document most likely meant (the first of the lowest score)."""
    kind = error.kind
    branches = getattr(kind, "context", None) if kind.name in _BRANCHING else None
    if branches and all(branches):
        depth = len(error.instance_path)
        best, lowest = branches[0], _branch_score(branches[0], depth)
        for branch in branches[1:]:  # `min` by a key, without a lambda call per branch
            score = _branch_score(branch, depth)
            if score < lowest:
                best, lowest = branch, score
        for sub in best:
            _specific(sub, into)
        return
    into.append(error)


def _located(error: jsonschema_rs.ValidationError) -> list[Found]:
    """The violations of one engine error, each at the member it is about: a missing
    required property, or each property that is not allowed."""
    path = tuple(error.instance_path)
    kind = error.kind
    name = kind.name
    if name == "required":
        return [((*path, kind.property), short(error.message))]  # type: ignore[attr-defined]
    if name in ("additionalProperties", "unevaluatedProperties"):
        what = "additional" if name == "additionalProperties" else "unevaluated"
        unexpected = kind.unexpected  # type: ignore[attr-defined]
        return [((*path, key), short(f"{key!r} is not allowed here ({what} property)")) for key in unexpected]
    return [(path, short(error.message))]


def _order(found: Found) -> tuple[tuple[str, ...], str]:
    return tuple(map(str, found[0])), found[1]


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

        found = next((draft for name, draft in _DIALECTS.items() if name in declared), None)
        return None if found is None else int(getattr(jsonschema_rs, found))
    return None


class _Annotation:
    """`contentMediaType` and `contentEncoding` read as annotations. Draft-07 lets a validator
    assert them or not, and jsonschema-rs does; the TypeScript judge, 2020-12 and the clients
    that judge a published schema (ajv, python-jsonschema) do not. One verdict per contract:
    no judge asserts them (the generator's `schema.engine.CONTENT_ANNOTATIONS` says the same)."""

    def __init__(self, parent_schema: Any, value: Any, schema_path: Any) -> None:
        pass

    def validate(self, instance: Any) -> None:
        return None


CONTENT_ANNOTATIONS: dict[str, Any] = {"contentMediaType": _Annotation, "contentEncoding": _Annotation}


def _has_key(value: Any, keys: Iterable[str]) -> bool:
    """Whether a member named one of `keys` is in any object inside `value` (a keyword, or a
    property so named: either way the keywords are given)."""
    wanted = frozenset(keys)
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not wanted.isdisjoint(item):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class Judge:
    """The validators of one bundled schema, compiled on first use, one per location.

    `resources` maps each URI to a schema resource: the contract's schema and everything
    it refers to, so that nothing is fetched. A location is a URI with a JSON pointer
    fragment, such as `json-schema:///envelope.schema.json#/$defs/Meta`.
    """

    def __init__(self, root: str, resources: Mapping[str, Any], *, formats: bool = False) -> None:
        self._root = root
        self._resources = resources
        self._formats = formats
        self._bundle: Callable[[], Mapping[str, Any]] | None = None
        self._validators: dict[str, jsonschema_rs.Validator] = {}
        self._registry: jsonschema_rs.Registry | None = None
        self._keywords: dict[str, Any] | None = None

    @classmethod
    def from_bundle(cls, bundle: Mapping[str, Any]) -> Judge:
        """A judge of a bundle as `generate` writes it: `root`, `formats`, `resources`."""
        return cls(bundle["root"], bundle["resources"], formats=bundle["formats"])

    @classmethod
    def from_package(cls, package: str, name: str = "schema.json") -> Judge:
        """The judge of a generated contract package, from its bundled schema file, which
        is read on first use (importing the package reads no file)."""
        judge = cls("", {})
        judge._bundle = lambda: package_json(package, name)
        return judge

    def _read(self) -> None:
        if self._bundle is not None:
            bundle, self._bundle = self._bundle(), None
            self._root, self._resources, self._formats = bundle["root"], bundle["resources"], bundle["formats"]

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
        if self._registry is None:  # a resource without `$schema`: the root's dialect
            self._registry = jsonschema_rs.Registry(sorted(self.resources.items()), draft=dialect(root))
            # Keywords of one's own cost every validation a quarter more in jsonschema-rs, even
            # where the schema has none: given only to a bundle that names them.
            self._keywords = CONTENT_ANNOTATIONS if _has_key(self.resources, CONTENT_ANNOTATIONS) else None
        schema: Any = root
        base = self.root
        if location:  # its own schema, referring to the location, under its own base
            schema, base = {"$ref": location}, _LOCATION_BASE
            if isinstance(root, dict) and "$schema" in root:
                schema["$schema"] = root["$schema"]
        return jsonschema_rs.validator_for(
            schema,
            registry=self._registry,
            base_uri=base,
            validate_formats=self.formats,
            keywords=self._keywords,
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
        return [Violation(path, message) for path, message in self._found(instance, location)]

    def _found(self, instance: Any, location: str) -> list[Found]:
        """`violations` as paths and messages, in their order."""
        try:
            errors = list(self.validator(location).iter_errors(instance))
        except ValueError as exc:  # a Python value that is not JSON, such as a set
            return [((), f"{NOT_A_JSON_VALUE}{exc}")]
        specific: list[jsonschema_rs.ValidationError] = []
        for error in errors:
            _specific(error, specific)
        if len(specific) == 1:  # usual: nothing to merge or sort unless several members
            found = _located(specific[0])
            return found if len(found) == 1 else sorted(set(found), key=_order)
        return sorted({each for error in specific for each in _located(error)}, key=_order)

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
                    type=PydanticCustomError("json_schema", "{message}", {"message": message}),
                    loc=path,
                    input=instance,
                )
                for path, message in self._found(instance, location)
            ],
        )
