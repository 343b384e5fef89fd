// Copied by mcp-contracts from its generator/typescript/calling.ts. Do not edit.
//
// The client half of a contract's `tools.ts` (`ContractCalling`, which the generated `Client`
// holds), and what the server half (serving.ts) shares with it: the contract's serving data
// (what `serving.json` holds in the Python package), the revision a negotiated version is
// served at, and the judging of an answer.
//
// Arguments are judged by the tool's published inputSchema before anything is sent: a refusal
// is a ContractViolation, thrown before any request. An answer's document is its
// `structuredContent`, else the JSON of its first text block that holds some. It is judged as
// `conform` judges it: by the envelope's schema (a tool with its own `outputSchema` by that),
// `isError` true exactly when the document is an error envelope, an error's code one the tool
// declares. A document the contract refuses throws AnswerRefused; an error answer that holds
// no document (a crash's text) throws ToolCallFailed. An error envelope is an answer like any
// other: it is returned, `isError` or not, for the caller to branch on. A success of a tool
// whose results are content (`result.structured: false`) is its content blocks.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

import { Judge, deepEqual, toPointer, type Violation } from "./judge.js";
import { UriTemplate } from "./uri_template.js";
import { ContractViolation } from "./violation.js";

type JObject = Record<string, unknown>;

/** What a contract's serving data says of one revision (`at`). */
export interface Revision {
  readonly hidden: Readonly<Record<string, readonly string[]>>;
  readonly structured: readonly string[];
  readonly refusal: "rpc" | "result";
  readonly resource_not_found: number;
}

/** What the contract says of a tool's results. */
export interface ResultFacts {
  readonly structured: boolean;
  readonly content: readonly string[] | null;
  readonly codes: readonly string[] | null;
  readonly own_output: boolean;
  readonly text_schema: unknown;
  readonly argument_error: string | null;
  /** The arguments whose values no error answer may carry (tools.yaml `secret_arguments`). */
  readonly secrets: readonly string[];
}

/** A resource or template of the contract: its listing and its own contents. */
export interface ResourceData {
  readonly listing: JObject;
  readonly contents: { readonly text: string } | { readonly blob: string } | null;
  readonly json: boolean;
}

/** A prompt of the contract: its listing and its messages, each `{argument}` a hole. */
export interface PromptData {
  readonly listing: JObject;
  readonly messages: readonly unknown[];
}

/** The data a contract is served and called by: `serving.json` of its Python package. */
export interface ServingData {
  readonly contract: string;
  readonly version: string;
  readonly revisions: readonly string[];
  readonly tools: readonly JObject[];
  readonly results: Readonly<Record<string, ResultFacts>>;
  readonly at: Readonly<Record<string, Revision>>;
  readonly errors: {
    readonly code_at: string | null;
    readonly constants: readonly (readonly [string, unknown])[];
    readonly structured: boolean;
    /** What the catalogue gives each code at the builders' `derived` pointers. */
    readonly derived: Readonly<Record<string, readonly (readonly [string, unknown])[]>>;
  };
  readonly resources: readonly ResourceData[];
  readonly templates: readonly ResourceData[];
  readonly prompts: readonly PromptData[];
}

/** The serving data as tools.ts embeds it: each tool's schemas an index into its SCHEMAS. */
export type EmbeddedData = Omit<ServingData, "tools"> & {
  readonly tools: readonly (readonly [JObject, number, number | null])[];
};

/** The serving data, each tool's listing whole again (its schemas are SCHEMAS' own objects). */
export function servingData(embedded: EmbeddedData, schemas: readonly unknown[]): ServingData {
  const schema = (index: number): unknown => {
    if (index < 0 || index >= schemas.length) throw new RangeError(`no schema ${index}`);
    return schemas[index];
  };
  const tools = embedded.tools.map(([entry, input, output]) =>
    output === null ? { ...entry, inputSchema: schema(input) } : { ...entry, inputSchema: schema(input), outputSchema: schema(output) },
  );
  return { ...embedded, tools };
}

/** The revision of `data.at` a negotiated `version` is served at: the newest not after it, else the oldest. */
export function servedAs(data: ServingData, version: string | undefined): string {
  const known = Object.keys(data.at).sort();
  const before = known.filter((found) => found <= (version ?? ""));
  const chosen = before.length > 0 ? before[before.length - 1] : known[0];
  if (chosen === undefined) throw new RangeError("the serving data knows no revision");
  return chosen;
}

/** What `data.at` says of the revision `version` is served at. */
export function revisionAt(data: ServingData, version: string | undefined): Revision {
  const found = data.at[servedAs(data, version)];
  if (found === undefined) throw new RangeError(`no revision ${String(version)}`);
  return found;
}

function isObject(value: unknown): value is JObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a JSON pointer of `document`, or undefined where there is none. */
export function valueAt(document: unknown, pointer: string): unknown {
  let value: unknown = document;
  for (const raw of pointer === "" ? [] : pointer.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (isObject(value) && Object.hasOwn(value, token)) value = value[token];
    else if (Array.isArray(value) && /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < value.length) {
      value = value[Number(token)];
    } else return undefined;
  }
  return value;
}

/** Whether `document` is an error by the contract's marks: a code where the builders put one,
 * or every constant that tells an error from a success. */
export function isErrorDocument(data: ServingData, document: unknown): boolean {
  const { code_at, constants } = data.errors;
  if (code_at !== null && valueAt(document, code_at) !== undefined) return true;
  return constants.length > 0 && constants.every(([pointer, value]) => deepEqual(valueAt(document, pointer), value));
}

/** Each value of an error document that contradicts what the catalogue gives its code
 * (`errors.derived`: a `retryable` the code's own, say). */
export function contradictions(data: ServingData, document: unknown): Violation[] {
  const { code_at, derived } = data.errors;
  const code = code_at === null ? undefined : valueAt(document, code_at);
  const expected = typeof code === "string" && Object.hasOwn(derived, code) ? derived[code]! : [];
  return expected
    .filter(([pointer, value]) => !deepEqual(valueAt(document, pointer), value))
    .map(([pointer, value]) => {
      const held = valueAt(document, pointer);
      const said = held === undefined ? "missing" : JSON.stringify(held);
      const path = pointer.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
      return { path, pointer, message: `${said}, where the catalogue gives '${code as string}' ${JSON.stringify(value)}` };
    });
}

/** The base URI each tool schema is judged under. */
const TOOL_SCHEMA = "file:///tool.schema.json";
const JUDGES = new WeakMap<object, Judge>();

/** The judge of a self-contained JSON Schema (a tool's input or output, a `text_schema`). */
export function schemaJudge(schema: unknown): Judge {
  const key = isObject(schema) ? schema : { schema };
  let judge = JUDGES.get(key);
  if (judge === undefined) {
    judge = new Judge({ root: TOOL_SCHEMA, formats: false, resources: { [TOOL_SCHEMA]: schema } });
    JUDGES.set(key, judge);
  }
  return judge;
}

/** What tools.ts tells the runtime of its contract, for serving and calling. */
export interface ContractBinding {
  readonly data: ServingData;
  /** The contract's judge of its envelope. */
  readonly judge: Judge;
}

/** The listed entry of `tool`, or undefined. */
export function listedTool(data: ServingData, tool: string): JObject | undefined {
  return data.tools.find((entry) => entry["name"] === tool);
}

/** Every way `args` breaks `tool`'s inputSchema (none when it accepts them). */
export function argumentViolations(data: ServingData, tool: string, args: unknown): Violation[] {
  const listed = listedTool(data, tool);
  if (listed === undefined) throw new RangeError(`the contract has no tool ${JSON.stringify(tool)}`);
  const judge = schemaJudge(listed["inputSchema"] ?? { type: "object" });
  return judge.isValid(args) ? [] : judge.violations(args);
}

/** Every way `document` breaks what the contract says of `tool`'s results: its own outputSchema
 * or the envelope's schema, and its `text_schema`. */
export function answerViolations(binding: ContractBinding, tool: string, document: unknown): Violation[] {
  const facts = binding.data.results[tool];
  if (facts === undefined) throw new RangeError(`the contract has no tool ${JSON.stringify(tool)}`);
  const found: Violation[] = [];
  const judge = facts.own_output ? schemaJudge(listedTool(binding.data, tool)?.["outputSchema"]) : binding.judge;
  if (!judge.isValid(document)) found.push(...judge.violations(document));
  if (facts.text_schema !== null && facts.text_schema !== undefined) {
    const text = schemaJudge(facts.text_schema);
    if (!text.isValid(document)) found.push(...text.violations(document));
  }
  return found;
}

/** A JSON copy of `value`: members whose value is undefined left out. */
export function plain(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** An answer the contract refuses (its `violations`), thrown by the client: never returned. */
export class AnswerRefused extends Error {
  override name = "AnswerRefused";
  readonly violations: readonly Violation[];
  readonly document: unknown;

  constructor(readonly what: string, violations: readonly Violation[], document?: unknown) {
    super(`${what}: the answer breaks the contract: ` + violations.map((v) => `${v.pointer || "/"}: ${v.message}`).join("; "));
    this.violations = violations;
    this.document = document;
  }
}

/** An error answer that holds no document of the contract: its text. */
export class ToolCallFailed extends Error {
  override name = "ToolCallFailed";

  constructor(readonly tool: string, text: string, readonly result: unknown = undefined) {
    super(text);
  }
}

/** The content blocks of a tool result. */
export type ToolContent = CallToolResult["content"];
type Block = { readonly type: string; readonly text?: unknown };

const ABSENT = Symbol("absent");

/** Calls a contract's tools, resources and prompts over the TypeScript SDK's `Client`. */
export class ContractCalling {
  constructor(readonly client: Client, readonly binding: ContractBinding) {}

  /** `tool` called with `args`, judged first; its answer judged (see the module). */
  async call(tool: string, args: unknown): Promise<unknown> {
    const document = plain(args ?? {});
    const refused = argumentViolations(this.binding.data, tool, document);
    if (refused.length > 0) throw new ContractViolation(`the arguments of ${tool}`, refused);
    const result = await this.client.callTool({ name: tool, arguments: document as JObject });
    if (!("content" in result) || !Array.isArray(result.content)) {
      throw new ToolCallFailed(tool, `${tool}: the server answered no tool result`, result);
    }
    const isError = result.isError === true;
    const facts = this.binding.data.results[tool];
    if (facts !== undefined && !facts.own_output && !facts.structured && !isError) {
      return this.content(tool, result.content as ToolContent);
    }
    const found = this.document(result.structuredContent, result.content as readonly Block[], isError);
    if (found === ABSENT) {
      if (isError) {
        const texts = (result.content as readonly Block[]).filter((b) => b.type === "text").map((b) => String(b.text));
        throw new ToolCallFailed(tool, texts.join(" ") || `${tool}: an error answer with no text`, result);
      }
      throw new AnswerRefused(tool, [{ path: [], pointer: "", message: "no structuredContent and no JSON text" }]);
    }
    const violations = answerViolations(this.binding, tool, found);
    if (violations.length === 0) violations.push(...this.errorViolations(tool, found, isError), ...contradictions(this.binding.data, found));
    if (violations.length > 0) throw new AnswerRefused(tool, violations, found);
    return found;
  }

  private document(structured: unknown, content: readonly Block[], isError: boolean): unknown {
    if (structured !== undefined && structured !== null) return structured;
    for (const block of content) {
      if (block.type !== "text" || typeof block.text !== "string") continue;
      let document: unknown;
      try {
        document = JSON.parse(block.text) as unknown;
      } catch {
        continue;
      }
      if (!isError || isObject(document)) return document;
    }
    return ABSENT;
  }

  /** `isError` against the document's kind, an error's code against the tool's declared codes. */
  private errorViolations(tool: string, document: unknown, isError: boolean): Violation[] {
    const { code_at } = this.binding.data.errors;
    if (code_at === null) return [];
    const error = isErrorDocument(this.binding.data, document);
    if (error !== isError) {
      const kind = error ? "an error envelope" : "a success";
      return [{ path: [], pointer: "", message: `isError is ${String(isError)}, but the document is ${kind}` }];
    }
    const code = valueAt(document, code_at);
    const declared = this.binding.data.results[tool]?.codes ?? null;
    if (typeof code === "string" && declared !== null && !declared.includes(code)) {
      const path = code_at.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
      const listed = declared.join(", ") || "none";
      return [{ path, pointer: toPointer(path), message: `'${code}' is not among the codes the tool declares (${listed})` }];
    }
    return [];
  }

  private content(tool: string, content: ToolContent): ToolContent {
    const violations = contentViolations(this.binding.data, tool, content);
    if (violations.length > 0) throw new AnswerRefused(tool, violations);
    return content;
  }

  /** The contents of the resource at `uri`: its text, or its blob's bytes. */
  async read(uri: string): Promise<string | Uint8Array> {
    const data = this.binding.data;
    const known =
      data.resources.some((r) => r.listing["uri"] === uri) ||
      data.templates.some((t) => UriTemplate.parse(String(t.listing["uriTemplate"])).match(uri) !== null);
    if (!known) throw new RangeError(`'${uri}' is no resource of the contract, nor matches any of its templates`);
    const result = await this.client.readResource({ uri });
    const first = result.contents[0] as { text?: unknown; blob?: unknown } | undefined;
    if (first === undefined) throw new AnswerRefused(uri, [{ path: ["contents"], pointer: "/contents", message: "no contents" }]);
    if (typeof first.text === "string") return first.text;
    if (typeof first.blob === "string") return fromBase64(first.blob);
    throw new AnswerRefused(uri, [{ path: ["contents", 0], pointer: "/contents/0", message: "neither text nor a blob" }]);
  }

  /** The result of the prompt `name` got with `args` (judged by `accepts` first). */
  async prompt(name: string, args: Record<string, string> | undefined, accepts: ((value: unknown) => boolean) | null) {
    const given = plain(args ?? {}) as Record<string, string>;
    if (accepts !== null && !accepts(given)) {
      throw new ContractViolation(`the arguments of the prompt ${name}`, [
        { path: [], pointer: "", message: "not the prompt's arguments (each a string, the required ones there, no other)" },
      ]);
    }
    return this.client.getPrompt(accepts === null ? { name } : { name, arguments: given });
  }
}

/** Every way the content blocks of a success of `tool` (its results content) break the contract:
 * a block of a type the tool does not declare, a text block whose JSON its `text_schema` refuses. */
export function contentViolations(data: ServingData, tool: string, content: readonly unknown[]): Violation[] {
  const facts = data.results[tool];
  const violations: Violation[] = [];
  content.forEach((block, index) => {
    const kind = isObject(block) ? block["type"] : undefined;
    if (typeof kind !== "string" || (facts?.content && !facts.content.includes(kind))) {
      const message = `'${String(kind)}' is a type the tool does not declare`;
      violations.push({ path: ["content", index], pointer: `/content/${index}`, message });
    }
    if (kind !== "text" || facts?.text_schema === null || facts?.text_schema === undefined) return;
    let document: unknown;
    try {
      document = JSON.parse(String((block as JObject)["text"])) as unknown;
    } catch {
      const message = "not JSON, which the tool's text_schema wants";
      violations.push({ path: ["content", index], pointer: `/content/${index}`, message });
      return;
    }
    for (const v of schemaJudge(facts.text_schema).violations(document)) {
      const path = ["content", index, ...v.path];
      violations.push({ path, pointer: toPointer(path), message: v.message });
    }
  });
  return violations;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The bytes of base64 text (padding optional); a RangeError for any other character. */
export function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/=+$/, "");
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE64.indexOf(char);
    if (value < 0) throw new RangeError("not base64");
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/** Base64 text of `bytes`, padded. */
export function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | (b << 8) | c;
    text += BASE64[(n >> 18) & 63]! + BASE64[(n >> 12) & 63]!;
    text += i + 1 < bytes.length ? BASE64[(n >> 6) & 63]! : "=";
    text += i + 2 < bytes.length ? BASE64[n & 63]! : "=";
  }
  return text;
}
