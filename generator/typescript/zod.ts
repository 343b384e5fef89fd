// Copied by mcp-contracts from its generator/typescript/zod.ts. Do not edit.
//
// A tool's input or output as a zod schema that a TypeScript SDK server registers: the zod
// part says what zod can say (types, properties), never more than the contract, and the
// judge, compiled from the schema the contract publishes, has the final word. Its JSON
// Schema (what `tools/list` sends, through zod's `toJSONSchema`) is that published schema,
// not one zod derives from its own parts.
import { z, type ZodType } from "zod";

import { Judge } from "./judge.js";

/**
 * The zod releases `judged` hooks zod's internals on (first in, second out; what the package
 * pins and the tests run). On any other, zod's public API only: see `publicly`.
 */
export const TESTED = [
  [4, 6, 7],
  [4, 7, 0],
] as const;

/** Whether this zod's release is in `TESTED`, read when a schema is judged. */
function tested(): boolean {
  const { major, minor, patch } = z.core.version;
  const release = [major, minor, patch];
  const before = (a: readonly number[], b: readonly number[]): boolean => {
    const at = a.findIndex((part, index) => part !== b[index]);
    return at >= 0 && (a[at] ?? 0) < (b[at] ?? 0);
  };
  return !before(release, TESTED[0]) && before(release, TESTED[1]);
}

/** The base URI a tool's published schema is judged under. */
const TOOL_SCHEMA = "file:///tool.schema.json";

// One judge per published schema: the envelope is every tool's output, compiled once.
const JUDGES = new WeakMap<object, Judge>();

function judgeOf(published: Readonly<Record<string, unknown>>): Judge {
  let judge = JUDGES.get(published);
  if (judge === undefined) {
    judge = new Judge({ root: TOOL_SCHEMA, formats: false, resources: { [TOOL_SCHEMA]: published } });
    JUDGES.set(published, judge);
  }
  return judge;
}

/** A copy of a JSON value that a caller may change freely. */
function copy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

// What zod's internal `run` takes and gives: the value parsed, and its issues.
interface Payload {
  value: unknown;
  issues: unknown[];
}
type Run = (payload: Payload, context: unknown) => Payload | Promise<Payload>;

/** `published` as listed: under an explicit draft 2020-12 `$schema` where it has none (zod would say draft-07). */
function listedOf(published: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return Object.prototype.hasOwnProperty.call(published, "$schema")
    ? published
    : { $schema: "https://json-schema.org/draft/2020-12/schema", ...published };
}

/**
 * `schema` judged by `published` (a self-contained JSON Schema, as the contract's
 * `tools.json` lists it), and listed as it.
 *
 * On a zod release in `TESTED`, zod's internal `run` is wrapped: the judge reads the value as
 * it was given, before zod parses it (zod leaves out a member named `__proto__`, say), and
 * after zod's own checks pass, each violation becomes a zod issue at its path; zod's
 * `toJSONSchema` gives `published` itself. `schema` itself is changed and returned: derive
 * nothing from it (zod's clones would lose both). On any other release, `publicly`.
 */
export function judged<T extends ZodType>(schema: T, published: Readonly<Record<string, unknown>>): T {
  if (!tested()) return publicly(schema, published);
  let judge: Judge | undefined; // compiled at the first value judged, not when the module loads
  const internals = schema._zod as unknown as { run: Run; toJSONSchema?: () => unknown };
  const parse = internals.run;
  const verdict = (given: unknown, result: Payload): Payload => {
    judge ??= judgeOf(published);
    if (result.issues.length > 0 || judge.isValid(given)) return result;
    for (const violation of judge.violations(given)) {
      result.issues.push({ code: "custom", message: violation.message, path: violation.path, input: given });
    }
    return result;
  };
  internals.run = (payload, context) => {
    const given = payload.value;
    const result = parse(payload, context);
    return result instanceof Promise ? result.then((done) => verdict(given, done)) : verdict(given, result);
  };
  const listed = listedOf(published);
  internals.toJSONSchema = () => copy(listed);
  return schema;
}

/**
 * `judged` through zod's public API only: an object that keeps every member as given but the
 * one zod drops (a root member named `__proto__`, which the handler never receives either),
 * judged by `superRefine` with each violation a zod issue at its path, and listed through
 * `.meta`: zod's JSON Schema of the object, each of its keywords `published` lacks left
 * undefined (absent from the JSON the SDK sends), `published`'s own over the rest, but a root
 * `id` (zod's registry reads it as a name of its own; it is no keyword of draft-07 or 2020-12).
 * The zod part goes unused: its TypeScript type stays `T`'s, as the judge is stricter.
 */
function publicly<T extends ZodType>(_schema: T, published: Readonly<Record<string, unknown>>): T {
  const { id: _id, ...listed } = listedOf(published);
  const unsaid = Object.keys(z.toJSONSchema(z.looseObject({}), { io: "output" })).filter(
    (key) => !Object.prototype.hasOwnProperty.call(listed, key),
  );
  const checked = z.looseObject({}).superRefine((value, context) => {
    const judge = judgeOf(published);
    if (judge.isValid(value)) return;
    for (const violation of judge.violations(value)) {
      context.addIssue({ code: "custom", message: violation.message, path: [...violation.path], input: value });
    }
  });
  return checked.meta({ ...Object.fromEntries(unsaid.map((key) => [key, undefined])), ...listed }) as unknown as T;
}
