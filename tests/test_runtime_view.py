"""The view a model builds of a judged document is the one pydantic's validation builds.

After the judge accepts a document, `model_validate_json` and `model_validate` build the
typed view with functions the runtime writes once per class from the class's core schema
(`_runtime/view.py`), without pydantic validating again. These tests hold that view to
pydantic's own, for every built-in example and for documents drawn from every built-in
schema: the same classes at every level, the same values of the same types, the same
fields set and extra members, the same dumps. The runtime checks it too, on each class's
first document (`_runtime/canary.py`), and takes pydantic's way where they differ.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from typing import Any

import pydantic
import pytest
from builtin_models import root_model
from conftest import CONTRACTS, GENERATED, SCHEMAS, load_json
from hypothesis import HealthCheck, given, settings
from mcp_contracts_generator import runtime
from mcp_contracts_generator.runtime import canary, view
from pydantic import BaseModel, ConfigDict, Field
from schema_strategies import from_schema

DRAWN_PER_CONTRACT = 150


def _pydantic_view(model: Any, value: Any) -> Any:
    """What pydantic's own validation builds of `value` (the judge is not asked)."""
    return BaseModel.model_validate.__func__(model, value)  # type: ignore[attr-defined]


def _same(fast: Any, slow: Any, where: str = "$") -> None:
    assert type(fast) is type(slow), f"{where}: {type(fast).__name__} is not {type(slow).__name__}"
    if isinstance(slow, BaseModel):
        assert list(fast.__dict__) == list(slow.__dict__), where
        assert fast.model_fields_set == slow.model_fields_set, where
        assert fast.__pydantic_private__ == slow.__pydantic_private__, where
        _same(fast.__pydantic_extra__, slow.__pydantic_extra__, f"{where} (extra)")
        for key, value in slow.__dict__.items():
            _same(fast.__dict__[key], value, f"{where}.{key}")
    elif isinstance(slow, dict):
        assert list(fast) == list(slow), where
        for key, value in slow.items():
            _same(fast[key], value, f"{where}[{key!r}]")
    elif isinstance(slow, list):
        assert len(fast) == len(slow), where
        for index, (one, other) in enumerate(zip(fast, slow, strict=True)):
            _same(one, other, f"{where}[{index}]")
    else:
        assert fast is slow or fast == slow, f"{where}: {fast!r} is not {slow!r}"


def _agree(model: Any, value: Any) -> None:
    fast = model.model_validate(value)
    slow = _pydantic_view(model, value)
    _same(fast, slow)
    assert fast.model_dump() == slow.model_dump()
    assert fast.model_dump_json() == slow.model_dump_json()
    assert fast.model_dump_json(by_alias=True, exclude_unset=True) == slow.model_dump_json(
        by_alias=True, exclude_unset=True
    )
    assert fast == slow


def _examples(contract: str) -> list[Any]:
    return [load_json(path) for path in sorted((SCHEMAS / "contracts" / contract / "examples").glob("*.json"))]


@pytest.mark.private_api
@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_built_in_class_has_a_fast_view(contract: str) -> None:
    model = root_model(contract)
    module = importlib.import_module(model.__module__)
    for cls in vars(module).values():
        if isinstance(cls, type) and hasattr(cls, "_view") and cls.__module__ == module.__name__:
            assert cls._view() is not None, cls.__name__  # type: ignore[attr-defined]


@pytest.mark.private_api
@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_view_of_every_example_is_pydantics(contract: str) -> None:
    model = root_model(contract)
    for example in _examples(contract):
        _agree(model, example)
        text = json.dumps(example)
        _same(model.model_validate_json(text), _pydantic_view(model, example))
    # the canary has kept the view: on this pydantic, the fast way is the one taken
    assert model.__dict__.get("__checked__") and model._fast()[1] is model._view() is not None  # type: ignore[attr-defined]


@pytest.mark.private_api
@pytest.mark.parametrize("contract", CONTRACTS)
def test_the_view_of_drawn_documents_is_pydantics(contract: str) -> None:
    model = root_model(contract)
    judge = importlib.import_module(model.__module__.rpartition(".")[0]).JUDGE
    schema = load_json(SCHEMAS / "contracts" / contract / "envelope.schema.json")
    seen = {"valid": 0}

    @settings(max_examples=DRAWN_PER_CONTRACT, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(from_schema(schema))
    def agree(instance: Any) -> None:
        if not judge.is_valid(instance):
            return
        seen["valid"] += 1
        _agree(model, instance)

    agree()
    assert seen["valid"] >= 10, seen


@pytest.mark.private_api
def test_an_undecided_value_takes_pydantics_way(monkeypatch: pytest.MonkeyPatch) -> None:
    model = root_model("tuitbot")
    example = _examples("tuitbot")[0]
    calls = []

    def undecided(value: Any) -> Any:
        calls.append(value)
        raise sys.modules["mcp_contracts._runtime.view"].Undecided

    fast = model._fast()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules["mcp_contracts._runtime.models"]._FAST, model, (fast[0], undecided))
    monkeypatch.setattr(model, "__view__", undecided, raising=False)
    built = model.model_validate_json(json.dumps(example))
    assert calls and built == _pydantic_view(model, example)
    assert model.model_validate(example) == built


@pytest.mark.private_api
def test_a_schema_the_compiler_does_not_follow_is_left_to_pydantic() -> None:
    class Constrained(runtime.JudgedModel):
        name: str
        count: int = 0

    Constrained.model_rebuild()
    schema = Constrained.__pydantic_core_schema__
    fields = schema["schema"]["fields"]  # type: ignore[index]
    fields["name"]["schema"] = {"type": "str", "min_length": 1}
    with pytest.raises(view._Unsupported):
        view._Compiler(schema)


@pytest.mark.private_api
def test_extra_members_where_allowed_are_kept_as_pydantic_keeps_them() -> None:
    class Open(runtime.JudgedModel):
        model_config = ConfigDict(extra="allow", defer_build=True)
        name: str
        tags: list[str] = Field(default=[])

    build = view.view_builder(Open)
    assert build is not None
    for value in ({"name": "a"}, {"name": "a", "more": {"x": [1]}}, {"name": "a", "tags": ["t"], "z": None}):
        _same(build(value), _pydantic_view(Open, value))
    first, second = build({"name": "a"}), build({"name": "b"})
    assert first.tags == [] and first.tags is not second.tags  # each instance its own copy of a default


def _judged_alone(model: Any) -> None:
    """`model` judged by a schema that takes any object: only its view is at stake."""
    runtime.bind(runtime.Judge("urn:example:any-object", {"urn:example:any-object": {"type": "object"}}), {model: ""})


@pytest.mark.private_api
def test_a_view_unlike_pydantics_is_dropped_on_the_first_document() -> None:
    """A core schema that says what pydantic's validator does not (as a pydantic release
    whose core schema the builder misreads would): the first document shows it, is built by
    pydantic, and so is every one after it."""

    class Counted(runtime.JudgedModel):
        name: str
        count: int = 0

    _judged_alone(Counted)
    Counted.model_rebuild()
    fields = Counted.__pydantic_core_schema__["schema"]["fields"]  # type: ignore[index]
    fields["count"]["schema"]["default"] = 1  # the builder reads 1; the validator, built already, fills 0
    assert Counted.model_validate({"name": "a"}).count == 0
    assert Counted._view() is None and Counted._fast()[1] is None  # type: ignore[attr-defined]
    assert Counted.model_validate_json(b'{"name": "b"}').count == 0


@pytest.mark.private_api
def test_a_view_like_pydantics_is_checked_once_then_built_directly() -> None:
    class Named(runtime.JudgedModel):
        name: str
        tags: list[str] = Field(default=[])

    _judged_alone(Named)
    checking = Named._fast()[1]  # type: ignore[attr-defined]
    assert checking is not Named._view()  # type: ignore[attr-defined]
    first = Named.model_validate_json(b'{"name": "a", "tags": ["x"]}')
    _same(first, _pydantic_view(Named, {"name": "a", "tags": ["x"]}))
    assert Named._fast()[1] is Named._view() is not None  # type: ignore[attr-defined]


@pytest.mark.private_api
def test_a_builder_that_fails_leaves_the_class_to_pydantic() -> None:
    """A core schema of a shape the builder does not read (a key it expects is gone), and a
    builder that raises on a judged document: neither reaches the caller."""

    class Reshaped(runtime.JudgedModel):
        name: str

    _judged_alone(Reshaped)
    Reshaped.model_rebuild()
    del Reshaped.__pydantic_core_schema__["schema"]["fields"]  # type: ignore[misc]
    assert Reshaped._view() is None  # type: ignore[attr-defined]
    assert Reshaped.model_validate({"name": "a"}).name == "a"

    class Raising(runtime.JudgedModel):
        name: str

    def broken(value: Any) -> Any:
        raise AttributeError("__pydantic_fields_set__")

    _judged_alone(Raising)
    Raising.__view__ = broken
    assert Raising.model_validate_json(b'{"name": "a"}').name == "a"
    assert Raising._fast()[1] is None  # type: ignore[attr-defined]


@pytest.mark.private_api
def test_a_model_without_a_slot_pydantic_sets_is_not_the_same_view() -> None:
    """As a pydantic release that adds a slot the builder does not set would show it."""

    class Slotted(runtime.JudgedModel):
        name: str

    made = Slotted(name="a")
    bare = object.__new__(Slotted)
    object.__setattr__(bare, "__dict__", {"name": "a"})
    assert canary.agree(Slotted(name="a"), made)
    assert not canary.agree(bare, made)


_BUILT_AT_IMPORT = (
    "import json, sys\n"
    "import pydantic\n"
    "import mcp_contracts.{module}\n"
    "def every(cls):\n"
    "    for sub in cls.__subclasses__():\n"
    "        yield sub\n"
    "        yield from every(sub)\n"
    "built = {{f'{{c.__module__}}.{{c.__qualname__}}' for c in every(pydantic.BaseModel) if c.__pydantic_complete__}}\n"
    "print(json.dumps([sorted(built), 'pydantic.root_model' in sys.modules]))\n"
)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_importing_a_contract_builds_no_model_class(contract: str) -> None:
    """No validator is built at import: not the runtime's bases, not a contract's classes. A
    contract with a root model imports pydantic's `RootModel`, which pydantic builds as it
    defines it; one without imports no `RootModel` at all."""
    module = contract.replace("-", "_")
    rooted = issubclass(importlib.import_module(f"mcp_contracts.{module}").Envelope, pydantic.RootModel)
    done = subprocess.run(
        [sys.executable, "-c", _BUILT_AT_IMPORT.format(module=module)],
        env={"PYTHONPATH": str(GENERATED / "python")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    built, loaded = json.loads(done.stdout)
    assert (built, loaded) == ((["pydantic.root_model.RootModel"], True) if rooted else ([], False))


def test_importing_a_contract_reads_no_schema_and_loads_no_judge() -> None:
    code = (
        "import sys, builtins\n"
        "opened = []\n"
        "real = builtins.open\n"
        "builtins.open = lambda f, *a, **k: (opened.append(str(f)), real(f, *a, **k))[1]\n"
        "import mcp_contracts.tuitbot as t\n"
        "assert 'jsonschema_rs' not in sys.modules, 'jsonschema_rs'\n"
        "assert 'msgspec' not in sys.modules, 'msgspec'\n"
        "assert not [f for f in opened if f.endswith('.json')], opened\n"
        "assert not t.Envelope.__pydantic_complete__\n"
        't.Envelope.model_validate_json(b\'{"success": true, "data": null}\')\n'
        "assert 'jsonschema_rs' in sys.modules and t.Envelope.__pydantic_complete__\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(GENERATED / "python")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
