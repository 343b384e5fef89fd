// Rows 9 to 11 in node: the generated TypeScript package, compiled by benchmarks/typescript.py.
//
//   node typescript_bench.mjs SPEC            every in-process figure, as JSON on stdout
//   node typescript_bench.mjs --cold SPEC K   one fresh process's import or compile (K: see `cold`)
//
// SPEC (JSON, written by typescript.py): the compiled package's folder, each contract's module,
// bundle path, examples and builder arguments, and how hard to measure. In process, a figure is
// the median of `repeats` rounds of `hrtime.bigint()` around about `budget` ms of calls, after a
// warm-up of every call; rounds run in turn (each example's calls one after another, then the
// next round) so drift in the machine's load falls on a figure and its anchor alike.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const MESSAGE = "The benchmark's failure.";
let sink = 0; // every call's result goes here, so no call is optimised away

function now() {
  return process.hrtime.bigint();
}

function median(values) {
  const ordered = [...values].sort((a, b) => a - b);
  const middle = ordered.length >> 1;
  return ordered.length % 2 ? ordered[middle] : (ordered[middle - 1] + ordered[middle]) / 2;
}

/** Seconds per call of one round of `number` calls. */
function round(call, number) {
  let last;
  const start = now();
  for (let i = 0; i < number; i++) last = call();
  const elapsed = Number(now() - start) / 1e9;
  if (last === sink) sink++;
  return elapsed / number;
}

/** Every call's seconds per call: each warmed for `warmup` ms, sized to rounds of about `budget` ms
 * once all are warm, then the median of `repeats` rounds, the calls in turn in each repeat. */
function timeAll(calls, spec) {
  if (spec.smoke) return calls.map((call) => round(call, 1));
  for (const call of calls) {
    const until = now() + BigInt(Math.round(spec.warmup * 1e6));
    while (now() < until) round(call, 10);
  }
  const numbers = calls.map((call) => {
    const once = Math.min(...Array.from({ length: 5 }, () => round(call, 10)));
    return Math.max(1, Math.round(spec.budget / 1000 / Math.max(once, 1e-9)));
  });
  const found = calls.map(() => []);
  for (let r = 0; r < spec.repeats; r++) {
    for (const [index, call] of calls.entries()) found[index].push(round(call, numbers[index]));
  }
  return found.map(median);
}

function moduleUrl(spec, contract) {
  return pathToFileURL(join(spec.folder, "dist", contract.module, "index.js")).href;
}

/** ajv 8 compiled from the contract's bundle: every resource added under its URI, `{$ref: root}` compiled. */
function ajvValidator(spec, bundle) {
  const require = createRequire(join(spec.folder, "package.json"));
  const root = bundle.resources[bundle.root];
  const draft07 = typeof root.$schema === "string" && root.$schema.includes("draft-07");
  const Ajv = draft07 ? require("ajv").default : require("ajv/dist/2020").default;
  // validateFormats follows the bundle: the judge asserts `format` only under `formats: assert`.
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: bundle.formats === true });
  for (const [uri, schema] of Object.entries(bundle.resources)) ajv.addSchema(schema, uri);
  return ajv.compile({ $ref: bundle.root });
}

const readBundle = (contract) => JSON.parse(readFileSync(contract.bundle, "utf8"));

const sortedKeys = (object) => Object.keys(object).sort();

/** Every object in `value` with its path, the root first, then depth first in key order. */
function* objects(value, at = []) {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* objects(item, [...at, index]);
  } else if (typeof value === "object" && value !== null) {
    yield [at, value];
    for (const key of sortedKeys(value)) yield* objects(value[key], [...at, key]);
  }
}

const pointer = (path) => path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");

/** The first member, root first, whose removal the judge rejects: (its pointer, the text without it). */
function dropped(text, isEnvelope) {
  for (const [at, members] of objects(JSON.parse(text))) {
    for (const key of sortedKeys(members)) {
      const copy = JSON.parse(text);
      let target = copy;
      for (const part of at) target = target[part];
      delete target[key];
      if (!isEnvelope(copy)) return [pointer([...at, key]), JSON.stringify(copy)];
    }
  }
  return null;
}

async function inProcess(spec) {
  const cases = [];
  const builders = [];
  for (const contract of spec.contracts) {
    const module = await import(moduleUrl(spec, contract));
    const validator = ajvValidator(spec, readBundle(contract));
    for (const example of contract.examples) {
      const text = example.text;
      const value = JSON.parse(text);
      if (!module.isEnvelope(value) || !validator(value)) throw new Error(`${contract.name} ${example.name} is not valid`);
      const bad = dropped(text, module.isEnvelope);
      const item = {
        contract: contract.name,
        example: example.name,
        bytes: Buffer.byteLength(text),
        calls: [
          () => JSON.parse(text),
          () => module.isEnvelope(JSON.parse(text)),
          () => validator(JSON.parse(text)),
        ],
      };
      if (bad !== null) {
        const [where, badText] = bad;
        const found = module.validate(JSON.parse(badText));
        if (found.length === 0) throw new Error(`validate accepts ${contract.name} ${example.name} without ${where}`);
        item.variant = `dropped ${where}`;
        item.violations = found.length;
        item.calls.push(() => JSON.parse(badText), () => module.validate(JSON.parse(badText)));
      }
      cases.push(item);
    }
    if (contract.builders !== null) {
      if (typeof module.errorResponse !== "function") throw new Error(`${contract.name} has no errorResponse`);
      const { code, error, success } = contract.builders;
      for (const [kind, call] of [
        ["error", () => JSON.stringify(module.errorResponse(code, MESSAGE, error))],
        ["success", () => JSON.stringify(module.successResponse(success))],
      ]) {
        const made = call();
        // The same envelope as an object literal in code: every call builds the objects anew.
        const literal = new Function(`return JSON.stringify(${made});`);
        if (literal() !== made) throw new Error(`${contract.name}: the literal of the ${kind} differs`);
        builders.push({ contract: contract.name, kind, code, arguments: Object.keys(kind === "error" ? error : success), calls: [call, literal] });
      }
    }
  }
  const calls = [...cases.flatMap((c) => c.calls), ...builders.flatMap((b) => b.calls)];
  const times = timeAll(calls, spec);
  let at = 0;
  const take = (count) => times.slice(at, (at += count));
  const examples = cases.map(({ calls: own, ...rest }) => {
    const [parse, judge, ajv, badParse, badValidate] = take(own.length);
    return { ...rest, parse, judge, ajv, ...(own.length > 3 ? { badParse, badValidate } : {}) };
  });
  const built = builders.map(({ calls: own, ...rest }) => {
    const [ours, literal] = take(own.length);
    return { ...rest, ours, literal };
  });
  return { examples, builders: built, cold: cold(spec), sink: sink % 2 };
}

/** Each fresh process of `--cold`, `spec.coldRepeats` times in turn: the median of each, in ms. */
function cold(spec) {
  // zod as the generated modules import it (its "import" condition), from inside the package.
  writeFileSync(join(spec.folder, "zod_anchor.mjs"), 'export { z } from "zod";\n');
  const kinds = ["zod", ...spec.contracts.flatMap((c) => [`ours:${c.name}`, `judge:${c.name}`, `ajv:${c.name}`])];
  const found = Object.fromEntries(kinds.map((kind) => [kind, []]));
  const script = fileURLToPath(import.meta.url);
  for (let r = 0; r < spec.coldRepeats; r++) {
    for (const kind of kinds) {
      const out = execFileSync(process.execPath, [script, "--cold", spec.path, kind], { encoding: "utf8" });
      found[kind].push(JSON.parse(out));
    }
  }
  const result = { zod: median(found.zod.map((f) => f.import)), contracts: {} };
  for (const contract of spec.contracts) {
    const ours = found[`ours:${contract.name}`];
    result.contracts[contract.name] = {
      import: median(ours.map((f) => f.import)),
      first: median(ours.map((f) => f.first)),
      second: median(ours.map((f) => f.second)),
      compile: median(found[`judge:${contract.name}`].map((f) => f.first)),
      // whether its compiled module imports zod at all (tsc drops an import nothing uses)
      zod: readdirSync(join(spec.folder, "dist", contract.module)).some(
        (file) => file.endsWith(".js") && readFileSync(join(spec.folder, "dist", contract.module, file), "utf8").includes('from "zod"'),
      ),
      ajvCompile: median(found[`ajv:${contract.name}`].map((f) => f.first)),
    };
  }
  return result;
}

/** One fresh process, in ms: `zod` (its import); `ours:NAME` (the module's import, then its first
 * and second `isEnvelope`); `judge:NAME` (the runtime's `Judge` loaded and the bundle read, then
 * `new Judge(bundle)` + its first `isValid`); `ajv:NAME` (ajv loaded and the bundle read, then an
 * instance, every resource added, compiled, its first call). */
async function coldOnce(spec, kind) {
  const ms = (start) => Number(now() - start) / 1e6;
  if (kind === "zod") {
    const start = now();
    await import(pathToFileURL(join(spec.folder, "zod_anchor.mjs")).href);
    return { import: ms(start) };
  }
  const [what, name] = kind.split(":");
  const contract = spec.contracts.find((c) => c.name === name);
  const value = JSON.parse(contract.examples[0].text);
  let ok;
  let start;
  if (what === "ours") {
    start = now();
    const module = await import(moduleUrl(spec, contract));
    const imported = ms(start);
    start = now();
    ok = module.isEnvelope(value);
    const first = ms(start);
    start = now();
    module.isEnvelope(value);
    const second = ms(start);
    if (!ok) throw new Error(`${name}: the first example is not valid`);
    return { import: imported, first, second };
  }
  const bundle = readBundle(contract);
  if (what === "judge") {
    const { Judge } = await import(pathToFileURL(join(spec.folder, "dist", "_runtime", "judge.js")).href);
    start = now();
    ok = new Judge(bundle).isValid(value);
  } else {
    const require = createRequire(join(spec.folder, "package.json"));
    require("ajv");
    require("ajv/dist/2020");
    start = now();
    ok = ajvValidator(spec, bundle)(value);
  }
  const first = ms(start);
  if (!ok) throw new Error(`${name}: ${what} rejects the first example`);
  return { first };
}

const args = process.argv.slice(2);
if (args[0] === "--cold") {
  const spec = JSON.parse(readFileSync(args[1], "utf8"));
  process.stdout.write(JSON.stringify(await coldOnce({ ...spec, path: args[1] }, args[2])));
} else {
  const spec = JSON.parse(readFileSync(args[0], "utf8"));
  process.stdout.write(JSON.stringify(await inProcess({ ...spec, path: args[0] })));
}
