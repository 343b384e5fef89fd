"""A TypeScript SDK server built on the generated TypeScript package conforms (issue 21).

tests/ts/contract_server.mjs registers every tool of a contract's `TOOLS` with the npm SDK's
`McpServer.registerTool`, as the generated zod schemas give them, and answers each example
call of the contract with what the generated builders build (`successResponse` and
`errorResponse` with the example's members) or, without builders, with the example judged by
`parseEnvelope`. `mcp-contracts conform` then holds it to the contract over stdio: 0 findings,
at each revision the SDK speaks (1.32.2: up to 2025-11-25; it does not answer 2026-07-28).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conform_json import conform_report
from conftest import CONTRACTS, SCHEMAS, run_cli
from mcp_contracts_generator import api
from mcp_contracts_generator.schema.pointer import value_at
from mcp_contracts_generator.serving.served import ServedContract, served
from typescript_toolchain import TS

pytestmark = [pytest.mark.xdist_group("typescript-package"), pytest.mark.slow]  # tsc builds, node runs
# The revisions the pinned TypeScript SDK (1.32.2) answers as asked.
SDK_REVISIONS = ("2025-03-26", "2025-06-18", "2025-11-25")


@pytest.fixture(scope="module")
def built_ins() -> dict[str, ServedContract]:
    loaded = api.load(SCHEMAS).project
    assert loaded is not None
    return {c.name: served(c) for c in loaded.contracts}


def answers(contract: ServedContract) -> list[dict[str, Any]]:
    """How the server answers each example call: by the builders where the contract has them."""
    builders = contract.contract.builders
    found = []
    for tool in contract.tools:
        for call in tool.calls:
            answer: dict[str, Any] = {"tool": tool.name, "arguments": call.arguments}
            document = call.result
            code = contract.error_code(document) if document is not None else None
            if document is None:
                answer.update(build="success", args=[])
            elif not tool.structured and code is None:
                answer.update(build="text", text=json.dumps(document))
            elif builders is None:
                answer.update(build="judge", args=[document])
            elif code is None:
                answer.update(build="success", args=[document])
            else:
                message = [value_at(document, builders.message)] if builders.message else []
                answer.update(build="error", args=[code, *message, document])
            found.append(answer)
    return found


@pytest.mark.parametrize("name", CONTRACTS)
def test_a_typescript_sdk_server_on_the_generated_package_conforms(
    name: str, node: str, built: Path, built_ins: dict[str, ServedContract], tmp_path: Path
) -> None:
    contract = built_ins[name]
    spec = tmp_path / "answers.json"
    spec.write_text(json.dumps(answers(contract)), encoding="utf-8")
    module = built / "dist" / contract.contract.module / "index.js"
    protocols = [flag for revision in SDK_REVISIONS for flag in ("--protocol", revision)]
    if set(SDK_REVISIONS) - set(contract.contract.protocol):
        protocols = [f for r in contract.contract.protocol if r in SDK_REVISIONS for f in ("--protocol", r)]
    server = ["--", node, str(TS / "contract_server.mjs"), str(module), str(spec)]
    result = run_cli("conform", "--contract", name, "--format", "json", *protocols, *server)
    report = conform_report(result.stdout)
    assert report["findings"] == [], json.dumps(report["findings"], indent=1)
    assert result.returncode == 0, result.stdout + result.stderr
    assert report["calls"] == sum(len(t.calls) for t in contract.tools) * (len(protocols) // 2)
