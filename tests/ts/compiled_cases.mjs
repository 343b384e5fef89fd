// The compiled `accepts` of each case (tests/test_typescript_compiled.py) against its Judge's
// `isValid`, on the case's JSON instances and on values JSON cannot write (undefined, a
// function, objects with a prototype of their own, inherited enumerable properties).
//
//   node compiled_cases.mjs DIST CASES.json
//
// CASES.json: [{"module", "instances": [...]}]. Prints {"judged": n, "apart": ["module: instance ..."]}.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, casesFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const inherited = Object.create({ extra: 1, name: "inherited" });
const specials = [
  undefined,
  () => 1,
  Number.NaN,
  inherited,
  Object.assign(Object.create({ extra: 1 }), { name: "own" }),
  Object.assign(Object.create(null), { name: "x", kind: "leaf" }),
];
const report = { judged: 0, apart: [] };
for (const { module, instances } of cases) {
  const { accepts, JUDGE } = await import(pathToFileURL(join(dist, `${module}.js`)).href);
  for (const instance of [...instances, ...specials]) {
    report.judged += 1;
    const compiled = accepts(instance), judged = JUDGE.isValid(instance);
    if (compiled !== judged) report.apart.push(`${module}: ${String(JSON.stringify(instance))}: compiled ${compiled}, Judge ${judged}`);
  }
}
process.stdout.write(JSON.stringify(report));
