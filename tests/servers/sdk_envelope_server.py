"""A Code Scalpel server written on the MCP SDK's `MCPServer` with the generated package:
each tool is annotated `-> Envelope` and returns what the builders make, so MCPServer
publishes the contract's own schema as each tool's `outputSchema` (the generated models
carry it) and checks every result against the model. `conform --contract code-scalpel`
says only the arguments it leaves out (tests/test_serve_with_sdk.py): the listing is what
clients read, so they never send those.

`security_scan` and `extract_code` take some of the arguments the contract gives them; the other
eighteen tools take none and are made in a loop. `extract_code` fails as its example does:
an error envelope in a result flagged `isError`, as the contract wants of errors; its
annotation `Annotated[CallToolResult, Envelope]` lets it build that result itself while
MCPServer still publishes the envelope's schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from mcp_contracts.code_scalpel import Envelope, error_response, success_response
from pydantic import Field

_CONTRACT_TOOLS = (
    ("analyze_code", "Parses source code and reports its structure."),
    ("unified_sink_detect", "Detects dangerous sinks across languages."),
    ("type_evaporation_scan", "Finds where type guarantees are lost across a boundary."),
    ("scan_dependencies", "Scans declared dependencies for known vulnerabilities."),
    ("symbolic_execute", "Explores execution paths symbolically."),
    ("generate_unit_tests", "Generates unit tests from code paths."),
    ("simulate_refactor", "Checks whether a proposed refactor keeps behaviour."),
    ("update_symbol", "Replaces a symbol's definition in a file."),
    ("crawl_project", "Walks a project and summarises its files."),
    ("get_file_context", "Summarises one file's contents and structure."),
    ("get_symbol_references", "Lists the references to a symbol."),
    ("get_call_graph", "Builds the call graph of a project."),
    ("get_graph_neighborhood", "Returns the neighbourhood of a node in the code graph."),
    ("get_project_map", "Maps a project's packages and modules."),
    ("get_cross_file_dependencies", "Resolves dependencies across files."),
    ("cross_file_security_scan", "Traces tainted data across files."),
    ("validate_paths", "Checks that paths exist and are accessible."),
    ("verify_policy_integrity", "Verifies that policy files have not been tampered with."),
)

app = MCPServer("code-scalpel")


def _served(tool_id: str, **data: object) -> Envelope:
    return success_response(
        tier="community",
        tool_version="3.2.8",
        tool_id=tool_id,
        request_id="0a46e6c2b6df4e938e8d16ffb567a9b2",
        capabilities=["envelope-v1"],
        error=None,
        upgrade_hints=[],
        data={"success": True, **data},
    )


@app.tool(description="Scans code for security vulnerabilities.")
def security_scan(code: Annotated[str | None, Field(description="The source code to scan.")] = None) -> Envelope:
    return _served("security_scan", risk_level="high" if "eval(" in (code or "") else "low", findings=[])


@app.tool(description="Extracts a function, class or method by name.")
def extract_code(
    target_name: Annotated[str, Field(description="The function, class or method to extract.")],
    target_type: Annotated[str, Field(description="function, class or method.")],
    file_path: Annotated[str | None, Field(description="The file to read.")] = None,
) -> Annotated[CallToolResult, Envelope]:
    failure = error_response(
        "not_found",
        f"File not found: {file_path}.",
        tier="community",
        tool_version="3.2.8",
        tool_id="extract_code",
        request_id="0a46e6c2b6df4e938e8d16ffb567a9b2",
        capabilities=["envelope-v1"],
        upgrade_hints=[],
        data={"success": False, "target_name": target_name},
        error={"error_details": None},
    )
    document = failure.model_dump(mode="json")
    text = TextContent(type="text", text=json.dumps(document))
    return CallToolResult(content=[text], structured_content=document, is_error=True)


def _tool(tool_id: str) -> Callable[[], Envelope]:
    def tool() -> Envelope:
        return _served(tool_id)

    tool.__name__ = tool_id
    return tool


for _name, _description in _CONTRACT_TOOLS:
    app.tool(name=_name, description=_description)(_tool(_name))


if __name__ == "__main__":
    app.run()
