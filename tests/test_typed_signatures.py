"""Signatures a server author's type checker can use (issue 32): a builder's parameter takes
the generated model where the view has a class for the member, or its JSON, in a `Sequence`
that takes a `list` of the models; an absent member is the runtime's `ABSENT`, which every
contract package exports, and no generated module a user imports names pydantic's
experimental `MISSING`; the root class opens models.py and the rest follow as a reader
meets them. A user's `mypy --strict` passes the right calls and refuses the wrong ones."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Any

import mcp_contracts.foundry as foundry_package
import pytest
from conftest import GENERATED, SCHEMAS
from mcp_contracts.code_scalpel import ABSENT as SCALPEL_ABSENT
from mcp_contracts.code_scalpel import builders as scalpel
from mcp_contracts.code_scalpel.models import ToolError, UpgradeHint
from mcp_contracts.foundry import ABSENT
from mcp_contracts.foundry.builders import success_response as foundry_success
from mcp_contracts.foundry.models import Meta, Pagination
from mcp_contracts_generator import api
from mcp_contracts_generator.render.python_format import absent_named
from mcp_contracts_generator.runtime import json_form

PYTHON = GENERATED / "python"
PACKAGE = PYTHON / "mcp_contracts"
HINT = {"feature": "taint", "tier": "pro", "reason": "Pro only."}


def _scalpel_success(**members: Any) -> Any:
    return scalpel.success_response(
        tier="community", tool_version="1.0.0", tool_id="scan", request_id="r1", capabilities=["scan"], **members
    )


def test_a_builder_takes_the_models_as_well_as_their_json() -> None:
    with_models = _scalpel_success(upgrade_hints=(UpgradeHint(**HINT),))
    with_json = _scalpel_success(upgrade_hints=[HINT])
    assert with_models.model_dump(mode="json") == with_json.model_dump(mode="json")
    assert with_models.model_dump(mode="json")["upgrade_hints"] == [HINT]
    error = ToolError.model_validate({"error": "boom", "error_code": "internal_error", "error_details": None})
    failed = _scalpel_success(upgrade_hints=[], error=error)
    assert failed.model_dump(mode="json")["error"]["error"] == "boom"
    meta = Meta(version="response-v2", pagination=Pagination(cursor="c2", has_more=True))
    page = foundry_success(data={}, meta=meta)
    assert page.model_dump(mode="json")["meta"] == {
        "version": "response-v2",
        "pagination": {"cursor": "c2", "has_more": True},
    }


def test_any_sequence_or_mapping_of_models_becomes_json() -> None:
    hint = UpgradeHint(**HINT)
    assert json_form(MappingProxyType({"a": (hint, [hint])})) == {"a": [HINT, [HINT]]}
    assert json_form(range(2)) == [0, 1] and json_form("text") == "text" and json_form(b"x") == b"x"
    plain = {"a": [1, {"b": 2}]}
    assert json_form(plain) is plain  # nothing to dump: not copied


def test_a_model_that_breaks_the_schema_is_refused_as_its_json_would_be() -> None:
    wrong = UpgradeHint.model_construct(feature="taint", tier="pro")  # built without its judge: no reason
    with pytest.raises(ValueError, match="reason"):
        _scalpel_success(upgrade_hints=[wrong])


def test_absent_is_the_runtimes_one_sentinel_and_a_dump_leaves_it_out() -> None:
    assert ABSENT is SCALPEL_ABSENT
    meta = Meta(version="response-v2")
    assert meta.request_id is ABSENT and meta.model_dump() == {"version": "response-v2"}
    assert "ABSENT" in foundry_package.__all__
    for module in sorted(PACKAGE.glob("*/*.py")):
        if module.parent.name != "_runtime":
            assert not re.search(r"\bMISSING\b", module.read_text(encoding="utf-8")), module


def test_a_property_named_like_the_sentinel_keeps_its_name() -> None:
    code = "class A(B):\n    MISSING: str | MISSING = MISSING\n    x: int | MISSING = MISSING\n"
    assert absent_named(code) == "class A(B):\n    MISSING: str | ABSENT = ABSENT\n    x: int | ABSENT = ABSENT\n"
    assert absent_named('x = "MISSING"  # MISSING\n') == 'x = "MISSING"  # MISSING\n'


def test_the_root_class_opens_models_py_and_the_rest_follow_as_a_reader_meets_them() -> None:
    loaded = api.load(SCHEMAS).project
    assert loaded is not None
    for contract in loaded.contracts:
        tree = ast.parse((PACKAGE / contract.module / "models.py").read_text(encoding="utf-8"))
        written = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
        assert written[0] == contract.root_model, contract.name
        view = [c.name for c in contract.view.classes]
        assert written == sorted(written, key=lambda name: view.index(name) if name in view else len(view))


USER_OK = """\
from mcp_contracts.code_scalpel import ABSENT, success_response
from mcp_contracts.code_scalpel.models import UpgradeHint
from mcp_contracts.foundry.models import Meta

hints: list[UpgradeHint] = [UpgradeHint(feature="taint", tier="pro", reason="Pro only.")]
reply = success_response(
    tier="community", tool_version="1", tool_id="scan", request_id="r", capabilities=[], upgrade_hints=hints
)
meta = Meta(version="response-v2")
request: str = meta.request_id if meta.request_id is not ABSENT else ""
"""
USER_WRONG = """\
from mcp_contracts.code_scalpel import success_response
from mcp_contracts.foundry.models import Meta

success_response(
    tier="gold", tool_version="1", tool_id="scan", request_id="r", capabilities=[], upgrade_hints=[42]
)
request: str = Meta(version="response-v2").request_id
"""


def test_a_users_mypy_strict_passes_the_right_calls_and_refuses_the_wrong_ones(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(USER_OK, encoding="utf-8")
    (tmp_path / "wrong.py").write_text(USER_WRONG, encoding="utf-8")
    env = {**os.environ, "MYPYPATH": str(PYTHON)}
    mypy = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "ok.py", "wrong.py"]
    ran = subprocess.run(mypy, cwd=tmp_path, capture_output=True, text=True, env=env)
    found = sorted(set(re.findall(r"^(\w+\.py):(\d+): error", ran.stdout, re.M)))
    assert found == [("wrong.py", "5"), ("wrong.py", "7")], ran.stdout
    assert 'Argument "tier" to "success_response" has incompatible type "Literal[\'gold\']"' in ran.stdout
    assert 'List item 0 has incompatible type "int"; expected "UpgradeHint | dict[str, Any]"' in ran.stdout
    assert 'Incompatible types in assignment (expression has type "str | MISSING"' in ran.stdout
