"""A server author's road with the generated npm package, end to end: `init`, `generate` with
`languages = ["typescript"]`, `npm install` and `npm pack` of the package (its `prepack`
script compiles `dist/`), a TypeScript server project that depends on the tarball beside the
MCP SDK, its `server.ts` importing the installed package by name and compiled by `tsc
--strict`, and `conform` holding that server, run by node, to the contract: nothing to say.
(tests/test_install_end_to_end.py is the same road with pip and the Python package.)

Under `slow`: npm installs the versions tests/ts/package.json pins, from its cache (which
`npm ci` in tests/ts filled) or the registry."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest
from conform_json import conform_report
from conftest import load_json, run_cli
from typescript_toolchain import TS, npm_or_skip

pytestmark = pytest.mark.slow

NAME, VERSION = "billing-contracts", "1.2.0"  # the Python distribution's settings, which npm's package takes
SETTINGS = f'languages = ["typescript"]\ndistribution = "{NAME}"\ndistribution_version = "{VERSION}"\n'
# The revisions the pinned TypeScript SDK (1.32.2) answers as asked.
SDK_REVISIONS = ("2025-03-26", "2025-06-18", "2025-11-25")

# The server's own code, as its author writes it: the tool's config (zod schemas judged by the
# published ones) and the builders, from the installed package's module. Under --strict, tsc
# takes the import only with the declarations the package's `exports` point at.
SERVER = f"""\
import {{ McpServer }} from "@modelcontextprotocol/sdk/server/mcp.js";
import {{ StdioServerTransport }} from "@modelcontextprotocol/sdk/server/stdio.js";
import {{ TOOLS, successResponse, type Envelope }} from "{NAME}/billing_api";

const server = new McpServer({{ name: "billing", version: "1.0.0" }});
const tool = TOOLS.example_tool;
server.registerTool(tool.name, tool.config, async (args) => {{
  const text: string = args.text ?? "";
  const envelope: Envelope = successResponse({{ data: {{ echo: text }} }});
  return {{ structuredContent: envelope, content: [{{ type: "text", text: JSON.stringify(envelope) }}] }};
}});
await server.connect(new StdioServerTransport());
"""
# skipLibCheck: the SDK's stdio declarations name node's types, which the project leaves out.
TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022",
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "types": [],
        "strict": True,
        "skipLibCheck": True,
        "outDir": "dist",
    },
    "files": ["server.ts"],
}


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done


def test_an_sdk_server_on_the_packed_npm_package_conforms(tmp_path: Path) -> None:
    npm = npm_or_skip("typescript", "zod", "@modelcontextprotocol/sdk")
    offline = ("--prefer-offline", "--no-audit", "--no-fund")
    pins = load_json(TS / "package.json")["dependencies"]
    project = tmp_path / "billing"
    project.mkdir()
    assert run_cli("init", "billing-api", cwd=project).returncode == 0
    pyproject = project / "pyproject.toml"
    said = pyproject.read_text(encoding="utf-8")
    assert 'languages = ["python"]' in said  # the line init writes
    assert 'package = "billing_api_contracts"' in said  # and the names, ours in place of its `distribution`
    said = "".join(line for line in said.splitlines(keepends=True) if not line.startswith("distribution = "))
    pyproject.write_text(said.replace('languages = ["python"]', SETTINGS), encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0

    # Built and packed where it is, as its README says: npm's node_modules/, dist/ and lockfile
    # stay beside the generated files, which `check` passes over and `generate` keeps.
    build = project / "generated" / "typescript" / "billing_api_contracts"
    _run([npm, "install", *offline], build)
    packed = tmp_path / "packed"
    packed.mkdir()
    listing = json.loads(_run([npm, "pack", "--json", "--pack-destination", str(packed)], build).stdout)
    tarball = packed / f"{NAME}-{VERSION}.tgz"
    assert [entry["filename"] for entry in listing] == [tarball.name]
    with tarfile.open(tarball) as archive:
        members = set(archive.getnames())
    assert {"package/package.json", "package/dist/billing_api/index.js", "package/dist/billing_api/index.d.ts"} <= (
        members
    )
    assert not any(member.startswith("package/src/") for member in members)  # `files`: dist only

    server = tmp_path / "server"
    server.mkdir()
    manifest = {
        "name": "billing-server",
        "private": True,
        "type": "module",
        "dependencies": {
            NAME: f"file:{tarball}",
            "@modelcontextprotocol/sdk": pins["@modelcontextprotocol/sdk"],
            "zod": pins["zod"],
        },
        "devDependencies": {"typescript": pins["typescript"]},
    }
    (server / "package.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    (server / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2), encoding="utf-8")
    (server / "server.ts").write_text(SERVER, encoding="utf-8")
    _run([npm, "install", *offline], server)
    _run([str(server / "node_modules" / ".bin" / "tsc"), "-p", str(server), "--strict"], server)
    compiled = server / "dist" / "server.js"
    assert f'from "{NAME}/billing_api"' in compiled.read_text(encoding="utf-8")  # by name, not by path

    # The name resolves, from the server, to the copy npm unpacked into its node_modules.
    installed = server / "node_modules" / NAME
    assert installed.is_dir() and not installed.is_symlink()
    script = f'console.log(new URL(import.meta.resolve("{NAME}/billing_api")).pathname)'
    node = shutil.which("node") or "node"
    resolved = Path(_run([node, "--input-type=module", "-e", script], server).stdout.strip())
    assert resolved == installed / "dist" / "billing_api" / "index.js"
    assert resolved.resolve().is_relative_to(installed.resolve())

    protocols = [flag for revision in SDK_REVISIONS for flag in ("--protocol", revision)]
    options = ("--format", "json", "--timeout", "60", *protocols)
    result = run_cli("conform", "--contract", "billing-api", *options, "--", node, str(compiled), cwd=project)
    report = conform_report(result.stdout)
    assert result.returncode == 0, report
    assert (report["conforms"], report["findings"], report["tools_listed"]) == (True, [], 1)
    assert report["calls"] == len(SDK_REVISIONS)  # the example call, at each revision
    assert {"node_modules", "dist", "package-lock.json"} <= {entry.name for entry in build.iterdir()}
    assert run_cli("check", "--full", cwd=project).returncode == 0, "the build state is no drift"

    # A schema edit: `generate` replaces the generated files and keeps the build, which packs again.
    schema = project / "schemas" / "contracts" / "billing-api" / "envelope.schema.json"
    document = load_json(schema)
    schema.write_text(json.dumps({**document, "description": "Edited."}, indent=2), encoding="utf-8")
    assert run_cli("generate", cwd=project).returncode == 0
    assert (build / "node_modules" / ".bin" / "tsc").is_symlink()
    _run([npm, "pack", "--offline", "--pack-destination", str(packed)], build)
    with tarfile.open(tarball) as archive:
        judge = archive.extractfile("package/dist/billing_api/judge.js")
        assert judge is not None and b"Edited." in judge.read()
    assert run_cli("check", "--full", cwd=project).returncode == 0
