// Runs the official JSON Schema Test Suite against the compiled judge (generator/typescript/judge.ts).
//
//   node run_judge_suite.mjs SUITE_DIR COMPILED_JUDGE_JS [--draft draft2020-12|draft7] [--formats]
//
// For every group of the draft's required files (with --formats: the files of optional/format/, judged
// with `formats: true`) it builds a bundle (root file:///envelope.schema.json holding the group's schema,
// plus every file of remotes/ at http://localhost:1234/<path>), judges each test's data with both
// `isValid` and `violations` (valid iff empty) and prints one JSON report:
//   {"groups": n, "instances": n, "wrong": [...], "problems": [...], "seconds": s}
// Exits 1 when `wrong` or `problems` is not empty.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const positional = [];
let draft = "draft2020-12";
let formats = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--draft") draft = args[++i];
  else if (args[i] === "--formats") formats = true;
  else positional.push(args[i]);
}
const [suiteDir, judgeJs] = positional;
if (!suiteDir || !judgeJs || !["draft2020-12", "draft7"].includes(draft)) {
  console.error("usage: node run_judge_suite.mjs SUITE_DIR COMPILED_JUDGE_JS [--draft draft2020-12|draft7] [--formats]");
  process.exit(2);
}
const { Judge } = await import(pathToFileURL(path.resolve(judgeJs)).href);

const DIALECT = {
  "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
  draft7: "http://json-schema.org/draft-07/schema#",
};

function readRemotes(dir) {
  const out = {};
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".json")) {
        out["http://localhost:1234/" + path.relative(dir, p).split(path.sep).join("/")] = JSON.parse(fs.readFileSync(p, "utf8"));
      }
    }
  };
  walk(dir);
  return out;
}

const remotes = readRemotes(path.join(suiteDir, "remotes"));
const testDir = path.join(suiteDir, "tests", draft, ...(formats ? ["optional", "format"] : []));
const files = fs.readdirSync(testDir).filter((f) => f.endsWith(".json")).sort();

const report = { groups: 0, instances: 0, wrong: [], problems: [] };
const started = process.hrtime.bigint();
for (const file of files) {
  const groups = JSON.parse(fs.readFileSync(path.join(testDir, file), "utf8"));
  for (const group of groups) {
    report.groups++;
    const name = `${draft} / ${file.replace(/\.json$/, "")}: ${group.description}`;
    let schema = group.schema;
    if (schema !== null && typeof schema === "object" && !Array.isArray(schema) && !("$schema" in schema)) {
      schema = { $schema: DIALECT[draft], ...schema };
    }
    let judge;
    try {
      judge = new Judge({ root: "file:///envelope.schema.json", formats, resources: { ...remotes, "file:///envelope.schema.json": schema } });
    } catch (err) {
      report.problems.push(`${name}: ${err && err.message}`);
      report.instances += group.tests.length;
      continue;
    }
    for (const test of group.tests) {
      report.instances++;
      let valid, violations;
      try {
        valid = judge.isValid(test.data);
        violations = judge.violations(test.data);
      } catch (err) {
        report.wrong.push(`${name} / ${test.description}: suite ${test.valid}, threw ${err && err.message}`);
        continue;
      }
      const byViolations = violations.length === 0;
      if (valid !== test.valid || byViolations !== test.valid) {
        const shown = violations.map((v) => `${v.pointer || "/"} ${v.message}`).join("; ");
        report.wrong.push(`${name} / ${test.description}: suite ${test.valid}, isValid ${valid}, violations ${violations.length}${shown ? ` [${shown}]` : ""}`);
      }
    }
  }
}
report.seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(JSON.stringify(report, null, 2));
process.exit(report.wrong.length || report.problems.length ? 1 : 0);
