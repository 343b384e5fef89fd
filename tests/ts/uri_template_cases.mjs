// Runs the TypeScript port of the URI template runtime (a compiled `_runtime/uri_template.js`)
// on a batch of cases and prints what each gave, as JSON; tests/test_typescript_surface.py
// runs the Python module on the same cases and compares.
//
//   node uri_template_cases.mjs URI_TEMPLATE.js CASES.json
//
// CASES.json: [{"template": "...", "expand": [{values}...], "match": ["uri"...], "count": ["uri"...]}].
// Prints one JSON array: {"error": {name, reason, column, message}} for a template `parse`
// refuses, else {"variables", "expanded", "matched", "steps"}: each expansion (or
// {"error": name} where it threw), each match (values or null), the steps each `count` URI took.
import { readFileSync } from "node:fs";

const { UriTemplate } = await import(process.argv[2]);
const cases = JSON.parse(readFileSync(process.argv[3], "utf8"));

const expanded = (template, values) => {
  try {
    return template.expand(values);
  } catch (error) {
    return { error: error?.name ?? "unknown" };
  }
};

const outcomes = cases.map((one) => {
  let template;
  try {
    template = UriTemplate.parse(one.template);
  } catch (error) {
    const { name, reason, column, message } = error;
    return { error: { name, reason: reason ?? null, column: column ?? null, message } };
  }
  return {
    variables: template.variables,
    expanded: (one.expand ?? []).map((values) => expanded(template, values)),
    matched: (one.match ?? []).map((uri) => template.match(uri)),
    steps: (one.count ?? []).map((uri) => {
      const tally = { steps: 0 };
      template.matchCounting(uri, tally);
      return tally.steps;
    }),
  };
});
process.stdout.write(JSON.stringify(outcomes));
