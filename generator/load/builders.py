"""`builders:` of contract.yaml: what the generated success and error builders fill in.

A builder starts from the constants of its shape, read from the schema: each required
property whose schema allows one value only (a `const`, a one-member `enum`, or
`type: null`), inside required objects too. An error builder then puts the code where
`code` points and each `derived` field from the code's catalogue entry. Nothing here
knows a contract: the contract says where things go, the schema says what is constant.

A builder's keyword parameters are the top-level members of its shape, typed by the view:
a member the schema requires is a required parameter, unless the builder fills something
inside it or the schema accepts null for it (the builder then puts null). Whether the
message is required is read from the schema the same way, along its pointer.
"""

from __future__ import annotations

import keyword
from typing import Any

from ..diagnostics import Diagnostic
from ..model import BuilderField, Builders, Catalogue, Shape
from ..model.schemas import TypeKind, View, ViewClass, ViewType
from ..schema.pointer import PointerError, decode, encode, location, resolve
from ..schema.resolver import Resolver
from ..schema.vocabulary import ALTERNATIVES, COMBINATIONS, REFERENCES
from .documents import Document

_MAX_DEPTH = 8  # constants deeper than this are left to the caller


def _local(refs: Resolver, node: Any) -> Any:
    """`node` with its `$ref`s followed, as the schema core resolves them (a reference to
    another file is not followed)."""
    return refs.chain(node)[-1]


def _single_value(node: Any) -> tuple[bool, Any]:
    """Whether a schema allows exactly one value, and which."""
    if not isinstance(node, dict):
        return False, None
    if "const" in node:
        return True, node["const"]
    if isinstance(node.get("enum"), list) and len(node["enum"]) == 1:
        return True, node["enum"][0]
    if node.get("type") == "null" or node.get("type") == ["null"]:
        return True, None
    return False, None


def constants(refs: Resolver, node: Any, path: tuple[str, ...] = ()) -> list[tuple[str, Any]]:
    """(document pointer, value) of every constant a shape requires."""
    node = _local(refs, node)
    if not isinstance(node, dict) or len(path) > _MAX_DEPTH:
        return []
    properties = node.get("properties")
    required = node.get("required")
    if not isinstance(properties, dict) or not isinstance(required, list):
        return []
    found = []
    for name in required:
        if name not in properties:
            continue
        sub = _local(refs, properties[name])
        single, value = _single_value(sub)
        if single:
            found.append((encode([*path, name]), value))
        else:
            found += constants(refs, sub, (*path, name))
    return found


def _branches(node: dict[str, Any], key: str) -> list[Any]:
    found = node.get(key)
    return found if isinstance(found, list) else []


def accepts_null(refs: Resolver, node: Any, depth: int = 0) -> bool:
    """Whether a schema surely accepts null; False when it cannot tell (`not`, `if`, a
    reference to another file...), so that a parameter is optional only when it may be."""
    node = _local(refs, node)
    if node is True:
        return True
    if not isinstance(node, dict) or depth > _MAX_DEPTH:
        return False
    if any(k in node for k in REFERENCES) or "not" in node or "if" in node:
        return False
    kind = node.get("type")
    if kind is not None and "null" not in ([kind] if isinstance(kind, str) else kind):
        return False
    if "const" in node and node["const"] is not None:
        return False
    if isinstance(node.get("enum"), list) and None not in node["enum"]:
        return False
    if not all(accepts_null(refs, b, depth + 1) for b in _branches(node, "allOf")):
        return False
    if _branches(node, "anyOf") and not any(accepts_null(refs, b, depth + 1) for b in _branches(node, "anyOf")):
        return False
    one_of = _branches(node, "oneOf")
    return not one_of or sum(accepts_null(refs, b, depth + 1) for b in one_of) == 1


def _may_be_container(refs: Resolver, node: Any) -> bool:
    """Whether a branch may be an object or an array (not, say, the null of `ToolError | null`)."""
    node = _local(refs, node)
    if not isinstance(node, dict) or "type" not in node:
        return node is not False
    kind = node["type"]
    return bool({"object", "array"} & set([kind] if isinstance(kind, str) else kind))


def always_present(refs: Resolver, node: Any, tokens: tuple[str, ...], made: tuple[str, ...] = ()) -> bool:
    """Whether every document of `node` has a member at `tokens`, given that a builder makes
    the containers along `made` (the code's pointer): required at every step, in every
    branch of a union that may hold it."""
    node = _local(refs, node)
    if not tokens:
        return True
    if not isinstance(node, dict) or len(tokens) > _MAX_DEPTH:
        return False
    if any(always_present(refs, b, tokens, made) for b in _branches(node, "allOf")):
        return True
    for key in ALTERNATIVES:
        branches = [b for b in _branches(node, key) if _may_be_container(refs, b)]
        if branches and all(always_present(refs, b, tokens, made) for b in branches):
            return True
    head, rest = tokens[0], tokens[1:]
    built = len(made) > 1 and made[0] == head  # a container on the way to the code
    after = made[1:] if built else ()
    if head.isdigit() and built:
        return always_present(refs, node.get("items", True), rest, after)
    required = node.get("required")
    if not built and not (isinstance(required, list) and head in required):
        return False
    properties = node.get("properties")
    sub = properties.get(head) if isinstance(properties, dict) else None
    return not rest if sub is None else always_present(refs, sub, rest, after)


def _member_schemas(refs: Resolver, node: Any, name: str, depth: int = 0) -> list[Any]:
    """Every subschema a shape gives its member `name`, through unions and `allOf`."""
    node = _local(refs, node)
    if not isinstance(node, dict) or depth > _MAX_DEPTH:
        return []
    properties = node.get("properties")
    found = [properties[name]] if isinstance(properties, dict) and name in properties else []
    for key in COMBINATIONS:
        for branch in _branches(node, key):
            found += _member_schemas(refs, branch, name, depth + 1)
    return found


def _nodes_at(refs: Resolver, node: Any, tokens: tuple[str, ...], depth: int = 0) -> list[Any]:
    """Every subschema that may hold the value at `tokens`, the branches of its unions and
    `allOf` included."""
    node = _local(refs, node)
    if not isinstance(node, dict) or depth > 4 * _MAX_DEPTH:
        return [] if tokens else [node]
    found = [] if tokens else [node]
    for key in COMBINATIONS:
        for branch in _branches(node, key):
            found += _nodes_at(refs, branch, tokens, depth + 1)
    if tokens:
        head, rest = tokens[0], tokens[1:]
        properties = node.get("properties")
        if isinstance(properties, dict) and head in properties:
            found += _nodes_at(refs, properties[head], rest, depth + 1)
        elif head.isdigit() and "items" in node:
            found += _nodes_at(refs, node["items"], rest, depth + 1)
    return found


def null_defaults(refs: Resolver, node: Any, code: str, pointers: list[str]) -> list[tuple[str, None]]:
    """(pointer, None) for each member that an object the builder makes on the way to the
    code must have, whose schema accepts null, and which the builder does not fill: the
    builder puts null there when the caller gives nothing."""
    tokens = decode(code)
    taken = {decode(p) for p in pointers}
    found = []
    for depth in range(1, len(tokens)):
        containers = [n for n in _nodes_at(refs, node, tokens[:depth]) if isinstance(n, dict)]
        containers = [n for n in containers if _may_be_container(refs, n) and "properties" in n]
        if not containers or tokens[depth].isdigit():
            continue
        required = [set(r) if isinstance(r := n.get("required"), list) else set() for n in containers]
        for name in sorted(set.intersection(*required)):
            path = (*tokens[:depth], name)
            if any(t[: len(path)] == path for t in taken):
                continue
            subs = [n["properties"][name] for n in containers if name in n.get("properties", {})]
            if subs and all(accepts_null(refs, sub) for sub in subs):
                found.append((encode(path), None))
    return found


# Names a member cannot take as a keyword parameter: the builders' own parameters, and
# the names their bodies use (the bodies they call, and the `*_document` builders' own
# fillings, catalogue and helpers), which a parameter of that name would hide.
_OWN_PARAMETERS = frozenset(
    {
        *("code", "message", "extra", "_success_response", "_error_response", "_success_document", "_error_document"),
        *("SUCCESS_FILLING", "ERROR_FILLING", "ERROR_VALUES", "ABSENT", "error_info"),
    }
)


def _view_class(view: View, pointer: str) -> ViewClass | None:
    """The class of the view at `pointer` of the envelope schema, if exactly one is there."""
    if pointer == "":
        return next(c for c in view.classes if c.name == view.root)
    try:
        suffix = location("", decode(pointer))
    except PointerError:
        return None
    found = [c for c in view.classes if c.location.endswith(suffix)]
    return found[0] if len(found) == 1 else None


def _members(view: View, model: ViewClass) -> list[ViewClass] | None:
    """The object classes a class stands for: itself, or those of the union at its root."""
    if model.root is None:
        return [model]
    by_name = {c.name: c for c in view.classes}
    members = model.root.items if model.root.kind == "union" else (model.root,)
    classes = [by_name[m.name] for m in members if m.kind == "class" and by_name[m.name].root is None]
    return classes if len(classes) == len(members) else None


def _union(types: list[ViewType]) -> ViewType:
    distinct: list[ViewType] = []
    for member in types:
        for part in member.items if member.kind == "union" else (member,):
            if part not in distinct:
                distinct.append(part)
    return distinct[0] if len(distinct) == 1 else ViewType(TypeKind.UNION, items=tuple(distinct))


def shape(refs: Resolver, node: Any, pointer: str, view: View | None, pointers: list[str]) -> Shape:
    """The members of the shape at `pointer` (`node`) as keyword parameters; `pointers` are where the
    builder puts its own values (constants, the code, the message, derived fields)."""
    model = _view_class(view, pointer) if view is not None else None
    members = _members(view, model) if view is not None and model is not None else None
    if members is None:
        return Shape(None, True)
    firsts = {decode(p)[0] for p in pointers if p}
    whole = {decode(p)[0] for p in pointers if len(decode(p)) == 1}
    names = list(dict.fromkeys(f.name for m in members for f in m.fields))
    fields, open_ = [], any(not m.closed for m in members)
    for name in names:
        if name in whole:
            continue  # the builder puts the whole member
        if not name.isidentifier() or keyword.iskeyword(name) or name in _OWN_PARAMETERS:
            open_ = True  # given through **extra
            continue
        found = [f for m in members for f in m.fields if f.name == name]
        nullable = all(accepts_null(refs, sub) for sub in _member_schemas(refs, node, name))
        fields.append(
            BuilderField(
                name,
                _union([f.type for f in found]),
                required=len(found) == len(members) and all(f.required for f in found),
                nullable=nullable and bool(_member_schemas(refs, node, name)),
                filled=name in firsts,
            )
        )
    return Shape(tuple(fields), open_)


def build_builders(
    identity: Document, schema: Any, catalogue: Catalogue, view: View | None
) -> tuple[Builders | None, list[Diagnostic]]:
    """The builders a contract declares, or None; every problem with the declaration."""
    spec = identity.data.get("builders")
    if spec is None:
        return None, []
    problems = []
    shapes: dict[str, Any] = {}
    for role in ("success", "error"):
        pointer = spec.get(role, "")
        try:
            shapes[role] = resolve(schema, pointer)
        except KeyError:
            problems.append(identity.diagnostic(["builders", role], f"{pointer!r} is not in envelope.schema.json"))
    columns = catalogue.error_columns
    derived = spec.get("derived", {})
    for target, column in derived.items():
        if column not in columns:
            known = ", ".join(columns) or "none"
            problems.append(
                identity.diagnostic(
                    ["builders", "derived", target], f"{column!r} is not a column of errors.yaml (it has: {known})"
                )
            )
    if problems:
        return None, problems
    refs = Resolver.of_document(schema)
    success_constants = tuple(constants(refs, shapes["success"]))
    error_constants = tuple(constants(refs, shapes["error"]))
    code, message = spec["code"], spec.get("message")
    error_pointers = [p for p, _ in error_constants] + [code, *([message] if message else []), *derived]
    return (
        Builders(
            success_constants=success_constants,
            error_constants=error_constants,
            code=code,
            message=message,
            derived=tuple(sorted(derived.items())),
            error_defaults=tuple(null_defaults(refs, shapes["error"], code, error_pointers)),
            message_required=message is not None
            and always_present(refs, shapes["error"], decode(message), decode(code)),
            success=shape(refs, shapes["success"], spec.get("success", ""), view, [p for p, _ in success_constants]),
            error=shape(refs, shapes["error"], spec.get("error", ""), view, error_pointers),
        ),
        [],
    )
