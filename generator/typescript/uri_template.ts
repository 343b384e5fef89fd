// RFC 6570 URI templates, Levels 1 to 3: parse, expand, and match a URI back to its values.
//
// The TypeScript port of the generator's runtime/uri_template.py, line for line: the same
// subset, the same refusals (`TemplateError`, with the same reason, 1-based column and message),
// the same expansion, the same exact match (the inverse of `expand`, each variable the longest
// value that lets the rest match, the final query part's members in any order and optional)
// and the same cap, `MAX_URI_LENGTH` characters. tests/test_typescript_surface.py runs both on the
// same cases and asserts they agree; the Python module's docstring says what is taken and why.
//
// Where JavaScript differs, it is undone here: a template's columns and the cap count code
// points, as Python's `str` does (a URI is otherwise read by UTF-16 units: every character a
// match reads by itself is ASCII); `encodeURIComponent` leaves `!*'()` as they are, so ASCII is
// percent-encoded here; a variable whose value is `undefined` is undefined, as one left out.
//
// No regular expression is run on the URI: each pass is a plain loop over it, a fixed number of
// passes a match (see the Python module's "Bound").
//
// Copied into every generated TypeScript package as `_runtime/uri_template.ts`: no dependency.

/** The longest URI `match` reads, in code points: a longer one is no match, read no further. */
export const MAX_URI_LENGTH = 65_536;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UNRESERVED = new Set(ALPHANUMERIC + "-._~");
const RESERVED_TEXT = ":/?#[]@!$&'()*+,;=";
const WRITTEN_RESERVED = new Set(ALPHANUMERIC + "-._~" + RESERVED_TEXT);
const HEX = new Set("0123456789abcdefABCDEF");
const VARCHAR = new Set(ALPHANUMERIC + "_");
// RFC 6570 §2.1 literals in ASCII: %x21 / %x23-24 / %x26 / %x28-3B / %x3D / %x3F-5B / %x5D / %x5F / %x61-7A / %x7E.
const LITERAL_RANGES: readonly (readonly [number, number])[] = [
  [0x21, 0x21], [0x23, 0x24], [0x26, 0x26], [0x28, 0x3b], [0x3d, 0x3d], [0x3f, 0x5b], [0x5d, 0x5d],
  [0x5f, 0x5f], [0x61, 0x7a], [0x7e, 0x7e],
];
const LITERAL_ASCII = new Set(
  LITERAL_RANGES.flatMap(([low, high]) => Array.from({ length: high - low + 1 }, (_, i) => String.fromCharCode(low + i))),
);
const FUTURE_OPERATORS = new Set("=,!@|");

/** How an operator expands (RFC 6570 Appendix A): lead, separator, named, ifemp, allow. */
interface Operator {
  readonly first: string;
  readonly separator: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  readonly reserved: boolean;
}

const OPERATORS: ReadonlyMap<string, Operator> = new Map([
  ["", { first: "", separator: ",", named: false, ifEmpty: "", reserved: false }],
  ["+", { first: "", separator: ",", named: false, ifEmpty: "", reserved: true }],
  ["#", { first: "#", separator: ",", named: false, ifEmpty: "", reserved: true }],
  [".", { first: ".", separator: ".", named: false, ifEmpty: "", reserved: false }],
  ["/", { first: "/", separator: "/", named: false, ifEmpty: "", reserved: false }],
  [";", { first: ";", separator: ";", named: true, ifEmpty: "", reserved: false }],
  ["?", { first: "?", separator: "&", named: true, ifEmpty: "=", reserved: false }],
  ["&", { first: "&", separator: "&", named: true, ifEmpty: "=", reserved: false }],
]);

function operatorOf(name: string): Operator {
  const found = OPERATORS.get(name);
  if (found === undefined) throw new Error(`no operator ${name}`);
  return found;
}

/**
 * A URI template that does not parse, or that `match` could not undo. `column` is the 1-based
 * index (in code points) of the character at fault; the message is the Python module's.
 */
export class TemplateError extends Error {
  readonly reason: string;
  readonly template: string;
  readonly column: number;

  constructor(reason: string, template: string, index: number) {
    super(`${reason}, at column ${index + 1} of the URI template ${pyRepr(template)}`);
    this.name = "TemplateError";
    this.reason = reason;
    this.template = template;
    this.column = index + 1;
  }
}

/** One `{...}`: its operator's character, its variables' names and where each starts. */
interface Expression {
  readonly operator: string;
  readonly names: readonly string[];
  readonly indexes: readonly number[];
  readonly brace: number;
}

/** A variable's value in the match: `reserved` for `+` and `#`; `ifEmpty` for `;`. */
interface Capture {
  readonly name: string;
  readonly reserved: boolean;
  readonly ifEmpty: boolean;
}

// A template as parsed: literal text (percent-encoded, as expansion writes it) and expressions;
// as matched: literal text and single values.
type Part = string | Expression;
type Piece = string | Capture;

/** The final query part: its variables, and those of its first expression when that is `{?...}`. */
interface Query {
  readonly names: ReadonlySet<string>;
  readonly questionNames: ReadonlySet<string>;
}

/** The steps one match took: each character a pass visits counts one. */
export interface Tally {
  steps: number;
}

/** Values of a template's variables, by name: one left out (or `undefined`) is undefined. */
export type TemplateValues = { readonly [name: string]: string | undefined };

/** A parsed URI template (RFC 6570 Levels 1 to 3). */
export class UriTemplate {
  readonly text: string;
  readonly variables: readonly string[];
  readonly #parts: readonly Part[];
  readonly #pieces: readonly Piece[];
  readonly #query: Query | null;

  private constructor(text: string, parts: readonly Part[]) {
    this.text = text;
    this.#parts = parts;
    this.variables = Object.freeze(parts.flatMap((part) => (typeof part === "string" ? [] : part.names)));
    const [head, query] = splitQuery(parts);
    this.#pieces = pieces(head);
    this.#query = query;
  }

  /** The template of `text`; a `TemplateError` when it does not parse or cannot be matched back. */
  static parse(text: string): UriTemplate {
    const chars = Array.from(text); // by code points, as Python indexes a str
    const parts = parse(text, chars);
    refuseRepeated(text, parts);
    refuseAdjacent(text, parts);
    return new UriTemplate(text, parts);
  }

  toString(): string {
    return this.text;
  }

  /** The URI of `values` (RFC 6570 §3.2); a variable they leave out is undefined, so skipped. */
  expand(values: TemplateValues): string {
    return this.#parts.map((part) => (typeof part === "string" ? part : expandExpression(part, values))).join("");
  }

  /** The values that expand to `uri`, in template order, or null. */
  match(uri: string): Record<string, string> | null {
    return this.matchCounting(uri, { steps: 0 });
  }

  /** `match`, counting its steps in `tally` (the tests' bound). */
  matchCounting(uri: string, tally: Tally): Record<string, string> | null {
    if (overCap(uri)) return null;
    for (const [end, members] of queryStarts(uri, this.#query, tally)) {
      const values = matchPieces(this.#pieces, uri.slice(0, end), tally);
      if (values !== null) {
        for (const [name, value] of members) values.set(name, value);
        const found: Record<string, string> = Object.create(null);
        for (const name of this.variables) {
          const value = values.get(name);
          if (value !== undefined) found[name] = value;
        }
        return found;
      }
    }
    return null;
  }
}

/** Whether `uri` holds more than MAX_URI_LENGTH code points, counted only near the cap. */
function overCap(uri: string): boolean {
  if (uri.length <= MAX_URI_LENGTH) return false;
  if (uri.length > 2 * MAX_URI_LENGTH) return true;
  let points = 0;
  for (let index = 0; index < uri.length; index++) {
    const unit = uri.charCodeAt(index);
    if (!(unit >= 0xdc00 && unit <= 0xdfff && index > 0 && isHighSurrogate(uri.charCodeAt(index - 1)))) points++;
  }
  return points > MAX_URI_LENGTH;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

// Parsing (indexes count code points: `chars` is the template's)

function parse(text: string, chars: readonly string[]): Part[] {
  const parts: Part[] = [];
  let literal: string[] = [];
  let index = 0;
  while (index < chars.length) {
    const char = chars[index]!;
    if (char === "{") {
      const close = closingBrace(text, chars, index);
      if (literal.length) {
        parts.push(literal.join(""));
        literal = [];
      }
      parts.push(expression(text, chars, index, close));
      index = close + 1;
      continue;
    }
    literal.push(literalChar(text, chars, index));
    // A percent-encoding is three characters of the template; any other character one, however written.
    index += char === "%" ? 3 : 1;
  }
  if (literal.length) parts.push(literal.join(""));
  return parts;
}

function closingBrace(text: string, chars: readonly string[], brace: number): number {
  const close = chars.indexOf("}", brace + 1);
  const open = chars.indexOf("{", brace + 1);
  if (close === -1 || (open !== -1 && open < close)) {
    throw new TemplateError("'{' opens an expression no '}' closes", text, brace);
  }
  return close;
}

/** The character at `index` as expansion writes it: itself, a percent-encoding, or refused. */
function literalChar(text: string, chars: readonly string[], index: number): string {
  const char = chars[index]!;
  if (char === "}") throw new TemplateError("'}' closes no expression", text, index);
  if (char === "%") {
    if (!(isHex(chars[index + 1]) && isHex(chars[index + 2]))) {
      throw new TemplateError("'%' is not followed by two hex digits", text, index);
    }
    return chars.slice(index, index + 3).join("");
  }
  if (LITERAL_ASCII.has(char)) return char;
  if (isUcscharOrIprivate(char.codePointAt(0)!)) return encodeURIComponent(char);
  throw new TemplateError(`${pyRepr(char)} cannot be in a URI template's literal text (RFC 6570 §2.1)`, text, index);
}

/** RFC 6570 §2.1's non-ASCII literals: RFC 3987's ucschar and iprivate. */
function isUcscharOrIprivate(code: number): boolean {
  if (code < 0x10000) {
    return (0xa0 <= code && code <= 0xd7ff) || (0xe000 <= code && code <= 0xfdcf) || (0xfdf0 <= code && code <= 0xffef);
  }
  if (0xe0000 <= code && code <= 0xe0fff) return false;
  return (code & 0xffff) <= 0xfffd;
}

/** The expression `chars[brace .. close]`, its braces included. */
function expression(text: string, chars: readonly string[], brace: number, close: number): Expression {
  const start = brace + 1;
  if (start === close) throw new TemplateError("empty expression '{}'", text, brace);
  const first = chars[start]!;
  const operator = OPERATORS.has(first) ? first : "";
  if (FUTURE_OPERATORS.has(first)) {
    throw new TemplateError(`operator ${pyRepr(first)} is reserved by RFC 6570 for future use`, text, start);
  }
  let index = start + operator.length;
  const names: string[] = [];
  const indexes: number[] = [];
  for (;;) {
    const end = nameEnd(text, chars, index, close);
    names.push(chars.slice(index, end).join(""));
    indexes.push(index);
    if (end === close) return { operator, names, indexes, brace };
    index = end + 1;
  }
}

/** Where the variable name starting at `index` ends (at a `,` or the `}`), checked (§2.3). */
function nameEnd(text: string, chars: readonly string[], index: number, close: number): number {
  let position = index;
  while (position < close && chars[position] !== ",") position = nameCharEnd(text, chars, index, position);
  if (position === index) throw new TemplateError("a variable name is missing", text, position);
  if (chars[position - 1] === ".") throw new TemplateError("a variable name cannot end with '.'", text, position - 1);
  return position;
}

function nameCharEnd(text: string, chars: readonly string[], start: number, position: number): number {
  const char = chars[position]!;
  if (VARCHAR.has(char)) return position + 1;
  if (char === "%") {
    if (!(isHex(chars[position + 1]) && isHex(chars[position + 2]))) {
      throw new TemplateError("'%' is not followed by two hex digits", text, position);
    }
    return position + 3;
  }
  if (char === "." && position > start && chars[position - 1] !== ".") return position + 1;
  if (char === ":" && position > start) {
    throw new TemplateError("the prefix modifier ':N' (RFC 6570 Level 4) is not taken by a contract", text, position);
  }
  if (char === "*" && position > start) {
    throw new TemplateError("the explode modifier '*' (RFC 6570 Level 4) is not taken by a contract", text, position);
  }
  if (char === ".") throw new TemplateError("'.' may only stand between two characters of a variable name", text, position);
  throw new TemplateError(`${pyRepr(char)} cannot be in a variable name (RFC 6570 §2.3)`, text, position);
}

function refuseRepeated(text: string, parts: readonly Part[]): void {
  const seen = new Set<string>();
  for (const part of parts) {
    if (typeof part === "string") continue;
    part.names.forEach((name, position) => {
      if (seen.has(name)) {
        throw new TemplateError(
          `variable ${pyRepr(name)} is named twice; a match could not tell its values`,
          text,
          part.indexes[position]!,
        );
      }
      seen.add(name);
    });
  }
}

/** Two values with no literal between them cannot be matched back: where does one end? */
function refuseAdjacent(text: string, parts: readonly Part[]): void {
  for (let index = 1; index < parts.length; index++) {
    const previous = parts[index - 1]!;
    const part = parts[index]!;
    if (typeof previous !== "string" && typeof part !== "string" && !operatorOf(part.operator).first) {
      throw new TemplateError("two variables with no literal between them cannot be matched back", text, part.brace);
    }
  }
}

function isHex(char: string | undefined): boolean {
  return char !== undefined && HEX.has(char);
}

/** The byte of the percent-encoding at `index` of `text`, or -1 when there is none. */
function hexByte(text: string, index: number): number {
  if (text[index] === "%" && hexPair(text, index + 1)) return parseInt(text.slice(index + 1, index + 3), 16);
  return -1;
}

function hexPair(text: string, index: number): boolean {
  return isHex(text[index]) && isHex(text[index + 1]);
}

/**
 * Python's `repr` of a string, which the errors' reasons and messages quote (the same text in
 * both languages): single quotes unless only a single quote is in it, escapes of what is not printable.
 */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === quote || char === "\\") out += "\\" + char;
    else if (char === "\t") out += "\\t";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char !== " " && NOT_PRINTABLE.test(char)) out += escapeCode(char.codePointAt(0)!);
    else out += char;
  }
  return out + quote;
}

// What Python's str.isprintable calls not printable (one character at a time, never a URI).
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function escapeCode(code: number): string {
  if (code < 0x100) return "\\x" + code.toString(16).padStart(2, "0");
  if (code < 0x10000) return "\\u" + code.toString(16).padStart(4, "0");
  return "\\U" + code.toString(16).padStart(8, "0");
}

// Expansion

function expandExpression(expression: Expression, values: TemplateValues): string {
  const operator = operatorOf(expression.operator);
  const written: string[] = [];
  for (const name of expression.names) {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value !== undefined) written.push(expandValue(operator, name, value));
  }
  return written.length ? operator.first + written.join(operator.separator) : "";
}

function expandValue(operator: Operator, name: string, value: unknown): string {
  if (typeof value !== "string") {
    throw new TypeError(`the value of ${pyRepr(name)} must be a string, not ${value === null ? "null" : typeof value}`);
  }
  const encoded = encode(value, operator.reserved);
  if (!operator.named) return encoded;
  return value ? `${name}=${encoded}` : name + operator.ifEmpty;
}

/**
 * Percent-encode all but the unreserved characters, or (`+`, `#`) all but those, the reserved
 * ones and the percent-encodings the value already holds (§3.2.1). UTF-8, upper case; a lone
 * surrogate, which no UTF-8 holds, is a URIError (as Python's encoder refuses it).
 */
function encode(value: string, reserved: boolean): string {
  const safe = reserved ? WRITTEN_RESERVED : UNRESERVED;
  let out = "";
  let index = 0;
  while (index < value.length) {
    if (reserved && value[index] === "%" && hexByte(value, index) !== -1) {
      out += value.slice(index, index + 3);
      index += 3;
      continue;
    }
    const char = String.fromCodePoint(value.codePointAt(index)!);
    const unit = value.charCodeAt(index);
    if (safe.has(char)) out += char;
    else if (unit < 0x80) out += "%" + unit.toString(16).toUpperCase().padStart(2, "0");
    else out += encodeURIComponent(char); // a lone surrogate: a URIError
    index += char.length;
  }
  return out;
}

// Matching

/** The parts before the final query part (`{&...}` ending the template after at most one `{?...}`), and it. */
function splitQuery(parts: readonly Part[]): [readonly Part[], Query | null] {
  let start = parts.length;
  while (start && operatorName(parts[start - 1]!) === "&") start--;
  if (start && operatorName(parts[start - 1]!) === "?") start--;
  if (start === parts.length) return [parts, null];
  const query = parts.slice(start).filter((part): part is Expression => typeof part !== "string");
  const names = new Set(query.flatMap((expression) => expression.names));
  const questionNames = new Set(query[0]!.operator === "?" ? query[0]!.names : []);
  return [parts.slice(0, start), { names, questionNames }];
}

function operatorName(part: Part): string {
  return typeof part === "string" ? "literal" : part.operator;
}

/** The parts as literal text (operators' leads, separators and names included) and single values, neighbouring literals joined. */
function pieces(parts: readonly Part[]): Piece[] {
  const found: Piece[] = [];
  for (const piece of expressionPieces(parts)) {
    const last = found[found.length - 1];
    if (typeof piece === "string" && typeof last === "string") found[found.length - 1] = last + piece;
    else if (piece !== "") found.push(piece);
  }
  return found;
}

function* expressionPieces(parts: readonly Part[]): Generator<Piece> {
  for (const part of parts) {
    if (typeof part === "string") {
      yield part;
      continue;
    }
    const operator = operatorOf(part.operator);
    for (const [position, name] of part.names.entries()) {
      const lead = position ? operator.separator : operator.first;
      if (part.operator === ";") yield lead + name;
      else if (operator.named) yield `${lead}${name}=`;
      else yield lead;
      yield { name, reserved: operator.reserved, ifEmpty: part.operator === ";" };
    }
  }
}

/** The last index of `char` in `text` in [start, end), or -1 (Python's `rfind`). */
function lastIndexIn(text: string, char: string, start: number, end: number): number {
  if (end - 1 < start) return -1;
  const found = text.lastIndexOf(char, end - 1);
  return found >= start ? found : -1;
}

/**
 * Where the query part may begin in `uri` and its members there, from the most members to none:
 * each a `name=value` after a `&`, the first after a `?` exactly when it is one of the `{?...}`'s.
 */
function queryStarts(uri: string, query: Query | null, tally: Tally): [number, Map<string, string>][] {
  const starts: [number, Map<string, string>][] = [[uri.length, new Map()]];
  if (query === null) return starts;
  const members = new Map<string, string>();
  let end = uri.length;
  for (let count = 0; count < query.names.size; count++) {
    const ampersand = lastIndexIn(uri, "&", 0, end);
    const question = lastIndexIn(uri, "?", ampersand + 1, end);
    const start = question !== -1 ? question : ampersand;
    tally.steps += 2 * (end - ampersand);
    const member = start !== -1 ? readMember(uri.slice(start + 1, end), query, members) : null;
    if (member === null) break;
    members.set(member[0], member[1]);
    const questioned = [...members.keys()].some((name) => query.questionNames.has(name));
    if ((uri[start] === "?") === questioned) starts.push([start, new Map(members)]);
    if (uri[start] === "?") break;
    end = start;
  }
  return starts.reverse();
}

function readMember(text: string, query: Query, members: ReadonlyMap<string, string>): [string, string] | null {
  const equals = text.indexOf("=");
  if (equals === -1) return null;
  const name = text.slice(0, equals);
  if (!query.names.has(name) || members.has(name)) return null;
  const decoded = decodeWhole(text.slice(equals + 1));
  return decoded === null ? null : [name, decoded];
}

/** `text` decoded when it is all unreserved characters and percent-encoded UTF-8, else null. */
function decodeWhole(text: string): string | null {
  const steps = valueSteps(text, false);
  let index = 0;
  while (index < text.length && steps[index]) index += steps[index]!;
  return index === text.length ? decode(text, false) : null;
}

/**
 * The length of the value character starting at each index of `text`, 0 where none does: `{+x}`
 * and `{#x}` any percent-encoding, the other operators an unreserved character or the upper-case
 * UTF-8 of another.
 */
function valueSteps(text: string, reserved: boolean): Uint8Array {
  const steps = new Uint8Array(text.length + 1);
  const written = reserved ? WRITTEN_RESERVED : UNRESERVED;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (written.has(char)) steps[index] = 1;
    else if (char === "%") {
      steps[index] = reserved ? (hexByte(text, index) !== -1 ? 3 : 0) : encodedLength(text, index, UNRESERVED);
    }
  }
  return steps;
}

/**
 * The length of the percent-encoding at `index` exactly as expansion writes a character it does
 * not write as it is (not in `written`): UTF-8, in upper case. 0 when there is none.
 */
function encodedLength(text: string, index: number, written: ReadonlySet<string>): number {
  const first = hexByte(text, index);
  if (first === -1) return 0;
  let size = first < 0x80 ? 1 : 0xc2 <= first && first <= 0xdf ? 2 : 0xe0 <= first && first <= 0xef ? 3 : 0;
  size = 0xf0 <= first && first <= 0xf4 ? 4 : size;
  const encoded = text.slice(index, index + 3 * size);
  if (!size || encoded !== encoded.toUpperCase() || !percentEncoded(encoded)) return 0;
  let char: string;
  try {
    char = decodeURIComponent(encoded);
  } catch {
    return 0;
  }
  return written.has(char) ? 0 : 3 * size;
}

function percentEncoded(text: string): boolean {
  if (text.length % 3) return false;
  for (let index = 0; index < text.length; index += 3) if (hexByte(text, index) === -1) return false;
  return true;
}

/**
 * The value of a run of value characters (each checked by `valueSteps`). A `{+x}` or `{#x}`
 * value is the one that expands to exactly the run: an encoding of a character it would encode
 * is decoded, any other kept; so is `%25` before two hex digits, which would otherwise read as one.
 */
function decode(text: string, reserved: boolean): string {
  if (!reserved) return decodeURIComponent(text);
  let out = "";
  let index = 0;
  while (index < text.length) {
    const size = text[index] === "%" ? encodedLength(text, index, WRITTEN_RESERVED) : 0;
    if (size && !(text.startsWith("25", index + 1) && hexPair(text, index + 3))) {
      out += decodeURIComponent(text.slice(index, index + size));
      index += size;
    } else {
      out += text[index];
      index += 1;
    }
  }
  return out;
}

/** The values of `pieces` matching all of `text`, or null. */
function matchPieces(pieces: readonly Piece[], text: string, tally: Tally): Map<string, string> | null {
  const classes = new Set(pieces.filter((piece): piece is Capture => typeof piece !== "string").map((p) => p.reserved));
  const steps = new Map([...classes].map((reserved) => [reserved, valueSteps(text, reserved)] as const));
  tally.steps += classes.size * text.length;
  const tables = feasible(pieces, text, steps, tally);
  if (!tables[0]![0]) return null;
  return read(pieces, text, steps, tables, tally);
}

function stepsOf(steps: ReadonlyMap<boolean, Uint8Array>, reserved: boolean): Uint8Array {
  return steps.get(reserved)!;
}

/**
 * Table k holds, at each index of `text`, whether pieces k and after match the text from there to
 * its end: computed from the last piece back, each table in one pass.
 */
function feasible(
  pieces: readonly Piece[],
  text: string,
  steps: ReadonlyMap<boolean, Uint8Array>,
  tally: Tally,
): Uint8Array[] {
  let after: Uint8Array = new Uint8Array(text.length + 1);
  after[text.length] = 1;
  const tables: Uint8Array[] = [after];
  for (let position = pieces.length - 1; position >= 0; position--) {
    const piece = pieces[position]!;
    after =
      typeof piece === "string"
        ? literalTable(piece, text, after, tally)
        : captureTable(piece, text, stepsOf(steps, piece.reserved), after, tally);
    tables.push(after);
  }
  return tables.reverse();
}

function literalTable(literal: string, text: string, after: Uint8Array, tally: Tally): Uint8Array {
  const table = new Uint8Array(text.length + 1);
  tally.steps += text.length;
  let start = text.indexOf(literal);
  while (start !== -1) {
    tally.steps += 1;
    table[start] = after[start + literal.length]!;
    start = text.indexOf(literal, start + 1);
  }
  return table;
}

/** A value may be empty (the rest matches here) or one character then a value again. */
function captureTable(capture: Capture, text: string, steps: Uint8Array, after: Uint8Array, tally: Tally): Uint8Array {
  tally.steps += text.length;
  if (capture.ifEmpty) return ifEmptyTable(text, steps, after, tally);
  const table = Uint8Array.from(after);
  for (let index = text.length - 1; index >= 0; index--) {
    const step = steps[index]!;
    if (step && table[index + step]) table[index] = 1;
  }
  return table;
}

/** `{;x}`: nothing when the value is empty, else `=` and the value, not empty. */
function ifEmptyTable(text: string, steps: Uint8Array, after: Uint8Array, tally: Tally): Uint8Array {
  tally.steps += text.length;
  const filled = new Uint8Array(text.length + 1);
  for (let index = text.length - 1; index >= 0; index--) {
    const step = steps[index]!;
    if (step && (after[index + step] || filled[index + step])) filled[index] = 1;
  }
  const table = Uint8Array.from(after);
  let equals = text.indexOf("=");
  while (equals !== -1) {
    if (filled[equals + 1]) table[equals] = 1;
    equals = text.indexOf("=", equals + 1);
  }
  return table;
}

/** The values, read left to right: each takes the longest that lets the rest match. */
function read(
  pieces: readonly Piece[],
  text: string,
  steps: ReadonlyMap<boolean, Uint8Array>,
  tables: readonly Uint8Array[],
  tally: Tally,
): Map<string, string> {
  const values = new Map<string, string>();
  let index = 0;
  pieces.forEach((piece, position) => {
    if (typeof piece === "string") {
      index += piece.length;
      return;
    }
    const [start, end] = span(piece, text, stepsOf(steps, piece.reserved), tables[position + 1]!, index, tally);
    values.set(piece.name, decode(text.slice(start, end), piece.reserved));
    index = end;
  });
  return values;
}

/** Where the value starting at `index` lies: the longest that lets the rest match (`{;x}`: nothing, or `=` and a value). */
function span(
  capture: Capture,
  text: string,
  steps: Uint8Array,
  after: Uint8Array,
  index: number,
  tally: Tally,
): [number, number] {
  if (!capture.ifEmpty) {
    const end = longest(steps, after, index, tally);
    if (end === -1) throw new Error("the tables let the rest match from here");
    return [index, end];
  }
  const end = text.startsWith("=", index) ? longest(steps, after, index + 1, tally) : -1;
  return end !== -1 && end > index + 1 ? [index + 1, end] : [index, index];
}

/** The furthest end of a value from `start` where the rest matches, or -1. */
function longest(steps: Uint8Array, after: Uint8Array, start: number, tally: Tally): number {
  let best = after[start] ? start : -1;
  let index = start;
  while (steps[index]) {
    tally.steps += 1;
    index += steps[index]!;
    if (after[index]) best = index;
  }
  return best;
}
