"""Flag values of the plain kinds this command line takes, converted without pydantic.

typer 0.29 converts every parameter's value through a pydantic `TypeAdapter` it builds on
first use, `--help` included: that imports pydantic (about 100 ms) in every command,
`--help` of a command and `check` answered from the cache among them. `install` puts
a converter in front for the kinds those commands take (a string, a path, a choice of an
enum, a flag, a list of those), made of typer's own pydantic-free steps (`coerce_cli_path`,
`coerce_cli_choice`), so the values are the ones typer gives. Any other kind (a number with
bounds...) and any value the converter does not accept as it is go to typer's own
conversion, which says what is wrong in its own words. When typer's internals are not the
ones this was written for, `install` changes nothing.
"""

from __future__ import annotations

import os
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

_NOT_PLAIN = object()


def _plain(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """`value` converted as typer converts it to `annotation`, or `_NOT_PLAIN`."""
    from typer._param_types import coerce_cli_choice, coerce_cli_path

    if get_origin(annotation) is list:
        (item,) = get_args(annotation) or (Any,)
        if not isinstance(value, list | tuple):
            return _NOT_PLAIN
        items = [_plain(item, info, one, param, ctx) for one in value]
        return _NOT_PLAIN if any(one is _NOT_PLAIN for one in items) else items
    if get_origin(annotation) is not None or info.parser is not None:
        return _NOT_PLAIN
    if annotation is bool:
        return value if isinstance(value, bool) else _NOT_PLAIN
    if annotation is str:
        return value if isinstance(value, str) else _NOT_PLAIN
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        try:
            return coerce_cli_choice(value, choices=tuple(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
        except ValueError:
            return _NOT_PLAIN
    if annotation is Path and info.path_type is None and isinstance(value, str | os.PathLike):
        return coerce_cli_path(Path(value), info, path_type=None, param=param, ctx=ctx)
    return _NOT_PLAIN


def install() -> None:
    """Put the plain converter in front of typer's own for every parameter of this process."""
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer.core import _TyperParameter
    except ImportError:  # another typer: its own conversion, unchanged
        return
    if getattr(_TyperParameter.get_runtime_param, "plain", False) or not hasattr(RuntimeParam, "_coerce_value"):
        return

    class PlainRuntimeParam(RuntimeParam):
        """typer's conversion, without building it while the value is a plain one."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            plain = _plain(self.annotation, self.parameter_info, value, param, ctx)
            if plain is not _NOT_PLAIN:
                return plain
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            if descriptor.file_annotation is not None:
                self._runtime_param = build_runtime_param(descriptor)
            else:
                self._runtime_param = PlainRuntimeParam(descriptor.parameter_info, descriptor.annotation)
        return self._runtime_param

    get_runtime_param.plain = True  # type: ignore[attr-defined]
    _TyperParameter.get_runtime_param = get_runtime_param  # type: ignore[method-assign]
