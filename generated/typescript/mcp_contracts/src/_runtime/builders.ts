// Copied by mcp-contracts from its generator/typescript/builders.ts. Do not edit.
//
// What a contract's builders put into the members their caller gave: the constants of a
// shape, an error's code and what the catalogue derives from it, its message. The same
// semantics as the Python runtime's `Filling`: the paths are compiled once into a tree of
// the objects and arrays on the way; a call copies only those (what the caller gave is
// never changed), and a value already there that differs is refused, naming its pointer.

import { deepEqual, toPointer } from "./judge.js";

/** The reference tokens of a JSON pointer, unescaped: ["error", "code"] is /error/code. */
export type Path = readonly string[];
/** (path, value): what a builder puts where, in order. */
export type Placements = readonly (readonly [Path, unknown])[];

/** A value the builder was asked to put where the contract has another. */
export class BuilderError extends Error {
  override name = "BuilderError";
}

const enum Kind {
  Node,
  Value,
  Slot,
  Default,
}

interface Item {
  readonly token: string;
  readonly kind: Kind;
  readonly payload: unknown; // the value, the slot's index, or a Container
  readonly path: Path;
}

interface Container {
  readonly items: readonly Item[];
  readonly placed: boolean; // a value or a slot is inside it, not only defaults
  readonly array: boolean | null; // null: an object; else whether the builder can make it
}

type Tree = Map<string, Tree | readonly [Kind, unknown]>;

const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);
const isIndex = (token: string): boolean => /^[0-9]+$/.test(token);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A deep copy of a JSON value (own properties only, `__proto__` kept as a property). */
function copied(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copied);
  if (isObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) define(copy, key, copied(value[key]));
    return copy;
  }
  return value;
}

/** Set an own property, whatever its name: `__proto__` too, which an assignment would take
 * for the prototype (only that name pays for `defineProperty`, four times an assignment). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else target[key] = value;
}

/** What a builder puts where, compiled once from paths (see the module). */
export class Filling {
  readonly #root: Container;

  /**
   * `placements` are (path, value); `slots` are paths whose values each call gives, in
   * order (one given as `undefined` is left out); `defaults` are (path, value) put where
   * nothing is, inside an object that is there. Of two at the same path, the later is kept.
   */
  constructor(placements: Placements = [], slots: readonly Path[] = [], defaults: Placements = []) {
    const root: Tree = new Map();
    const leaves: [Path, Kind, unknown][] = [
      ...placements.map(([path, value]): [Path, Kind, unknown] => [path, Kind.Value, value]),
      ...slots.map((path, index): [Path, Kind, unknown] => [path, Kind.Slot, index]),
      ...defaults.map(([path, value]): [Path, Kind, unknown] => [path, Kind.Default, value]),
    ];
    for (const [path, kind, payload] of leaves) {
      const last = path[path.length - 1];
      if (last === undefined) throw new Error("a builder puts nothing at the whole document's place");
      let node = root;
      for (const token of path.slice(0, -1)) {
        let next = node.get(token);
        if (next === undefined) node.set(token, (next = new Map()));
        if (!(next instanceof Map)) throw new Error(`${toPointer(path)} is inside a value the builder puts`);
        node = next;
      }
      if (node.get(last) instanceof Map) throw new Error(`${toPointer(path)} holds values the builder puts`);
      node.set(last, [kind, payload]);
    }
    this.#root = compiled(root, []);
  }

  /**
   * The document of the members a builder's caller gave (those `undefined` left out), with
   * every value put at its path, `values` for the slots. `nulls` are members put as null
   * where the caller gave nothing.
   */
  fill(members: object, values: readonly unknown[] = [], nulls: readonly string[] = []): Record<string, unknown> {
    const document: Record<string, unknown> = {};
    const given = members as Record<string, unknown>;
    for (const key of Object.keys(given)) {
      if (given[key] !== undefined) define(document, key, given[key]);
    }
    for (const key of nulls) if (!hasOwn(document, key)) define(document, key, null);
    merge(document, this.#root.items, values);
    return document;
  }
}

function compiled(tree: Tree, path: Path): Container {
  const items: Item[] = [];
  for (const [token, entry] of tree) {
    const at = [...path, token];
    if (entry instanceof Map) {
      const inside = compiled(entry, at);
      items.push({ token, kind: Kind.Node, payload: inside, path: at });
    } else {
      items.push({ token, kind: entry[0], payload: entry[1], path: at });
    }
  }
  const placed = items.some((item) =>
    item.kind === Kind.Node ? (item.payload as Container).placed : item.kind !== Kind.Default,
  );
  const tokens = [...tree.keys()];
  const first = tokens[0];
  const array = first !== undefined && isIndex(first) ? tokens.every((token, index) => token === String(index)) : null;
  return { items, placed, array };
}

const ABSENT = Symbol("absent");

function merge(node: Record<string, unknown> | unknown[], items: readonly Item[], values: readonly unknown[]): void {
  for (const item of items) {
    const { token, kind, path } = item;
    let key: string | number;
    let found: unknown;
    if (!Array.isArray(node)) {
      key = token;
      found = hasOwn(node, token) ? node[token] : ABSENT;
    } else if (kind === Kind.Default || (kind === Kind.Node && !(item.payload as Container).placed)) {
      key = isIndex(token) ? Number(token) : node.length;
      if (key >= node.length) continue;
      found = node[key];
    } else {
      key = indexIn(node, path);
      found = key < node.length ? node[key] : ABSENT;
    }
    let value: unknown;
    if (kind === Kind.Node) {
      const inside = item.payload as Container;
      if (found === ABSENT) {
        if (!inside.placed) continue; // defaults go only into an object that is there
        value = made(inside, values);
        if (isEmpty(value)) continue; // every slot inside was left out
      } else {
        if (Array.isArray(found)) value = [...(found as unknown[])];
        else if (isObject(found)) value = spread(found);
        else if (inside.placed) {
          throw new BuilderError(
            `${toPointer(path)} is ${JSON.stringify(found)}: the builder puts values inside it, in an object or an array`,
          );
        } else continue;
        merge(value as Record<string, unknown> | unknown[], inside.items, values);
      }
    } else {
      value = kind === Kind.Slot ? values[item.payload as number] : item.payload;
      if (value === undefined) continue;
      if (found !== ABSENT) {
        if (kind !== Kind.Default && !deepEqual(found, value)) {
          throw new BuilderError(
            `${toPointer(path)} is ${JSON.stringify(value)} in this contract, not ${JSON.stringify(found)}`,
          );
        }
        continue;
      }
      value = copied(value);
    }
    if (Array.isArray(node)) {
      const index = key as number;
      if (index < node.length) node[index] = value;
      else node.push(value);
    } else define(node, key as string, value);
  }
}

/** A shallow copy of an object's own properties, `__proto__` kept as a property. */
function spread(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) define(copy, key, value[key]);
  return copy;
}

function isEmpty(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0;
}

/** A new container of `inside`'s items, where nothing was. */
function made(inside: Container, values: readonly unknown[]): unknown {
  const entries: [string, unknown][] = [];
  for (const item of inside.items) {
    let value: unknown;
    if (item.kind === Kind.Node) {
      const nested = item.payload as Container;
      if (!nested.placed) continue;
      value = made(nested, values);
      if (isEmpty(value)) continue;
    } else {
      value = item.kind === Kind.Slot ? values[item.payload as number] : item.payload;
      if (value === undefined) continue;
      value = copied(value);
    }
    entries.push([item.token, value]);
  }
  if (inside.array === null) {
    const object: Record<string, unknown> = {};
    for (const [token, value] of entries) define(object, token, value);
    return object;
  }
  const inOrder = entries.every(([token], index) => token === String(index));
  if (!inside.array || !inOrder) {
    const where = inside.items[0]?.path.slice(0, -1) ?? [];
    throw new BuilderError(`${toPointer(where)} cannot be made: the indexes of an array go 0, 1...`);
  }
  return entries.map(([, value]) => value);
}

/** The index the last token of `path` names in `array`: at most one past its end. */
function indexIn(array: readonly unknown[], path: Path): number {
  const token = path[path.length - 1] ?? "";
  if (isIndex(token) && Number(token) <= array.length) return Number(token);
  throw new BuilderError(
    `${toPointer(path)} cannot be filled: ${toPointer(path.slice(0, -1))} is an array of ${array.length},` +
      ` and ${JSON.stringify(token)} is not an index of it or the next one`,
  );
}

/**
 * For each code of a catalogue: its value, then the value of each column of `derived`
 * (path, column) for it. Made once, at import, so that an error builder's call looks its
 * code up once.
 */
export function catalogueValues<Info extends object>(
  catalogue: ReadonlyMap<string, Info>,
  derived: readonly (readonly [Path, string])[],
): ReadonlyMap<string, readonly unknown[]> {
  const found = new Map<string, readonly unknown[]>();
  for (const [code, info] of catalogue) {
    const row = info as Record<string, unknown>;
    found.set(code, [code, ...derived.map(([, column]) => row[column])]);
  }
  return found;
}
