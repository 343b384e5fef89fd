"""`JudgedRootModel`, the base of a generated model whose value is not one object, in a module
of its own: pydantic builds its `RootModel` class when `pydantic.root_model` is first
imported (a validator, a serializer and a look for pydantic's plugins in every installed
distribution's metadata), so only a contract that has a root model imports this module, and
a contract without one builds nothing at import."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict, RootModel

from .models import _JSON_NAMES, _Judged

if TYPE_CHECKING:
    _AnyRoot = RootModel[Any]
else:
    # Not parametrized at run time: pydantic builds a parametrized model's validator as it
    # makes the class, and a subclass of `JudgedRootModel[X]` would build this one's. Each
    # generated root model types its `root` itself.
    _AnyRoot = RootModel


class JudgedRootModel(_Judged, _AnyRoot):
    """A generated model whose value is not one object: a union, a list or a scalar."""

    model_config = ConfigDict(defer_build=True, **_JSON_NAMES)
