// What tsc --strict must take and refuse of the generated resources.ts and prompts.ts of
// tests/contracts/conformance-fixtures, with the template `items` and the prompt `review`
// tests/test_typescript_surface.py adds: it is copied into the package's src/ and compiled
// with it. Each `@ts-expect-error` fails the compilation if the line below it compiles.
import { prompts, resources } from "./conformance_fixtures/index.js";

const uri: string = resources.expandItems({ id: "7" });
const sized: string = resources.expandItems({ id: "7", page: "2", "page.size": "20" });
const found: resources.ItemsValues | null = resources.matchItems(uri);
const size: string | undefined = found?.["page.size"];
const id: string | undefined = resources.matchTemplateData(sized)?.id;
const first: "test://static-text" = resources.RESOURCES[0];
const name: "review" = prompts.REVIEW;

// @ts-expect-error: `id` is required.
resources.expandItems({ page: "2" });
// @ts-expect-error: a value is a string.
resources.expandItems({ id: 7 });
// @ts-expect-error: no such variable.
resources.expandTemplateData({ id: "1", page: "2" });

const given: unknown = JSON.parse('{"code": "x"}');
if (prompts.isReviewArguments(given)) {
  const code: string = given.code;
  const style: string | undefined = given.style;
  void [code, style];
}
// @ts-expect-error: `code` is required.
const missing: prompts.ReviewArguments = { style: "terse" };

// A JSON resource's contents, typed by its schema (a `$ref` to a file of the contract folder).
const contents: unknown = JSON.parse('{"theme": "dark", "retries": 3}');
if (resources.ConfigModel.isContents(contents)) {
  const theme: "dark" | "light" = contents.theme;
  const retries: number = contents.retries;
  void [theme, retries];
}
const read: resources.ConfigModel.ConfigContents = resources.readConfig('{"theme": "light", "retries": 0}');
const data: string = resources.readTemplateData('{"id": "7", "templateTest": true, "data": "x"}').data;
// @ts-expect-error: a theme the schema does not name.
const unnamed: resources.ConfigModel.ConfigContents = { theme: "blue", retries: 1 };

export const used = [uri, sized, size, id, first, name, missing, read, data, unnamed];
