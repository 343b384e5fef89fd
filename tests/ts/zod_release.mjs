// `--zod=MAJOR.MINOR.PATCH` as the first argument of a test script: zod says it is that release
// before any generated module is imported. One outside the range the runtime's zod.ts is
// tested on (its `TESTED`) makes `judged` take zod's public API only.
import { z } from "zod";

/** The arguments after an optional `--zod=` first one, which is taken. */
export function takeZodRelease(given) {
  if (!given[0]?.startsWith("--zod=")) return given;
  const [major, minor, patch] = given[0].slice("--zod=".length).split(".").map(Number);
  Object.assign(z.core.version, { major, minor, patch });
  return given.slice(1);
}
