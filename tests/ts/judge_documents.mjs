// Judges documents with generated contract modules' `validate` and `isEnvelope`, in one
// process for any number of modules; tests/test_typescript_corpus.py compares the verdicts
// with the Python judge's.
//
//   node judge_documents.mjs [--zod=MAJOR.MINOR.PATCH] DIST CASES.json
//
// `--zod=`: see zod_release.mjs.
//
// CASES.json: [{"module", "as"?, "documents": [...]}]: `as` names a type of the module's
// LOCATIONS (the envelope when absent). Prints one JSON array, an entry per case: for each
// document, {"valid": validate gave none, "guard": isEnvelope, "zod": for each tool with an
// `outputSchema`, whether that zod schema parses it (both null with `as`), "pointers": the
// violations' pointers} or {"error": "what it threw"} (each document's, when the module does
// not import).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { takeZodRelease } from "./zod_release.mjs";

const [dist, casesFile] = takeZodRelease(process.argv.slice(2));
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const modules = new Map();
const report = [];
for (const group of cases) {
  if (!modules.has(group.module)) {
    const href = pathToFileURL(join(dist, group.module, "index.js")).href;
    modules.set(group.module, await import(href).catch((error) => ({ failed: `import: ${error?.stack ?? error}` })));
  }
  const contract = modules.get(group.module);
  const outputs = Object.values(contract.TOOLS ?? {}).filter((tool) => tool.config.outputSchema !== undefined);
  if ("failed" in contract) {
    report.push(group.documents.map(() => ({ error: contract.failed })));
    continue;
  }
  report.push(
    group.documents.map((document) => {
      try {
        const violations = group.as === undefined ? contract.validate(document) : contract.validate(document, group.as);
        return {
          valid: violations.length === 0,
          guard: group.as === undefined ? contract.isEnvelope(document) : null,
          zod:
            group.as === undefined
              ? Object.fromEntries(outputs.map((t) => [t.name, t.config.outputSchema.safeParse(document).success]))
              : null,
          pointers: violations.map((violation) => violation.pointer),
        };
      } catch (error) {
        return { error: String(error?.stack ?? error) };
      }
    }),
  );
}
process.stdout.write(JSON.stringify(report));
