// The generated `Client` of a contract module (tools.ts) over the TypeScript SDK's `Client`, on a
// server started over stdio; prints what each call gave, as JSON.
//
//   node handlers_client.mjs MODULE.js SPEC.json
//
// SPEC.json: {"command": [...], "cwd", "calls": [{"method", "args": [...]}]}: each call is
// `client[method](...args)` of the generated Client. Prints {"protocolVersion", "outcomes": [
// {"value"} | {"error": class name, "message", "violations"}, with "sent": the JSON-RPC requests
// the call sent]}.
import { readFileSync } from "node:fs";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const contract = await import(process.argv[2]);
const spec = JSON.parse(readFileSync(process.argv[3], "utf8"));

const [command, ...args] = spec.command;
const transport = new StdioClientTransport({ command, args, cwd: spec.cwd, stderr: "pipe" });
const sent = [];
const send = transport.send.bind(transport);
transport.send = async (message, options) => {
  if ("method" in message && "id" in message) sent.push(message.method);
  return send(message, options);
};
const sdk = new SdkClient({ name: "handlers-client", version: "1.0.0" });
await sdk.connect(transport);
const client = new contract.Client(sdk);

const plain = (value) => (value instanceof Uint8Array ? { bytes: [...value] } : value);
const outcomes = [];
for (const call of spec.calls) {
  const before = sent.length;
  try {
    const value = await client[call.method](...call.args);
    outcomes.push({ value: plain(value) ?? null, sent: sent.slice(before) });
  } catch (error) {
    outcomes.push({
      error: error?.name ?? "unknown",
      code: error?.code ?? null,
      message: String(error?.message),
      violations: error?.violations ?? null,
      sent: sent.slice(before),
    });
  }
}
process.stdout.write(JSON.stringify({ protocolVersion: transport.protocolVersion ?? null, outcomes }));
await sdk.close();
