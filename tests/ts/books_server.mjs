// The bookshop of tests/contracts/books on the TypeScript SDK's `McpServer`, over stdio:
// tests/test_conform_sdk_servers.py and benchmarks/conform_trial.py hold it to the contract.
//
//   node books_server.mjs MODULE.js [--fault NAME]
//
// MODULE.js: the compiled `dist/books/index.js` of the contract's generated TypeScript package.
// Each tool of its `TOOLS` is registered as the generated code gives it (zod schemas judged by
// the contract's published schemas, which are what `tools/list` sends), and answers with
// `successResponse` and `errorResponse` (an error: the envelope in an `isError` result). The
// prompt `recommend` (its argument required: the SDK refuses a get without it, -32602) and the
// resource `books://catalogue` are registered as the SDK's users write them. With `--fault`,
// one of the planted faults of books_mcpserver.py, meant the same (FAULTS): each about the
// example call `get_book({"id": 404})`, except `drops-argument`, about the listing of
// `search_books`.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const FAULTS = {
  "success-for-error": "the error example answered with a success",
  "other-code": "the error example answered with `rate_limited`, declared and valid",
  "crash-on-error": "the lookup throws: McpServer answers an isError text result of the exception's message",
  "retryable-contradicts": "the error's `retryable` is true, where the catalogue gives false",
  "missing-code": "the error envelope without `code`",
  "drops-argument": "search_books takes no `label`: its listing never names it",
};
const FAULT = process.argv.includes("--fault") ? process.argv[process.argv.indexOf("--fault") + 1] : undefined;
if (FAULT !== undefined && !Object.hasOwn(FAULTS, FAULT)) {
  process.stderr.write(`books_server.mjs: no fault ${JSON.stringify(FAULT)} (one of ${Object.keys(FAULTS).join(", ")})\n`);
  process.exit(1);
}

const books = await import(process.argv[2]);
const BOOKS = new Map([
  [1, { id: 1, title: "Dune", label: "classic" }],
  [2, { id: 2, title: "Emma", label: "classic" }],
]);
const META = { tool_version: "1.0" };

function answer(document, isError = false) {
  return { content: [{ type: "text", text: JSON.stringify(document) }], structuredContent: document, isError };
}

// The answer for an id the shop lacks: the envelope of `not_found`, or a planted fault.
function notFound(id) {
  if (FAULT === "success-for-error") return answer(books.successResponse({ data: null, meta: META }));
  if (FAULT === "other-code") return answer(books.errorResponse("rate_limited", undefined, { meta: META }), true);
  const document = structuredClone(books.errorResponse("not_found", `No book has the id ${id}.`, { data: null, meta: META }));
  if (FAULT === "retryable-contradicts") document.error.retryable = true;
  if (FAULT === "missing-code") delete document.error.code;
  return answer(document, true);
}

// The book of an id, which throws for one the shop lacks (as Python's `BOOKS[id]`).
function bookOf(id) {
  if (!BOOKS.has(id)) throw new RangeError(`no book has the id ${id}`);
  return BOOKS.get(id);
}

const handlers = {
  get_book: async ({ id }) => {
    if (FAULT === "crash-on-error") return answer(books.successResponse({ data: bookOf(id), meta: META }));
    const book = BOOKS.get(id);
    if (book === undefined) return notFound(id);
    return answer(books.successResponse({ data: book, meta: META }));
  },
  search_books: async ({ query, label }) => {
    if (FAULT === "drops-argument") label = undefined;
    const found = [...BOOKS.values()].filter(
      (book) => book.title.toLowerCase().includes(query.toLowerCase()) && (label === undefined || label === book.label),
    );
    return answer(books.successResponse({ data: { books: found }, meta: META }));
  },
};

const server = new McpServer({ name: "books-typescript", version: "1.0.0" });
// `drops-argument`: search_books registered with a zod schema of its own that has no `label`.
const QUERY_ONLY = { query: z.string().min(1).max(200).describe("Words of the title.") };
for (const tool of Object.values(books.TOOLS)) {
  const config =
    FAULT === "drops-argument" && tool.name === "search_books" ? { ...tool.config, inputSchema: QUERY_ONLY } : tool.config;
  server.registerTool(tool.name, config, handlers[tool.name]);
}
server.registerPrompt(
  "recommend",
  {
    title: "Recommend a book",
    description: "Asks for a book like one the reader liked.",
    argsSchema: { book_id: z.string().describe("The id of a book the reader liked.") },
  },
  ({ book_id }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Recommend a book like the book ${book_id}.` } }],
  }),
);
server.registerResource(
  "catalogue",
  "books://catalogue",
  { title: "The catalogue", description: "Every book's id and title, one a line.", mimeType: "text/plain" },
  async (uri) => {
    const text = [...BOOKS.values()].map((book) => `${book.id} ${book.title}\n`).join("");
    return { contents: [{ uri: uri.href, mimeType: "text/plain", text }] };
  },
);
await server.connect(new StdioServerTransport());
