// The TypeScript SDK's client against one MCP server over stdio; tests/test_typescript_client.py
// judges what it prints.
//
//   node client.mjs CALLS.json
//
// CALLS.json: {"command": [argv of the server], "cwd": "folder" (optional),
//              "calls": [{"tool": "name", "arguments": {...}}, ...]}
//
// It connects (the SDK opens with `initialize`), lists the tools (the SDK compiles each
// `outputSchema` with its default ajv validator), then calls each tool (the SDK validates
// `structuredContent` against the `outputSchema`), and prints one JSON line:
//   {"protocolVersion", "server", "tools": [names], "calls": [{"tool", "isError",
//    "structuredContent", "error"}], "error"}
// where "error" is the message of what was thrown (null when nothing was). It judges nothing.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const [command, ...args] = spec.command;
const report = { protocolVersion: null, server: null, tools: null, calls: [], error: null };
const message = (error) => (error instanceof Error ? error.message : String(error));

const transport = new StdioClientTransport({ command, args, cwd: spec.cwd, env: { ...process.env }, stderr: "pipe" });
let stderr = "";
transport.stderr?.on("data", (chunk) => (stderr += chunk));
// A stdio transport has no use for the negotiated revision; the client hands it over all the same.
transport.setProtocolVersion = (version) => (report.protocolVersion = version);
const client = new Client({ name: "mcp-contracts-ts-test", version: "0.0.0" });

try {
  await client.connect(transport);
  report.server = client.getServerVersion() ?? null;
  report.tools = (await client.listTools()).tools.map((tool) => tool.name);
  for (const call of spec.calls) {
    const outcome = { tool: call.tool, isError: null, structuredContent: null, error: null };
    try {
      const result = await client.callTool({ name: call.tool, arguments: call.arguments });
      outcome.isError = result.isError ?? false;
      outcome.structuredContent = result.structuredContent ?? null;
      outcome.text = result.content?.[0]?.text ?? null;
    } catch (error) {
      outcome.error = message(error);
    }
    report.calls.push(outcome);
  }
} catch (error) {
  report.error = message(error);
  report.stderr = stderr.slice(-2000);
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(report) + "\n");
