"""The envelope's schema compiled to TypeScript at generate time: `isEnvelope` without an interpreter.

The runtime's `Judge` interprets the bundle: a closure per keyword, called through one `evaluate`
for every schema of every contract, so its call sites see every closure and V8 cannot inline them.
ajv is faster because it writes a function per schema. This module does the same for the bundles
it can prove it judges exactly as the `Judge` does: one resource of draft 2020-12, no `$id` but the
root's, no anchors, `$ref`s that are JSON pointers into that resource, no cycle of references that
consumes no input, and only the keywords of `SUPPORTED` (`format` only when it is an annotation). Any
other bundle gets no code (`compiled` returns None) and `isEnvelope` asks the `Judge`. This module
writes references and combinations; `ts_kinds` the checks of one kind (numbers, strings, ...).

Every name and literal of the schema enters the code through `ts` (JSON's syntax, ASCII only); a
schema's place is named by a number (`s0`, `s1`, ...) in the order they are first reached, so the
output is deterministic. `validate` (every violation, with messages) is still the `Judge`'s.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..model.schemas import Bundle, Outline
from ..schema import vocabulary
from ..schema.pointer import decode, encode
from ..schema.vocabulary import ALTERNATIVES, COMBINATIONS, DEFINITIONS, DRAFT_2020_12, REFERENCES
from .escape import ts
from .ts_kinds import KEYWORDS, TYPE_TESTS, Function, KindChecks, sub, type_test

# Keywords that assert nothing here (the runtime's INERT, and `format` while it is an annotation).
ANNOTATIONS = vocabulary.ANNOTATIONS | frozenset(DEFINITIONS)
ANY_KIND = frozenset({"$ref", "type", "const", "enum", "not"}).union(COMBINATIONS)
SUPPORTED = ANY_KIND | KEYWORDS
# Keywords that change how references resolve: anywhere in the resource, they leave it to the Judge.
RESOLUTION = frozenset(("$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef", "$recursiveAnchor"))


class Unsupported(Exception):
    """The bundle uses something this compiler does not prove exact: the Judge decides."""


@dataclass(frozen=True, slots=True)
class Compiled:
    """The code (module-level declarations and functions) and the runtime helpers it imports."""

    code: str
    imports: tuple[str, ...]


def compiled(bundle: Bundle) -> Compiled | None:
    """The TypeScript of `accepts(value)` for the bundle's root, or None when the Judge must decide."""
    try:
        return _Compiler(root=_root(bundle), formats=bundle.formats, outline=bundle.outline).run()
    except Unsupported:
        return None


def _root(bundle: Bundle) -> dict[str, Any]:
    resources = bundle.resources
    root = resources.get(bundle.root)
    if len(resources) != 1 or not isinstance(root, dict):
        raise Unsupported("not one resource")
    if "$schema" in root and vocabulary.named(root) is not DRAFT_2020_12:
        raise Unsupported("not draft 2020-12")
    for key, _ in _keys(root, top=True):
        if key in RESOLUTION or key == "$schema":
            raise Unsupported(key)
    return root


def _keys(value: Any, *, top: bool = False) -> Iterator[tuple[str, Any]]:
    """Every key of every object in `value` (a conservative scan: property names count too)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not (top and key in ("$id", "$schema")):
                yield key, item
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


# Keywords with no subschema: a schema of these alone is written where it is used, never called.
LEAF = SUPPORTED - DRAFT_2020_12.applicators - frozenset(REFERENCES)


@dataclass(kw_only=True)
class _Compiler(KindChecks):
    """One bundle's code: the functions of its places (`s0`, `s1`, ...), reached from the root."""

    root: dict[str, Any]
    formats: bool
    outline: Outline  # where each `$ref` leads
    names: dict[str, str] = field(default_factory=dict)  # pointer -> function name
    queue: list[tuple[str, Any]] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    same_instance: dict[str, set[str]] = field(default_factory=dict)  # calls that consume no input

    def run(self) -> Compiled:
        first = self.call("", self.root, "value")
        while self.queue:
            pointer, schema = self.queue.pop(0)
            self.functions.append(self.function(pointer, schema))
        self.refuse_cycles()
        accepts = (
            "/** The verdict of `JUDGE.isValid(value)`, by the code above; past the stack, refused as the Judge"
            " does. */\n"
            "export function accepts(value: unknown): boolean {\n"
            f"  try {{\n    return {first};\n  }} catch (err) {{\n"
            "    if (err instanceof RangeError) return false;\n    throw err;\n  }\n}\n"
        )
        code = "".join(line + "\n" for line in self.constants) + "\n".join(self.functions) + "\n" + accepts
        return Compiled(code, tuple(sorted(self.imports)))

    # --- places ---------------------------------------------------------------------------

    def annotation(self, key: str) -> bool:
        return key in ANNOTATIONS or (key == "format" and not self.formats)

    def trivial(self, schema: Any) -> bool:
        """Accepts everything: `true`, or annotations only."""
        return schema is True or self.leaf(schema, frozenset())

    def leaf(self, schema: Any, keywords: frozenset[str] = LEAF) -> bool:
        """A schema (not the root) of `keywords` and annotations only."""
        if not isinstance(schema, dict) or schema is self.root:
            return False
        return all(key in keywords or self.annotation(key) for key in schema)

    def forwards(self, schema: dict[str, Any]) -> bool:
        """A `$ref` and annotations only: the target's verdict (its code is used instead)."""
        return "$ref" in schema and all(key == "$ref" or self.annotation(key) for key in schema)

    def target(self, pointer: str, schema: Any) -> tuple[str, Any]:
        """The place `schema` forwards to through `$ref`s alone (itself if it does not)."""
        seen = set()
        while isinstance(schema, dict) and schema is not self.root and self.forwards(schema):
            if pointer in seen:
                raise Unsupported("a cycle of references alone")
            seen.add(pointer)
            pointer, schema = self.resolve(schema)
        if not isinstance(schema, dict | bool):
            raise Unsupported("not a schema")
        return pointer, schema

    def call(self, pointer: str, schema: Any, value: str = "x") -> str:
        """An expression of whether `value` matches `schema` (at `pointer`): a call, or a constant."""
        pointer, schema = self.target(pointer, schema)
        if self.trivial(schema):
            return "true"
        if schema is False:
            return "false"
        name = self.names.get(pointer)
        if name is None:
            name = self.names[pointer] = f"s{len(self.names)}"
            self.queue.append((pointer, schema))
        return f"{name}({value})"

    def resolve(self, schema: dict[str, Any]) -> tuple[str, Any]:
        """(the pointer, the schema) the `$ref` of `schema` names, as the bundle's outline says."""
        ref = schema["$ref"]
        if not isinstance(ref, str) or not ref.startswith("#") or "%" in ref:
            raise Unsupported("a $ref that is not a pointer into the resource")
        fragment = ref[1:]
        if fragment and not fragment.startswith("/"):
            raise Unsupported("an anchor")
        target = self.outline.reference(schema)
        if target is None or target.node is None:
            raise Unsupported("a $ref to nothing")
        return encode(decode(fragment)), target.node

    def refuse_cycles(self) -> None:
        """A cycle of references that consumes no input: the Judge's guard decides those."""
        done: set[str] = set()

        def visit(name: str, path: tuple[str, ...]) -> None:
            if name in path:
                raise Unsupported("a cycle of references that consumes no input")
            if name in done:
                return
            for target in sorted(self.same_instance.get(name, ())):
                visit(target, (*path, name))
            done.add(name)

        for name in sorted(self.same_instance):
            visit(name, ())

    # --- one schema -----------------------------------------------------------------------

    def function(self, pointer: str, schema: dict[str, Any]) -> str:
        fn = Function(self.names[pointer])
        body = self.checks(fn, pointer, schema, "x", own=True)
        text = "".join(f"  {line}\n" for line in body)
        return f"// {ts('#' + pointer)}\nfunction {fn.name}(x: unknown): boolean {{\n{text}  return true;\n}}\n"

    def conjunct(self, fn: Function, pointer: str, schema: Any, v: str, *, own: bool) -> list[str]:
        """Statements that return false when `v` fails `schema`: its code itself where it is a leaf or a
        place of its own (a property's, the items', a member of `allOf`), else a call of its function."""
        pointer, target = self.target(pointer, schema)
        if self.trivial(target):
            return []
        if target is False:
            return ["return false;"]
        if self.leaf(target) or (target is schema and pointer not in self.names):
            return self.checks(fn, pointer, target, v, own=own)
        return [f"if ({_not(self.same(fn, self.call(pointer, target, v), own=own))}) return false;"]

    def same(self, fn: Function, expression: str, *, own: bool) -> str:
        """`expression` judges the function's own instance when `own`: record the edge for `refuse_cycles`."""
        if own and expression not in ("true", "false"):
            self.same_instance.setdefault(fn.name, set()).add(expression.split("(")[0])
        return expression

    def checks(self, fn: Function, pointer: str, schema: dict[str, Any], v: str, *, own: bool) -> list[str]:
        """The statements of every keyword of `schema` on `v`, each returning false when it fails."""
        for key in schema:
            if key in SUPPORTED or self.annotation(key):
                continue
            if not (schema is self.root and key in ("$id", "$schema")):  # `_root` checked them
                raise Unsupported(key)
        body: list[str] = []
        kinds = self.any_kind(fn, pointer, schema, v, body, own=own)
        blocks = (
            ("number", self.number(schema, v)),
            ("string", self.string(schema, v)),
            ("array", self.array(fn, pointer, schema, v)),
            ("object", self.object(fn, pointer, schema, v)),
        )
        for kind, lines in blocks:
            if not lines:
                continue
            if kinds == {kind}:  # `type` asserted the kind already
                body += lines
            else:
                body.append(f"if ({type_test(kind, v)}) {{")
                body += ["  " + line for line in lines]
                body.append("}")
        return body

    def any_kind(
        self, fn: Function, pointer: str, schema: dict[str, Any], v: str, body: list[str], *, own: bool
    ) -> set[str] | None:
        """The checks of every kind; returns the kinds `type` allows when it is one kind (else None)."""
        kinds: set[str] | None = None
        if "$ref" in schema:
            target, node = self.resolve(schema)
            body += self.conjunct(fn, target, node, v, own=own)
        if "type" in schema:
            kinds = self.type(schema["type"], v, body)
        if "const" in schema:
            body.append(f"if ({_not(self.equal(schema['const'], v))}) return false;")
        if isinstance(schema.get("enum"), list):
            tests = [self.equal(member, v) for member in schema["enum"]]
            body.append(f"if (!({' || '.join(tests) or 'false'})) return false;")
        if isinstance(schema.get("allOf"), list):
            for k, member in enumerate(schema["allOf"]):
                body += self.conjunct(fn, sub(pointer, "allOf", str(k)), member, v, own=own)
        for keyword in ALTERNATIVES:
            if isinstance(schema.get(keyword), list):
                places = [(sub(pointer, keyword, str(k)), branch) for k, branch in enumerate(schema[keyword])]
                branches = [self.same(fn, self.call(place, branch, v), own=own) for place, branch in places]
                exclusive = keyword == "oneOf" and self.exclusive(places)
                body += self.combine("anyOf" if exclusive else keyword, branches)
        if "not" in schema:
            negated = self.same(fn, self.call(sub(pointer, "not"), schema["not"], v), own=own)
            body.append(f"if ({negated}) return false;")
        return kinds

    def type(self, value: Any, v: str, body: list[str]) -> set[str] | None:
        names = value if isinstance(value, list) else [value]
        if not all(isinstance(n, str) for n in names):
            raise Unsupported("a type that is not a name")
        known = [n for n in dict.fromkeys(names) if n in TYPE_TESTS]
        if "null" in known:
            self.imports.add("kindOf")
        tests = [type_test(n, v) for n in known]
        if len(tests) > 1:
            tests = [test if " " not in test else f"({test})" for test in tests]
        body.append(f"if (!({' || '.join(tests) or 'false'})) return false;")
        kinds = {"number" if n == "integer" else n for n in known}
        return kinds if len(kinds) == 1 else None

    def equal(self, value: Any, v: str) -> str:
        """Whether `v` deep-equals the JSON value (`===` for a primitive, as `deepEqual` says)."""
        if value is None or isinstance(value, str | bool | int | float):
            return f"{v} === {ts(value)}"
        self.imports.add("deepEqual")
        name = self.constant(f"JSON.parse({ts(json.dumps(value, sort_keys=True))}) as unknown")
        return f"deepEqual({v}, {name})"

    def exclusive(self, places: list[tuple[str, Any]]) -> bool:
        """Whether no instance matches two of the branches, each an object: for every two, a property
        one requires is one the other closes out (`additionalProperties: false`), or both require a
        property whose `const` or `enum` (of strings, booleans, null) share no value. Then `oneOf` is
        `anyOf`, and stops at the branch that matches, as a tagged union is read."""
        shapes = []
        for place, branch in places:
            _, schema = self.target(place, branch)
            if not isinstance(schema, dict) or schema.get("type") != "object":
                return False
            required, properties = schema.get("required"), schema.get("properties", {})
            if not isinstance(required, list) or not isinstance(properties, dict):
                return False
            names = {name for name in required if isinstance(name, str)}
            tags = {
                name: self.values(sub(place, "properties", name), properties[name]) for name in names & set(properties)
            }
            closed = schema.get("additionalProperties") is False
            shapes.append(
                (names, {k: t for k, t in tags.items() if t is not None}, set(properties) if closed else None)
            )
        return all(_apart(one, other) for k, one in enumerate(shapes) for other in shapes[k + 1 :])

    def values(self, pointer: str, schema: Any) -> set[str] | None:
        """The values a property's schema allows at most, as JSON texts, when its `const` or `enum` says."""
        _, schema = self.target(pointer, schema)
        if not isinstance(schema, dict):
            return None
        allowed = [schema["const"]] if "const" in schema else schema.get("enum")
        if not isinstance(allowed, list) or not all(v is None or isinstance(v, str | bool) for v in allowed):
            return None
        return {json.dumps(v) for v in allowed}

    @staticmethod
    def combine(keyword: str, branches: list[str]) -> list[str]:
        if keyword == "anyOf":
            return [f"if (!({' || '.join(branches) or 'false'})) return false;"]
        lines = ["{", "  let matched = 0;"]  # oneOf: exactly one branch
        lines += [f"  if ({b} && ++matched > 1) return false;" for b in branches]
        return [*lines, "  if (matched !== 1) return false;", "}"]


def _not(expression: str) -> str:
    """The negation of `call`'s expressions (a constant, or one call) and of `equal`'s."""
    if expression in ("true", "false"):
        return "false" if expression == "true" else "true"
    return f"!{expression}" if re.match(r"(?:s[0-9]+|deepEqual)\(", expression) else f"!({expression})"


def _apart(
    one: tuple[set[str], dict[str, set[str]], set[str] | None],
    other: tuple[set[str], dict[str, set[str]], set[str] | None],
) -> bool:
    """No object matches both shapes (required names, their tags, the names a closed object allows)."""
    (names_a, tags_a, allowed_a), (names_b, tags_b, allowed_b) = one, other
    if (allowed_a is not None and names_b - allowed_a) or (allowed_b is not None and names_a - allowed_b):
        return True
    return any(not (tags_a[name] & tags_b[name]) for name in tags_a.keys() & tags_b.keys())
