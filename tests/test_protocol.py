"""The table of protocol revisions (`generator/protocol.py`) says what each revision's own
schema says: read off `../shared/reference/mcp-spec/schema-<revision>.json`."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import REFERENCE, ROOT, SCHEMAS, load_json, require_shared
from mcp_contracts_generator.protocol import REVISIONS, VERSIONS, Revision

require_shared()


def _definitions(version: str) -> dict[str, Any]:
    spec = load_json(REFERENCE / "mcp-spec" / f"schema-{version}.json")
    definitions: dict[str, Any] = spec.get("$defs") or spec["definitions"]
    return definitions


def _content_types(definitions: dict[str, Any]) -> set[str]:
    """The `type` const of every content block a `CallToolResult` may hold."""
    items = definitions["CallToolResult"]["properties"]["content"]["items"]
    branches = items.get("anyOf") or definitions[items["$ref"].rsplit("/", 1)[1]]["anyOf"]
    names = [branch["$ref"].rsplit("/", 1)[1] for branch in branches]
    return {definitions[name]["properties"]["type"]["const"] for name in names}


@pytest.mark.parametrize("revision", REVISIONS, ids=VERSIONS)
def test_each_fact_is_the_specifications(revision: Revision) -> None:
    definitions = _definitions(revision.version)
    tool = definitions["Tool"]["properties"]
    assert ("outputSchema" in tool) is revision.output_schema
    assert ("structuredContent" in definitions["CallToolResult"]["properties"]) is revision.output_schema
    if revision.output_schema:
        output = tool["outputSchema"]
        object_only = output.get("properties", {}).get("type", {}).get("const") == "object"
        assert object_only is revision.object_root
        structured = definitions["CallToolResult"]["properties"]["structuredContent"]
        assert (structured.get("type") == "object") is revision.object_root
    assert ("title" in tool) is revision.title
    assert "title" in definitions["ToolAnnotations"]["properties"]
    assert set(definitions["ListToolsResult"].get("required", [])) - {"tools"} == set(revision.listing_requires)
    assert set(definitions["CallToolResult"].get("required", [])) - {"content"} == set(revision.result_requires)
    assert _content_types(definitions) == set(revision.content)
    assert ("DiscoverRequest" not in definitions) is revision.handshake
    assert ("InitializeRequest" in definitions) is revision.handshake
    assert set(tool) == set(revision.tool_fields)


def test_the_revisions_are_the_ones_contract_yaml_takes_and_the_docs_tabulate() -> None:
    meta = load_json(SCHEMAS / "meta" / "contract.schema.json")
    assert meta["properties"]["protocol"]["items"]["enum"] == list(VERSIONS)
    assert list(VERSIONS) == sorted(VERSIONS)
    text = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    table = text[text.index("## Protocol revisions") :]
    assert "\n| | " + " | ".join(VERSIONS) + " |\n" in table  # a column each, in order
