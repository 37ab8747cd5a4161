/**
 * Payload filter compiler: turns a (validated) filter, once, into a flat conjunction of leaf tests
 * over interned payload paths, so that matching a delivery never re-reads the filter's JSON.
 *
 * Semantics (docs/wire.md §Factory side "Payload filter"):
 * - every key must match (keys are checked in the filter's key order, depth first; the first failure is
 *   the one explained);
 * - a scalar value means equality, strict and type-aware: 1 ≠ "1", true ≠ "true", null only equals
 *   null; numbers compare by value (1 = 1.0, 0 = -0);
 * - an array value means `in`; `in` / `not_in` hold scalars in type-partitioned Sets (a Set of strings,
 *   a Set of numbers, and flags for true / false / null): the JSON type is the tag, so a number and a
 *   string never equal each other, and membership needs no per-delivery key building;
 * - a missing field matches only `exists: false`; a field whose value is null is present;
 * - when the payload field is an array, equality and `in` match if ANY element matches, `not_in` if
 *   NO element does (one level: an element that is itself an array or an object never equals a
 *   scalar); `exists` only asks whether the field is there;
 * - a nested filter object on a field that is not an object (scalar, null or array) does not match,
 *   whatever the nested keys say (even `exists: false`): nested filters do not descend into arrays;
 * - a payload that is not an object (array, scalar, null) matches only an empty or absent filter;
 * - within an operator object the operators are checked in the order exists, in, not_in.
 *
 * Field lookup uses own properties only (`constructor`, `__proto__`, `toString` are never inherited).
 *
 * How it runs: every field key of the filter becomes a node of a path trie (`PathTable`); every leaf
 * (scalar, list, operator) becomes one test {slot, kind, operand}. A delivery is first resolved
 * against the trie — each node read once, parents before children — into an array of values, where
 * a node under a missing or non-object parent is "unreachable"; then the leaves are tested in order
 * with one monomorphic loop (no closures, no allocation). Filters compiled with a shared `PathTable`
 * (AutomationMatcher does this per webhook) share the resolution: one walk of the payload per
 * delivery serves all of them (`matchesResolved`). `explain` runs the same leaves, so its verdict is
 * always the verdict of `matches`.
 */
import { appendIndex, appendKey, classifyFilterValue, validatePayloadFilter, type FilterIssue, type JsonScalar } from './validate';

export type MatchExplanation =
  | { passed: true }
  | {
      passed: false;
      /** Payload path of the first failing field, e.g. `$.pull_request.base.ref` (`$` = the payload). */
      path: string;
      /** Why it failed, e.g. `expected one of ["opened","closed"], got "edited"`, `field is missing`. */
      reason: string;
    };

export interface CompiledFilter {
  /** Fast path: short-circuits on the first failing key. */
  matches(payload: unknown): boolean;
  /** Same verdict as matches(), with the first failing payload path and the reason. */
  explain(payload: unknown): MatchExplanation;
  /** True for an absent or empty filter (matches every payload, objects or not). */
  readonly matchesEverything: boolean;
  /**
   * Verdict from values already resolved with `paths.resolve(payload)` — the same PathTable this
   * filter was compiled with (AutomationMatcher: one resolution per delivery for all automations).
   */
  matchesResolved(values: ResolvedPayload): boolean;
  /** The path table this filter's leaves refer to (null for a filter that matches everything). */
  readonly paths: PathTable | null;
}

export interface CompileOptions {
  /** Share path resolution with other filters compiled with the same table. Default: a private one. */
  paths?: PathTable;
}

/** Thrown by compilePayloadFilter when the filter is invalid; `issues` as validatePayloadFilter. */
export class PayloadFilterError extends Error {
  readonly issues: FilterIssue[];
  constructor(issues: FilterIssue[]) {
    const first = issues[0];
    super(first ? `invalid payload filter at ${first.path}: ${first.message}` : 'invalid payload filter');
    this.name = 'PayloadFilterError';
    this.issues = issues;
  }
}

// ---------------------------------------------------------------------------------------------
// Path resolution

/** The field is absent from an object parent. */
const MISSING: unique symbol = Symbol('missing');
/** The parent is missing or not an object: the field cannot be reached (nested filter fails). */
const UNREACHABLE: unique symbol = Symbol('unreachable');

/** Values of a PathTable's nodes for one payload (index = slot). Opaque outside this module. */
export type ResolvedPayload = readonly unknown[];

function isObjectValue(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A trie of payload field paths, shared by the filters compiled with it. Slots are numbered so a
 * parent always precedes its children. Not thread-bound state: resolve() allocates its answer.
 */
export class PathTable {
  private readonly parents: number[] = [];
  private readonly keys: string[] = [];
  /** Keys that exist on Object.prototype need an own-property check. */
  private readonly guarded: boolean[] = [];
  private readonly display: string[] = [];
  private readonly bySlotKey = new Map<string, number>();
  private scratch: unknown[] = [];

  /** Slot of `key` under `parent` (-1 = the payload root), created on first use. */
  intern(parent: number, key: string): number {
    const id = `${parent}\u0000${key}`;
    const existing = this.bySlotKey.get(id);
    if (existing !== undefined) return existing;
    const slot = this.keys.length;
    this.parents.push(parent);
    this.keys.push(key);
    this.guarded.push(key in Object.prototype);
    this.display.push(appendKey(parent < 0 ? '$' : this.display[parent]!, key));
    this.bySlotKey.set(id, slot);
    return slot;
  }

  /** Number of distinct paths (trie nodes). */
  get size(): number {
    return this.keys.length;
  }

  /** Payload path of a slot, e.g. `$.pull_request.base.ref`. */
  pathOf(slot: number): string {
    return this.display[slot]!;
  }

  parentOf(slot: number): number {
    return this.parents[slot]!;
  }

  /** Reads every path of the table from `payload` once. */
  resolve(payload: unknown): ResolvedPayload {
    const out = new Array<unknown>(this.keys.length);
    this.resolveInto(payload, out);
    return out;
  }

  /** resolve() into a buffer reused by this table's own filters (synchronous use only). */
  resolveScratch(payload: unknown): ResolvedPayload {
    if (this.scratch.length !== this.keys.length) this.scratch = new Array<unknown>(this.keys.length);
    this.resolveInto(payload, this.scratch);
    return this.scratch;
  }

  private resolveInto(payload: unknown, out: unknown[]): void {
    const { parents, keys, guarded } = this;
    const n = keys.length;
    for (let i = 0; i < n; i++) {
      const p = parents[i]!;
      const parent = p < 0 ? payload : out[p];
      if (!isObjectValue(parent)) {
        out[i] = UNREACHABLE;
        continue;
      }
      const key = keys[i]!;
      const v = parent[key];
      out[i] = v === undefined || (guarded[i] && !Object.hasOwn(parent, key)) ? MISSING : v;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Scalar sets, partitioned by JSON type (the partition is the type tag).

class ScalarSet {
  private readonly strings = new Set<string>();
  private readonly numbers = new Set<number>();
  private hasTrue = false;
  private hasFalse = false;
  private hasNull = false;
  readonly values: readonly JsonScalar[];

  constructor(values: readonly JsonScalar[]) {
    this.values = [...values];
    for (const v of values) {
      if (typeof v === 'string') this.strings.add(v);
      else if (typeof v === 'number') this.numbers.add(v);
      else if (v === true) this.hasTrue = true;
      else if (v === false) this.hasFalse = true;
      else this.hasNull = true;
    }
  }

  has(v: unknown): boolean {
    switch (typeof v) {
      case 'string':
        return this.strings.has(v);
      case 'number':
        return this.numbers.has(v);
      case 'boolean':
        return v ? this.hasTrue : this.hasFalse;
      case 'object':
        return v === null && this.hasNull;
      default:
        return false;
    }
  }

  /** Index of the first element of `arr` in the set, or -1. */
  firstIn(arr: readonly unknown[]): number {
    for (let i = 0; i < arr.length; i++) if (this.has(arr[i])) return i;
    return -1;
  }
}

// ---------------------------------------------------------------------------------------------
// Leaf tests

const EQ = 0;
const IN = 1;
const NOT_IN = 2;
const EXISTS = 3;
type Kind = typeof EQ | typeof IN | typeof NOT_IN | typeof EXISTS;

/** Verdict of one leaf on a resolved value (never UNREACHABLE: the caller checks that first). */
function testLeaf(kind: number, operand: unknown, v: unknown): boolean {
  switch (kind) {
    case EQ:
      if (v === operand) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (v[i] === operand) return true;
      }
      return false;
    case IN:
      return Array.isArray(v) ? (operand as ScalarSet).firstIn(v) >= 0 : (operand as ScalarSet).has(v);
    case NOT_IN:
      if (v === MISSING) return false;
      return Array.isArray(v) ? (operand as ScalarSet).firstIn(v) < 0 : !(operand as ScalarSet).has(v);
    default: // EXISTS
      return (v !== MISSING) === operand;
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering for explanations (bounded, never throws)

const MAX_RENDER = 120;
const MAX_LIST_ITEMS = 10;
const MISSING_REASON = 'field is missing';

function renderScalar(v: JsonScalar): string {
  const s = JSON.stringify(v);
  return s.length > MAX_RENDER ? `${s.slice(0, MAX_RENDER)}…` : s;
}

function renderList(list: readonly JsonScalar[]): string {
  const shown = list.slice(0, MAX_LIST_ITEMS).map(renderScalar).join(',');
  return list.length > MAX_LIST_ITEMS ? `[${shown},… (${list.length - MAX_LIST_ITEMS} more)]` : `[${shown}]`;
}

function renderValue(v: unknown): string {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
    return renderScalar(v);
  }
  if (Array.isArray(v)) {
    let s: string;
    try {
      s = JSON.stringify(v) ?? 'an array';
    } catch {
      s = 'an array';
    }
    return s.length > MAX_RENDER ? `${s.slice(0, MAX_RENDER)}…]` : s;
  }
  if (isObjectValue(v)) return 'an object';
  return typeof v;
}

function typeWord(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (v === undefined) return 'undefined';
  return `a ${typeof v}`;
}

function leafReason(kind: number, operand: unknown, v: unknown, path: string): { path: string; reason: string } {
  if (kind === EXISTS) {
    return operand ? { path, reason: MISSING_REASON } : { path, reason: 'field exists but exists: false was required' };
  }
  if (v === MISSING) return { path, reason: MISSING_REASON };
  const got = renderValue(v);
  if (kind === EQ) {
    const want = renderScalar(operand as JsonScalar);
    return Array.isArray(v) ? { path, reason: `expected an element equal to ${want}, got ${got}` } : { path, reason: `expected ${want}, got ${got}` };
  }
  const set = operand as ScalarSet;
  const list = renderList(set.values);
  if (kind === IN) {
    return Array.isArray(v) ? { path, reason: `expected an element among ${list}, got ${got}` } : { path, reason: `expected one of ${list}, got ${got}` };
  }
  // NOT_IN
  if (Array.isArray(v)) {
    const i = set.firstIn(v);
    return { path: appendIndex(path, i), reason: `expected none of ${list}, got ${renderValue(v[i])}` };
  }
  return { path, reason: `expected none of ${list}, got ${got}` };
}

// ---------------------------------------------------------------------------------------------

const PASSED: MatchExplanation = Object.freeze({ passed: true }) as MatchExplanation;

const MATCH_EVERYTHING: CompiledFilter = Object.freeze({
  matchesEverything: true,
  paths: null,
  matches: () => true,
  matchesResolved: () => true,
  explain: () => PASSED,
});

class LeafFilter implements CompiledFilter {
  readonly matchesEverything = false;
  private readonly n: number;

  constructor(
    readonly paths: PathTable,
    private readonly slots: Int32Array,
    private readonly kinds: Uint8Array,
    private readonly operands: unknown[],
  ) {
    this.n = slots.length;
  }

  matchesResolved(values: ResolvedPayload): boolean {
    const { slots, kinds, operands, n } = this;
    for (let i = 0; i < n; i++) {
      const v = values[slots[i]!];
      if (v === UNREACHABLE || !testLeaf(kinds[i]!, operands[i], v)) return false;
    }
    return true;
  }

  matches(payload: unknown): boolean {
    // A non-object payload makes every path unreachable, so every (non-empty) filter fails.
    return isObjectValue(payload) && this.matchesResolved(this.paths.resolveScratch(payload));
  }

  explain(payload: unknown): MatchExplanation {
    if (!isObjectValue(payload)) {
      return { passed: false, path: '$', reason: `payload is not an object (got ${typeWord(payload)})` };
    }
    const values = this.paths.resolve(payload);
    for (let i = 0; i < this.n; i++) {
      const slot = this.slots[i]!;
      const v = values[slot];
      const kind = this.kinds[i]!;
      const operand = this.operands[i];
      if (v !== UNREACHABLE && testLeaf(kind, operand, v)) continue;
      const failure = v === UNREACHABLE ? this.unreachable(slot, values) : leafReason(kind, operand, v, this.paths.pathOf(slot));
      return { passed: false, ...failure };
    }
    return PASSED;
  }

  /** The outermost ancestor of `slot` that is missing or not an object explains an unreachable leaf. */
  private unreachable(slot: number, values: ResolvedPayload): { path: string; reason: string } {
    const chain: number[] = [];
    for (let s = this.paths.parentOf(slot); s >= 0; s = this.paths.parentOf(s)) chain.unshift(s);
    for (const s of chain) {
      const v = values[s];
      const path = this.paths.pathOf(s);
      if (v === MISSING) return { path, reason: MISSING_REASON };
      if (!isObjectValue(v)) {
        const got = v === null || Array.isArray(v) ? typeWord(v) : `${typeWord(v)} ${renderValue(v)}`;
        const hint = Array.isArray(v) ? ' (nested filters do not look inside arrays)' : '';
        return { path, reason: `expected an object for the nested filter, got ${got}${hint}` };
      }
    }
    return { path: '$', reason: 'payload is not an object' }; // unreachable with an object payload
  }
}

/**
 * Validates and compiles a payload filter. null, undefined and `{}` compile to a filter that matches
 * every payload. Throws PayloadFilterError (with all issues) when the filter is invalid.
 */
export function compilePayloadFilter(filter: unknown, options: CompileOptions = {}): CompiledFilter {
  const issues = validatePayloadFilter(filter);
  if (issues.length > 0) throw new PayloadFilterError(issues);
  if (filter === null || filter === undefined) return MATCH_EVERYTHING;
  const root = filter as Record<string, unknown>;
  if (Object.keys(root).length === 0) return MATCH_EVERYTHING;

  const paths = options.paths ?? new PathTable();
  const slots: number[] = [];
  const kinds: Kind[] = [];
  const operands: unknown[] = [];
  const leaf = (slot: number, kind: Kind, operand: unknown): void => {
    slots.push(slot);
    kinds.push(kind);
    operands.push(operand);
  };

  const flatten = (obj: Record<string, unknown>, parent: number): void => {
    for (const key of Object.keys(obj)) {
      const slot = paths.intern(parent, key);
      const value = obj[key];
      switch (classifyFilterValue(value)) {
        case 'scalar':
          leaf(slot, EQ, value);
          break;
        case 'list':
          leaf(slot, IN, new ScalarSet(value as JsonScalar[]));
          break;
        case 'operators': {
          const ops = value as Record<string, unknown>;
          if (typeof ops.exists === 'boolean') leaf(slot, EXISTS, ops.exists);
          if (Array.isArray(ops.in)) leaf(slot, IN, new ScalarSet(ops.in as JsonScalar[]));
          if (Array.isArray(ops.not_in)) leaf(slot, NOT_IN, new ScalarSet(ops.not_in as JsonScalar[]));
          break;
        }
        case 'nested':
          flatten(value as Record<string, unknown>, slot);
          break;
        default:
          // Unreachable after validation.
          throw new PayloadFilterError([{ path: paths.pathOf(slot), message: 'invalid filter value' }]);
      }
    }
  };
  flatten(root, -1);

  return new LeafFilter(paths, Int32Array.from(slots), Uint8Array.from(kinds), operands);
}
