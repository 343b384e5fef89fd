"""The schema core (generator/schema/): pointers, dialects, the walk, the resolver, and the
proof that the keyword table is the only one.

The JSON Schema Test Suite is the material; python-jsonschema's `referencing` is the
independent judge of which values are subschemas and what each reference names.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import ROOT, SHARED, require_shared
from hypothesis import given
from hypothesis import strategies as st
from mcp_contracts_generator.schema import pointer
from mcp_contracts_generator.schema.dialect import Refusal, dialect_of, refusals
from mcp_contracts_generator.schema.proofs import always_object
from mcp_contracts_generator.schema.resolver import Resolver, absolute_references
from mcp_contracts_generator.schema.vocabulary import DRAFT_07, DRAFT_2020_12, Vocabulary
from mcp_contracts_generator.schema.walk import walk
from referencing import Registry, Resource, Specification
from referencing import jsonschema as specifications
from referencing.exceptions import Unresolvable

SUITE = SHARED / "jsts"
REMOTES = "http://localhost:1234/"
ROOT_URI = "https://root.test/schema.json"
DIALECTS: dict[str, tuple[Vocabulary, Specification[Any]]] = {
    "draft7": (DRAFT_07, specifications.DRAFT7),
    "draft2020-12": (DRAFT_2020_12, specifications.DRAFT202012),
}

# Pointers ---------------------------------------------------------------------------------

KEYS = st.text(alphabet=st.sampled_from(["~", "/", "0", "1", "a", "%", " ", "é"]), max_size=5)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield prefix, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*prefix, str(key)))


@given(st.lists(KEYS, max_size=6))
def test_a_pointer_decodes_to_the_tokens_it_encodes(tokens: list[str]) -> None:
    assert pointer.decode(pointer.encode(tokens)) == tuple(tokens)
    assert pointer.from_fragment(pointer.fragment(tokens)) == tuple(tokens)


@given(JSON)
def test_every_value_of_a_document_is_at_its_pointer(document: Any) -> None:
    for path, value in _paths(document):
        assert pointer.resolve(document, pointer.encode(path)) == value


@given(JSON, JSON)
def test_put_writes_at_the_pointer_and_leaves_the_document_as_it_was(document: Any, value: Any) -> None:
    before = json.dumps(document)
    for path, _ in _paths(document):
        written = pointer.put(document, pointer.encode(path), value)
        assert pointer.resolve(written, pointer.encode(path)) == value
    assert json.dumps(document) == before


def test_put_makes_the_containers_on_the_way_and_refuses_what_cannot_be_placed() -> None:
    assert pointer.put({}, "/a~1b/0/c~0", 1) == {"a/b": [{"c~": 1}]}
    assert pointer.put({"a": [0]}, "/a/1", 2) == {"a": [0, 2]}
    assert pointer.put({"a": [0]}, "/a/5", 2) == {"a": [0]}
    assert pointer.put({"a": "text"}, "/a/b", 2) == {"a": {"b": 2}}
    assert pointer.put({"a": 1}, "no slash", 2) == {"a": 1}


@pytest.mark.parametrize("text", ["/a/01", "/a/-", "/a/²", "/b", "a", "/a/9"])
def test_a_pointer_that_names_nothing_is_an_error_value(text: str) -> None:
    document = {"a": [1, 2]}
    with pytest.raises(pointer.PointerError):
        pointer.resolve(document, text)
    assert pointer.value_at(document, text) is None


# Dialects ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        (None, DRAFT_2020_12),
        ("https://json-schema.org/draft/2020-12/schema", DRAFT_2020_12),
        ("https://json-schema.org/draft/2020-12/schema#", DRAFT_2020_12),
        ("http://json-schema.org/draft/2020-12/schema", DRAFT_2020_12),
        ("http://json-schema.org/draft-07/schema#", DRAFT_07),
        ("http://json-schema.org/draft-07/schema", DRAFT_07),
        ("https://json-schema.org/draft-07/schema#", DRAFT_07),
    ],
)
def test_the_dialects_read_are_named_by_their_schema_uri(declared: str | None, expected: Vocabulary) -> None:
    schema = {} if declared is None else {"$schema": declared}
    assert dialect_of(schema) is expected


@pytest.mark.parametrize(
    ("declared", "named"),
    [
        ("http://json-schema.org/draft-06/schema#", "draft-06"),
        ("http://json-schema.org/draft-04/schema#", "draft-04"),
        ("https://json-schema.org/draft-04/schema", "draft-04"),
        ("http://json-schema.org/draft-03/schema#", "draft-03"),
        ("https://json-schema.org/draft/2019-09/schema", "draft 2019-09"),
        ("https://example.com/my-meta-schema", "'https://example.com/my-meta-schema'"),
        (7, "`$schema` is a URI"),
    ],
)
def test_other_dialects_are_refused_with_what_to_write_instead(declared: Any, named: str) -> None:
    found = dialect_of({"$schema": declared})
    assert isinstance(found, Refusal)
    assert named in found.message and "2020-12" in found.message


def test_a_meta_schema_of_ones_own_is_read_in_the_dialect_it_is_written_in() -> None:
    """The specification lets a schema name a meta-schema with vocabularies of its choosing;
    it is read when the meta-schema is found offline and written in a dialect read."""
    metas = {"https://e.test/meta": {"$schema": DRAFT_2020_12.uri, "$vocabulary": {}}}
    assert dialect_of({"$schema": "https://e.test/meta"}, meta=metas.__getitem__) is DRAFT_2020_12
    assert isinstance(dialect_of({"$schema": "https://e.test/other"}, meta=metas.__getitem__), Refusal)


def test_refusals_are_found_at_the_root_and_in_embedded_resources() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-06/schema#",
        "$defs": {"x": {"$id": "x.json", "$schema": "https://json-schema.org/draft/2019-09/schema"}},
    }
    assert [path for path, _ in refusals(schema)] == [("$schema",), ("$defs", "x", "$schema")]


# The walk ---------------------------------------------------------------------------------


def _suite_schemas(draft: str) -> Iterator[tuple[str, Any]]:
    for path in sorted((SUITE / "tests" / draft).glob("*.json")):
        for group in json.loads(path.read_text(encoding="utf-8")):
            yield f"{path.stem}: {group['description']}", group["schema"]


def _subschemas(node: dict[str, Any], specification: Specification[Any]) -> Iterator[Any]:
    """The subschemas of a node as `referencing` finds them, but for draft-07 `dependencies`:
    `referencing` judges all its members by the first (all schemas when it is an object),
    where each member is a schema unless it is an array of names."""
    yield from specification.subresources_of({k: v for k, v in node.items() if k != "dependencies"})
    dependencies = node.get("dependencies")
    if specification is specifications.DRAFT7 and isinstance(dependencies, dict):
        yield from (sub for sub in dependencies.values() if not isinstance(sub, list))


def _independent_count(schema: Any, specification: Specification[Any]) -> tuple[int, set[int]]:
    """(how many subschemas, the ids of those that are objects), as `referencing` finds them."""
    count, objects = 0, set()
    pending = [schema]
    while pending:
        node = pending.pop()
        count += 1
        if isinstance(node, dict):
            objects.add(id(node))
            pending.extend(_subschemas(node, specification))
    return count, objects


@pytest.mark.parametrize("draft", sorted(DIALECTS))
def test_the_walk_visits_every_subschema_referencing_knows_of(draft: str) -> None:
    require_shared()
    vocabulary, specification = DIALECTS[draft]
    wrong = []
    walked = 0
    for name, schema in _suite_schemas(draft):
        visits = list(walk(schema, ROOT_URI, vocabulary))
        count, objects = _independent_count(schema, specification)
        if len(visits) != count or {id(v.node) for v in visits if isinstance(v.node, dict)} != objects:
            wrong.append(name)
        for visit in visits:
            assert pointer.resolve(schema, visit.json_path) is visit.node
        walked += len(visits)
    assert wrong == []
    assert walked > 500


def test_the_walk_stops_at_its_depth_limit_and_survives_cycles() -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(5000):
        node["not"] = {}
        node = node["not"]
    visits = list(walk(deep, max_depth=100))
    assert len(visits) == 101 and visits[-1].too_deep and not visits[-2].too_deep
    looped: dict[str, Any] = {"properties": {}}
    looped["properties"]["self"] = looped  # what a YAML alias can make
    assert [v.json_path for v in walk(looped)] == [""]


def test_locations_start_again_at_each_embedded_resource() -> None:
    schema = {
        "$id": "https://e.test/root.json",
        "$defs": {"a b": {"$id": "inner/x.json", "items": {"type": "string"}}},
        "definitions": {"legacy": {"$id": "#name", "$ref": "#"}},
    }
    found = {v.json_path: v.location for v in walk(schema)}
    assert found["/$defs/a b/items"] == "https://e.test/inner/x.json#/items"
    assert found["/definitions/legacy"] == "https://e.test/root.json#/definitions/legacy"


# The resolver -----------------------------------------------------------------------------


def _remotes(draft: str) -> dict[str, Any]:
    found = {}
    folder = SUITE / "remotes"
    for path in sorted(folder.rglob("*.json")):
        relative = path.relative_to(folder).as_posix()
        if relative.startswith("draft") and not relative.startswith(draft + "/"):
            continue
        found[REMOTES + relative] = json.loads(path.read_text(encoding="utf-8"))
    return found


@pytest.mark.parametrize("draft", sorted(DIALECTS))
def test_every_reference_resolves_where_referencing_resolves_it(draft: str) -> None:
    require_shared()
    vocabulary, specification = DIALECTS[draft]
    remotes = _remotes(draft)
    compared, wrong = 0, []
    for name, schema in _suite_schemas(draft):
        resources = {ROOT_URI: schema, **remotes}
        ours = Resolver(resources, default=vocabulary)
        registry: Registry[Any] = Registry().with_resources(
            (uri, Resource.from_contents(document, default_specification=specification))
            for uri, document in resources.items()
        )
        for visit in walk(schema, ROOT_URI, vocabulary):
            for keyword in ("$ref", "$dynamicRef"):
                reference = visit.node.get(keyword) if isinstance(visit.node, dict) else None
                if not isinstance(reference, str):
                    continue
                try:
                    theirs: Any = registry.resolver(base_uri=visit.base).lookup(reference).contents
                except Unresolvable:
                    theirs = None
                found = ours.resolve(reference, visit.base)
                if (found.node if found is not None else None) is not theirs and found != theirs:
                    wrong.append(f"{name}: {reference}")
                compared += 1
    assert wrong == []
    assert compared > 50


def test_a_reference_that_names_nothing_is_none_not_an_exception() -> None:
    resolver = Resolver.of_document({"$defs": {"a": {"$anchor": "x"}}, "$id": "urn:example:root"})
    assert resolver.resolve("#x", resolver.root_uri) is not None
    for reference in ("#/$defs/b", "#/$defs/a/0", "#nowhere", "other.json", "http://[", "#/%zz", "#a"):
        assert resolver.resolve(reference, resolver.root_uri) is None


# One keyword table ------------------------------------------------------------------------

APPLICATORS = DRAFT_07.applicators | DRAFT_2020_12.applicators
# Modules that still keep keyword tables of their own, until they ask the core:
ALLOWED = {
    # The runtime is copied into every generated package, which must not import the generator.
    "runtime/judge.py",
}


def _tables(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, keywords) of each tuple, list or set display (a `frozenset({...})` too) that
    lists two applicator keywords or more: a table. One keyword is a path or a test of it
    (`encode(["properties", name])`), not a table."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            named = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in APPLICATORS]
            if len(named) >= 2:
                yield node.lineno, ", ".join(named)


def test_no_module_outside_the_core_keeps_a_keyword_table() -> None:
    generator = ROOT / "generator"
    found = []
    for path in sorted(generator.rglob("*.py")):
        relative = path.relative_to(generator).as_posix()
        if relative.startswith("schema/") or relative in ALLOWED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"generator/{relative}:{line}: {keyword}" for line, keyword in _tables(tree)]
    assert found == [], "ask generator/schema/vocabulary.py instead"


def test_the_allowed_modules_exist() -> None:
    """An entry of ALLOWED that no longer exists (or no longer needs to be) is removed."""
    for relative in ALLOWED:
        assert (ROOT / "generator" / relative).is_file()


# Hostile schemas ----------------------------------------------------------------------------

WORDS = st.sampled_from(sorted(APPLICATORS | {"$ref", "$id", "$anchor", "$schema", "$dynamicRef", "type", "x"}))
REFERENCE_TEXT = st.sampled_from(["#", "#/", "#/$defs/a", "#a", "a.json", "urn:x", "http://[", "#/items/0", "%", ""])
SCHEMAS = st.recursive(
    st.booleans() | st.integers() | REFERENCE_TEXT | st.none(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WORDS | KEYS, inner, max_size=4),
    max_leaves=20,
)


@given(SCHEMAS, st.sampled_from([DRAFT_07, DRAFT_2020_12]))
def test_no_schema_makes_the_core_raise(schema: Any, dialect: Vocabulary) -> None:
    resolver = Resolver({ROOT_URI: schema}, default=dialect)
    for visit in walk(schema, ROOT_URI, dialect):
        for keyword in ("$ref", "$dynamicRef"):
            reference = visit.node.get(keyword) if isinstance(visit.node, dict) else None
            if isinstance(reference, str):
                resolver.resolve(reference, visit.base)
    list(refusals(schema))
    absolute_references(schema, ROOT_URI)
    always_object(schema)


def test_a_schema_only_a_pointer_reaches_gets_a_place() -> None:
    """`$defs` is not a draft-07 keyword, yet a pointer reaches it (and view.py needs the
    location of every class it makes)."""
    schema = {"$schema": DRAFT_07.uri, "$id": "https://e.test/r.json", "$defs": {"a": {"items": {"type": "string"}}}}
    resolver = Resolver.of_document(schema)
    assert resolver.place(schema["$defs"]["a"]) is None
    target = resolver.resolve("#/$defs/a", resolver.root_uri)
    assert target is not None and target.dialect is DRAFT_07
    inner = resolver.place(schema["$defs"]["a"]["items"])
    assert inner is not None and inner.location == "https://e.test/r.json#/$defs/a/items"
    assert resolver.only_pointed_at(schema["$defs"]["a"])
    assert not resolver.only_pointed_at(schema["$defs"]["a"]["items"])


def test_a_location_is_the_resource_and_its_pointer_as_a_fragment() -> None:
    assert pointer.location("urn:x", ["$defs", "a b/c~", 0]) == "urn:x#/$defs/a%20b~1c~0/0"
    assert pointer.location("", []) == "#"
