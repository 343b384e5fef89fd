/**
 * judge.ts: an exact JSON Schema validator ("the judge") for draft 2020-12 and draft-07.
 * Self-contained, dependency-free, strict TypeScript; copied verbatim into generated packages.
 *
 * Design
 * 1. Registry: the constructor walks every resource of the bundle once (plus built-in copies of the
 *    2020-12 and draft-07 metaschemas), recording for each subschema its context (base URI, dialect,
 *    resource) and every `$id`, `$anchor` and `$dynamicAnchor` URI. Nothing is ever fetched.
 * 2. Compiler: a schema object compiles once (cached by object identity) into an `SNode`: lists of
 *    small keyword closures grouped by the JSON type they apply to, with `$ref` targets resolved to
 *    other SNodes and regexes compiled. The root is compiled in the constructor, so a `$ref` that
 *    resolves to nothing and is reachable from the root throws there; any other location compiles (and
 *    may throw) on its first use. Compiled locations are cached.
 * 3. Evaluation: one code path serves both entry points. `isValid` runs without an error sink and stops
 *    at the first failing keyword; `violations` runs with a sink and visits everything. Annotations for
 *    `unevaluated*` (an `Ev` record) are only gathered beneath a schema that uses those keywords, and
 *    the dynamic scope is only tracked when the bundle uses `$dynamicRef`.
 */

export interface Bundle { root: string; formats: boolean; resources: Record<string, unknown> }
export interface Violation { path: (string | number)[]; pointer: string; message: string }

// ---------------------------------------------------------------------------------------------------
// JSON helpers

type JObject = Record<string, unknown>;

const hasOwnProperty = Object.prototype.hasOwnProperty;
const hasOwn = (o: object, k: string): boolean => hasOwnProperty.call(o, k);

function isObject(v: unknown): v is JObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The own property `k` of `o`, or undefined: never reads an inherited member such as `__proto__`. */
function own(o: JObject, k: string): unknown {
  return hasOwn(o, k) ? o[k] : undefined;
}

/** Whether two JSON values are equal (object keys in any order, own properties only). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as JObject, y = b as JObject;
  const kx = Object.keys(x);
  if (kx.length !== Object.keys(y).length) return false;
  for (const k of kx) if (!hasOwn(y, k) || !deepEqual(x[k], y[k])) return false;
  return true;
}

/** A string equal for exactly the deep-equal JSON values (object key order ignored, 1.0 == 1). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  if (isObject(v)) {
    return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
  }
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

/** The length of `s` in code points (a surrogate pair counts once), as `minLength` and `maxLength` count. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { n--; i++; }
    }
  }
  return n;
}

/** A short rendering of a value for messages: strings in single quotes, the rest as compact JSON. */
function show(v: unknown): string {
  let s: string;
  if (typeof v === "string") s = "'" + v.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'";
  else {
    try { s = JSON.stringify(v) ?? String(v); } catch { s = String(v); }
  }
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
}

/** The RFC 6901 pointer of a path. */
export function toPointer(path: readonly (string | number)[]): string {
  let out = "";
  for (const seg of path) out += "/" + String(seg).replace(/~/g, "~0").replace(/\//g, "~1");
  return out;
}

// ---------------------------------------------------------------------------------------------------
// URIs (RFC 3986 reference resolution; the global URL class is not available under lib ES2022)

interface UriParts {
  scheme: string | undefined; authority: string | undefined; path: string;
  query: string | undefined; fragment: string | undefined;
}

const URI_RE = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/;

function parseUri(s: string): UriParts {
  const m = URI_RE.exec(s);
  if (m === null) return { scheme: undefined, authority: undefined, path: s, query: undefined, fragment: undefined };
  return { scheme: m[1], authority: m[2], path: m[3] ?? "", query: m[4], fragment: m[5] };
}

function formatUri(u: UriParts): string {
  let s = "";
  if (u.scheme !== undefined) s += u.scheme + ":";
  if (u.authority !== undefined) s += "//" + u.authority;
  s += u.path;
  if (u.query !== undefined) s += "?" + u.query;
  if (u.fragment !== undefined) s += "#" + u.fragment;
  return s;
}

function removeDotSegments(path: string): string {
  if (!path.includes(".")) return path;
  const out: string[] = [];
  let input = path;
  while (input.length > 0) {
    if (input.startsWith("../")) input = input.slice(3);
    else if (input.startsWith("./")) input = input.slice(2);
    else if (input.startsWith("/./")) input = input.slice(2);
    else if (input === "/.") input = "/";
    else if (input.startsWith("/../")) { input = input.slice(3); out.pop(); }
    else if (input === "/..") { input = "/"; out.pop(); }
    else if (input === "." || input === "..") input = "";
    else {
      const seg = /^\/?[^/]*/.exec(input)?.[0] ?? input;
      out.push(seg);
      input = input.slice(seg.length);
    }
  }
  return out.join("");
}

/** RFC 3986 section 5.2: the target URI of `ref` against `base`. */
function resolveUri(base: string, ref: string): string {
  if (ref.startsWith("#")) return stripFragment(base) + ref;
  const r = parseUri(ref);
  if (r.scheme !== undefined) return formatUri({ ...r, scheme: r.scheme.toLowerCase(), path: removeDotSegments(r.path) });
  const b = parseUri(base);
  let path: string, query = r.query, authority = b.authority;
  if (r.authority !== undefined) { authority = r.authority; path = removeDotSegments(r.path); }
  else if (r.path === "") { path = b.path; query = r.query ?? b.query; }
  else if (r.path.startsWith("/")) path = removeDotSegments(r.path);
  else if (b.authority !== undefined && b.path === "") path = removeDotSegments("/" + r.path);
  else path = removeDotSegments(b.path.slice(0, b.path.lastIndexOf("/") + 1) + r.path);
  return formatUri({ scheme: b.scheme, authority, path, query, fragment: r.fragment });
}

function stripFragment(uri: string): string {
  const i = uri.indexOf("#");
  return i < 0 ? uri : uri.slice(0, i);
}

function fragmentOf(uri: string): string {
  const i = uri.indexOf("#");
  return i < 0 ? "" : uri.slice(i + 1);
}

function percentDecode(s: string): string {
  if (!s.includes("%")) return s;
  try { return decodeURIComponent(s); } catch { return s; }
}

// ---------------------------------------------------------------------------------------------------
// Dialects and vocabularies

interface Dialect {
  readonly d7: boolean; // draft-07 rules: `$ref` hides its siblings, `items` arrays, `dependencies`...
  readonly legacyItems: boolean; // `items` array form + `additionalItems` (draft-07 and 2019-09)
  readonly validation: boolean;
  readonly applicator: boolean;
  readonly unevaluated: boolean;
  readonly formatAssertion: boolean;
}

const D2020: Dialect = { d7: false, legacyItems: false, validation: true, applicator: true, unevaluated: true, formatAssertion: false };
const D2019: Dialect = { ...D2020, legacyItems: true };
const D7: Dialect = { d7: true, legacyItems: true, validation: true, applicator: true, unevaluated: false, formatAssertion: false };
const VOCAB = "https://json-schema.org/draft/2020-12/vocab/";

/** Subschema-bearing keywords per dialect: `one` holds a schema, `many` an array, `map` an object of them. */
interface Shape { one: readonly string[]; many: readonly string[]; map: readonly string[] }
const SHAPE_2020: Shape = {
  one: ["additionalProperties", "additionalItems", "items", "contains", "propertyNames", "not", "if", "then", "else",
    "unevaluatedProperties", "unevaluatedItems"],
  many: ["allOf", "anyOf", "oneOf", "prefixItems", "items"],
  map: ["properties", "patternProperties", "$defs", "dependentSchemas"],
};
const SHAPE_7: Shape = {
  one: ["additionalProperties", "additionalItems", "items", "contains", "propertyNames", "not", "if", "then", "else"],
  many: ["allOf", "anyOf", "oneOf", "items"],
  map: ["properties", "patternProperties", "definitions", "dependencies"],
};

/** Keywords that never take part in an evaluation (a schema holding only these and one `$ref` forwards). */
const INERT = new Set(["$comment", "title", "description", "default", "examples", "deprecated", "readOnly",
  "writeOnly", "$anchor", "$dynamicAnchor", "$defs", "definitions"]);

// ---------------------------------------------------------------------------------------------------
// Registry records

/** A schema resource (a document root or a subschema with `$id`), the unit of the dynamic scope. */
interface Resource { readonly uri: string; readonly dynamicAnchors: Map<string, unknown> }
/** Where a subschema sits: the base URI its references resolve against, its dialect, its resource. */
interface NodeCtx { readonly base: string; readonly dialect: Dialect; readonly resource: Resource }

// ---------------------------------------------------------------------------------------------------
// Evaluation state

/** Annotations that `unevaluatedProperties` / `unevaluatedItems` consume. */
class Ev {
  props: Set<string> | null = null;
  allProps = false;
  items = 0; // items [0, items) were evaluated (prefixItems)
  allItems = false;
  idx: Set<number> | null = null; // indices matched by `contains`

  addProp(k: string): void { (this.props ??= new Set()).add(k); }

  merge(o: Ev): void {
    if (o.allProps) this.allProps = true;
    else if (o.props !== null && !this.allProps) for (const k of o.props) this.addProp(k);
    if (o.allItems) this.allItems = true;
    if (o.items > this.items) this.items = o.items;
    if (o.idx !== null) for (const i of o.idx) (this.idx ??= new Set()).add(i);
  }
}

interface Ctx {
  /** null on the fast path (`isValid`): the first failure ends the evaluation. */
  errors: Violation[] | null;
  path: (string | number)[]; // instance path, maintained only while errors !== null
  depth: number; // instance depth, always maintained: detects `$ref` cycles that do not consume input
  scope: Resource[] | null; // the dynamic scope, only when the bundle uses $dynamicRef
  gen: number; // per top-level call, so a stale cycle marker from an aborted call is never trusted
}

type Check = (inst: unknown, c: Ctx, e: Ev | null) => boolean;

/** A compiled schema. `bool` is set for the boolean schemas; otherwise keyword closures by JSON type. */
class SNode {
  bool: boolean | null = null;
  resource: Resource | null = null;
  /**
   * The static `$ref` target and the `allOf` members: in-place subschemas that `evaluate` follows itself
   * (one stack frame less per reference); also consulted to guess which `oneOf`/`anyOf` branch was meant.
   */
  inPlace: SNode[] = [];
  /** While `inPlace` is being followed: the call and instance depth, to detect a cycle that consumes nothing. */
  refGen = -1;
  refDepth = -1;
  // Keyword checks by the JSON type they apply to, while compiling; `seal` merges them into `byKind`.
  any: Check[] = [];
  num: Check[] = [];
  str: Check[] = [];
  arr: Check[] = [];
  obj: Check[] = [];
  last: Check[] = []; // unevaluated*: after every other keyword has produced its annotations
  /** Indexed by `kindOf(instance)`: the checks that apply, in order (any type, the type's own, last). */
  byKind: Check[][] = [];
  uneval = false;
  /** Accepts everything and yields no annotations: `true`, `{}`, a schema of annotations only. */
  trivial = false;
  sealed = false;
  constructor(readonly raw: unknown) {}

  seal(): void {
    this.sealed = true;
    this.uneval = this.last.length > 0;
    this.trivial = this.inPlace.length === 0 && this.any.length + this.num.length + this.str.length +
      this.arr.length + this.obj.length + this.last.length === 0;
    const list = (own: Check[]): Check[] => [...this.any, ...own, ...this.last];
    this.byKind = [list([]), list([]), list(this.num), list(this.str), list(this.arr), list(this.obj)];
  }
}

/** 0 null, 1 boolean, 2 number, 3 string, 4 array, 5 object: the index into `SNode.byKind`. */
export function kindOf(v: unknown): number {
  switch (typeof v) {
    case "boolean": return 1;
    case "number": return 2;
    case "string": return 3;
    case "object": return v === null ? 0 : Array.isArray(v) ? 4 : 5;
    default: return 0;
  }
}

/** Record a violation. Callers test `c.errors !== null` first, so that no message is built on the fast path. */
function fail(c: Ctx, message: string, seg?: string | number): void {
  if (c.errors === null) return;
  const path = c.path.slice();
  if (seg !== undefined) path.push(seg);
  c.errors.push({ path, pointer: "", message });
}

/**
 * Evaluate `inst` against `n`; `ev`, when given, receives the annotations of a successful evaluation.
 * With `seg`, `inst` is a child (property value, item, property name) of the current instance at that
 * path segment: handled here rather than in a wrapper, to keep deep instances off the stack limit.
 */
function evaluate(n: SNode, inst: unknown, c: Ctx, ev: Ev | null, seg?: string | number): boolean {
  const collecting = c.errors !== null;
  if (seg !== undefined) {
    c.depth++;
    if (collecting) c.path.push(seg);
  }
  let ok = true;
  if (n.bool !== null) {
    ok = n.bool;
    if (!ok && c.errors !== null) fail(c, `${show(inst)} is not allowed here (false schema)`);
  } else {
    const scope = c.scope;
    const pushed = scope !== null && n.resource !== null && scope[scope.length - 1] !== n.resource;
    if (pushed && n.resource !== null) scope.push(n.resource);
    const e = n.uneval ? new Ev() : ev;
    const inPlace = n.inPlace;
    // A schema entered again at the same instance depth while it is still following its `$ref` is a
    // cycle that consumes no input (`{"$ref": "#"}`): it can never decide anything, so adds no constraint.
    if (inPlace.length > 0 && (n.refGen !== c.gen || n.refDepth !== c.depth)) {
      const gen = n.refGen, depth = n.refDepth;
      n.refGen = c.gen;
      n.refDepth = c.depth;
      for (let k = 0; k < inPlace.length; k++) {
        const t = inPlace[k];
        if (t !== undefined && !evaluate(t, inst, c, e)) {
          ok = false;
          if (!collecting) break;
        }
      }
      n.refGen = gen;
      n.refDepth = depth;
    }
    if (ok || collecting) {
      const list = n.byKind[kindOf(inst)] ?? [];
      for (let k = 0; k < list.length; k++) {
        const check = list[k];
        if (check !== undefined && !check(inst, c, e)) {
          ok = false;
          if (!collecting) break;
        }
      }
    }
    if (pushed) scope.pop();
    if (ok && ev !== null && e !== null && e !== ev) ev.merge(e);
  }
  if (seg !== undefined) {
    c.depth--;
    if (collecting) c.path.pop();
  }
  return ok;
}

/** Evaluate with errors suppressed: for `not`, `if`, `contains` and the first pass of `anyOf`/`oneOf`. */
function quietly(n: SNode, inst: unknown, c: Ctx, e: Ev | null): boolean {
  const saved = c.errors;
  c.errors = null;
  const ok = evaluate(n, inst, c, e);
  c.errors = saved;
  return ok;
}

/** How well a failed branch fits `inst`: 0 wrong type, 1 right type but a const/enum tag differs, 2 fits. */
function fitness(n: SNode, inst: unknown, depth = 0): number {
  if (n.bool !== null) return n.bool ? 2 : 0;
  if (!isObject(n.raw)) return 2;
  const s = n.raw;
  const t = own(s, "type");
  if (t !== undefined && !(Array.isArray(t) ? t : [t]).some((x) => typeof x === "string" && typeMatches(x, inst))) return 0;
  let score = 2;
  if (!tagFits(s, inst)) score = 1;
  const props = own(s, "properties");
  if (isObject(inst) && isObject(props)) {
    for (const k of Object.keys(props)) {
      const p = props[k];
      if (isObject(p) && hasOwn(inst, k) && !tagFits(p, inst[k])) score = 1;
    }
  }
  if (depth < 4) for (const m of n.inPlace) score = Math.min(score, fitness(m, inst, depth + 1));
  return score;
}

function tagFits(s: JObject, v: unknown): boolean {
  if (hasOwn(s, "const") && !deepEqual(s["const"], v)) return false;
  const en = own(s, "enum");
  return !(Array.isArray(en) && !en.some((x) => deepEqual(x, v)));
}

/**
 * Report the violations of the branch the instance most likely meant: among the branches that fit it
 * best (see `fitness`), the one with the fewest violations. Only those branches are evaluated again, so a
 * tagged union nested deep in an invalid instance costs no more than the tagged branch.
 */
function reportBest(branches: readonly SNode[], inst: unknown, c: Ctx, keyword: string): void {
  const sink = c.errors;
  if (sink === null) return;
  const fits = branches.map((b) => fitness(b, inst));
  const top = Math.max(...fits);
  let best: Violation[] | null = null;
  for (let k = 0; k < branches.length; k++) {
    const b = branches[k];
    if (b === undefined || fits[k] !== top) continue;
    c.errors = [];
    evaluate(b, inst, c, null);
    const errs = c.errors;
    if (errs.length > 0 && (best === null || errs.length < best.length)) best = errs;
  }
  c.errors = sink;
  if (best === null) fail(c, `${show(inst)} is not valid under any of the schemas in '${keyword}'`);
  else for (const v of best) sink.push(v);
}

// ---------------------------------------------------------------------------------------------------
// Keyword helpers

function typeMatches(t: string, v: unknown): boolean {
  switch (t) {
    case "null": return v === null;
    case "boolean": return typeof v === "boolean";
    case "number": return typeof v === "number";
    case "integer": return typeof v === "number" && Number.isInteger(v);
    case "string": return typeof v === "string";
    case "array": return Array.isArray(v);
    case "object": return isObject(v);
    default: return false;
  }
}

const REGEX_CACHE = new Map<string, RegExp>();

/** ECMA-262 regex with the `u` flag, falling back to no flag only if `u` refuses the pattern; cached. */
export function regex(p: string): RegExp {
  let r = REGEX_CACHE.get(p);
  if (r === undefined) {
    try { r = new RegExp(p, "u"); } catch {
      try { r = new RegExp(p); } catch { throw new Error(`invalid regular expression in schema: ${p}`); }
    }
    REGEX_CACHE.set(p, r);
  }
  return r;
}

/** Decimal digits and exponent of a finite number as written by JS (`0.0075` -> [75n, -4]). */
function decimal(x: number): [bigint, number] {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(x));
  if (m === null) return [0n, 0];
  const frac = m[3] ?? "";
  const digits = BigInt((m[1] ?? "") + (m[2] ?? "0") + frac);
  return [digits, Number(m[4] ?? "0") - frac.length];
}

/** Whether `x` is an exact multiple of `m`, reading both as the decimals they are written as. */
function isMultipleOf(x: number, m: number): boolean {
  if (Number.isSafeInteger(x) && Number.isSafeInteger(m)) return x % m === 0;
  if (!Number.isFinite(x) || !Number.isFinite(m) || m === 0) return false;
  const [a, ea] = decimal(x);
  const [b, eb] = decimal(m);
  const e = Math.min(ea, eb);
  const aa = a * 10n ** BigInt(ea - e);
  const bb = b * 10n ** BigInt(eb - e);
  return bb !== 0n && aa % bb === 0n;
}

function num(s: JObject, k: string): number | undefined {
  const v = own(s, k);
  return typeof v === "number" ? v : undefined;
}

function count(s: JObject, k: string): number | undefined {
  const v = own(s, k);
  return typeof v === "number" && v >= 0 ? v : undefined;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

// ---------------------------------------------------------------------------------------------------
// Formats

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[zZ]|([+-])(\d{2}):(\d{2}))$/;

function isDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (m === null) return false;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = mo === 2 ? (leap ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
  return d <= days;
}

function isTime(s: string): boolean {
  const m = TIME_RE.exec(s);
  if (m === null) return false;
  const h = Number(m[1]), mi = Number(m[2]), sec = Number(m[3]);
  const oh = Number(m[5] ?? "0"), om = Number(m[6] ?? "0");
  if (h > 23 || mi > 59 || sec > 60 || oh > 23 || om > 59) return false;
  if (sec === 60) {
    const sign = m[4] === "-" ? -1 : 1;
    const utc = (((h * 60 + mi - sign * (oh * 60 + om)) % 1440) + 1440) % 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}

function isDateTime(s: string): boolean {
  const t = s.charAt(10);
  return (t === "T" || t === "t") && isDate(s.slice(0, 10)) && isTime(s.slice(11));
}

/** RFC 3339 appendix A: units in order, none skipped in between (`P1Y2D` and `PT1H2S` are invalid). */
const DURATION_RE = new RegExp("^P(?:\\d+W|(?:\\d+Y(?:\\d+M(?:\\d+D)?)?|\\d+M(?:\\d+D)?|\\d+D)(?:T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S))?" +
  "|T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S))$");
const IPV4_RE = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX4_RE = /^[0-9A-Fa-f]{1,4}$/;

function isIpv6(s: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  let t = s;
  if (t.includes(".")) {
    const i = t.lastIndexOf(":");
    if (i < 0 || !IPV4_RE.test(t.slice(i + 1))) return false;
    t = t.slice(0, i + 1) + "0:0";
  }
  const dbl = t.indexOf("::");
  if (dbl !== t.lastIndexOf("::")) return false;
  if (dbl < 0) {
    const g = t.split(":");
    return g.length === 8 && g.every((x) => HEX4_RE.test(x));
  }
  const head = t.slice(0, dbl), tail = t.slice(dbl + 2);
  const a = head === "" ? [] : head.split(":"), b = tail === "" ? [] : tail.split(":");
  return a.length + b.length <= 7 && a.every((x) => HEX4_RE.test(x)) && b.every((x) => HEX4_RE.test(x));
}

/** RFC 3492 Punycode decoding; null when malformed. */
function punycodeDecode(input: string): string | null {
  const out: number[] = [];
  let n = 128, i = 0, bias = 72;
  const b = input.lastIndexOf("-");
  for (let j = 0; j < Math.max(b, 0); j++) {
    const ch = input.charCodeAt(j);
    if (ch >= 0x80) return null;
    out.push(ch);
  }
  for (let pos = b > 0 ? b + 1 : 0; pos < input.length;) {
    const oldi = i;
    let w = 1;
    for (let k = 36; ; k += 36) {
      if (pos >= input.length) return null;
      const ch = input.charCodeAt(pos++);
      const digit = ch >= 48 && ch <= 57 ? ch - 22 : ch >= 65 && ch <= 90 ? ch - 65 : ch >= 97 && ch <= 122 ? ch - 97 : 36;
      if (digit >= 36) return null;
      i += digit * w;
      if (i > 0x7fffffff) return null;
      const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (digit < t) break;
      w *= 36 - t;
    }
    bias = punyAdapt(i - oldi, out.length + 1, oldi === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > 0x10ffff) return null;
    out.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...out);
}

function punyAdapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / 700) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > 455) { d = Math.floor(d / 35); k += 36; }
  return k + Math.floor((36 * d) / (d + 38));
}

/** RFC 3492 Punycode encoding (of the whole label). */
function punycodeEncode(input: string): string {
  const cps = Array.from(input, (ch) => ch.codePointAt(0) ?? 0);
  const digit = (d: number): string => String.fromCharCode(d < 26 ? d + 97 : d + 22);
  let out = cps.filter((c) => c < 0x80).map((c) => String.fromCharCode(c)).join("");
  const basic = out.length;
  let h = basic;
  if (basic > 0) out += "-";
  let n = 128, delta = 0, bias = 72;
  while (h < cps.length) {
    let m = 0x7fffffff;
    for (const c of cps) if (c >= n && c < m) m = c;
    delta += (m - n) * (h + 1);
    n = m;
    for (const c of cps) {
      if (c < n) delta++;
      if (c === n) {
        let q = delta;
        for (let k = 36; ; k += 36) {
          const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
          if (q < t) break;
          out += digit(t + ((q - t) % (36 - t)));
          q = Math.floor((q - t) / (36 - t));
        }
        out += digit(q);
        bias = punyAdapt(delta, h + 1, h === basic);
        delta = 0;
        h++;
      }
    }
    delta++;
    n++;
  }
  return out;
}

const LDH_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const VIRAMA_RE = /[\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D3B\u0D3C\u0D4D\u0DCA\u0E3A\u0EBA\u0F84\u1039\u103A\u1714\u1734\u17D2\u1A60\u1B44\u1BAA\u1BAB\u1BF2\u1BF3\u2D7F\uA806\uA8C4\uA953\uA9C0\uAAF6\uABED]/u;
const DISALLOWED_RE = /[\u0640\u07FA\u302E\u302F\u3031-\u3035\u303B]/u;
const RTL_RE = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const PVALID_RE = /^[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}\u002D\u00B7\u0375\u05F3\u05F4\u30FB\u00DF\u03C2\u0F0B\u3007\u06FD\u06FE\u200C\u200D]$/u;

/** IDNA2008 (RFC 5891/5892/5893) checks of one U-label, as far as they can be done without the tables. */
function isULabel(label: string): boolean {
  if (label === "" || label !== label.normalize("NFC")) return false;
  if (label.startsWith("-") || label.endsWith("-") || label.slice(2, 4) === "--") return false;
  if (/^\p{M}/u.test(label) || DISALLOWED_RE.test(label)) return false;
  const cps = Array.from(label);
  for (let i = 0; i < cps.length; i++) {
    const ch = cps[i] ?? "";
    if (!PVALID_RE.test(ch)) return false;
    const prev = cps[i - 1] ?? "", next = cps[i + 1] ?? "";
    switch (ch) {
      case "\u00B7": if (prev !== "l" || next !== "l") return false; break;
      case "\u0375": if (!/\p{Script=Greek}/u.test(next)) return false; break;
      case "\u05F3": case "\u05F4": if (!/\p{Script=Hebrew}/u.test(prev)) return false; break;
      case "\u30FB":
        if (!cps.some((x) => x !== "\u30FB" && /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(x))) return false;
        break;
      case "\u200D": if (!VIRAMA_RE.test(prev)) return false; break;
      case "\u200C":
        if (!VIRAMA_RE.test(prev) && !(/\p{Script=Arabic}/u.test(prev) && /\p{Script=Arabic}/u.test(next))) return false;
        break;
      default: break;
    }
  }
  if (/[\u0660-\u0669]/u.test(label) && /[\u06F0-\u06F9]/u.test(label)) return false;
  return true;
}

/** RFC 5893 Bidi rule for one label of a domain name that contains right-to-left labels. */
function bidiOk(label: string): boolean {
  const cps = Array.from(label);
  const first = cps[0] ?? "";
  if (RTL_RE.test(first)) {
    if (/[\u0660-\u0669]/u.test(label) && /[0-9\u06F0-\u06F9]/u.test(label)) return false;
    const lastStrong = [...cps].reverse().find((x) => !/\p{M}/u.test(x)) ?? "";
    return RTL_RE.test(lastStrong) || /[\p{Nd}]/u.test(lastStrong);
  }
  if (!/\p{L}/u.test(first)) return false;
  return !cps.some((x) => RTL_RE.test(x));
}

function isHostname(s: string, idn: boolean): boolean {
  const name = idn ? s.replace(/[\u3002\uFF0E\uFF61]/g, ".") : s;
  if (name === "" || name.endsWith(".")) return false;
  const labels = name.split(".");
  const ulabels: string[] = [];
  let total = 0;
  for (const label of labels) {
    let alabel = label;
    let ulabel = label;
    if (/^xn--/i.test(label)) {
      const dec = punycodeDecode(label.slice(4));
      if (dec === null || /^[\x00-\x7f]*$/.test(dec) || punycodeEncode(dec) !== label.slice(4).toLowerCase()) return false;
      if (!isULabel(dec)) return false;
      ulabel = dec;
    } else if (/^[\x00-\x7f]*$/.test(label)) {
      if (!LDH_RE.test(label) || label.slice(2, 4) === "--") return false;
    } else {
      if (!idn || !isULabel(label)) return false;
      alabel = "xn--" + punycodeEncode(label);
    }
    if (alabel.length > 63 || alabel.length === 0) return false;
    total += alabel.length + 1;
    ulabels.push(ulabel);
  }
  if (total - 1 > 253) return false;
  if (ulabels.some((l) => RTL_RE.test(l))) return ulabels.every((l) => bidiOk(l));
  return true;
}

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const EMAIL_LOCAL_RE = new RegExp(`^(?:${ATOM}+(?:\\.${ATOM}+)*|"(?:[^"\\\\]|\\\\.)*")$`, "u");
const IDN_EMAIL_LOCAL_RE = /^(?:(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\x00-\x7f])+(?:\.(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\x00-\x7f])+)*|"(?:[^"\\]|\\.)*")$/u;

function isEmail(s: string, idn: boolean): boolean {
  const at = s.lastIndexOf("@");
  if (at <= 0) return false;
  const local = s.slice(0, at), domain = s.slice(at + 1);
  if (!(idn ? IDN_EMAIL_LOCAL_RE : EMAIL_LOCAL_RE).test(local)) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const lit = domain.slice(1, -1);
    return lit.startsWith("IPv6:") ? isIpv6(lit.slice(5)) : IPV4_RE.test(lit);
  }
  return isHostname(idn ? domain.normalize("NFC") : domain, idn);
}

const PCT = "%[0-9A-Fa-f]{2}";
const UCS = "\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}" +
  "\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}\\u{70000}-\\u{7FFFD}\\u{80000}-\\u{8FFFD}\\u{90000}-\\u{9FFFD}" +
  "\\u{A0000}-\\u{AFFFD}\\u{B0000}-\\u{BFFFD}\\u{C0000}-\\u{CFFFD}\\u{D0000}-\\u{DFFFD}\\u{E1000}-\\u{EFFFD}";
const PRIVATE = "\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}";

/** Regexes for the parts of an RFC 3986 URI (or, with `iri`, an RFC 3987 IRI). */
function uriParts(iri: boolean): { user: RegExp; host: RegExp; path: RegExp; query: RegExp } {
  const u = iri ? UCS : "";
  const unres = `A-Za-z0-9\\-._~${u}`;
  const pchar = `(?:[${unres}!$&'()*+,;=:@]|${PCT})`;
  return {
    user: new RegExp(`^(?:[${unres}!$&'()*+,;=:]|${PCT})*$`, "u"),
    host: new RegExp(`^(?:[${unres}!$&'()*+,;=]|${PCT})*$`, "u"),
    path: new RegExp(`^(?:${pchar}|/)*$`, "u"),
    query: new RegExp(`^(?:${pchar}|[/?${iri ? PRIVATE : ""}])*$`, "u"),
  };
}

const URI_PARTS = uriParts(false);
const IRI_PARTS = uriParts(true);

function isUri(s: string, iri: boolean, reference: boolean): boolean {
  const m = URI_RE.exec(s);
  if (m === null) return false;
  const [, scheme, authority, path = "", query, fragment] = m;
  const re = iri ? IRI_PARTS : URI_PARTS;
  if (scheme === undefined) {
    if (!reference) return false;
    const first = path.split("/")[0] ?? "";
    if (first.includes(":")) return false;
  } else if (!/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme)) return false;
  if (authority !== undefined) {
    const at = authority.lastIndexOf("@");
    if (at >= 0 && !re.user.test(authority.slice(0, at))) return false;
    const hostPort = authority.slice(at + 1);
    let host = hostPort, port = "";
    if (hostPort.startsWith("[")) {
      const close = hostPort.indexOf("]");
      if (close < 0) return false;
      const lit = hostPort.slice(1, close);
      if (!isIpv6(lit) && !/^[vV][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/.test(lit)) return false;
      host = "";
      port = hostPort.slice(close + 1);
      if (port !== "" && !port.startsWith(":")) return false;
      port = port.slice(1);
    } else {
      const colon = hostPort.lastIndexOf(":");
      if (colon >= 0) { host = hostPort.slice(0, colon); port = hostPort.slice(colon + 1); }
    }
    if (!re.host.test(host) || !/^\d*$/.test(port)) return false;
  }
  if (!re.path.test(path)) return false;
  if (query !== undefined && !re.query.test(query)) return false;
  return fragment === undefined || re.path.test(fragment.replace(/\?/g, "/"));
}

/** RFC 6570: literals, and expressions of an optional operator and a list of varspecs. */
const URI_TEMPLATE_RE = (() => {
  const varchar = `(?:[A-Za-z0-9_]|${PCT})`;
  const varspec = `${varchar}(?:\\.?${varchar})*(?::[1-9]\\d{0,3}|\\*)?`;
  const literal = `[\\x21\\x23\\x24\\x26-\\x3B\\x3D\\x3F-\\x5B\\x5D\\x5F\\x61-\\x7A\\x7E${UCS}${PRIVATE}]|${PCT}`;
  return new RegExp(`^(?:${literal}|\\{[+#./;?&=,!@|]?${varspec}(?:,${varspec})*\\})*$`, "u");
})();

const FORMATS: Record<string, (s: string) => boolean> = {
  "date-time": isDateTime,
  "date": isDate,
  "time": isTime,
  "duration": (s) => DURATION_RE.test(s),
  "email": (s) => isEmail(s, false),
  "idn-email": (s) => isEmail(s, true),
  "hostname": (s) => isHostname(s, false),
  "idn-hostname": (s) => isHostname(s, true),
  "ipv4": (s) => IPV4_RE.test(s),
  "ipv6": isIpv6,
  "uri": (s) => isUri(s, false, false),
  "uri-reference": (s) => isUri(s, false, true),
  "iri": (s) => isUri(s, true, false),
  "iri-reference": (s) => isUri(s, true, true),
  "uri-template": (s) => URI_TEMPLATE_RE.test(s),
  "json-pointer": (s) => /^(?:\/(?:[^~/]|~[01])*)*$/u.test(s),
  "relative-json-pointer": (s) => /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/u.test(s),
  "regex": (s) => { try { new RegExp(s, "u"); return true; } catch { return false; } },
  "uuid": (s) => /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/.test(s),
};

// ---------------------------------------------------------------------------------------------------
// The judge

interface Found { node: unknown; ctx: NodeCtx | undefined }

export class Judge {
  private readonly rootUri: string;
  private readonly formats: boolean;
  /** Resource URI (no fragment) -> schema: the bundle's keys, the built-ins and every `$id`. */
  private readonly docs = new Map<string, unknown>();
  /** "uri#name" -> schema, for `$anchor`, `$dynamicAnchor` and draft-07 `$id: "#name"`. */
  private readonly anchors = new Map<string, unknown>();
  private readonly ctxs = new Map<object, NodeCtx>();
  private readonly nodes = new Map<object, SNode>();
  private readonly locations = new Map<string, SNode>();
  private readonly TRUE = new SNode(true);
  private readonly FALSE = new SNode(false);
  private readonly rootCtx: NodeCtx;
  /** Set once any `$dynamicRef` that can resolve dynamically is compiled: from then on track the scope. */
  private dynamic = false;
  private gen = 0;

  constructor(bundle: Bundle) {
    this.rootUri = stripFragment(bundle.root);
    this.formats = bundle.formats;
    this.TRUE.bool = true;
    this.TRUE.trivial = true;
    this.TRUE.sealed = true;
    this.FALSE.sealed = true;
    this.FALSE.bool = false;
    const raw = new Map<string, unknown>();
    const builtins = METASCHEMAS; // at the end of this file
    for (const k of Object.keys(builtins)) raw.set(k, builtins[k]); // the bundle's own copies win
    for (const k of Object.keys(bundle.resources)) raw.set(stripFragment(k), bundle.resources[k]);
    for (const [k, v] of raw) this.docs.set(k, v);
    const root = raw.get(this.rootUri);
    if (root === undefined) throw new Error(`the bundle has no root resource ${bundle.root}`);
    const rootSchema = isObject(root) ? own(root, "$schema") : undefined;
    const rootDialect = typeof rootSchema === "string" ? this.dialectOf(rootSchema, D2020) : D2020;
    this.rootCtx = { base: this.rootUri, dialect: rootDialect, resource: { uri: this.rootUri, dynamicAnchors: new Map() } };
    // The root goes last, so its embedded `$id`s win over a remote claiming the same URI.
    for (const [k, v] of raw) if (k !== this.rootUri) this.index(v, k, rootDialect);
    this.index(root, this.rootUri, rootDialect);
    this.at("");
  }

  /** Whether the schema at `location` accepts `instance`; "" is the root. Stops at the first failure. */
  isValid(instance: unknown, location = ""): boolean {
    const n = this.at(location);
    const c: Ctx = { errors: null, path: [], depth: 0, scope: this.dynamic ? [] : null, gen: ++this.gen };
    try {
      return evaluate(n, instance, c, null);
    } catch (err) {
      if (tooDeep(err)) return false;
      throw err;
    }
  }

  /** Every way `instance` breaks the schema at `location` (empty when valid), sorted and deduplicated. */
  violations(instance: unknown, location = ""): Violation[] {
    const n = this.at(location);
    const errors: Violation[] = [];
    const c: Ctx = { errors, path: [], depth: 0, scope: this.dynamic ? [] : null, gen: ++this.gen };
    let ok: boolean;
    try {
      ok = evaluate(n, instance, c, null);
    } catch (err) {
      if (tooDeep(err)) return [{ path: [], pointer: "", message: TOO_DEEP }];
      throw err;
    }
    if (ok) return [];
    if (errors.length === 0) errors.push({ path: [], pointer: "", message: `${show(instance)} is not valid` });
    for (const v of errors) v.pointer = toPointer(v.path);
    errors.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
    return errors.filter((v, i) => i === 0 || v.pointer !== errors[i - 1]?.pointer || v.message !== errors[i - 1]?.message);
  }

  // ------------------------------------------------------------------------------------ registry

  /** The dialect a `$schema` URI names: a known draft, or a metaschema in the bundle with `$vocabulary`. */
  private dialectOf(uri: string, fallback: Dialect, hops = 0): Dialect {
    const u = stripFragment(uri).replace(/^https?:/, "");
    if (u === "//json-schema.org/draft/2020-12/schema") return D2020;
    if (u === "//json-schema.org/draft/2019-09/schema") return D2019;
    if (/^\/\/json-schema\.org\/draft-0[4-7]\/schema$/.test(u)) return D7;
    const meta = this.docs.get(stripFragment(uri));
    if (!isObject(meta) || hops > 8) return fallback;
    const vocab = own(meta, "$vocabulary");
    if (isObject(vocab)) {
      return {
        d7: false,
        legacyItems: false,
        validation: hasOwn(vocab, VOCAB + "validation"),
        applicator: hasOwn(vocab, VOCAB + "applicator"),
        unevaluated: hasOwn(vocab, VOCAB + "unevaluated"),
        formatAssertion: hasOwn(vocab, VOCAB + "format-assertion"),
      };
    }
    const next = own(meta, "$schema");
    return typeof next === "string" && stripFragment(next) !== stripFragment(uri) ? this.dialectOf(next, fallback, hops + 1) : fallback;
  }

  /** Walk a resource document, recording contexts, embedded resources and anchors. */
  private index(doc: unknown, uri: string, inherited: Dialect): void {
    if (!isObject(doc)) return;
    const resource: Resource = uri === this.rootUri ? this.rootCtx.resource : { uri, dynamicAnchors: new Map() };
    this.walk(doc, { base: uri, dialect: inherited, resource }, true);
  }

  private walk(node: unknown, parent: NodeCtx, docRoot: boolean): void {
    if (!isObject(node) || this.ctxs.has(node)) return;
    let ctx = parent;
    const d = parent.dialect;
    const id = own(node, "$id");
    let newBase: string | null = null;
    // draft-07: `$ref` hides its siblings, `$id` included; `$id: "#name"` is a plain-name anchor.
    if (typeof id === "string" && !(d.d7 && hasOwn(node, "$ref"))) {
      if (d.d7 && id.startsWith("#")) this.anchors.set(parent.base + id, node);
      else {
        const abs = resolveUri(parent.base, id);
        newBase = stripFragment(abs);
        const frag = fragmentOf(abs);
        if (d.d7 && frag !== "") this.anchors.set(newBase + "#" + frag, node);
      }
    }
    if (newBase !== null || docRoot) {
      const sch = own(node, "$schema");
      const dialect = typeof sch === "string" ? this.dialectOf(sch, d) : d;
      const base = newBase ?? parent.base;
      const resource = newBase === null ? parent.resource : { uri: base, dynamicAnchors: new Map<string, unknown>() };
      if (newBase !== null) this.docs.set(newBase, node);
      ctx = { base, dialect, resource };
    }
    this.ctxs.set(node, ctx);
    if (!ctx.dialect.d7) {
      const anchor = own(node, "$anchor");
      if (typeof anchor === "string") this.anchors.set(ctx.base + "#" + anchor, node);
      const dyn = own(node, "$dynamicAnchor");
      if (typeof dyn === "string") {
        this.anchors.set(ctx.base + "#" + dyn, node);
        ctx.resource.dynamicAnchors.set(dyn, node);
      }
    }
    const shape = ctx.dialect.d7 ? SHAPE_7 : SHAPE_2020;
    for (const k of shape.one) this.walk(own(node, k), ctx, false);
    for (const k of shape.many) {
      const v = own(node, k);
      if (Array.isArray(v)) for (const s of v) this.walk(s, ctx, false);
    }
    for (const k of shape.map) {
      const v = own(node, k);
      if (isObject(v)) for (const p of Object.keys(v)) this.walk(v[p], ctx, false);
    }
  }

  /** The schema an absolute URI names, with the context of the place it sits. */
  private lookup(uri: string): Found | undefined {
    const base = stripFragment(uri);
    const frag = percentDecode(fragmentOf(uri));
    if (frag !== "" && !frag.startsWith("/")) {
      const node = this.anchors.get(base + "#" + frag);
      return node === undefined ? undefined : { node, ctx: isObject(node) ? this.ctxs.get(node) : undefined };
    }
    const doc = this.docs.get(base);
    if (doc === undefined) return undefined;
    let cur: unknown = doc;
    let ctx = isObject(doc) ? this.ctxs.get(doc) : undefined;
    if (frag === "") return { node: cur, ctx };
    for (const seg of frag.slice(1).split("/")) {
      const token = seg.replace(/~1/g, "/").replace(/~0/g, "~");
      if (Array.isArray(cur)) {
        if (!/^(?:0|[1-9]\d*)$/.test(token) || Number(token) >= cur.length) return undefined;
        cur = cur[Number(token)];
      } else if (isObject(cur) && hasOwn(cur, token)) cur = cur[token];
      else return undefined;
      if (isObject(cur)) ctx = this.ctxs.get(cur) ?? ctx;
    }
    return { node: cur, ctx };
  }

  /** The compiled schema at a location ("" is the root), compiled on first use and cached. */
  private at(location: string): SNode {
    let n = this.locations.get(location);
    if (n === undefined) {
      const uri = location === "" ? this.rootUri : resolveUri(this.rootUri, location);
      const found = this.lookup(uri);
      if (found === undefined) throw new Error(`no schema at ${location}`);
      n = this.compile(found.node, found.ctx ?? this.rootCtx, uri);
      this.locations.set(location, n);
    }
    return n;
  }

  // ------------------------------------------------------------------------------------ compiler

  private compile(raw: unknown, ctx: NodeCtx, where: string): SNode {
    if (raw === true) return this.TRUE;
    if (raw === false) return this.FALSE;
    if (!isObject(raw)) throw new Error(`not a schema at ${where}`);
    let n = this.nodes.get(raw);
    if (n !== undefined) return n;
    n = new SNode(raw);
    this.nodes.set(raw, n); // before the keywords: a cycle of references finds this node
    const own = this.ctxs.get(raw) ?? ctx;
    n.resource = own.resource;
    this.compileKeywords(n, raw, own);
    n.seal();
    return n;
  }

  /** A subschema of a keyword. */
  private sub(v: unknown, ctx: NodeCtx, where: string): SNode {
    if (!isObject(v)) return this.compile(v, ctx, where);
    const own = this.ctxs.get(v) ?? ctx;
    return this.forwarded(v, own, where) ?? this.compile(v, own, where);
  }

  /**
   * A subschema that only forwards (`{"$ref": ...}` alone, or `{"allOf": [one]}`, annotations aside) is
   * replaced by its target: the same verdict, annotations and messages, one stack frame less per level
   * of a deep instance. Location roots are never replaced (they enter their resource's dynamic scope),
   * nor is a reference to a schema still being compiled: every cycle of references goes through such an
   * edge, which keeps the guard against cycles that consume no input (see `evaluate`).
   */
  private forwarded(s: JObject, ctx: NodeCtx, where: string): SNode | null {
    const ref = own(s, "$ref");
    if (ctx.dialect.d7) {
      const t = typeof ref === "string" ? this.target(ref, ctx) : null;
      return t !== null && t.sealed ? t : null;
    }
    let only: string | null = null;
    for (const k of Object.keys(s)) {
      if (INERT.has(k)) continue;
      if (only !== null) return null;
      only = k;
    }
    if (only === "$ref" && typeof ref === "string") {
      // Not a target still being compiled: the edge closing a cycle keeps its node, and so its guard.
      const t = this.target(ref, ctx);
      return t.sealed ? t : null;
    }
    const allOf = own(s, "allOf");
    if (only === "allOf" && Array.isArray(allOf) && allOf.length === 1) return this.sub(allOf[0], ctx, where);
    return null;
  }

  private target(ref: string, ctx: NodeCtx): SNode {
    const uri = resolveUri(ctx.base, ref);
    const found = this.lookup(uri);
    if (found === undefined) throw new Error(`$ref ${ref} (${uri}) resolves to nothing`);
    return this.compile(found.node, found.ctx ?? ctx, uri);
  }

  private compileKeywords(n: SNode, s: JObject, ctx: NodeCtx): void {
    const d = ctx.dialect;
    const ref = own(s, "$ref");
    if (typeof ref === "string") {
      n.inPlace.push(this.target(ref, ctx));
      if (d.d7) return; // draft-07: `$ref` hides every sibling keyword
    }
    if (!d.d7) this.compileDynamicRef(n, s, ctx);
    if (d.validation) this.compileValidation(n, s, ctx);
    if (this.formats || d.formatAssertion) this.compileFormat(n, s);
    if (d.applicator) this.compileApplicators(n, s, ctx);
    if (d.unevaluated) this.compileUnevaluated(n, s, ctx);
  }

  private compileDynamicRef(n: SNode, s: JObject, ctx: NodeCtx): void {
    const ref = own(s, "$dynamicRef");
    if (typeof ref !== "string") return;
    const t = this.target(ref, ctx);
    const frag = fragmentOf(ref);
    const named = frag !== "" && !frag.startsWith("/") && isObject(t.raw) && own(t.raw, "$dynamicAnchor") === frag;
    if (!named) {
      n.any.push(refCheck(() => t));
      return;
    }
    this.dynamic = true;
    n.any.push(refCheck((c) => {
      // The outermost resource of the dynamic scope that has a matching `$dynamicAnchor` wins.
      if (c.scope !== null) {
        for (const r of c.scope) {
          const raw = r.dynamicAnchors.get(frag);
          if (raw !== undefined) return this.sub(raw, ctx, ref);
        }
      }
      return t;
    }));
  }

  private compileValidation(n: SNode, s: JObject, ctx: NodeCtx): void {
    const type = own(s, "type");
    if (type !== undefined) {
      const types = strings(Array.isArray(type) ? type : [type]);
      const names = types.map((t) => `'${t}'`).join(", ");
      let mask = 0; // bit kindOf(value) set: the type accepts every value of that kind
      for (const t of types) mask |= 1 << ["null", "boolean", "number", "string", "array", "object"].indexOf(t);
      const integer = types.includes("integer");
      n.any.push((i, c) => {
        const kind = kindOf(i);
        if ((mask & (1 << kind)) !== 0 || (integer && kind === 2 && Number.isInteger(i))) return true;
        if (c.errors !== null) fail(c, `${show(i)} is not of type ${names}`);
        return false;
      });
    }
    if (hasOwn(s, "const")) {
      const v = s["const"];
      n.any.push((i, c) => {
        if (deepEqual(i, v)) return true;
        if (c.errors !== null) fail(c, `${show(v)} was expected`);
        return false;
      });
    }
    const en = own(s, "enum");
    if (Array.isArray(en)) {
      const prims = new Set<unknown>(en.filter((x) => typeof x !== "object" || x === null));
      const objs = en.filter((x) => typeof x === "object" && x !== null);
      n.any.push((i, c) => {
        if (typeof i !== "object" || i === null ? prims.has(i) : objs.some((x) => deepEqual(x, i))) return true;
        if (c.errors !== null) fail(c, `${show(i)} is not one of ${show(en)}`);
        return false;
      });
    }
    this.compileNumeric(n, s);
    this.compileString(n, s);
    this.compileArrayCounts(n, s);
    this.compileObjectCounts(n, s, ctx);
  }

  private compileNumeric(n: SNode, s: JObject): void {
    const bound = (k: string, bad: (i: number, m: number) => boolean, text: string): void => {
      const m = num(s, k);
      if (m === undefined) return;
      n.num.push((i, c) => {
        if (!bad(i as number, m)) return true;
        if (c.errors !== null) fail(c, `${show(i)} is ${text} ${m}`);
        return false;
      });
    };
    bound("maximum", (i, m) => i > m, "greater than the maximum of");
    bound("exclusiveMaximum", (i, m) => i >= m, "greater than or equal to the exclusive maximum of");
    bound("minimum", (i, m) => i < m, "less than the minimum of");
    bound("exclusiveMinimum", (i, m) => i <= m, "less than or equal to the exclusive minimum of");
    const mult = num(s, "multipleOf");
    if (mult !== undefined && mult > 0) {
      n.num.push((i, c) => {
        if (isMultipleOf(i as number, mult)) return true;
        if (c.errors !== null) fail(c, `${show(i)} is not a multiple of ${mult}`);
        return false;
      });
    }
  }

  private compileString(n: SNode, s: JObject): void {
    const maxL = count(s, "maxLength");
    if (maxL !== undefined) {
      n.str.push((i, c) => {
        const t = i as string;
        if (t.length <= maxL || codePointLength(t) <= maxL) return true;
        if (c.errors !== null) fail(c, `${show(t)} is too long (more than ${maxL} characters)`);
        return false;
      });
    }
    const minL = count(s, "minLength");
    if (minL !== undefined) {
      n.str.push((i, c) => {
        const t = i as string;
        if (t.length < minL || codePointLength(t) < minL) {
          if (c.errors !== null) fail(c, `${show(t)} is too short (fewer than ${minL} characters)`);
          return false;
        }
        return true;
      });
    }
    const pattern = own(s, "pattern");
    if (typeof pattern === "string") {
      const re = regex(pattern);
      n.str.push((i, c) => {
        if (re.test(i as string)) return true;
        if (c.errors !== null) fail(c, `${show(i)} does not match the pattern ${show(pattern)}`);
        return false;
      });
    }
  }

  /** `format` asserts only when the bundle asks for it (or the dialect has the format-assertion vocabulary). */
  private compileFormat(n: SNode, s: JObject): void {
    const format = own(s, "format");
    const check = typeof format === "string" && hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
    if (check === undefined) return;
    n.str.push((i, c) => {
      if (check(i as string)) return true;
      if (c.errors !== null) fail(c, `${show(i)} is not a valid '${String(format)}'`);
      return false;
    });
  }

  private compileArrayCounts(n: SNode, s: JObject): void {
    const maxI = count(s, "maxItems");
    if (maxI !== undefined) {
      n.arr.push((i, c) => {
        if ((i as unknown[]).length <= maxI) return true;
        if (c.errors !== null) fail(c, `${show(i)} has more than ${maxI} items`);
        return false;
      });
    }
    const minI = count(s, "minItems");
    if (minI !== undefined) {
      n.arr.push((i, c) => {
        if ((i as unknown[]).length >= minI) return true;
        if (c.errors !== null) fail(c, `${show(i)} has fewer than ${minI} items`);
        return false;
      });
    }
    if (own(s, "uniqueItems") === true) {
      n.arr.push((i, c) => {
        const a = i as unknown[];
        const seen = new Map<string, number>();
        for (let k = 0; k < a.length; k++) {
          const key = canonical(a[k]);
          const prev = seen.get(key);
          if (prev !== undefined) {
            if (c.errors !== null) fail(c, `${show(a)} has non-unique elements (items ${prev} and ${k} are equal)`);
            return false;
          }
          seen.set(key, k);
        }
        return true;
      });
    }
  }

  private compileObjectCounts(n: SNode, s: JObject, ctx: NodeCtx): void {
    const maxP = count(s, "maxProperties");
    if (maxP !== undefined) {
      n.obj.push((i, c) => {
        if (Object.keys(i as JObject).length <= maxP) return true;
        if (c.errors !== null) fail(c, `${show(i)} has more than ${maxP} properties`);
        return false;
      });
    }
    const minP = count(s, "minProperties");
    if (minP !== undefined) {
      n.obj.push((i, c) => {
        if (Object.keys(i as JObject).length >= minP) return true;
        if (c.errors !== null) fail(c, `${show(i)} has fewer than ${minP} properties`);
        return false;
      });
    }
    const required = strings(own(s, "required"));
    if (required.length > 0) n.obj.push(requiredCheck(required, null));
    const deps = own(s, ctx.dialect.d7 ? "dependencies" : "dependentRequired");
    if (isObject(deps)) {
      for (const k of Object.keys(deps)) {
        const v = deps[k];
        if (!Array.isArray(v)) continue;
        const names = strings(v);
        const check = requiredCheck(names, k);
        n.obj.push((i, c, e) => !hasOwn(i as JObject, k) || check(i, c, e));
      }
    }
  }

  private compileApplicators(n: SNode, s: JObject, ctx: NodeCtx): void {
    const where = ctx.base;
    const allOf = own(s, "allOf");
    if (Array.isArray(allOf)) {
      for (const b of allOf) n.inPlace.push(this.sub(b, ctx, where)); // followed by `evaluate` itself
    }
    const anyOf = own(s, "anyOf");
    if (Array.isArray(anyOf)) n.any.push(anyOfCheck(anyOf.map((b) => this.sub(b, ctx, where))));
    const oneOf = own(s, "oneOf");
    if (Array.isArray(oneOf)) n.any.push(oneOfCheck(oneOf.map((b) => this.sub(b, ctx, where))));
    if (hasOwn(s, "not")) {
      const t = this.sub(s["not"], ctx, where);
      n.any.push((i, c) => {
        if (!quietly(t, i, c, null)) return true;
        if (c.errors !== null) fail(c, `${show(i)} must not match the schema in 'not'`);
        return false;
      });
    }
    if (hasOwn(s, "if")) {
      const cond = this.sub(s["if"], ctx, where);
      const then = hasOwn(s, "then") ? this.sub(s["then"], ctx, where) : null;
      const els = hasOwn(s, "else") ? this.sub(s["else"], ctx, where) : null;
      n.any.push((i, c, e) => {
        if (then === null && els === null && e === null) return true;
        const t = e === null ? null : new Ev();
        if (quietly(cond, i, c, t)) {
          if (e !== null && t !== null) e.merge(t);
          return then === null || evaluate(then, i, c, e);
        }
        return els === null || evaluate(els, i, c, e);
      });
    }
    this.compileArrayApplicators(n, s, ctx);
    this.compileObjectApplicators(n, s, ctx);
  }

  private compileArrayApplicators(n: SNode, s: JObject, ctx: NodeCtx): void {
    const where = ctx.base;
    const items = own(s, "items");
    let start = 0;
    let rest: unknown = undefined;
    const legacy = ctx.dialect.legacyItems;
    const prefix = legacy ? (Array.isArray(items) ? items : undefined) : own(s, "prefixItems");
    if (Array.isArray(prefix)) {
      const nodes = prefix.map((b) => this.sub(b, ctx, where));
      start = nodes.length;
      n.arr.push((i, c, e) => {
        const a = i as unknown[];
        const len = Math.min(a.length, nodes.length);
        let ok = true;
        for (let k = 0; k < len; k++) {
          const t = nodes[k];
          if (t !== undefined && !evaluate(t, a[k], c, null, k)) {
            if (c.errors === null) return false;
            ok = false;
          }
        }
        if (e !== null && len > e.items) e.items = len;
        return ok;
      });
      if (legacy) rest = own(s, "additionalItems");
    }
    if (!legacy || !Array.isArray(items)) rest = rest ?? items;
    if (rest !== undefined) n.arr.push(itemsCheck(this.sub(rest, ctx, where), start));
    if (hasOwn(s, "contains")) {
      const t = this.sub(s["contains"], ctx, where);
      const min = ctx.dialect.d7 ? 1 : count(s, "minContains") ?? 1;
      const max = ctx.dialect.d7 ? undefined : count(s, "maxContains");
      n.arr.push(containsCheck(t, min, max));
    }
  }

  private compileObjectApplicators(n: SNode, s: JObject, ctx: NodeCtx): void {
    const where = ctx.base;
    const props = own(s, "properties");
    const known = new Set<string>();
    if (isObject(props)) {
      const entries: [string, SNode][] = Object.keys(props).map((k) => [k, this.sub(props[k], ctx, where)]);
      for (const [k] of entries) known.add(k);
      n.obj.push(propertiesCheck(entries));
    }
    const pp = own(s, "patternProperties");
    const patterns: [RegExp, SNode][] = isObject(pp) ? Object.keys(pp).map((k) => [regex(k), this.sub(pp[k], ctx, where)]) : [];
    if (patterns.length > 0) n.obj.push(patternPropertiesCheck(patterns));
    if (hasOwn(s, "additionalProperties")) {
      const t = this.sub(s["additionalProperties"], ctx, where);
      const pats = patterns.map(([r]) => r);
      n.obj.push(leftoverPropertiesCheck(t, (k) => known.has(k) || pats.some((r) => r.test(k)), "additional property"));
    }
    if (hasOwn(s, "propertyNames")) {
      const t = this.sub(s["propertyNames"], ctx, where);
      n.obj.push((i, c) => {
        let ok = true;
        for (const k of Object.keys(i as JObject)) {
          if (t.bool === false) {
            if (c.errors === null) return false;
            fail(c, `property name ${show(k)} is not allowed`, k);
            ok = false;
          } else if (!evaluate(t, k, c, null, k)) {
            if (c.errors === null) return false;
            ok = false;
          }
        }
        return ok;
      });
    }
    const deps = own(s, ctx.dialect.d7 ? "dependencies" : "dependentSchemas");
    if (isObject(deps)) {
      for (const k of Object.keys(deps)) {
        const v = deps[k];
        if (Array.isArray(v)) continue; // draft-07 `dependencies` with names: compiled with `required`
        const t = this.sub(v, ctx, where);
        n.obj.push((i, c, e) => !hasOwn(i as JObject, k) || evaluate(t, i, c, e));
      }
    }
  }

  private compileUnevaluated(n: SNode, s: JObject, ctx: NodeCtx): void {
    const where = ctx.base;
    if (hasOwn(s, "unevaluatedItems")) {
      const t = this.sub(s["unevaluatedItems"], ctx, where);
      const check: Check = (i, c, e) => {
        if (e === null || e.allItems) return true;
        const a = i as unknown[];
        let ok = true;
        for (let k = e.items; k < a.length; k++) {
          if (e.idx !== null && e.idx.has(k)) continue;
          if (t.bool === false) {
            if (c.errors === null) return false;
            fail(c, `item ${k} is not allowed here (unevaluated item)`, k);
            ok = false;
          } else if (!evaluate(t, a[k], c, null, k)) {
            if (c.errors === null) return false;
            ok = false;
          }
        }
        e.allItems = true;
        return ok;
      };
      n.last.push((i, c, e) => !Array.isArray(i) || check(i, c, e));
    }
    if (hasOwn(s, "unevaluatedProperties")) {
      const t = this.sub(s["unevaluatedProperties"], ctx, where);
      const check = leftoverPropertiesCheck(t, (k, e) => e.allProps || (e.props !== null && e.props.has(k)), "unevaluated property");
      n.last.push((i, c, e) => !isObject(i) || e === null || e.allProps || check(i, c, e));
    }
  }
}

/**
 * Evaluation recurses along the instance (about 2,000 levels of nesting fit the default stack even
 * for schemas that recurse through `oneOf` + `$ref`); past the stack, the instance is refused with
 * a verdict that says so, never an exception.
 */
function tooDeep(err: unknown): boolean {
  return err instanceof RangeError;
}

const TOO_DEEP = "the instance is nested too deeply to judge";

// ---------------------------------------------------------------------------------------------------
// Keyword checks that need more than a line

/** `$dynamicRef`, with the same guard against cycles that consume no input as `evaluate` has for `$ref`. */
function refCheck(target: (c: Ctx) => SNode): Check {
  let gen = -1, depth = -1;
  return (i, c, e) => {
    if (gen === c.gen && depth === c.depth) return true;
    const g0 = gen, d0 = depth;
    gen = c.gen;
    depth = c.depth;
    const ok = evaluate(target(c), i, c, e);
    gen = g0;
    depth = d0;
    return ok;
  };
}

function requiredCheck(names: readonly string[], because: string | null): Check {
  const why = because === null ? "" : ` (because ${show(because)} is present)`;
  return (i, c) => {
    const o = i as JObject;
    let ok = true;
    for (const k of names) {
      if (hasOwnProperty.call(o, k)) continue;
      if (c.errors === null) return false;
      if (c.errors !== null) fail(c, `${show(k)} is a required property${why}`, k);
      ok = false;
    }
    return ok;
  };
}

/** The common case of `anyOf`/`oneOf`: no annotations, no messages. A small frame for deep instances. */
function countMatches(branches: readonly SNode[], i: unknown, c: Ctx, enough: number): number {
  let matched = 0;
  for (let k = 0; k < branches.length && matched < enough; k++) {
    const b = branches[k];
    if (b !== undefined && evaluate(b, i, c, null)) matched++;
  }
  return matched;
}

function anyOfCheck(branches: readonly SNode[]): Check {
  return (i, c, e) => (e === null && c.errors === null ? countMatches(branches, i, c, 1) === 1 : anyOf(branches, i, c, e));
}

function anyOf(branches: readonly SNode[], i: unknown, c: Ctx, e: Ev | null): boolean {
  let matched = false;
  const saved = c.errors;
  c.errors = null;
  for (const b of branches) {
    const t = e === null ? null : new Ev();
    if (evaluate(b, i, c, t)) {
      matched = true;
      if (e === null) break;
      if (t !== null) e.merge(t); // every passing branch contributes its annotations
    }
  }
  c.errors = saved;
  if (!matched) reportBest(branches, i, c, "anyOf");
  return matched;
}

function oneOfCheck(branches: readonly SNode[]): Check {
  return (i, c, e) => (e === null && c.errors === null ? countMatches(branches, i, c, 2) === 1 : oneOf(branches, i, c, e));
}

function oneOf(branches: readonly SNode[], i: unknown, c: Ctx, e: Ev | null): boolean {
  const saved = c.errors;
  c.errors = null;
  const passed: number[] = [];
  let ev: Ev | null = null;
  for (let k = 0; k < branches.length && passed.length < 2; k++) {
    const b = branches[k];
    const t = e === null ? null : new Ev();
    if (b !== undefined && evaluate(b, i, c, t)) {
      passed.push(k);
      ev = t;
    }
  }
  c.errors = saved;
  if (passed.length === 1) {
    if (e !== null && ev !== null) e.merge(ev);
    return true;
  }
  if (passed.length === 0) reportBest(branches, i, c, "oneOf");
  else if (c.errors !== null) fail(c, `${show(i)} is valid under more than one of the schemas in 'oneOf' (branches ${passed.join(" and ")})`);
  return false;
}

function itemsCheck(t: SNode, start: number): Check {
  return (i, c, e) => {
    if (t.trivial) {
      if (e !== null) e.allItems = true;
      return true;
    }
    const a = i as unknown[];
    let ok = true;
    for (let k = start; k < a.length; k++) {
      if (t.bool === false) {
        if (c.errors === null) return false;
        fail(c, `item ${k} is not allowed here (additional item)`, k);
        ok = false;
      } else if (!evaluate(t, a[k], c, null, k)) {
        if (c.errors === null) return false;
        ok = false;
      }
    }
    if (e !== null) e.allItems = true;
    return ok;
  };
}

function containsCheck(t: SNode, min: number, max: number | undefined): Check {
  return (i, c, e) => {
    const a = i as unknown[];
    if (e === null && min === 0 && max === undefined) return true;
    let matches = 0;
    for (let k = 0; k < a.length; k++) {
      c.depth++;
      const ok = quietly(t, a[k], c, null);
      c.depth--;
      if (!ok) continue;
      matches++;
      if (e !== null) (e.idx ??= new Set()).add(k);
      else if (matches >= min && (max === undefined || matches > max)) break;
    }
    if (matches < min) {
      if (c.errors !== null) fail(c, min === 1 ? `${show(a)} does not contain an item matching the 'contains' schema`
        : `${show(a)} contains fewer than ${min} items matching the 'contains' schema`);
      return false;
    }
    if (max !== undefined && matches > max) {
      if (c.errors !== null) fail(c, `${show(a)} contains more than ${max} items matching the 'contains' schema`);
      return false;
    }
    return true;
  };
}

function propertiesCheck(entries: readonly [string, SNode][]): Check {
  const names = entries.map(([k]) => k), nodes = entries.map(([, t]) => t);
  return (i, c, e) => {
    const o = i as JObject;
    let ok = true;
    for (let p = 0; p < names.length; p++) {
      const k = names[p], t = nodes[p];
      if (k === undefined || t === undefined || !hasOwnProperty.call(o, k)) continue;
      if (e !== null) e.addProp(k);
      if (!t.trivial && !evaluate(t, o[k], c, null, k)) {
        if (c.errors === null) return false;
        ok = false;
      }
    }
    return ok;
  };
}

function patternPropertiesCheck(patterns: readonly [RegExp, SNode][]): Check {
  return (i, c, e) => {
    const o = i as JObject;
    let ok = true;
    for (const k of Object.keys(o)) {
      for (const [r, t] of patterns) {
        if (!r.test(k)) continue;
        if (e !== null) e.addProp(k);
        if (!evaluate(t, o[k], c, null, k)) {
          if (c.errors === null) return false;
          ok = false;
        }
      }
    }
    return ok;
  };
}

/** `additionalProperties` / `unevaluatedProperties`: every property not `covered` must match `t`. */
function leftoverPropertiesCheck(t: SNode, covered: (k: string, e: Ev) => boolean, what: string): Check {
  const none = new Ev();
  return (i, c, e) => {
    if (t.trivial) {
      if (e !== null) e.allProps = true;
      return true;
    }
    const o = i as JObject;
    let ok = true;
    for (const k of Object.keys(o)) {
      if (covered(k, e ?? none)) continue;
      if (t.bool === false) {
        if (c.errors === null) return false;
        fail(c, `${show(k)} is not allowed here (${what})`, k);
        ok = false;
      } else if (!evaluate(t, o[k], c, null, k)) {
        if (c.errors === null) return false;
        ok = false;
      }
    }
    if (e !== null) e.allProps = true;
    return ok;
  };
}

// ---------------------------------------------------------------------------------------------------
// Built-in metaschemas (data): https://json-schema.org/draft/2020-12/schema and its vocabularies, and
// http://json-schema.org/draft-07/schema, with their annotation keywords (title, description...) removed.

const METASCHEMAS: Record<string, unknown> = {
  "https://json-schema.org/draft/2020-12/schema": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/schema","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true,"https://json-schema.org/draft/2020-12/vocab/applicator":true,"https://json-schema.org/draft/2020-12/vocab/unevaluated":true,"https://json-schema.org/draft/2020-12/vocab/validation":true,"https://json-schema.org/draft/2020-12/vocab/meta-data":true,"https://json-schema.org/draft/2020-12/vocab/format-annotation":true,"https://json-schema.org/draft/2020-12/vocab/content":true},"$dynamicAnchor":"meta","allOf":[{"$ref":"meta/core"},{"$ref":"meta/applicator"},{"$ref":"meta/unevaluated"},{"$ref":"meta/validation"},{"$ref":"meta/meta-data"},{"$ref":"meta/format-annotation"},{"$ref":"meta/content"}],"type":["object","boolean"],"properties":{"definitions":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"}},"dependencies":{"type":"object","additionalProperties":{"anyOf":[{"$dynamicRef":"#meta"},{"$ref":"meta/validation#/$defs/stringArray"}]}},"$recursiveAnchor":{"$ref":"meta/core#/$defs/anchorString"},"$recursiveRef":{"$ref":"meta/core#/$defs/uriReferenceString"}}},
  "http://json-schema.org/draft-07/schema": {"$schema":"http://json-schema.org/draft-07/schema#","$id":"http://json-schema.org/draft-07/schema#","definitions":{"schemaArray":{"type":"array","minItems":1,"items":{"$ref":"#"}},"nonNegativeInteger":{"type":"integer","minimum":0},"nonNegativeIntegerDefault0":{"allOf":[{"$ref":"#/definitions/nonNegativeInteger"},{}]},"simpleTypes":{"enum":["array","boolean","integer","null","number","object","string"]},"stringArray":{"type":"array","items":{"type":"string"},"uniqueItems":true}},"type":["object","boolean"],"properties":{"$id":{"type":"string","format":"uri-reference"},"$schema":{"type":"string","format":"uri"},"$ref":{"type":"string","format":"uri-reference"},"$comment":{"type":"string"},"title":{"type":"string"},"description":{"type":"string"},"default":true,"readOnly":{"type":"boolean"},"examples":{"type":"array","items":true},"multipleOf":{"type":"number","exclusiveMinimum":0},"maximum":{"type":"number"},"exclusiveMaximum":{"type":"number"},"minimum":{"type":"number"},"exclusiveMinimum":{"type":"number"},"maxLength":{"$ref":"#/definitions/nonNegativeInteger"},"minLength":{"$ref":"#/definitions/nonNegativeIntegerDefault0"},"pattern":{"type":"string","format":"regex"},"additionalItems":{"$ref":"#"},"items":{"anyOf":[{"$ref":"#"},{"$ref":"#/definitions/schemaArray"}]},"maxItems":{"$ref":"#/definitions/nonNegativeInteger"},"minItems":{"$ref":"#/definitions/nonNegativeIntegerDefault0"},"uniqueItems":{"type":"boolean"},"contains":{"$ref":"#"},"maxProperties":{"$ref":"#/definitions/nonNegativeInteger"},"minProperties":{"$ref":"#/definitions/nonNegativeIntegerDefault0"},"required":{"$ref":"#/definitions/stringArray"},"additionalProperties":{"$ref":"#"},"definitions":{"type":"object","additionalProperties":{"$ref":"#"}},"properties":{"type":"object","additionalProperties":{"$ref":"#"}},"patternProperties":{"type":"object","additionalProperties":{"$ref":"#"},"propertyNames":{"format":"regex"}},"dependencies":{"type":"object","additionalProperties":{"anyOf":[{"$ref":"#"},{"$ref":"#/definitions/stringArray"}]}},"propertyNames":{"$ref":"#"},"const":true,"enum":{"type":"array","items":true},"type":{"anyOf":[{"$ref":"#/definitions/simpleTypes"},{"type":"array","items":{"$ref":"#/definitions/simpleTypes"},"minItems":1,"uniqueItems":true}]},"format":{"type":"string"},"contentMediaType":{"type":"string"},"contentEncoding":{"type":"string"},"if":{"$ref":"#"},"then":{"$ref":"#"},"else":{"$ref":"#"},"allOf":{"$ref":"#/definitions/schemaArray"},"anyOf":{"$ref":"#/definitions/schemaArray"},"oneOf":{"$ref":"#/definitions/schemaArray"},"not":{"$ref":"#"}}},
  "https://json-schema.org/draft/2020-12/meta/core": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/core","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/core":true},"$dynamicAnchor":"meta","type":["object","boolean"],"properties":{"$id":{"$ref":"#/$defs/uriReferenceString","pattern":"^[^#]*#?$"},"$schema":{"$ref":"#/$defs/uriString"},"$ref":{"$ref":"#/$defs/uriReferenceString"},"$anchor":{"$ref":"#/$defs/anchorString"},"$dynamicRef":{"$ref":"#/$defs/uriReferenceString"},"$dynamicAnchor":{"$ref":"#/$defs/anchorString"},"$vocabulary":{"type":"object","propertyNames":{"$ref":"#/$defs/uriString"},"additionalProperties":{"type":"boolean"}},"$comment":{"type":"string"},"$defs":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"}}},"$defs":{"anchorString":{"type":"string","pattern":"^[A-Za-z_][-A-Za-z0-9._]*$"},"uriString":{"type":"string","format":"uri"},"uriReferenceString":{"type":"string","format":"uri-reference"}}},
  "https://json-schema.org/draft/2020-12/meta/applicator": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/applicator","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/applicator":true},"$dynamicAnchor":"meta","type":["object","boolean"],"properties":{"prefixItems":{"$ref":"#/$defs/schemaArray"},"items":{"$dynamicRef":"#meta"},"contains":{"$dynamicRef":"#meta"},"additionalProperties":{"$dynamicRef":"#meta"},"properties":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"}},"patternProperties":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"},"propertyNames":{"format":"regex"}},"dependentSchemas":{"type":"object","additionalProperties":{"$dynamicRef":"#meta"}},"propertyNames":{"$dynamicRef":"#meta"},"if":{"$dynamicRef":"#meta"},"then":{"$dynamicRef":"#meta"},"else":{"$dynamicRef":"#meta"},"allOf":{"$ref":"#/$defs/schemaArray"},"anyOf":{"$ref":"#/$defs/schemaArray"},"oneOf":{"$ref":"#/$defs/schemaArray"},"not":{"$dynamicRef":"#meta"}},"$defs":{"schemaArray":{"type":"array","minItems":1,"items":{"$dynamicRef":"#meta"}}}},
  "https://json-schema.org/draft/2020-12/meta/unevaluated": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/unevaluated","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/unevaluated":true},"$dynamicAnchor":"meta","type":["object","boolean"],"properties":{"unevaluatedItems":{"$dynamicRef":"#meta"},"unevaluatedProperties":{"$dynamicRef":"#meta"}}},
  "https://json-schema.org/draft/2020-12/meta/validation": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/validation","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/validation":true},"$dynamicAnchor":"meta","type":["object","boolean"],"properties":{"type":{"anyOf":[{"$ref":"#/$defs/simpleTypes"},{"type":"array","items":{"$ref":"#/$defs/simpleTypes"},"minItems":1,"uniqueItems":true}]},"const":true,"enum":{"type":"array","items":true},"multipleOf":{"type":"number","exclusiveMinimum":0},"maximum":{"type":"number"},"exclusiveMaximum":{"type":"number"},"minimum":{"type":"number"},"exclusiveMinimum":{"type":"number"},"maxLength":{"$ref":"#/$defs/nonNegativeInteger"},"minLength":{"$ref":"#/$defs/nonNegativeIntegerDefault0"},"pattern":{"type":"string","format":"regex"},"maxItems":{"$ref":"#/$defs/nonNegativeInteger"},"minItems":{"$ref":"#/$defs/nonNegativeIntegerDefault0"},"uniqueItems":{"type":"boolean"},"maxContains":{"$ref":"#/$defs/nonNegativeInteger"},"minContains":{"$ref":"#/$defs/nonNegativeInteger"},"maxProperties":{"$ref":"#/$defs/nonNegativeInteger"},"minProperties":{"$ref":"#/$defs/nonNegativeIntegerDefault0"},"required":{"$ref":"#/$defs/stringArray"},"dependentRequired":{"type":"object","additionalProperties":{"$ref":"#/$defs/stringArray"}}},"$defs":{"nonNegativeInteger":{"type":"integer","minimum":0},"nonNegativeIntegerDefault0":{"$ref":"#/$defs/nonNegativeInteger"},"simpleTypes":{"enum":["array","boolean","integer","null","number","object","string"]},"stringArray":{"type":"array","items":{"type":"string"},"uniqueItems":true}}},
  "https://json-schema.org/draft/2020-12/meta/meta-data": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/meta-data","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/meta-data":true},"$dynamicAnchor":"meta","type":["object","boolean"],"properties":{"title":{"type":"string"},"description":{"type":"string"},"default":true,"deprecated":{"type":"boolean"},"readOnly":{"type":"boolean"},"writeOnly":{"type":"boolean"},"examples":{"type":"array","items":true}}},
  "https://json-schema.org/draft/2020-12/meta/format-annotation": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/format-annotation","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/format-annotation":true},"$dynamicAnchor":"meta","type":["object","boolean"],"properties":{"format":{"type":"string"}}},
  "https://json-schema.org/draft/2020-12/meta/content": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://json-schema.org/draft/2020-12/meta/content","$vocabulary":{"https://json-schema.org/draft/2020-12/vocab/content":true},"$dynamicAnchor":"meta","type":["object","boolean"],"properties":{"contentEncoding":{"type":"string"},"contentMediaType":{"type":"string"},"contentSchema":{"$dynamicRef":"#meta"}}},
};
