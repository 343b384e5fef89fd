"""What can be proven of every instance a schema accepts, from the schema alone."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .resolver import Resolver

_PROOF_DEPTH = 64


def always_object(document: Any) -> bool:
    """Whether every instance a self-contained schema accepts is a JSON object: its root says
    `"type": "object"`, or every branch of its `oneOf`/`anyOf` (or one `allOf` member, a
    `$ref`'s target, both of `then` and `else`) is so; `const` and `enum` by their values.

    A proof, not a guess: where one cannot be made (a cycle, `not`, a depth past 64) the
    answer is False. So `"type": "object"` beside the root keeps every verdict when True.
    """
    resolver = Resolver.of_document(document)
    return _prover(resolver)(document, resolver.root_uri, 0)


def objects_only(references: Iterable[str], document: Any) -> list[bool]:
    """For each reference, whether `always_object` holds of `document` with that `$ref` at
    its root (its other keywords judge nothing: `$defs`, `$schema`): the document is read
    once for them all, where `always_object` of each would read it again."""
    resolver = Resolver.of_document(document)
    proves = _prover(resolver)
    return [proves({"$ref": reference}, resolver.root_uri, 0) for reference in references]


def _prover(resolver: Resolver) -> Callable[[Any, str, int], bool]:
    """The proof of `always_object` over the schemas `resolver` has read."""

    def proves(node: Any, base: str, depth: int) -> bool:
        """`base` is the base inside `node`."""
        if node is False:
            return True  # accepts nothing: no instance that is not an object
        if not isinstance(node, dict) or depth > _PROOF_DEPTH:
            return False
        kind = node.get("type")
        if kind == "object" or kind == ["object"]:
            return True
        if "const" in node:
            return isinstance(node["const"], dict)
        if isinstance(node.get("enum"), list):
            return all(isinstance(value, dict) for value in node["enum"])

        def sub(child: Any) -> bool:
            return proves(child, resolver.base_within(child, base), depth + 1)

        reference = node.get("$ref")
        if isinstance(reference, str):
            target = resolver.resolve(reference, base)
            if target is not None and proves(target.node, target.base, depth + 1):
                return True
        members = node.get("allOf")
        if isinstance(members, list) and any(sub(m) for m in members):
            return True
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if isinstance(branches, list) and branches and all(sub(b) for b in branches):
                return True
        conditional = all(k in node for k in ("if", "then", "else"))  # without `if`, they say nothing
        return conditional and all(sub(node[k]) for k in ("then", "else"))

    return proves
