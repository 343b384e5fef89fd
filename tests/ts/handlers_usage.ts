// A server and a client written on the generated `tuitbot` module's `Handlers`, `server()` and
// `Client`, as their authors' code would be: tests/test_typescript_server.py copies it into the
// built-ins' package as `src/handlers_usage.ts` and compiles it with the package (tsc --strict).
// It is not run. Each `@ts-expect-error` is a mistake tsc must refuse: were it accepted, the
// directive itself would be the error, and the compilation would fail.
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";

import {
  AnswerRefused,
  Client,
  ContractViolation,
  ErrorCode,
  ToolError,
  errorResponse,
  isXPostTweetArguments,
  server,
  successResponse,
  type Envelope,
  type Handlers,
  type XPostTweetArguments,
} from "./tuitbot/index.js";

const handlers: Handlers = {
  async x_post_tweet(args) {
    const text: string = args.text; // typed by the tool's input schema
    if (text.length > 280) throw new ToolError(ErrorCode.TWEET_TOO_LONG, "too long");
    return successResponse({ data: { text } });
  },
  get_stats: async () => errorResponse(ErrorCode.DB_ERROR, "locked"), // an error envelope, returned
};
const served: Server = server(handlers, { name: "tuitbot", version: "1.0.0" });

const wrongArguments: Handlers = {
  // @ts-expect-error: a handler typed with another tool's arguments is refused
  get_stats: async (args: XPostTweetArguments) => successResponse({ data: args.text }),
};

const misspelt: Handlers = {
  // @ts-expect-error: no tool of the contract has this name
  x_post_twet: async () => successResponse(),
};

const notAnEnvelope: Handlers = {
  // @ts-expect-error: a handler answers the contract's envelope
  get_stats: async () => ({ ok: true }),
};

async function calls(sdk: SdkClient): Promise<void> {
  const client = new Client(sdk);
  const answer: Envelope = await client.x_post_tweet({ text: "hello" });
  if (answer.success === false) void answer.error;
  // @ts-expect-error: the arguments lack `text`, which the input schema requires
  await client.x_post_tweet({});
  const value: unknown = JSON.parse("{}");
  if (isXPostTweetArguments(value)) await client.x_post_tweet(value); // narrowed by the guard
  try {
    await client.get_stats({});
  } catch (error) {
    if (error instanceof ContractViolation || error instanceof AnswerRefused) void error.violations.length;
  }
}

void [served, wrongArguments, misspelt, notAnEnvelope, calls];
