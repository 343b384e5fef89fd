// Registers every tool of generated contract modules' `TOOLS` with the npm SDK's
// `McpServer.registerTool`, one server per module, and reads them back over an in-memory
// transport, as JSON text: what `tools/list` sends, and whether each call's arguments reach
// the handler. The requests are written here, not by the SDK's Client, whose parse of a
// listing drops a property named `__proto__`. tests/test_typescript_corpus.py compares the listing with the contract's
// `mcp/<name>.tools.json`, and the calls with the Python judge.
//
//   node sdk_tools.mjs [--zod=MAJOR.MINOR.PATCH] DIST CASES.json
//
// `--zod=`: see zod_release.mjs.
//
// CASES.json: [{"module", "calls": [{"tool", "arguments"}]}]. Prints one JSON array, an
// entry per case: {"tools": the listing's tools, "calls": [{"reached": whether the handler
// ran, "text": what the result said}]}, or {"error": "..."} for a module that does not serve.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

import { takeZodRelease } from "./zod_release.mjs";

const [dist, casesFile] = takeZodRelease(process.argv.slice(2));
const cases = JSON.parse(readFileSync(casesFile, "utf8"));

async function serve(group) {
  const contract = await import(pathToFileURL(join(dist, group.module, "index.js")).href);
  const server = new McpServer({ name: group.module, version: "1.0.0" }, { capabilities: { tools: {} } });
  let reached = false;
  for (const tool of Object.values(contract.TOOLS)) {
    server.registerTool(tool.name, tool.config, async () => {
      reached = true;
      return { content: [{ type: "text", text: "reached" }], isError: true }; // no output to judge
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const pending = new Map();
  let next = 0;
  clientSide.onmessage = (message) => {
    const answer = JSON.parse(JSON.stringify(message)); // what the wire carries
    pending.get(answer.id)?.(answer);
  };
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, (answer) => (answer.error ? reject(new Error(JSON.stringify(answer.error))) : resolve(answer.result)));
      clientSide.send({ jsonrpc: "2.0", id, method, params }).catch(reject);
    });
  await server.connect(serverSide);
  await clientSide.start();
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "sdk-tools", version: "1.0.0" },
  });
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const tools = [];
  let cursor;
  do {
    const page = await request("tools/list", cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const calls = [];
  for (const call of group.calls ?? []) {
    reached = false;
    const result = await request("tools/call", { name: call.tool, arguments: call.arguments });
    calls.push({ reached, text: result.content?.[0]?.text ?? "" });
  }
  await server.close();
  return { tools, calls };
}

const report = [];
for (const group of cases) {
  report.push(await serve(group).catch((error) => ({ error: String(error?.stack ?? error) })));
}
process.stdout.write(JSON.stringify(report));
