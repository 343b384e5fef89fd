// A TypeScript SDK server written against the generated `tuitbot` module, as a server's own
// code would be: tests/test_typescript_package.py copies it into the built-ins' package as
// `src/server_usage.ts` and compiles it with the package (tsc --strict). It is not run: it
// shows that the generated types, zod schemas, catalogue and builders fit the SDK's types.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

import {
  ContractViolation,
  ERRORS,
  ErrorCode,
  TOOLS,
  errorInfo,
  errorResponse,
  isEnvelope,
  successResponse,
  validate,
  type Envelope,
  type FailureEnvelope,
  type Violation,
} from "./tuitbot/index.js";

const server = new McpServer({ name: "tuitbot", version: "1.0.0" });
const tweet = TOOLS.x_post_tweet;
server.registerTool(tweet.name, tweet.config, async (args) => {
  const text: string = args.text; // typed by the tool's zod input schema
  const envelope: Envelope =
    text.length > 280 ? errorResponse(ErrorCode.TWEET_TOO_LONG, "too long") : successResponse({ data: { text } });
  return {
    structuredContent: envelope,
    content: [{ type: "text", text: JSON.stringify(envelope) }],
    isError: !envelope.success,
  };
});

const retryable: boolean = errorInfo("db_error").retryable;
const problems: Violation[] = validate({ success: true });
const value: unknown = JSON.parse("{}");
if (isEnvelope(value) && value.success === false) {
  const failure: FailureEnvelope = value; // narrowed by the judge's type guard
  const code: ErrorCode = failure.error.code;
  void code;
}
try {
  successResponse({ meta: { tool_version: "1.0", elapsed_ms: -1 } });
} catch (error) {
  if (error instanceof ContractViolation) void error.violations.length;
}
void [retryable, problems, ERRORS.size, server];
