"""The bar of the runtime's private paths (view.py reads pydantic's core schema and sets
`BaseModel`'s slots; published.py wraps two methods of its JSON Schema generator): taken on the
pydantic releases of `TESTED` only (`PRIVATE`), else pydantic's own, public way; and the canary
of the fast view, trusted for a class once the view it builds of a judged document is the one
pydantic's validation builds. A release that changes what a model holds, or what its serializer
reads, shows there on the class's first document, and the class takes pydantic's way for good.
The check costs one validation by pydantic and two dumps of each view, once per class.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pydantic import VERSION, BaseModel

from .view import LOG, Undecided

TESTED = ((2, 14, 3), (2, 15))  # first in, second out: CI runs `-m private_api` at both


def tested(version: str) -> bool:
    """Whether a pydantic release (`pydantic.VERSION`) is in `TESTED`; a pre-release is not."""
    release = tuple(int(part) for part in re.findall(r"\d+", version)[:3])
    return bool(re.fullmatch(r"[\d.]+", version)) and TESTED[0] <= release < TESTED[1]


PRIVATE = tested(VERSION)
_FAILED: Any = object()  # what a builder that raised built
_UNSET: Any = object()  # a slot an instance does not hold


def checked(
    view: Callable[[Any], Any], pydantic: Callable[[Any], Any], trust: Callable[[bool], None], value: Any
) -> Any:
    """The view of a judged `value`: `view`'s when it is the one `pydantic` builds, else
    pydantic's; `trust` is told which. `Undecided` from `view` passes through and tells
    nothing (pydantic builds that value; the next one is checked), and an error of pydantic's
    validation is raised once `trust` is told False."""
    try:
        built = view(value)
    except Undecided:
        raise
    except Exception:  # a builder that fails on a judged value is not one to keep
        LOG.debug("the fast view failed on a judged value", exc_info=True)
        built = _FAILED
    try:
        expected = pydantic(value)
    except Exception:
        trust(False)
        raise
    agreed = built is not _FAILED and agree(built, expected)
    trust(agreed)
    return built if agreed else expected


def agree(fast: Any, slow: Any) -> bool:
    """Whether two views are one: the same classes at every level, the same values of the
    same types, every slot of every model alike (fields set, extra members, private
    attributes), and the same dumps."""
    try:
        return _same(fast, slow) and _dumps(fast) == _dumps(slow)
    except Exception:  # a slot the serializer needs, unset by the builder; too deep
        LOG.debug("the fast view and pydantic's could not be compared", exc_info=True)
        return False


def _dumps(view: Any) -> tuple[Any, ...]:
    if not isinstance(view, BaseModel):
        return (view,)
    return view.model_dump(mode="json"), view.model_dump_json(exclude_unset=True)


def _same(fast: Any, slow: Any) -> bool:
    if type(fast) is not type(slow):
        return False
    if isinstance(slow, BaseModel):
        return all(_same(getattr(fast, name, _UNSET), getattr(slow, name, _UNSET)) for name in _slots(type(slow)))
    if isinstance(slow, dict):
        return list(fast) == list(slow) and all(_same(fast[key], value) for key, value in slow.items())
    if isinstance(slow, list):
        return len(fast) == len(slow) and all(map(_same, fast, slow))
    return bool(fast is slow or fast == slow)


def _slots(model: type) -> list[str]:
    """Every slot of a model class (`__dict__` and pydantic's own), whatever a release adds."""
    names: set[str] = set()
    for cls in model.__mro__:
        declared = cls.__dict__.get("__slots__", ())
        names.update((declared,) if isinstance(declared, str) else declared)
    return sorted(names)
