"""The typed view of a judged document, built without validating again.

`_Compiler` writes, on a class's first use, Python functions from its core schema that set
what pydantic's validation sets (the same classes, values, fields set and extra members),
choosing a union's branch by a tag or a marker key; what they are not sure of is left to
pydantic (`Undecided` for a value, `_Unsupported` for a schema). It reads pydantic's
internals (the core schema, the slots of `BaseModel`) on the releases `canary.TESTED` names
only, where it buys BENCHMARKS.md's row 4.4 (0.8 x datamodel-code-generator's models, 1.2 x
without it): each class's builder is checked against pydantic's own validation before it is
trusted (`canary.py`), and anything that goes wrong while it is written leaves the class to
pydantic.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator

from .absent import ABSENT

# Why a fast path was left for pydantic's own, at DEBUG (`MCP_CONTRACTS_DEBUG=1` shows it).
LOG = logging.getLogger("mcp_contracts.runtime")


def _integral(value: Any) -> Any:
    """JSON Schema's integer includes 1.0 and 1e300: any number without a fraction."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integer = Annotated[int, BeforeValidator(_integral)]
"""A JSON Schema integer as a Python int, whichever way the document wrote it."""


def _literals(schema: Mapping[str, Any]) -> list[Any] | None:
    """The values of a field's `literal` schema (under its default and ABSENT wrappers)."""
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
        closed = (fields_schema.get("extra_behavior") or config.get("extra_fields_behavior")) == "forbid"
        self.required: set[str] = set()
        accepted: set[str] = set()
        self.literals: dict[str, tuple[type, frozenset[Any]]] = {}
        for name, field in fields_schema["fields"].items():
            alias = field.get("validation_alias", name)
            if not isinstance(alias, str):  # alias paths or choices rule nothing out
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


class Undecided(Exception):
    """A value the fast build of a view does not take on: pydantic builds that one."""


class _Unsupported(Exception):
    """A core schema the fast build does not follow: pydantic builds every view of it."""


_ABSENT: Any = object()  # a member that is not there (the views and the builders)
_SCALAR_TYPES = dict(str=str, bool=bool, int=int, float=float, none=type(None))
_SCALAR_CHECKS = {kind: kind if kind != "none" else "type(None)" for kind in _SCALAR_TYPES}
# The statements that make and return `o`, an instance of a model class (the class, its
# `__dict__`, fields set and extra members), slot by slot, as pydantic's validation does.
_MADE = "o = _new({}); _sd(o, {}); _sf(o, {}); _se(o, {}); _sp(o, None); return o"
# keys of a core schema that change nothing a valid value's view is built from
_NEUTRAL = frozenset({"type", "ref", "metadata", "serialization"})


class _Compiler:
    """Writes, once per class, the source of the functions that build its views (see the
    module): the same classes at every level, values and types, fields set and extra members."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.definitions: dict[str, Any] = {}
        self._collect(schema)
        self.lines: list[str] = []
        self.tail: list[str] = []
        self.names: dict[str, Any] = {"_Undecided": Undecided, "_ABSENT": _ABSENT, "_new": object.__new__}
        self.built: dict[int, str] = {}  # id of a model schema -> its function's name
        self.root = self._value(schema)

    def _collect(self, node: Any) -> None:
        if isinstance(node, (list, tuple)):
            for item in node:
                self._collect(item)
        elif isinstance(node, dict):
            if isinstance(node.get("ref"), str) and node.get("type") != "definition-ref":
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

    def _choices(self, node: Mapping[str, Any]) -> list[Any]:
        """A union's branches, resolved (a choice may come with its tag)."""
        return [self._resolved(c[0] if isinstance(c, tuple) else c) for c in node["choices"]]

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
        called = re.fullmatch(r"v = (\w+)\(v\)", statements[0]) if len(statements) == 1 else None
        return called.group(1) if called else self._function([*statements, "return v"])

    def _test(self, node: Any, var: str) -> str | None:
        """A condition that holds where `var`, a JSON value, is its own view under `node`: a
        scalar, a literal, null or a union of scalars, where nothing is made, only checked.
        None for any other schema (`_convert` writes it, or refuses it)."""
        node = self._resolved(node)
        kind = node.get("type")
        if set(node) - _NEUTRAL - {"schema", "choices", "mode", "expected"}:
            return None
        if kind == "any":
            return "True"
        if kind in _SCALAR_CHECKS:
            return f"type({var}) is {_SCALAR_CHECKS[kind]}"
        if kind == "literal":
            expected = list(node["expected"])
            kinds = {type(value) for value in expected}
            if not expected or not kinds <= {str, bool, int}:
                return None
            if len(kinds) == 1:
                return f"(type({var}) is {kinds.pop().__name__} and {var} in {self._constant(frozenset(expected))})"
            return f"(type({var}), {var}) in {self._constant(frozenset((type(value), value) for value in expected))}"
        if kind == "nullable":
            inner = self._test(node["schema"], var)
            return None if inner is None else f"({var} is None or {inner})"
        if kind == "union" and "schema" not in node and "expected" not in node:
            choices = self._choices(node)
            if all(c.get("type") in _SCALAR_TYPES and not set(c) - _NEUTRAL for c in choices):
                # a scalar of a branch's own type is that branch's exact match: smart mode keeps it
                return f"type({var}) in {self._constant(frozenset(_SCALAR_TYPES[c['type']] for c in choices))}"
        return None

    def _convert(self, node: Any, var: str) -> list[str]:
        """Statements that turn `var`, a JSON value, into its view under `node` in place."""
        node = self._resolved(node)
        kind = node.get("type")
        if kind in ("definitions", "model"):
            return [f"{var} = {self._value(node)}({var})"]
        allowed = {"schema", "items_schema", "keys_schema", "values_schema", "choices", "expected", "function", "mode"}
        if set(node) - _NEUTRAL - allowed:
            raise _Unsupported(f"{kind} with constraints")  # strict, bounds: pydantic's
        test = self._test(node, var)
        if test is not None:  # checked in place, no function called
            return [] if test == "True" else [f"if not {test}:", "    raise _Undecided"]
        if kind == "literal":  # one `_test` does not check
            raise _Unsupported("a literal that is not a string, boolean or integer")
        if kind == "function-before" and node["function"].get("function") is _integral:
            if self._resolved(node["schema"]).get("type") != "int" or set(node["schema"]) - _NEUTRAL:
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
            return [f"if {var} is not None:", *(f"    {line}" for line in inner or ["pass"])]
        if kind in ("list", "dict"):
            keys = self._resolved(node.get("keys_schema", {"type": "str"}))
            if keys.get("type") not in ("str", "any") or set(keys) - _NEUTRAL:
                raise _Unsupported("dict keys with constraints")
            # a dict's every key is a string: the judge has accepted the value as JSON
            inner = node.get("items_schema" if kind == "list" else "values_schema", {"type": "any"})
            guard = [f"if type({var}) is not {kind}:", "    raise _Undecided"]
            test = self._test(inner, "i")
            if test is not None:  # items that are their own views: checked, then copied
                return [*guard, *_each(test, var if kind == "list" else f"{var}.values()"), f"{var} = {kind}({var})"]
            convert = self._callable(self._convert(inner, "v"))
            if kind == "list":
                return [*guard, f"{var} = [{convert}(i) for i in {var}]"]
            return [*guard, f"{var} = {{k: {convert}(i) for k, i in {var}.items()}}"]
        if kind == "union":
            return [f"{var} = {self._union(node)}({var})"]
        raise _Unsupported(f"a {kind} schema")

    def _union(self, node: Mapping[str, Any]) -> str:
        choices = self._choices(node)
        if set(node) - _NEUTRAL - {"choices", "mode"}:
            raise _Unsupported("a union with options")
        scalars = {c["type"] for c in choices if c.get("type") in _SCALAR_CHECKS and not set(c) - _NEUTRAL}
        models = [c for c in choices if c.get("type") == "model" and not c.get("root_model")]
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
                table = self._constant(None)  # the tuple of builders, once all defined
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
        if node.get("custom_init") or node.get("post_init") or getattr(cls, "__private_attributes__", None):
            raise _Unsupported("a model with an initialiser or private attributes")
        new = self._constant(cls)
        if node.get("root_model"):
            made = _MADE.format(new, f"{{'root': {self._value(node['schema'])}(v)}}", "{'root'}", "None")
            self.lines += [f"def {name}(v):", f"    {made}", ""]
            return name
        fields_schema = self._resolved(node["schema"])
        config = node.get("config") or {}
        if fields_schema.get("type") != "model-fields" or fields_schema.get("computed_fields"):
            raise _Unsupported("model fields of another kind")
        extra = fields_schema.get("extra_behavior") or config.get("extra_fields_behavior") or "ignore"
        by_name = config.get("validate_by_name") or config.get("populate_by_name")
        if fields_schema.get("extras_schema") is not None or by_name:
            raise _Unsupported("extra members with a schema, or fields by name")
        body = ["if type(v) is not dict:", "    raise _Undecided"]
        keys: list[str] = []
        required: list[str] = []
        items: list[str] = []
        optional = False
        field_options = {"schema", "validation_alias", "serialization_alias", "serialization_exclude", "frozen"}
        for index, (field_name, field) in enumerate(fields_schema["fields"].items()):
            key = field.get("validation_alias", field_name)
            if not isinstance(key, str) or set(field) - _NEUTRAL - field_options:
                raise _Unsupported("a field with an alias path or options")
            keys.append(key)
            schema = field["schema"]
            default: Any = _ABSENT
            while schema.get("type") in ("default", "missing-sentinel"):
                if schema["type"] == "default":
                    if set(schema) - _NEUTRAL - {"schema", "default"} or "default" not in schema:
                        raise _Unsupported("a default that is not a value")
                    default = schema["default"]
                schema = schema["schema"]
            var = f"x{index}"
            items.append(f"{field_name!r}: {var}")
            convert = self._convert(schema, var)
            if default is _ABSENT:  # a member the view requires: KeyError where missing
                required.append(field_name)
                body += [f"{var} = v[{key!r}]", *convert]
                continue
            body.append(f"{var} = v.get({key!r}, _ABSENT)")
            optional = True
            if default is ABSENT or type(default) in _SCALAR_TYPES.values():
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
        body.insert(2, f"s = {{{', '.join(map(repr, required))}}}" if required else "s = set()")
        known = self._constant(frozenset(keys))
        given = "len(s)" if optional else str(len(required))
        if extra == "allow":
            body.append(f"e = {{k: i for k, i in v.items() if k not in {known}}} if len(v) != {given} else {{}}")
            body.append("s.update(e)")  # pydantic counts extra members as fields set
        else:
            if extra == "forbid":
                body += [f"if len(v) != {given}:", "    raise _Undecided"]
            body.append("e = None")
        body.append(_MADE.format(new, f"{{{', '.join(items)}}}", "s", "e"))
        self.lines += [
            f"def {name}(v):",
            "    try:",
            *(f"        {line}" for line in body),
            "    except KeyError:  # a member the view requires is missing: pydantic decides",
            "        raise _Undecided from None",
            "",
        ]
        return name

    def build(self) -> Callable[[Any], Any]:
        slots = BaseModel.__dict__
        namespace = {
            **self.names,
            "_sd": slots["__dict__"].__set__,
            "_sf": slots["__pydantic_fields_set__"].__set__,
            "_se": slots["__pydantic_extra__"].__set__,
            "_sp": slots["__pydantic_private__"].__set__,
        }
        source = "\n".join(self.lines + self.tail)
        exec(compile(source, "<mcp-contracts view builder>", "exec"), namespace)
        built: Callable[[Any], Any] = namespace[self.root]
        return built


def _each(test: str, items: str) -> list[str]:
    """Statements that check `test` of each `i` of `items` ("True": nothing to check)."""
    return [] if test == "True" else [f"for i in {items}:", f"    if not {test}:", "        raise _Undecided"]


def _decider(branches: list[_Branch]) -> Callable[[dict[str, Any]], int]:
    """Which model branch of a union a JSON object fits: by a tag, or by a marker key for
    two closed branches; `Undecided` when nothing says it for certain."""
    tag = _tag(branches)
    if tag is not None:
        key, kind, values = tag
        table = {(kind, value): index for index, found in enumerate(values) for value in found}

        def by_tag(value: dict[str, Any]) -> int:
            found = value.get(key, _ABSENT)
            index = table.get((type(found), found))
            if index is None:
                raise Undecided
            return index

        return by_tag
    marker = _marker(branches)
    if marker is not None:
        present = 0 if marker in branches[0].required else 1

        def by_marker(value: dict[str, Any]) -> int:
            return present if marker in value else 1 - present

        return by_marker

    def undecided(value: dict[str, Any]) -> int:
        raise Undecided

    return undecided


def view_builder(model: Any) -> Callable[[Any], Any] | None:
    """The function that builds `model`'s view of a judged value, or None where pydantic must.

    The builder reads pydantic's core schema, whose shape a pydantic release may change: a
    schema it does not know, or any error while it is written, leaves the class to pydantic.
    """
    if not model.__pydantic_complete__:
        model.model_rebuild()
    try:
        return _Compiler(model.__pydantic_core_schema__).build()
    except Exception:  # _Unsupported, or a core schema of a shape this does not read
        LOG.debug("%s: no fast view", model.__qualname__, exc_info=True)
        return None
