// A TypeScript SDK server built on a generated contract module, over stdio; the tests hold
// it to its contract with `mcp-contracts conform`.
//
//   node contract_server.mjs MODULE.js ANSWERS.json
//
// MODULE.js: a contract's compiled `dist/<module>/index.js`. Every tool of its `TOOLS` is
// registered with `McpServer.registerTool(name, config, handler)` as the generated code
// gives it: the zod input and output schemas, judged by the contract's published schemas,
// which are also what `tools/list` sends.
//
// ANSWERS.json: [{"tool", "arguments", "build": "success" | "error" | "judge" | "text",
//                 "args": [...], "text": "..."}]: how the server answers a call with these
// arguments: `successResponse(...args)`, `errorResponse(...args)` (an `isError` result),
// `parseEnvelope(args[0])`, or plain text content. A call no answer names gets
// `successResponse()`'s envelope. Each document is built and judged by the generated code.
import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const contract = await import(process.argv[2]);
const answers = JSON.parse(readFileSync(process.argv[3], "utf8"));

/** Whether two JSON values are equal, whatever the order of their keys. */
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

function result(answer, structured = true) {
  if (answer.build === "text") {
    return { content: [{ type: "text", text: answer.text }], isError: answer.isError === true };
  }
  const isError = answer.build === "error";
  const document =
    answer.build === "error"
      ? contract.errorResponse(...answer.args)
      : answer.build === "success"
        ? contract.successResponse(...answer.args)
        : contract.parseEnvelope(answer.args[0]);
  const content = [{ type: "text", text: JSON.stringify(document) }];
  return structured ? { content, structuredContent: document, isError } : { content, isError };
}

const server = new McpServer({ name: `${contract.CONTRACT}-typescript`, version: "1.0.0" });
for (const tool of Object.values(contract.TOOLS)) {
  server.registerTool(tool.name, tool.config, async (args) => {
    const answer = answers.find((a) => a.tool === tool.name && same(a.arguments, args));
    if (answer !== undefined) return result(answer, "outputSchema" in tool.config); // a text tool: text only
    if (!("outputSchema" in tool.config)) return { content: [{ type: "text", text: `${tool.name}: done` }] };
    return result({ build: "success", args: [] });
  });
}
if (Object.keys(contract.TOOLS).length === 0) {
  // McpServer answers tools/list only once a tool was registered: a contract of no tools lists none.
  server.registerTool("placeholder", {}, async () => ({ content: [] })).remove();
}
await server.connect(new StdioServerTransport());
