"""Tool manifests: faithful to upstream TuitBot's committed file.

Their bytes are pinned by the golden test (generated/ is what schemas/ produce, and
generated/manifests/ is committed), so they are not snapshotted a second time here.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import GENERATED, load_json

UPSTREAM_FIELDS = (
    "name",
    "category",
    "mutation",
    "requires_x_client",
    "requires_llm",
    "requires_db",
    "profiles",
    "possible_error_codes",
)


def test_tuitbot_manifest_keeps_upstreams_file_byte_for_byte(reference: Path) -> None:
    upstream = (reference / "tuitbot" / "session-05-tool-manifest.json").read_text(encoding="utf-8")
    ours = load_json(GENERATED / "manifests" / "tuitbot.json")
    kept = {
        "version": ours["version"],
        "tools": [{k: tool[k] for k in UPSTREAM_FIELDS if k in tool} for tool in ours["tools"]],
    }
    assert json.dumps(kept, indent=2) == upstream
    assert len(ours["tools"]) == 65


def test_every_possible_error_code_is_in_the_catalogue() -> None:
    from mcp_contracts import tuitbot

    codes = {c.value for c in tuitbot.ErrorCode}
    manifest = load_json(GENERATED / "manifests" / "tuitbot.json")
    named = {code for tool in manifest["tools"] for code in tool["possible_error_codes"]}
    assert named <= codes and len(named) == 24


def test_code_scalpel_manifest_names_the_twenty_contract_tools(reference: Path) -> None:
    import re

    readme = (reference / "README.md").read_text(encoding="utf-8")
    listed = re.search(r"twenty tool names: (.+?)\. Upstream", readme, re.S)
    assert listed is not None
    names = [n.strip() for n in listed.group(1).replace("\n", " ").split(",")]
    manifest = load_json(GENERATED / "manifests" / "code-scalpel.json")
    # In their order, then the three codescalpel 2.1.4 lists beyond them (imported from it).
    later = ["rename_symbol", "code_policy_check", "get_capabilities"]
    assert [t["name"] for t in manifest["tools"] if t["name"] not in later] == names
    assert [t["name"] for t in manifest["tools"]][len(names) :] == later
