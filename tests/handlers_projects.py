"""Contracts of tests/contracts generated in Python and TypeScript, and the TypeScript server on
the generated `Handlers` (tests/ts/handlers_server.mjs) that answers their examples: shared by
tests/test_typescript_server.py and tests/test_cross_language.py (issue 48)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_cli
from mcp_contracts_generator import api
from mcp_contracts_generator.naming import tool_method
from mcp_contracts_generator.serving.answers import success
from mcp_contracts_generator.serving.mock import _block
from mcp_contracts_generator.serving.served import ServedContract, served
from typescript_toolchain import TS, compile_package, node_or_skip

# The revisions the pinned TypeScript SDK (1.32.2) answers as asked.
SDK_REVISIONS = ("2025-03-26", "2025-06-18", "2025-11-25")


class Projects:
    """Contracts of tests/contracts, each generated in a project of its own with TypeScript (the
    bookshop: a resource and a prompt; conformance-fixtures: templates, a JSON resource, tools
    whose results are images, audio, an embedded resource), its package compiled once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made: dict[str, tuple[Path, Path]] = {}

    def __call__(self, name: str, edit: Callable[[Path], None] | None = None, key: str = "") -> tuple[Path, Path]:
        """The schemas folder and the compiled TypeScript package of the contract `name`; `edit`
        changes its copied folder first (a variant, kept under `key`)."""
        if (key or name) not in self.made:
            project = self.folder / (key or name)
            shutil.copytree(ROOT / "tests" / "contracts" / name, project / "schemas" / "contracts" / name)
            if edit is not None:
                edit(project / "schemas" / "contracts" / name)
            (project / "pyproject.toml").write_text(
                '[tool.mcp-contracts]\nlanguages = ["python", "typescript"]\n', encoding="utf-8"
            )
            made = run_cli("generate", cwd=project)
            assert made.returncode == 0, made.stdout + made.stderr
            typescript = project / "generated" / "typescript" / package_of(name)
            compiled = compile_package(typescript, project / "built")
            assert compiled.returncode == 0, compiled.stdout + compiled.stderr
            self.made[key or name] = (project / "schemas", project / "built")
        return self.made[key or name]


def package_of(name: str) -> str:
    """The generated package of a project whose one contract is `name`: named after it."""
    return f"{name.replace('-', '_')}_contracts"


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> Projects:
    node_or_skip("typescript", "zod", "@modelcontextprotocol/sdk")
    return Projects(tmp_path_factory.mktemp("projects"))


def _served(schemas: Path) -> ServedContract:
    loaded = api.load(schemas).project
    assert loaded is not None and len(loaded.contracts) == 1
    return served(loaded.contracts[0])


def with_defaults(schema: Any, arguments: Any) -> Any:
    """`arguments` as a handler sees them: the default of each top-level property of `schema`
    they leave out filled in (pydantic's; the TypeScript server's too)."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or not isinstance(arguments, dict):
        return arguments
    filled = {k: p["default"] for k, p in properties.items() if isinstance(p, dict) and "default" in p}
    return {**filled, **arguments}


def handler_answers(contract: ServedContract, omit: tuple[str, ...] = ()) -> dict[str, Any]:
    """What tests/ts/handlers_server.mjs answers: each example call (its arguments as a handler
    sees them, `with_defaults`) with its example document (an error thrown as a ToolFailure),
    any other call with the tool's default success (the mock's own; a content tool's, the
    contract's first success example, or the mock's block where its results are of other types
    than text)."""
    calls, defaults = [], {}
    for tool in contract.tools:
        for call in tool.calls:
            if call.result is not None:
                error = contract.error_code(call.result) is not None
                arguments = with_defaults(tool.listing.get("inputSchema"), call.arguments)
                calls.append({"tool": tool.name, "arguments": arguments, "document": call.result, "error": error})
        if tool.structured:
            answer = success(contract, tool)
            defaults[tool.name] = answer.document if answer.problem is None and answer.text is None else None
        else:
            defaults[tool.name] = next((d for _, d in contract.examples if contract.error_code(d) is None), None)
    methods = {tool.name: tool_method(tool.name) for tool in contract.tools}
    blocks = {
        tool.name: [_block(tool, "done", False).model_dump(by_alias=True, exclude_none=True, mode="json")]
        for tool in contract.tools
        if not tool.structured and "text" not in (tool.content_types or {"text"})
    }
    return {"calls": calls, "defaults": defaults, "blocks": blocks, "methods": methods, "omit": list(omit)}


def _handlers_server(module: Path, contract: ServedContract, spec: Path, omit: tuple[str, ...] = ()) -> list[str]:
    spec.write_text(json.dumps(handler_answers(contract, omit)), encoding="utf-8")
    return [node_or_skip(), str(TS / "handlers_server.mjs"), str(module), str(spec)]


# Tools the bookshop's variant adds (`awkward_books`): named like members of a JavaScript class or
# of Object.prototype, with a secret argument, with an outputSchema of its own.
AWKWARD_TOOLS = """
  - name: constructor
    description: A tool named like a class's constructor.
    possible_error_codes: [invalid_argument]
    inputSchema: {type: object, properties: {n: {type: integer}}}
  - name: valueOf
    description: A tool named like a member of Object.prototype.
    possible_error_codes: [invalid_argument]
    inputSchema: {type: object, properties: {n: {type: integer}}}
  - name: toString
    description: Another, which no handler implements either.
    possible_error_codes: [invalid_argument]
    inputSchema: {type: object, properties: {n: {type: integer}}}
  - name: login
    description: A tool with a secret argument.
    possible_error_codes: [invalid_argument]
    secret_arguments: [password]
    inputSchema:
      type: object
      required: [user, password]
      properties:
        user: {type: string, maxLength: 20}
        password: {type: string, maxLength: 8}
  - name: stats
    description: A tool with an outputSchema of its own.
    possible_error_codes: [invalid_argument]
    inputSchema: {type: object, properties: {n: {type: integer, maximum: 5}}}
    outputSchema: {type: object, required: [count], properties: {count: {type: integer}}}
"""


def awkward_books(folder: Path) -> None:
    """The bookshop made awkward (`Projects("books", awkward_books, "awkward")`): the tools of
    AWKWARD_TOOLS; search_books's `limit` and `mode` with defaults; an error's message at most
    70 characters (get_book's refusal of an id is longer: the builders refuse it, the catalogue's
    fits); a resource with no contents of the contract's (`books://shelf`)."""
    tools = folder / "tools.yaml"
    text = tools.read_text(encoding="utf-8")
    label = "        label: {type: string, maxLength: 50, description: Only the books of this label.}\n"
    assert label in text
    defaults = "        limit: {type: integer, default: 10}\n        mode: {enum: [fast, slow], default: fast}\n"
    tools.write_text(text.replace(label, label + defaults) + AWKWARD_TOOLS, encoding="utf-8")
    envelope = folder / "envelope.schema.json"
    schema = json.loads(envelope.read_text(encoding="utf-8"))
    schema["$defs"]["ToolError"]["properties"]["message"]["maxLength"] = 70
    envelope.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    resources = folder / "resources.yaml"
    shelf = "  - uri: books://shelf\n    name: shelf\n    description: No handler reads it.\n    mimeType: text/plain\n"
    resources.write_text(resources.read_text(encoding="utf-8") + shelf, encoding="utf-8")
