// The books server of tests/servers/sdk_mcpserver.py on the TypeScript SDK's `McpServer`, over
// stdio: `find_book(book_id)` answers a book it has with its title and any other with the error
// envelope of `not_found` (an isError result), and the prompt `summary` requires `book_id`
// (and refuses an empty one, -32602).
// The SDK checks both itself (zod). docs/mcp.md's "What each SDK answers" is measured on it
// (tests/test_fuzz_verdicts.py).
//
//   node sdk_refusals.mjs [--fault refuse|raise|argument-code]
//
// The faults are sdk_mcpserver.py's, each for a book it lacks: `refuse` throws McpError -32602
// (which McpServer turns into an isError result "MCP error -32602: ..."), `raise` reads a
// property of what BOOKS lacks (a TypeError), `argument-code` answers the envelope of
// `bad_book_id`.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const BOOKS = { b1: { title: "Dune" } };
const at = process.argv.indexOf("--fault");
const fault = at === -1 ? null : process.argv[at + 1];
const text = (value, isError = false) => ({ content: [{ type: "text", text: value }], isError });
const failure = (code, message) => text(JSON.stringify({ success: false, error: { code, message } }), true);

const server = new McpServer({ name: "books", version: "1.0.0" });
server.registerTool(
  "find_book",
  {
    description: "A book by its id.",
    inputSchema: { book_id: z.string() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ book_id }) => {
    const known = Object.hasOwn(BOOKS, book_id);
    if (!known && fault === "refuse") throw new McpError(ErrorCode.InvalidParams, `no book ${book_id}`);
    if (!known && fault === "argument-code") return failure("bad_book_id", "not a book id");
    if (!known && fault !== "raise") return failure("not_found", "no such book");
    return text((known ? BOOKS[book_id] : undefined).title);
  },
);
server.registerPrompt(
  "summary",
  { description: "A summary of a book.", argsSchema: { book_id: z.string() } },
  ({ book_id }) => {
    if (!book_id) throw new McpError(ErrorCode.InvalidParams, "no book id");
    return { messages: [{ role: "user", content: { type: "text", text: `Summarise the book ${book_id}.` } }] };
  },
);
await server.connect(new StdioServerTransport());
