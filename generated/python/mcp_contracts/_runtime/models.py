# Copied by mcp-contracts from its generator/runtime/models.py. Do not edit.
# Needs at run time: pydantic>=2.14, jsonschema-rs>=0.60, msgspec>=0.19.
"""The bases of the generated models (a root model's, on the same `_Judged`, is in root.py;
the package's module says what they do). Nothing is built or read at import: the model
classes (`defer_build`), the bundled schema, msgspec and jsonschema-rs wait for the first use.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Self

from pydantic import (
    VERSION,
    BaseModel,
    ConfigDict,
    GetJsonSchemaHandler,
    ValidationError,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, InitErrorDetails, PydanticCustomError

from . import canary, json_text
from .json_text import NotJson, parse_json
from .judge import Judge
from .published import Published, let_through
from .view import Undecided, view_builder


def _not_json(title: str, problem: NotJson, data: object) -> ValidationError:
    error = PydanticCustomError(
        "json_invalid", "Invalid JSON: {error}", {"error": str(problem)}
    )
    return ValidationError.from_exception_data(
        title, [InitErrorDetails(type=error, loc=(), input=data)]
    )


# Each judged class's `is_valid` (the compiled validator's, of the class's location) and view
# builder, made on first use (`_Judged._fast`). The hot path reads them in one lookup here: an
# attribute of a pydantic model class costs more, its metaclass having a `__getattr__`.
_FAST: dict[type, tuple[Callable[[Any], bool], Callable[[Any], Any] | None]] = {}


class _Judged:
    """`model_validate` and `model_validate_json`: the judge first, then the typed view.

    `bind` sets the judge and the location of the class's own schema, so that a class
    used alone judges by its own subschema, and publishes it as its JSON Schema.
    Construction by keywords builds a view only.
    """

    # Declared for type checkers only: pydantic evaluates the annotations of every base of a
    # model class each time it makes one (a string annotation is compiled each time), and
    # these are no fields.
    if TYPE_CHECKING:
        __judge__: ClassVar[Judge]
        __location__: ClassVar[str]
        __published__: ClassVar[Published | None]
        __view__: ClassVar[Callable[[Any], Any] | None]
        __checked__: ClassVar[bool]
    __published__ = None
    __checked__ = False

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler, /
    ) -> JsonSchemaValue:
        """The contract's schema of the class, not one pydantic derives from its fields."""
        if cls.__published__ is None:
            return handler(core_schema)
        document = cls.__published__.document(cls.__location__)
        if let_through(handler, document):
            return document
        warnings.warn(
            f"{cls.__name__} publishes the JSON Schema pydantic derives from its fields, not its contract's:"
            f" pydantic {VERSION} is outside the runtime's tested range, or does not take the contract's document"
            " as it is (mcp-contracts' runtime)",
            RuntimeWarning,
            stacklevel=2,
        )
        return handler(core_schema)

    @classmethod
    def _judge(cls) -> Judge:
        judge: Judge | None = getattr(cls, "__judge__", None)
        if judge is None:
            raise TypeError(
                f"{cls.__name__} has no judge: import it through its contract package"
            )
        return judge

    @classmethod
    def _judged(cls, value: Any) -> None:
        cls._judge().check(value, cls.__location__, cls.__name__)

    @classmethod
    def _view(cls) -> Callable[[Any], Any] | None:
        """The function that builds this class's view of a judged value, made on first use
        (None: pydantic builds every view)."""
        if "__view__" not in cls.__dict__:
            cls.__view__ = view_builder(cls) if canary.PRIVATE else None
        return cls.__view__

    @classmethod
    def _fast(cls) -> tuple[Callable[[Any], bool], Callable[[Any], Any] | None]:
        """The compiled validator's `is_valid` of the class's location, and its view builder."""
        found = _FAST.get(cls)
        if found is None:
            view = cls._view()
            if view is not None and not cls.__dict__.get("__checked__"):
                view = partial(canary.checked, view, cls._pydantic_view, cls._trust)
            found = _FAST[cls] = (
                cls._judge().validator(cls.__location__).is_valid,
                view,
            )
        return found

    @classmethod
    def _trust(cls, trusted: bool) -> None:
        """The canary's verdict on the class's view builder: kept, or pydantic's way for good."""
        if not trusted:
            cls.__view__ = None
        cls.__checked__ = True
        if cls in _FAST:
            _FAST[cls] = (_FAST[cls][0], cls.__view__)

    @classmethod
    def _pydantic_view(cls, value: Any) -> Self:
        """pydantic's own view of `value`: its validation, the judge not asked."""
        return super().model_validate(value)  # type: ignore[misc, no-any-return]

    @classmethod
    def _built(
        cls, value: Any, options: Mapping[str, Any], view: Callable[[Any], Any] | None
    ) -> Self:
        """The view of a judged value: built at once by `view` where nothing is left to
        decide, else by pydantic's validation."""
        if view is not None and not options:
            try:
                built: Self = view(value)
                return built
            except Undecided:
                pass
        if options.get("by_name") or options.get("by_alias") is False:
            # the judge read the document's members by the schema's names: so does the view
            raise TypeError(
                f"{cls.__name__} reads a document by the schema's property names only: by_name=True and"
                " by_alias=False would read a member `from_` as the property `from`"
            )
        return super().model_validate(value, **options)  # type: ignore[misc, no-any-return]

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Self:
        if isinstance(obj, BaseModel):
            obj = obj.model_dump(mode="json", by_alias=True)
        cls._judged(obj)
        return cls._built(obj, options, cls._fast()[1])

    @classmethod
    def model_validate_json(
        cls, json_data: str | bytes | bytearray, **options: Any
    ) -> Self:
        # The hot path, kept short: read, judge, build the view; anything else takes the long way.
        is_valid, view = _FAST.get(cls) or cls._fast()
        try:
            value = json_text.decode(json_data)
        except (ValueError, RecursionError):
            try:
                value = parse_json(json_data)
            except NotJson as problem:
                raise _not_json(cls.__name__, problem, json_data) from None
        if not is_valid(value):
            cls._judge().refuse(value, cls.__location__, cls.__name__)
        if view is not None and not options:
            try:
                built: Self = view(value)
                return built
            except Undecided:
                pass
        return cls._built(value, options, None)


# A field whose property is no Python name (`from`, `retry-after`, `model_dump`) has that
# property as its alias. Documents give and take the schema's names, never the fields':
# every dump writes the aliases unless told `by_alias=False`, and validation reads the
# aliases only, so a member `from_` of an open object stays an extra member `from_`.
_JSON_NAMES = ConfigDict(
    serialize_by_alias=True, validate_by_alias=True, validate_by_name=False
)


class JudgedModel(_Judged, BaseModel):
    """A generated object model: it accepts exactly what its schema accepts."""

    # A property may be called anything (`model_dump`, `schema`): its field takes a name
    # with `_` appended, which pydantic would otherwise warn about on import.
    # Its validator and serializer are built on first use, not when the module is imported.
    model_config = ConfigDict(protected_namespaces=(), defer_build=True, **_JSON_NAMES)


def judged(model: type[_Judged], document: dict[str, Any]) -> dict[str, Any]:
    """`document` itself once `model`'s schema accepts it, judged as `model.model_validate`
    judges it, with the same error where it refuses it; no view is built. The builders'
    `*_document` return what this returns."""
    is_valid = (_FAST.get(model) or model._fast())[0]
    try:
        if is_valid(document):
            return document
    except ValueError:
        pass  # not JSON: the refusal says so
    model._judge().refuse(document, model.__location__, model.__name__)
    raise AssertionError("refuse raises")  # pragma: no cover


def bind(
    judge: Judge,
    locations: Mapping[type[_Judged], str],
    published: Published | None = None,
) -> None:
    """Give each generated model the judge and the location of its own schema, and the
    schemas it publishes."""
    for model, location in locations.items():
        model.__judge__ = judge
        model.__location__ = location
        model.__published__ = published
        _FAST.pop(model, None)
