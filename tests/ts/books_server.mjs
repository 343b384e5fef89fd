// The bookshop of tests/contracts/books on the TypeScript SDK's `McpServer`, honest, over stdio:
// tests/test_conform_sdk_servers.py and benchmarks/conform_trial.py hold it to the contract.
//
//   node books_server.mjs MODULE.js
//
// MODULE.js: the compiled `dist/books/index.js` of the contract's generated TypeScript package.
// Each tool of its `TOOLS` is registered as the generated code gives it (zod schemas judged by
// the contract's published schemas, which are what `tools/list` sends), and answers with
// `successResponse` and `errorResponse` (an error: the envelope in an `isError` result). The
// prompt `recommend` (its argument required: the SDK refuses a get without it, -32602) and the
// resource `books://catalogue` are registered as the SDK's users write them.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const books = await import(process.argv[2]);
const BOOKS = new Map([
  [1, { id: 1, title: "Dune", label: "classic" }],
  [2, { id: 2, title: "Emma", label: "classic" }],
]);
const META = { tool_version: "1.0" };

function answer(document, isError = false) {
  return { content: [{ type: "text", text: JSON.stringify(document) }], structuredContent: document, isError };
}

const handlers = {
  get_book: async ({ id }) => {
    const book = BOOKS.get(id);
    if (book === undefined) {
      return answer(books.errorResponse("not_found", `No book has the id ${id}.`, { data: null, meta: META }), true);
    }
    return answer(books.successResponse({ data: book, meta: META }));
  },
  search_books: async ({ query, label }) => {
    const found = [...BOOKS.values()].filter(
      (book) => book.title.toLowerCase().includes(query.toLowerCase()) && (label === undefined || label === book.label),
    );
    return answer(books.successResponse({ data: { books: found }, meta: META }));
  },
};

const server = new McpServer({ name: "books-typescript", version: "1.0.0" });
for (const tool of Object.values(books.TOOLS)) {
  server.registerTool(tool.name, tool.config, handlers[tool.name]);
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
