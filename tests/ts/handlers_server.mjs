// A server on a contract's generated `Handlers` and `server()` (tools.ts), over stdio: the tests
// hold it to its contract with `mcp-contracts conform`.
//
//   node handlers_server.mjs MODULE.js ANSWERS.json
//
// MODULE.js: a contract's compiled `dist/<module>/index.js`. ANSWERS.json:
// {"calls": [{"tool", "arguments", "document", "error"}], "defaults": {tool: document | null},
//  "blocks": {tool: [content block]}, "omit": [tool]}: each tool's handler answers the example
// call with the same arguments with its document (an error thrown as a `ToolFailure`), any other
// call with the tool's content blocks where it has some (a tool whose results are images...),
// else its default (`successResponse()` where it has none). A tool of `omit` has no handler (-32601).
import { readFileSync } from "node:fs";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const contract = await import(process.argv[2]);
const spec = JSON.parse(readFileSync(process.argv[3], "utf8"));

/** Whether two JSON values are equal, whatever the order of their keys. */
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

const handlers = {};
for (const [tool, method] of Object.entries(spec.methods)) {
  if ((spec.omit ?? []).includes(tool)) continue;
  handlers[method] = async (args) => {
    const call = spec.calls.find((c) => c.tool === tool && same(c.arguments, args));
    if (call !== undefined && call.error) throw new contract.ToolFailure(call.document);
    if (call !== undefined) return call.document;
    if (spec.blocks?.[tool] !== undefined) return spec.blocks[tool];
    const fallback = spec.defaults[tool];
    return fallback ?? contract.successResponse();
  };
}
await contract.server(handlers, { name: `${contract.CONTRACT}-handlers`, version: "1.0.0" }).connect(new StdioServerTransport());
