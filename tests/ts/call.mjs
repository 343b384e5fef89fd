// Calls exports of a compiled generated contract module and prints what each gave, as JSON;
// tests/test_typescript_package.py compares it with the Python package.
//
//   node call.mjs MODULE.js CALLS.json
//
// CALLS.json: [{"fn": "name", "args": [...]} | {"get": "name"}], a name perhaps dotted. Prints one JSON array:
// {"value": ...} for each call that returned (a Map or Set as an array of its values), or
// {"error": "ErrorClassName", "message": "...", "violations": [...] | null} for one that threw.
import { readFileSync } from "node:fs";

const contract = await import(process.argv[2]);
const calls = JSON.parse(readFileSync(process.argv[3], "utf8"));

// A dotted name reads within a namespace export: `resources.expandTemplateData`.
const find = (name) => name.split(".").reduce((found, part) => found[part], contract);
const plain = (value) => (value instanceof Map || value instanceof Set ? [...value.values()] : value);

const outcomes = calls.map((call) => {
  try {
    const value = "get" in call ? find(call.get) : find(call.fn)(...call.args);
    return { value: plain(value) ?? null };
  } catch (error) {
    return { error: error?.name ?? "unknown", message: String(error?.message), violations: error?.violations ?? null };
  }
});
process.stdout.write(JSON.stringify(outcomes));
