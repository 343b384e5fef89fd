// The JSON Schema Test Suite through generated TypeScript contract modules: each group of the
// suite is a contract (tests/suite/run_suite.py generates them, with TypeScript), and each test
// instance is judged by its module's `validate` and `isEnvelope`.
//
//   node judge_suite.mjs DIST CASES.json
//
// CASES.json: [{"module", "name", "tests": [{"description", "data", "valid"}]}]. Prints one
// JSON report: {"instances": n, "wrong": ["name / test: suite X, validate Y, isEnvelope Z"]}.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, casesFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const report = { instances: 0, wrong: [] };
for (const group of cases) {
  const contract = await import(pathToFileURL(join(dist, group.module, "index.js")).href);
  for (const test of group.tests) {
    report.instances += 1;
    let byValidate, byGuard;
    try {
      byValidate = contract.validate(test.data).length === 0;
      byGuard = contract.isEnvelope(test.data);
    } catch (error) {
      report.wrong.push(`${group.name} / ${test.description}: threw ${error}`);
      continue;
    }
    if (byValidate !== test.valid || byGuard !== test.valid) {
      report.wrong.push(
        `${group.name} / ${test.description}: suite ${test.valid}, validate ${byValidate}, isEnvelope ${byGuard}`,
      );
    }
  }
}
process.stdout.write(JSON.stringify(report));
