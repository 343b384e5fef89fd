// Copied by mcp-contracts from its generator/typescript/serving.ts. Do not edit.
//
// A contract served on the TypeScript SDK's low-level `Server` (`contractServer`, which the
// generated `server(handlers)` calls): its tools listed as the contract publishes them, at the
// revision each client negotiated, each call's arguments judged before a handler runs and each
// answer judged before it is sent.
//
// What a handler may do, and what the client gets:
// - resolve to the envelope: judged, then sent, with `isError` when the document is an error by
//   the contract's own marks (the serving data's `errors`); a tool whose results are content may
//   resolve to its content blocks instead, each of a type it declares;
// - throw a ToolFailure (the generated `ToolError`): its document, judged, with `isError`;
// - be left out of the handlers: JSON-RPC -32601 (the tool is not implemented by this server);
// - throw the SDK's McpError: sent as the handler chose it;
// - throw anything else, or resolve to what the contract refuses: logged to standard error and
//   answered JSON-RPC -32603, so that a handler's bug never reaches a client as an off-contract
//   document.
// Arguments the inputSchema refuses are answered as the revision says: JSON-RPC -32602 before
// 2025-11-25, else an `isError` result holding the envelope of the tool's argument error (text
// only where the contract has none). Resources and prompts are read from the handlers' methods,
// else from the contract's own contents and messages.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type InitializeRequest,
  type InitializeResult,
  type ListToolsResult,
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";

import {
  answerViolations,
  argumentViolations,
  contentViolations,
  contradictions,
  isErrorDocument,
  listedTool,
  plain,
  revisionAt,
  servedAs,
  toBase64,
  valueAt,
  type ContractBinding,
  type ResourceData,
  type Revision,
  type ServingData,
} from "./calling.js";
import type { Violation } from "./judge.js";
import { UriTemplate } from "./uri_template.js";

// The runtime declares no DOM or node types: the log's one function is all it uses.
declare const console: { error(...data: unknown[]): void };

/** What the SDK gives each request handler: the request's signal, session, `sendNotification`... */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** An error answer a handler throws: the server sends `document` (judged) with `isError: true`. */
export class ToolFailure extends Error {
  override name = "ToolFailure";

  constructor(readonly document: unknown) {
    super("a tool's error answer");
  }
}

/** What a prompt's method resolves to: one user text message, or the messages. */
export type PromptAnswer = string | GetPromptResult["messages"];

/** How the runtime finds each handler's method, beside what calling.ts binds. */
export interface ServingBinding extends ContractBinding {
  /** Tool name -> the Handlers method. */
  readonly methods: Readonly<Record<string, string>>;
  /** The envelope of an argument error (`errorResponse(code, message)`; without a message, the
   * catalogue's), where the contract has builders. */
  readonly argumentError: ((code: string, message?: string) => unknown) | null;
  /** Resource URI -> method. */
  readonly resources: Readonly<Record<string, string>>;
  /** Template URI -> method. */
  readonly templates: Readonly<Record<string, string>>;
  /** Prompt name -> [method, the guard of its arguments or null when it takes none]. */
  readonly prompts: Readonly<Record<string, readonly [string, ((value: unknown) => boolean) | null]>>;
}

/** The server's name and version (default: the contract's version). */
export interface ServerInfo {
  readonly name: string;
  readonly version?: string;
}

type Method = (...args: unknown[]) => unknown;

function log(message: string, error?: unknown): void {
  console.error(`mcp-contracts server: ${message}`);
  if (error !== undefined) console.error(error instanceof Error && error.stack ? error.stack : error);
}

/**
 * A JSON-RPC error as the server sends it: the SDK's McpError (so that a handler's own passes
 * through as it is), its message the bare text, as the Python server sends it (McpError's own
 * puts "MCP error <code>: " before it, which the SDK would send).
 */
class RpcError extends McpError {
  constructor(code: number, message: string) {
    super(code, message);
    this.message = message;
  }
}

function failed(tool: string): McpError {
  return new RpcError(ErrorCode.InternalError, `${tool}: the server failed to answer; its log says why`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The method `name` of `handlers`, its own or its class's, never Object.prototype's (a tool
 * named `valueOf` left out is not implemented, whatever every object inherits). */
function methodOf(handlers: object, name: string | undefined): Method | undefined {
  if (name === undefined) return undefined;
  for (let o: object | null = handlers; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    if (!Object.hasOwn(o, name)) continue;
    const found = (handlers as Record<string, unknown>)[name];
    return typeof found === "function" ? (found as Method) : undefined;
  }
  return undefined;
}

/**
 * The low-level SDK `Server` that serves the contract of `binding` with `handlers`. It answers
 * one client (the SDK's `Server` is connected to one transport): over streamable HTTP, make one
 * per session.
 */
export function contractServer(binding: ServingBinding, handlers: object, info: ServerInfo): Server {
  const data = binding.data;
  const surface = data.resources.length > 0 || data.templates.length > 0;
  const server = new Server(
    { name: info.name, version: info.version ?? data.version },
    { capabilities: { tools: {}, ...(surface ? { resources: {} } : {}), ...(data.prompts.length > 0 ? { prompts: {} } : {}) } },
  );
  let negotiated: string | undefined;
  // The SDK keeps the version it negotiated to itself: its own answer to `initialize` says it.
  const initialize = (server as unknown as { _oninitialize?: (r: InitializeRequest) => Promise<InitializeResult> })._oninitialize;
  if (typeof initialize === "function") {
    server.setRequestHandler(InitializeRequestSchema, async (request) => {
      const result = await initialize.call(server, request);
      negotiated = result.protocolVersion;
      return result;
    });
  }
  const at = (): Revision => revisionAt(data, negotiated);
  const listings = new Map<string, ListToolsResult>();
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const served = servedAs(data, negotiated);
    let listing = listings.get(served);
    if (listing === undefined) {
      const hidden = at().hidden;
      const tools = data.tools.map((tool) => {
        const gone = hidden[String(tool["name"])] ?? [];
        return Object.fromEntries(Object.entries(tool).filter(([key]) => !gone.includes(key)));
      });
      listing = { tools } as unknown as ListToolsResult;
      listings.set(served, listing);
    }
    return listing;
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    call(binding, handlers, at(), request.params.name, request.params.arguments ?? {}, extra),
  );
  if (surface) serveResources(server, binding, handlers, at);
  if (data.prompts.length > 0) servePrompts(server, binding, handlers);
  return server;
}

async function call(
  binding: ServingBinding, handlers: object, at: Revision, name: string, args: Record<string, unknown>, extra: Extra,
): Promise<CallToolResult> {
  const data = binding.data;
  const known = data.tools.map((tool) => String(tool["name"]));
  if (!known.includes(name)) {
    throw new RpcError(ErrorCode.InvalidParams, `unknown tool '${name}' (the contract lists: ${known.join(", ") || "none"})`);
  }
  const refused = argumentViolations(data, name, args);
  if (refused.length > 0) {
    const message = refusal(data, name, refused[0]!, args);
    if (at.refusal === "rpc") throw new RpcError(ErrorCode.InvalidParams, message);
    return refusedAsResult(binding, at, name, message);
  }
  const method = methodOf(handlers, binding.methods[name]);
  if (method === undefined) {
    throw new RpcError(ErrorCode.MethodNotFound, `the tool '${name}' is not implemented by this server`);
  }
  let document: unknown;
  let failure = false;
  try {
    document = await method.call(handlers, withDefaults(listedTool(data, name)?.["inputSchema"], plain(args)), extra);
  } catch (error) {
    if (error instanceof ToolFailure) {
      document = error.document;
      failure = true;
    } else if (error instanceof McpError) {
      throw error;
    } else {
      log(`${name}: the handler threw; the client is answered -32603`, error);
      throw failed(name);
    }
  }
  const facts = data.results[name];
  if (!failure && facts !== undefined && !facts.own_output && !facts.structured && Array.isArray(document)) {
    return contentResult(data, name, document); // a content tool's blocks: an image, a resource...
  }
  let broken: string[];
  try {
    document = plain(document);
    broken = offContract(binding, name, document, failure);
  } catch (error) {
    broken = [`/: not a JSON value: ${String(error)}`];
  }
  if (broken.length > 0) {
    log(`${name}: the handler's answer breaks the contract, so it is not sent (the client is answered -32603): ${broken.join("; ")}`);
    throw failed(name);
  }
  return result(data, at, name, document, failure || isErrorDocument(data, document));
}

function contentResult(data: ServingData, name: string, blocks: readonly unknown[]): CallToolResult {
  const broken = contentViolations(data, name, blocks).map((v) => `${v.pointer}: ${v.message}`);
  if (broken.length > 0) {
    log(`${name}: the handler's content breaks the contract, so it is not sent (the client is answered -32603): ${broken.join("; ")}`);
    throw failed(name);
  }
  return { content: blocks as CallToolResult["content"], isError: false };
}

/** Every way `document`, a handler's answer (`failed`: thrown as a ToolFailure), breaks what the
 * contract says of `name`'s results: its schema, the tool's codes, the catalogue's values. */
function offContract(binding: ServingBinding, name: string, document: unknown, failed: boolean): string[] {
  const data = binding.data;
  const found = [...answerViolations(binding, name, document), ...contradictions(data, document)];
  const broken = found.map((v) => `${v.pointer || "/"}: ${v.message}`);
  const code = data.errors.code_at === null ? undefined : valueAt(document, data.errors.code_at);
  const codes = data.results[name]?.codes ?? null;
  if (typeof code === "string" && codes !== null && !codes.includes(code)) {
    broken.push(`the error code '${code}' is not among the codes the tool declares (${codes.join(", ") || "none"})`);
  }
  const tells = data.errors.code_at !== null || data.errors.constants.length > 0;
  if (failed && tells && !isErrorDocument(data, document)) broken.push("it was thrown as a ToolFailure, but the document is no error envelope");
  return broken;
}

/** `args` with the default of each top-level property of `schema` they leave out, as Python's
 * handlers see them (pydantic fills a field's default): only where the schema has `properties`. */
function withDefaults(schema: unknown, args: unknown): unknown {
  if (!isObject(schema) || !isObject(schema["properties"]) || !isObject(args)) return args;
  const filled: Record<string, unknown> = { ...args };
  for (const [key, property] of Object.entries(schema["properties"])) {
    if (Object.hasOwn(filled, key) || !isObject(property) || !Object.hasOwn(property, "default")) continue;
    Object.defineProperty(filled, key, { value: plain(property["default"]), enumerable: true, writable: true, configurable: true });
  }
  return filled;
}

/** The keyword a violation's message names (the judge's messages, by their fixed endings). */
const KEYWORDS: readonly (readonly [RegExp, string])[] = [
  [/ is too long \(more than \d+ characters\)$/, "maxLength"], [/ is too short \(fewer than \d+ characters\)$/, "minLength"],
  [/ is greater than or equal to the exclusive maximum of \S+$/, "exclusiveMaximum"], [/ is greater than the maximum of \S+$/, "maximum"],
  [/ is less than or equal to the exclusive minimum of \S+$/, "exclusiveMinimum"], [/ is less than the minimum of \S+$/, "minimum"],
  [/ is not a multiple of \S+$/, "multipleOf"], [/ has more than \d+ items$/, "maxItems"], [/ has fewer than \d+ items$/, "minItems"],
  [/ has more than \d+ properties$/, "maxProperties"], [/ has fewer than \d+ properties$/, "minProperties"],
  [/ has non-unique elements \(items \d+ and \d+ are equal\)$/, "uniqueItems"], [/ is a required property( \(because .*\))?$/, "required"],
  [/ must not match the schema in 'not'$/, "not"], [/ is not valid under any of the schemas in '(anyOf|oneOf)'$/, "$1"],
  [/ is valid under more than one of the schemas in 'oneOf' \(branches [\d ,and]+\)$/, "oneOf"],
  [/ is not a valid '[^']*'$/, "format"], [/ is not of type '\w+'(, '\w+')*$/, "type"], [/ does not match the pattern /, "pattern"],
  [/ is not one of /, "enum"], [/ was expected$/, "const"], [/ is not allowed here \(additional property\)$/, "additionalProperties"],
  [/ is not allowed here \(unevaluated property\)$/, "unevaluatedProperties"], [/ \(additional item\)$/, "items"],
  [/ \(unevaluated item\)$/, "unevaluatedItems"], [/ is not allowed here \(false schema\)$/, "false"],
];

function keywordOf(message: string): string {
  for (const [pattern, keyword] of KEYWORDS) {
    const found = pattern.exec(message);
    if (found !== null) return keyword === "$1" ? found[1]! : keyword;
  }
  return "a keyword";
}

/** The message of a refusal of `name`'s `args`, by the first violation; where it is under a
 * secret argument, at the root (whose message may show them all) or quotes a secret's value,
 * its pointer and keyword only: no secret reaches the client, nor the error envelope. */
function refusal(data: ServingData, name: string, first: Violation, args: Record<string, unknown>): string {
  const secrets = data.results[name]?.secrets ?? [];
  const tells = (secret: string): boolean => {
    const pointer = "/" + secret.replace(/~/g, "~0").replace(/\//g, "~1");
    const value = Object.hasOwn(args, secret) ? JSON.stringify(args[secret]).replace(/^"|"$/g, "") : undefined;
    return first.pointer === pointer || first.pointer.startsWith(pointer + "/") || (value !== undefined && first.message.includes(value));
  };
  if (secrets.length > 0 && (first.pointer === "" || secrets.some(tells))) {
    const where = first.pointer === "" ? "arguments" : `argument ${first.pointer}`;
    return `${name}: the inputSchema refuses the ${where} (${keywordOf(first.message)})`;
  }
  return `${name}: the inputSchema refuses the arguments: ` + (first.pointer ? `${first.pointer}: ${first.message}` : first.message);
}

/** A refusal of arguments as an `isError` result: the envelope of the tool's argument error with
 * `message`, else with the catalogue's (the builders refusing ours: too long...), where the
 * contract answers it judged; else the text alone (a tool with an outputSchema of its own). */
function refusedAsResult(binding: ServingBinding, at: Revision, name: string, message: string): CallToolResult {
  const code = binding.data.results[name]?.argument_error ?? null;
  const build = binding.argumentError;
  for (const attempt of code !== null && build !== null ? [message, undefined] : []) {
    let document: unknown;
    try {
      document = plain(build!(code!, attempt));
    } catch {
      continue; // the builders refuse it
    }
    if (offContract(binding, name, document, true).length === 0) return result(binding.data, at, name, document, true);
  }
  return { content: [{ type: "text", text: message }], isError: true };
}

/** One TextContent with the JSON, and the document as `structuredContent` where the revision
 * carries it for the tool (an object, and an error only if the contract's errors are structured). */
function result(data: ServingData, at: Revision, name: string, document: unknown, isError: boolean): CallToolResult {
  const answer: CallToolResult = { content: [{ type: "text", text: JSON.stringify(document) }], isError };
  const structured = at.structured.includes(name) && isObject(document) && !(isError && !data.errors.structured);
  if (structured) answer.structuredContent = document;
  return answer;
}

// ------------------------------------------------------------------ resources and prompts

const PLACEHOLDER = /\{([^{}]+)\}/g;

function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}

/** `fill` applied to every string of a JSON value, keys too. */
function filled(value: unknown, values: Readonly<Record<string, string>>): unknown {
  if (typeof value === "string") return fill(value, values);
  if (Array.isArray(value)) return value.map((item) => filled(item, values));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [fill(k, values), filled(v, values)]));
  return value;
}

function notFound(at: Revision, uri: string): McpError {
  return new RpcError(at.resource_not_found, `no resource or template of the contract has the URI '${uri}'`);
}

/** A read's result: `answer` (text, or bytes sent as a base64 blob) as the contents at `uri`. */
function contents(resource: ResourceData, uri: string, answer: string | Uint8Array | { blob: string }): ReadResourceResult {
  const mimeType = resource.listing["mimeType"];
  const entry = typeof mimeType === "string" ? { uri, mimeType } : { uri };
  if (typeof answer === "string") return { contents: [{ ...entry, text: answer }] };
  return { contents: [{ ...entry, blob: answer instanceof Uint8Array ? toBase64(answer) : answer.blob }] };
}

/** The contract's own contents of `resource` at `uri`, its variables' `values` filled in. */
function ownContents(resource: ResourceData, uri: string, values: Readonly<Record<string, string>>): ReadResourceResult {
  const held = resource.contents;
  if (held === null) throw new RpcError(ErrorCode.MethodNotFound, `the resource '${uri}' is not implemented by this server`);
  if ("blob" in held) return contents(resource, uri, { blob: held.blob });
  let text = held.text;
  if (Object.keys(values).length > 0 && resource.json) {
    try {
      text = JSON.stringify(filled(JSON.parse(text) as unknown, values));
    } catch {
      text = fill(text, values);
    }
  } else if (Object.keys(values).length > 0) text = fill(text, values);
  return contents(resource, uri, text);
}

/** What a resource's or prompt's method resolves to, when `fits` it; else logged, and -32603. */
async function answered(
  method: unknown, handlers: object, args: unknown[], what: string, fits: (answer: unknown) => boolean,
): Promise<unknown> {
  let answer: unknown;
  try {
    answer = await (method as Method).call(handlers, ...args);
  } catch (error) {
    if (error instanceof McpError) throw error;
    log(`${what}: the handler threw; the client is answered -32603`, error);
    throw new RpcError(ErrorCode.InternalError, `${what}: the server failed to answer; its log says why`);
  }
  if (fits(answer)) return answer;
  log(`${what}: the handler's answer is not one it may give, so it is not sent (the client is answered -32603)`);
  throw new RpcError(ErrorCode.InternalError, `${what}: the server failed to answer; its log says why`);
}

const isContents = (answer: unknown): boolean => typeof answer === "string" || answer instanceof Uint8Array;
const isMessages = (answer: unknown): boolean =>
  typeof answer === "string" || (Array.isArray(answer) && answer.every((m) => isObject(m) && "role" in m && "content" in m));

function serveResources(server: Server, binding: ServingBinding, handlers: object, at: () => Revision): void {
  const data = binding.data;
  const templates = data.templates.map((t) => [t, UriTemplate.parse(String(t.listing["uriTemplate"]))] as const);
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: data.resources.map((r) => r.listing) }) as never);
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: data.templates.map((t) => t.listing),
  }) as never);
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra): Promise<ReadResourceResult> => {
    const uri = request.params.uri;
    const resource = data.resources.find((r) => r.listing["uri"] === uri);
    if (resource !== undefined) {
      const method = methodOf(handlers, binding.resources[uri]);
      if (method === undefined) return ownContents(resource, uri, {});
      return contents(resource, uri, (await answered(method, handlers, [extra], uri, isContents)) as string | Uint8Array);
    }
    for (const [template, parsed] of templates) {
      const values = parsed.match(uri);
      if (values === null) continue;
      const given = Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => typeof e[1] === "string"));
      const method = methodOf(handlers, binding.templates[String(template.listing["uriTemplate"])]);
      if (method === undefined) return ownContents(template, uri, given);
      return contents(template, uri, (await answered(method, handlers, [given, uri, extra], uri, isContents)) as string | Uint8Array);
    }
    throw notFound(at(), uri);
  });
}

function servePrompts(server: Server, binding: ServingBinding, handlers: object): void {
  const data = binding.data;
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: data.prompts.map((p) => p.listing) }) as never);
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra): Promise<GetPromptResult> => {
    const name = request.params.name;
    const prompt = data.prompts.find((p) => p.listing["name"] === name);
    const bound = binding.prompts[name];
    if (prompt === undefined || bound === undefined) {
      const known = data.prompts.map((p) => String(p.listing["name"])).join(", ") || "none";
      throw new RpcError(ErrorCode.InvalidParams, `unknown prompt '${name}' (the contract lists: ${known})`);
    }
    const [methodName, accepts] = bound;
    const given: Record<string, string> = { ...(request.params.arguments ?? {}) };
    if (accepts === null ? Object.keys(given).length > 0 : !accepts(given)) {
      throw new RpcError(ErrorCode.InvalidParams, `${name}: the prompt's arguments refuse these (each a string, the required ones given, no other)`);
    }
    const description = prompt.listing["description"];
    const head = typeof description === "string" ? { description } : {};
    const method = methodOf(handlers, methodName);
    if (method === undefined) {
      const declared = (prompt.listing["arguments"] as readonly { name: string }[] | undefined) ?? [];
      const values = Object.fromEntries(declared.map((a) => [a.name, given[a.name] ?? ""]));
      return { ...head, messages: prompt.messages.map((m) => filled(m, values)) as GetPromptResult["messages"] };
    }
    const answer = (await answered(method, handlers, accepts === null ? [extra] : [given, extra], name, isMessages)) as PromptAnswer;
    const messages = typeof answer === "string" ? [{ role: "user" as const, content: { type: "text" as const, text: answer } }] : answer;
    return { ...head, messages };
  });
}
