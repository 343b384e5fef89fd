// Preloaded (`node --import offer_revision.mjs SCRIPT ...`, or in NODE_OPTIONS), makes the
// TypeScript SDK's `Client` offer the revision MCP_CONTRACTS_OFFER in its `initialize` over stdio
// (the SDK 1.32.2 offers its newest, 2025-11-25, and takes any it supports in answer), and keeps
// the revision the server answered as `transport.protocolVersion` (the stdio transport has no
// `setProtocolVersion` of its own), which tests/ts/handlers_client.mjs prints.
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const offered = process.env.MCP_CONTRACTS_OFFER;
const send = StdioClientTransport.prototype.send;

StdioClientTransport.prototype.send = function (message, options) {
  if (offered && message.method === "initialize" && "id" in message) {
    message = { ...message, params: { ...message.params, protocolVersion: offered } };
  }
  return send.call(this, message, options);
};

StdioClientTransport.prototype.setProtocolVersion = function (version) {
  this.protocolVersion = version;
};
