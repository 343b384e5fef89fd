// A contract's generated `server(handlers)` (tools.ts) and an SDK `Client` in memory, one
// connection: requests sent raw (what the server answers, as it answered) and through the
// generated `Client`; prints what each gave, what each handler was given, and the server's log.
//
//   node handlers_cases.mjs MODULE.js SPEC.json
//
// SPEC.json: {"revision": the version the client offers,
//   "handlers": {method: {"answer": document} | {"fail": document}}: each resolves to its
//     document, or throws a `ToolFailure` of it, and records its arguments; a method not named
//     is left out; "class": true puts them on a class's prototype,
//   "raw": {tool: CallToolResult}: instead of `server(handlers)`, an SDK `Server` answering each
//     `tools/call` with its tool's result (what a server off the contract might send),
//   "requests": [{"call": tool, "arguments"} | {"prompt": name, "arguments"} | {"read": uri} |
//     {"client": method, "args": [...]}]}
// Prints {"outcomes": [{"result"} | {"error", "code", "message", "violations"}], "seen":
// {method: [arguments]}, "log": [each line the server wrote to standard error]}.
import { readFileSync } from "node:fs";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const contract = await import(process.argv[2]);
const spec = JSON.parse(readFileSync(process.argv[3], "utf8"));

const log = [];
console.error = (...data) => log.push(data.map((d) => (d instanceof Error ? d.message : String(d))).join(" "));

const seen = {};
let handlers = {};
for (const [method, does] of Object.entries(spec.handlers ?? {})) {
  handlers[method] = async (args) => {
    (seen[method] ??= []).push(args);
    if ("fail" in does) throw new contract.ToolFailure(does.fail);
    return does.answer;
  };
}
if (spec.class) {
  class Handlers {}
  Object.assign(Handlers.prototype, handlers);
  handlers = new Handlers();
}

let server;
if (spec.raw) {
  server = new Server({ name: "raw", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => spec.raw[request.params.name]);
} else {
  server = contract.server(handlers, { name: "cases", version: "1.0.0" });
}
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
const send = clientTransport.send.bind(clientTransport);
clientTransport.send = async (message, options) => {
  if (spec.revision && message.method === "initialize") {
    message = { ...message, params: { ...message.params, protocolVersion: spec.revision } };
  }
  return send(message, options);
};
await server.connect(serverTransport);
const sdk = new SdkClient({ name: "cases", version: "1.0.0" });
await sdk.connect(clientTransport);
const client = new contract.Client(sdk);

const outcomes = [];
for (const request of spec.requests) {
  try {
    let result;
    if ("call" in request) result = await sdk.callTool({ name: request.call, arguments: request.arguments ?? {} });
    else if ("prompt" in request) result = await sdk.getPrompt({ name: request.prompt, arguments: request.arguments });
    else if ("read" in request) result = await sdk.readResource({ uri: request.read });
    else result = await client[request.client](...(request.args ?? []));
    outcomes.push({ result: result ?? null });
  } catch (error) {
    outcomes.push({
      error: error?.name ?? "unknown",
      code: error?.code ?? null,
      message: String(error?.message),
      violations: error?.violations ?? null,
    });
  }
}
process.stdout.write(JSON.stringify({ outcomes, seen, log }));
await sdk.close();
