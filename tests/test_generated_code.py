"""Behaviour of the generated package: catalogues match their seeds, models are strict."""

from __future__ import annotations

import re

import black
import mcp_contracts
import pytest
from conftest import GENERATED, REFERENCE, SEEDS, require_shared
from mcp_contracts import code_scalpel, foundry, jsonrpc, mcp_envelope, tuitbot
from mcp_contracts_generator.render.models_code import BLACK_MODE
from pydantic import ValidationError


def seed_text(number: str) -> str:
    require_shared()
    [seed] = SEEDS.glob(f"{number}_*.txt")
    return seed.read_text(encoding="utf-8")


def test_package_lists_every_contract() -> None:
    assert mcp_contracts.CONTRACTS == {
        "code-scalpel": "code_scalpel",
        "foundry": "foundry",
        "jsonrpc": "jsonrpc",
        "mcp-envelope": "mcp_envelope",
        "tuitbot": "tuitbot",
    }


def test_tuitbot_catalogue_is_seed_004() -> None:
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+?) \| (Yes|No) \| ([^|]+?) \|$", seed_text("004"), re.M)
    assert len(rows) == 27
    assert [c.value for c in tuitbot.ErrorCode] == [code for code, *_ in rows]
    for code, category, retryable, description in rows:
        info = tuitbot.error_info(code)
        assert (info.category, info.retryable, info.description) == (category, retryable == "Yes", description)
    listed = re.search(r"Retryable codes: (.+)\.", seed_text("004"))
    assert listed is not None
    assert {c.value for c in tuitbot.errors.RETRYABLE_CODES} == set(re.findall(r"`(\w+)`", listed.group(1)))


def test_code_scalpel_catalogue_is_the_registry() -> None:
    require_shared()
    readme = (REFERENCE / "README.md").read_text(encoding="utf-8")
    registry = re.search(r"one of eleven registry codes: (.+?)\. Its", readme, re.S)
    assert registry is not None
    assert [c.value for c in code_scalpel.ErrorCode] == re.findall(r"`(\w+)`", registry.group(1))


def test_jsonrpc_catalogue_maps_each_code_as_seed_003() -> None:
    rows = re.findall(r"^\| ``(\w+)`` +\| (\d+) +\| (-\d+) +\| ``([^`]+)`` +\|", seed_text("003"), re.M)
    assert len(rows) == 4
    for code, http, rpc, message in rows:
        info = jsonrpc.error_info(code)
        assert (info.http_status, info.jsonrpc_code, info.message) == (int(http), int(rpc), message)


def test_foundry_error_types_and_codes_are_seed_001() -> None:
    text = seed_text("001")
    types = re.findall(r"^\| `(\w+)` \| (\d{3}) \| [^|]+ \| (No|Maybe|Yes)[^|]*\|$", text, re.M)
    assert len(types) == 9
    for name, http, retry in types:
        info = foundry.errors.error_type_info(name)
        assert (info.http_status, info.retry) == (int(http), retry.lower())
    common = text.split("### Common Error Codes", 1)[1].split("## Helper Usage", 1)[0]
    codes = re.findall(r"^\| `([A-Z_]+)` \| (\w+) \| [^|]+\|$", common, re.M)
    assert len(codes) == 14
    for code, error_type in codes:
        info = foundry.error_info(code)
        assert info.error_type == error_type
        assert info.http_status == foundry.errors.error_type_info(error_type).http_status
    warnings = re.findall(r"^\| `([A-Z_]+)` \| (info|warning|error) \| [^|]+\|$", text, re.M)
    assert [(w.value, foundry.errors.warning_info(w).severity) for w in foundry.errors.WarningCode] == warnings


@pytest.mark.parametrize("module", [code_scalpel, foundry, jsonrpc, mcp_envelope, tuitbot])
def test_lookup_of_an_unknown_code_raises_key_error(module: object) -> None:
    with pytest.raises(KeyError):
        module.error_info("NO_SUCH_CODE")  # type: ignore[attr-defined]
    first = next(iter(module.ErrorCode))  # type: ignore[attr-defined]
    assert module.error_info(first.value).code is first  # type: ignore[attr-defined]


def test_metadata_tables_are_read_only() -> None:
    with pytest.raises(TypeError):
        tuitbot.ERRORS[tuitbot.ErrorCode.DB_ERROR] = None  # type: ignore[index]


VALID_TUITBOT = {"success": True, "data": {"n": 1}, "meta": {"tool_version": "1.0", "elapsed_ms": 183}}


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("meta", "elapsed_ms"), "183"),  # a numeric string is not an integer
        (("meta", "elapsed_ms"), -1),  # never negative
        (("success",), "yes"),  # a string is not a boolean
        (("meta",), None),  # absent is allowed, null is not
        (("meta", "tool_version"), 1),
    ],
)
def test_models_are_strict(path: tuple[str, ...], value: object) -> None:
    instance = {**VALID_TUITBOT, "meta": dict(VALID_TUITBOT["meta"])}
    target: dict[str, object] = instance
    for key in path[:-1]:
        target = target[key]  # type: ignore[assignment]
    target[path[-1]] = value
    tuitbot.TuitbotEnvelope.model_validate(VALID_TUITBOT)
    with pytest.raises(ValidationError):
        tuitbot.TuitbotEnvelope.model_validate(instance)


def test_null_is_not_a_list() -> None:
    envelope = {
        "tier": "community",
        "tool_version": "1.0.0",
        "tool_id": "extract_code",
        "request_id": "r1",
        "capabilities": None,
        "error": None,
        "upgrade_hints": [],
        "data": None,
    }
    with pytest.raises(ValidationError):
        code_scalpel.CodeScalpelEnvelope.model_validate(envelope)
    envelope["capabilities"] = ["envelope-v1"]
    code_scalpel.CodeScalpelEnvelope.model_validate(envelope)


def test_tuitbot_models_enforce_the_rules_expressed_as_variants() -> None:
    model = tuitbot.TuitbotEnvelope
    wrong_flag = {"success": False, "data": None, "error": {"code": "db_error", "message": "x", "retryable": False}}
    no_error = {"success": False, "data": None}
    half_workflow = {
        "success": True,
        "data": None,
        "meta": {"tool_version": "1.0", "elapsed_ms": 1, "mode": "autopilot"},
    }
    for instance in (wrong_flag, no_error, half_workflow):
        with pytest.raises(ValidationError):
            model.model_validate(instance)
    wrong_flag["error"]["retryable"] = True  # type: ignore[index]
    model.model_validate(wrong_flag)


def test_generated_python_is_black_formatted() -> None:
    """Templates render black-formatted code, so no formatter runs on their output."""
    files = sorted((GENERATED / "python").rglob("*.py"))
    assert len(files) >= 16
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert black.format_str(text, mode=BLACK_MODE) == text, path
