"""Hypothesis strategies from a JSON Schema: instances meant to be valid, and mutations of them.

Covers the keywords the built-in envelope schemas use. Validity is not guaranteed (that
is the point of a differential test): the JSON Schema and the models judge each instance.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)

# Values that probe strictness: numeric strings, bool-like strings, 1.0, negatives, nulls.
TRICKY = st.sampled_from(
    [
        "183",
        "yes",
        "true",
        "",
        " ",
        "2.0",
        "1.0",
        "abc\n",
        "req_1\n",
        "a.b\n",
        "response-v2",
        "mcp.envelope.v0.1",
        "x_rate_limited",
        "pro",
        "info",
        "full",
    ]
) | st.sampled_from(
    [0, -1, 1, 1.0, 2.5, -0.5, 10**20, True, False, None, [], {}, [None], {"schema_version": "mcp.envelope.v0.1"}]
)


def from_schema(root: dict[str, Any]) -> st.SearchStrategy[Any]:
    defs = root.get("$defs", {})
    cache: dict[str, st.SearchStrategy[Any]] = {}

    def build(node: Any, depth: int) -> st.SearchStrategy[Any]:
        if node is True or node == {} or (isinstance(node, dict) and set(node) <= {"description", "title"}):
            return JSON_VALUES
        if "$ref" in node:
            if not node["$ref"].startswith("#/$defs/"):
                return JSON_VALUES  # another file, or an anchor: mutations of examples reach those
            key = node["$ref"].rsplit("/", 1)[-1]
            if key not in cache:
                cache[key] = st.deferred(lambda key=key: build(defs[key], depth + 1))
            return cache[key]
        if "const" in node:
            return st.just(node["const"])
        if "enum" in node:
            return st.sampled_from(node["enum"])
        for keyword in ("oneOf", "anyOf"):
            if keyword in node:
                return st.one_of([build(option, depth) for option in node[keyword]])
        types = node.get("type", "object" if "properties" in node else None)
        if types is None:
            return JSON_VALUES
        if isinstance(types, list):
            return st.one_of([build({**node, "type": t}, depth) for t in types])
        return _typed(types, node, depth, build)

    return build(root, 0)


def _typed(kind: str, node: dict[str, Any], depth: int, build: Any) -> st.SearchStrategy[Any]:
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(min_value=node.get("minimum"), max_value=node.get("maximum", 10**6))
    if kind == "number":
        low = node.get("minimum")
        return st.integers(min_value=low, max_value=10**6) | st.floats(
            min_value=low, max_value=1e6, allow_nan=False, allow_infinity=False
        )
    if kind == "string":
        low = node.get("minLength", 0)
        if "pattern" in node:  # repeating a match keeps matching the simple patterns used here
            return st.from_regex(node["pattern"], fullmatch=True).map(
                lambda s: s * (low // max(len(s), 1) + 1) if s else s
            )
        return st.text(min_size=low, max_size=max(low, min(node.get("maxLength", 12), 12)))
    if kind == "array":
        items = build(node["items"], depth + 1) if "items" in node else JSON_VALUES
        return st.lists(items, max_size=2)
    return _object(node, depth, build)


def _object(node: dict[str, Any], depth: int, build: Any) -> st.SearchStrategy[Any]:
    properties = node.get("properties", {})
    required = [k for k in node.get("required", []) if k in properties]
    optional = [k for k in properties if k not in required]
    extra = node.get("additionalProperties", True)

    @st.composite
    def objects(draw: Any) -> dict[str, Any]:
        value = {k: draw(build(properties[k], depth + 1)) for k in required}
        for key in optional:
            if depth < 4 and draw(st.booleans()):
                value[key] = draw(build(properties[key], depth + 1))
        if extra is not False and draw(st.integers(0, 4)) == 0:
            value[draw(st.text(min_size=1, max_size=5))] = draw(
                build(extra, depth + 1) if isinstance(extra, dict) else JSON_VALUES
            )
        return value

    return objects()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, sub in value.items():
            found += _paths(sub, (*prefix, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            found += _paths(sub, (*prefix, index))
    return found


def confusions(value: Any) -> list[Any]:
    """Values a lenient validator would take for `value`: its neighbours in other JSON types."""
    if isinstance(value, bool):
        return [int(value), float(value), str(value).lower(), None]
    if isinstance(value, int):
        return [float(value), str(value), value != 0, -value - 1, None]
    if isinstance(value, float):
        return [str(value), int(value), -value - 1.0, None]
    if isinstance(value, str):
        return [value + "\n", "", " " + value, 1, None, [value]]
    if value is None:
        return ["", 0, False, [], {}]
    if isinstance(value, list):
        return [None, {}, [*value, None]]
    return [None, [], {**value, "schema_version": "mcp.envelope.v0.1"}]


@st.composite
def mutations(draw: Any, base: st.SearchStrategy[Any]) -> Any:
    """A drawn instance with one value replaced, one key removed or one key added."""
    value = copy.deepcopy(draw(base))
    path = draw(st.sampled_from(_paths(value)))
    operation = draw(st.sampled_from(["confuse", "confuse", "replace", "delete", "add"]))
    if not path:
        return draw(TRICKY) if operation in ("replace", "confuse") else value
    parent = value
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if operation == "confuse":
        parent[last] = draw(st.sampled_from(confusions(parent[last])))
    elif operation == "replace":
        parent[last] = draw(TRICKY) if draw(st.integers(0, 3)) else draw(JSON_VALUES)
    elif operation == "delete":
        del parent[last]
    elif isinstance(parent, dict):
        parent[draw(st.sampled_from(["extra", "mode", "approval_mode", "error", "duration_ms", "data"]))] = draw(TRICKY)
    return value
