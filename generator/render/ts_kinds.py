"""The checks of one JSON kind in the compiled `isEnvelope` (`ts_compiled`): a number's bounds, a
string's lengths and pattern, an array's size and items, an object's size, properties and
`additionalProperties`; apart from the compiler's references and combinations, which judge an
instance of any kind. Where a subschema's code goes (inline, or a call) is the compiler's `conjunct`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..schema.pointer import encode
from ..schema.vocabulary import OPENINGS
from .escape import ts

NUMBER = {"minimum": "<", "maximum": ">", "exclusiveMinimum": "<=", "exclusiveMaximum": ">="}  # fails when
STRING, ARRAY = frozenset(("minLength", "maxLength", "pattern")), frozenset(("items", "minItems", "maxItems"))
OBJECT = frozenset({"properties", "required", "minProperties", "maxProperties", OPENINGS[0]})
KEYWORDS = NUMBER.keys() | STRING | ARRAY | OBJECT  # each judges an instance of its kind alone
TYPE_TESTS = {
    "null": "{v} === null || kindOf({v}) === 0",  # the Judge's kinds: undefined and functions are "null"
    "boolean": 'typeof {v} === "boolean"',
    "number": 'typeof {v} === "number"',
    "integer": "Number.isInteger({v})",
    "string": 'typeof {v} === "string"',
    "array": "Array.isArray({v})",
    "object": 'typeof {v} === "object" && {v} !== null && !Array.isArray({v})',
}


@dataclass
class Function:
    """The function being written: its name, and a counter for the names of its locals."""

    name: str
    locals: int = 0

    def fresh(self, prefix: str) -> str:
        self.locals += 1
        return f"{prefix}{self.locals}"


@dataclass
class KindChecks:
    """The module-level declarations written so far, the runtime helpers imported, the kinds' checks."""

    constants: list[str] = field(default_factory=list)
    imports: set[str] = field(default_factory=set)

    def conjunct(self, fn: Function, pointer: str, schema: Any, v: str, *, own: bool) -> list[str]:
        raise NotImplementedError  # the compiler's: the statements of a subschema at its place

    def constant(self, expression: str) -> str:
        """The name of a module-level constant of `expression` (one for each expression)."""
        for line in self.constants:
            if line.endswith(f" = {expression};"):
                return line.split(" ")[1]
        name = f"C{sum(line.startswith('const C') for line in self.constants)}"
        self.constants.append(f"const {name} = {expression};")
        return name

    def has_own(self) -> str:
        line = "const hasOwn = Object.prototype.hasOwnProperty;"
        if line not in self.constants:
            self.constants.insert(0, line)
        return "hasOwn"

    @staticmethod
    def number(schema: dict[str, Any], v: str) -> list[str]:
        lines = []
        for keyword, fails in NUMBER.items():
            bound = schema.get(keyword)
            if isinstance(bound, int | float) and not isinstance(bound, bool):
                lines.append(f"if (({v} as number) {fails} {ts(bound)}) return false;")
        return lines

    def string(self, schema: dict[str, Any], v: str) -> list[str]:
        lines = []
        text = f"({v} as string)"
        low, high = _count(schema, "minLength"), _count(schema, "maxLength")
        if low is not None or high is not None:
            self.imports.add("codePointLength")
        if low is not None:  # a string of n UTF-16 units has at least n / 2 code points
            lines.append(
                f"if ({text}.length < {ts(low)} || ({text}.length < {ts(low * 2)}"
                f" && codePointLength({v} as string) < {ts(low)})) return false;"
            )
        if high is not None:
            lines.append(
                f"if ({text}.length > {ts(high)} && codePointLength({v} as string) > {ts(high)}) return false;"
            )
        if isinstance(schema.get("pattern"), str):
            self.imports.add("regex")
            name = self.constant(f"regex({ts(schema['pattern'])})")
            lines.append(f"if (!{name}.test({v} as string)) return false;")
        return lines

    def array(self, fn: Function, pointer: str, schema: dict[str, Any], v: str) -> list[str]:
        lines = _bounds(schema, ("minItems", "maxItems"), f"({v} as unknown[]).length")
        if "items" in schema:
            a, i, item = fn.fresh("a"), fn.fresh("i"), fn.fresh("v")
            checks = self.conjunct(fn, sub(pointer, "items"), schema["items"], item, own=False)
            if checks:
                lines += [f"const {a} = {v} as unknown[];", f"for (let {i} = 0; {i} < {a}.length; {i}++) {{"]
                lines += [f"  const {item} = {a}[{i}];", *("  " + line for line in checks), "}"]
        return lines

    def object(self, fn: Function, pointer: str, schema: dict[str, Any], v: str) -> list[str]:
        lines = _bounds(schema, ("minProperties", "maxProperties"), f"Object.keys({v} as object).length")
        required = schema.get("required")
        names = list(dict.fromkeys(n for n in required if isinstance(n, str))) if isinstance(required, list) else []
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        o, plain = fn.fresh("o"), fn.fresh("p")
        checks = {}
        for key, value in properties.items():
            item = fn.fresh("v")
            found = self.conjunct(fn, sub(pointer, "properties", key), value, item, own=False)
            if found:
                checks[key] = [f"const {item} = {o}[{ts(key)}];", *found]
        leftover: list[str] = []
        if "additionalProperties" in schema:
            k, item = fn.fresh("k"), fn.fresh("v")
            found = self.conjunct(
                fn, sub(pointer, "additionalProperties"), schema["additionalProperties"], item, own=False
            )
            if found:
                leftover = self.leftover(o, k, item, list(properties), found)
        if not (names or checks or leftover):
            return lines
        lines.append(f"const {o} = {v} as Record<string, unknown>;")
        if names or checks:
            lines.append(f"const {plain} = Object.getPrototypeOf({o}) === Object.prototype;")
        for key in names:
            lines.append(f"if (!{self.owns(o, plain, key)}) return false;")
            lines += _block(checks.pop(key, []))
        for key, found in checks.items():
            lines.append(f"if ({self.owns(o, plain, key)}) {{")
            lines += ["  " + line for line in found]
            lines.append("}")
        return lines + leftover

    def owns(self, o: str, plain: str, key: str) -> str:
        """Whether `o` has its own property `key`, as `hasOwnProperty` says. `in` is read from V8's
        inline caches where `hasOwnProperty` is a call a name: on an object whose prototype is
        `Object.prototype`, without `key` there, `key in o` can only find `o`'s own."""
        name = ts(key)
        return f"({plain} && !({name} in Object.prototype) ? {name} in {o} : {self.has_own()}.call({o}, {name}))"

    def leftover(self, o: str, k: str, item: str, known: list[str], found: list[str]) -> list[str]:
        """`additionalProperties`: `for in` and `hasOwn` (every own enumerable name, as the Judge's
        `Object.keys`, without its array); an inherited name that is a property's asserts nothing."""
        lines = [f"for (const {k} in {o}) {{", f"  switch ({k}) {{"]
        lines += [f"    case {ts(key)}:" for key in known]
        lines += ["      break;"] if known else []
        lines += ["    default:", f"      if (!{self.has_own()}.call({o}, {k})) break;"]
        if found != ["return false;"]:
            lines.append(f"      const {item} = {o}[{k}];")
        lines += ["      " + line for line in found]
        return [*lines, "  }", "}"]


def sub(pointer: str, *keys: str) -> str:
    """The pointer of a subschema of the schema at `pointer`."""
    return pointer + encode(keys)


def type_test(name: str, v: str) -> str:
    """The test of the JSON type `name` on `v`."""
    return TYPE_TESTS[name].replace("{v}", v)


def _block(lines: list[str]) -> list[str]:
    """Statements in a block of their own (their locals scoped), or none."""
    return ["{", *("  " + line for line in lines), "}"] if lines else []


def _bounds(schema: dict[str, Any], keywords: tuple[str, str], size: str) -> list[str]:
    """Statements that return false when `size` is below the least (`keywords[0]`) or above the most."""
    bounds = [(_count(schema, keyword), fails) for keyword, fails in zip(keywords, "<>", strict=True)]
    return [f"if ({size} {fails} {ts(bound)}) return false;" for bound, fails in bounds if bound is not None]


def _count(schema: dict[str, Any], keyword: str) -> int | float | None:
    """The Judge's `count`: a number not below zero, else the keyword is ignored."""
    value = schema.get(keyword)
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return value
    return None
