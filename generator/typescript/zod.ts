// Copied by mcp-contracts from its generator/typescript/zod.ts. Do not edit.
//
// A tool's input or output as a zod schema that a TypeScript SDK server registers: the zod
// part says what zod can say (types, properties), never more than the contract, and the
// judge, compiled from the schema the contract publishes, has the final word. Its JSON
// Schema (what `tools/list` sends, through zod's `toJSONSchema`) is that published schema,
// not one zod derives from its own parts.
import type { ZodType } from "zod";

import { Judge } from "./judge.js";

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

/**
 * `schema` judged by `published` (a self-contained JSON Schema, as the contract's
 * `tools.json` lists it), and listed as it.
 *
 * The judge reads the value as it was given, before zod parses it (zod leaves out a member
 * named `__proto__`, say): after zod's own checks pass, each violation becomes a zod issue
 * at its path. The JSON Schema zod gives for the result is `published` itself, under an
 * explicit draft 2020-12 `$schema` where it has none (zod would otherwise say draft-07 of it).
 * `schema` itself is changed and returned: derive nothing from it (zod's clones would lose both).
 */
export function judged<T extends ZodType>(schema: T, published: Readonly<Record<string, unknown>>): T {
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
  const listed = Object.prototype.hasOwnProperty.call(published, "$schema")
    ? published
    : { $schema: "https://json-schema.org/draft/2020-12/schema", ...published };
  internals.toJSONSchema = () => copy(listed);
  return schema;
}
